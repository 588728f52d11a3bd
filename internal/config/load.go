package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// ImplicitPath is the file mm reads when no -config option names one, if it
// exists in the current directory.
const ImplicitPath = "agent.yaml"

// NoFile is the <path> of an error found while mm runs on its built-in
// defaults (no file at all), for instance a bad AGENT_YOLO.
const NoFile = "(built-in defaults)"

// Error is a configuration error. mm prints it and exits with code 1.
type Error struct {
	// Path is the configuration file as given on the command line,
	// "agent.yaml" when it was picked up implicitly, NoFile without a file.
	Path string
	// Line is the 1-based line of the offending value, 0 when the message is
	// about the resulting configuration rather than one place in the file
	// (the reference's validation messages carry no line).
	Line int
	// Msg is the message, without path or line.
	Msg string
	// Warnings are the file's warnings found before the error (unknown
	// keys): mm prints them first.
	Warnings []string
}

// Error gives `[config error: <path>: <message>]`, with `line N: ` before
// the message when the line is known.
func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("[config error: %s: line %d: %s]", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("[config error: %s: %s]", e.Path, e.Msg)
}

// Load reads the configuration: the built-in defaults, the user's file
// (UserPath), then path over them — or, when path is "", ./agent.yaml, a
// project configuration whose gated keys apply only when the user trusts
// it (trust.go) — then the environment overrides. getenv reads those and
// the variables that place the user's files (nil means os.Getenv); tests
// pass their own. It never asks: the facades that can ask use Read and
// Resolve.
//
// The files must be regular files (a link to one is fine) of at most
// MaxFileSize bytes (CheckFile). Every failure is an *Error.
func Load(path string, getenv func(string) string) (*Config, error) {
	l, err := Read(Options{Path: path, Getenv: getenv})
	if err != nil {
		return nil, err
	}
	return l.Resolve(l.Project == nil || l.Project.Trusted, false)
}

// UserPath is the user-level file: $XDG_CONFIG_HOME/mm/agent.yaml, else
// ~/.config/mm/agent.yaml ($HOME), "" when neither variable gives an
// absolute directory (the XDG rule: a relative one is ignored).
func UserPath(getenv func(string) string) string {
	if dir := getenv("XDG_CONFIG_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "mm", ImplicitPath)
	}
	for _, v := range homeVars {
		if home := getenv(v); filepath.IsAbs(home) {
			return filepath.Join(home, ".config", "mm", ImplicitPath)
		}
	}
	return ""
}

// readFailure words a read error without repeating the path, which the
// error's prefix already gives.
func readFailure(err error) string {
	if errors.Is(err, fs.ErrNotExist) {
		return "cannot read the file: it does not exist"
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return "cannot read the file: " + pe.Err.Error()
	}
	return "cannot read the file: " + err.Error()
}

// withWarnings keeps the warnings found before the error with it: an
// unknown key ("comand") often explains the error that follows ("command
// must not be empty").
func withWarnings(err error, warnings []string) error {
	var ce *Error
	if errors.As(err, &ce) && len(warnings) > 0 {
		ce.Warnings = append([]string(nil), warnings...)
	}
	return err
}

// syntaxLine splits yaml.v3's "yaml: line 3: message".
var syntaxLine = regexp.MustCompile(`(?s)^yaml: line (\d+): (.*)$`)

// parseYAML parses the first document of data into a node tree. It returns
// nil for a document with no content (an empty file, only comments, or a
// bare null): that file is the defaults.
func parseYAML(data []byte, path string) (root *yaml.Node, err error) {
	// yaml.v3 has panicked on crafted input in the past; a configuration
	// file must never crash mm, so a panic becomes an ordinary error.
	defer func() {
		if r := recover(); r != nil {
			root, err = nil, &Error{Path: path, Msg: "the file is not valid YAML"}
		}
	}()
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		msg := err.Error()
		if m := syntaxLine.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, &Error{Path: path, Line: line, Msg: m[2]}
		}
		return nil, &Error{Path: path, Msg: strings.TrimPrefix(msg, "yaml: ")}
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) == 0 {
		return nil, nil
	}
	n := resolve(doc.Content[0])
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.MappingNode {
		return nil, &Error{Path: path, Line: n.Line,
			Msg: "the file must be a mapping of keys to values, like maxTurns: 40, got " + describe(n)}
	}
	return n, nil
}

// finish applies what comes after the files: the environment overrides
// and -m, then the validation of the result. nodes are the values the
// files gave, by key path, with the file each came from (empty without a
// file); path is the file named when no node holds the key at fault.
// expand false leaves the MCP servers' ${VAR} as they are (a check only).
func finish(cfg *Config, path string, nodes map[string]srcNode, opts Options, expand bool) (*Config, error) {
	getenv := opts.Getenv
	fail := func(msg string) (*Config, error) { return nil, &Error{Path: path, Msg: msg} }
	// fromEnv names the variable that set a key, for the errors.
	fromEnv := map[string]envValue{}

	if v := getenv("AGENT_PROVIDER"); v != "" {
		cfg.Provider, fromEnv["provider"] = v, envValue{"AGENT_PROVIDER", v}
	}
	if v := getenv("AGENT_MODEL"); v != "" {
		cfg.Model, fromEnv["model"] = v, envValue{"AGENT_MODEL", v}
		cfg.ModelSet = true
	}
	if opts.Model != "" {
		cfg.Model, fromEnv["model"] = opts.Model, envValue{"-m", opts.Model}
		cfg.ModelSet = true
	}
	if opts.Sandbox != "" {
		// The caller checked the word (a usage error, not the file's).
		cfg.Sandbox.Mode = opts.Sandbox
	}
	if opts.TUI {
		cfg.TUI, cfg.TUIFlag = true, !cfg.TUI // the files' tui: true opens it again without the flag
	}
	if v := getenv("AGENT_BASE_URL"); v != "" {
		cfg.BaseURL, fromEnv["baseUrl"] = v, envValue{"AGENT_BASE_URL", v}
	}
	// The reference accepts ParseBool's words in any case ("TRUE", "tRuE").
	if v := getenv("AGENT_YOLO"); v != "" {
		b, err := strconv.ParseBool(strings.ToLower(v))
		if err != nil {
			return fail("AGENT_YOLO=" + strconv.Quote(v) + ": must be true or false")
		}
		cfg.Yolo = b
	}
	if v := getenv("AGENT_TRACE"); v != "" {
		b, err := strconv.ParseBool(strings.ToLower(v))
		if err != nil {
			return fail("AGENT_TRACE=" + strconv.Quote(v) + ": must be true or false")
		}
		cfg.Trace.Enabled = b
	}

	if p := cfg.validate(); p != nil {
		return nil, placed(path, p, nodes, fromEnv)
	}
	if !expand {
		return cfg, nil
	}
	if p := expandMCP(&cfg.MCP, getenv); p != nil {
		return nil, placed(path, p, nodes, fromEnv)
	}
	return cfg, nil
}

// placed is the error for p: with the line of the value in the file, and
// the value itself after the reference's message — or, when an AGENT_*
// variable set it, the variable's name and no line. A value the file
// does not hold (a required key left out) gets the line of the mapping
// that lacks it.
func placed(path string, p *problem, nodes map[string]srcNode, fromEnv map[string]envValue) *Error {
	e := &Error{Path: path, Msg: p.msg}
	if env, ok := fromEnv[p.key]; ok {
		if p.got {
			shown := p.shown
			if shown == "" {
				shown = strconv.Quote(env.value)
			}
			e.Msg += " (got " + shown + " from " + env.name + ")"
		}
		return e
	}
	src, exact := nodes[p.key]
	for key := p.key; src.n == nil && key != ""; {
		key = parentKey(key)
		src = nodes[key]
	}
	n := src.n
	if n == nil {
		return e
	}
	// The key's line is in the file that set it.
	e.Path, e.Line = src.file, n.Line
	if p.got && exact {
		shown := p.shown
		switch {
		case shown != "" || (n.Kind == yaml.ScalarNode && n.Value == ""):
		case p.raw && n.Kind == yaml.ScalarNode:
			shown = strings.TrimSpace(n.Value)
		default:
			shown = describe(n)
		}
		if shown != "" {
			e.Msg += " (got " + shown + ")"
		}
	}
	return e
}

// envValue is an AGENT_* variable that set a key.
type envValue struct{ name, value string }

// parentKey drops the last part of a key path: "lsp.servers[0].name" →
// "lsp.servers[0]" → "lsp.servers" → "lsp" → "".
func parentKey(key string) string {
	if i := strings.LastIndexAny(key, ".["); i >= 0 {
		return key[:i]
	}
	return ""
}

// CompressionWarning is the start-up warning for automatic compression that
// can never trigger: enabled, the context window unknown, and the message
// count disabled. Only the engine knows whether the server told the window,
// so it calls this once it has asked. "" means no warning.
func (c *Config) CompressionWarning(windowKnown bool) string {
	if !c.Context.Enabled || windowKnown || c.Context.MaxMessages != 0 {
		return ""
	}
	return "[warning: context.enabled is true, the window is unknown and context.maxMessages is 0 — the history will never be compressed automatically; set contextWindow or context.maxMessages]"
}
