package config

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Options say where the configuration comes from, for Read.
type Options struct {
	// Path is -c PATH: it takes the project layer's place and is always
	// applied (the user named it). "" means ./agent.yaml when it exists,
	// a project configuration, applied whole only once trusted.
	Path string
	// Getenv reads the environment overrides and the variables that place
	// the user's files (nil means os.Getenv).
	Getenv func(string) string
	// Model is -m NAME ("" = none): above the environment.
	Model string
	// Sandbox is -sandbox MODE ("" = none), a mode ValidSandboxMode
	// accepts: above every layer.
	Sandbox string
	// TUI is -tui: tui true above every layer.
	TUI bool
	// Dir is where ./agent.yaml is looked for ("" = the current
	// directory): `mm trust DIR`.
	Dir string
}

// askDepthVar is ask.DepthVar (that package imports this one): set in
// the children of ask_agent and mm --ask only.
const askDepthVar = "MM_ASK_DEPTH"

// Layer kinds, in the order they apply.
const (
	layerUser     = "user file"
	layerProject  = "project file"
	layerExplicit = "config file"
)

// layer is one file read: where it is, what it set.
type layer struct {
	kind  string
	path  string // as shown in the messages
	dir   string // absolute directory
	data  []byte
	nodes map[string]*yaml.Node
}

// sets reports whether the layer gives key a value, itself or below it
// ("mcp" is set when "mcp.servers[0].name" is).
func (l *layer) sets(key string) bool {
	if l == nil {
		return false
	}
	if _, ok := l.nodes[key]; ok {
		return true
	}
	for k := range l.nodes {
		if strings.HasPrefix(k, key+".") || strings.HasPrefix(k, key+"[") {
			return true
		}
	}
	return false
}

// Layers is the configuration read but not yet resolved: the built-in
// defaults with the user's file over them (base), and the project's (or
// -c's) file over that (full). Resolve makes the Config, with the
// project's gated keys or without them.
type Layers struct {
	opts   Options
	user   *layer // nil without a user file
	top    *layer // the project file or -c's; nil without one
	base   *Config
	full   *Config
	warned []string // the decoders' warnings, in file order

	// Project is the project configuration mm found by itself (nil with -c
	// or without ./agent.yaml): whether it is trusted, and what it would
	// do that needs trust.
	Project *Project
}

// Read reads the user's file and the project's (or -c's) over the built-in
// defaults. Every failure is an *Error naming the file it came from. Without
// any file, nothing but the defaults is built: no state is read.
func Read(opts Options) (*Layers, error) {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	l := &Layers{opts: opts}
	cfg := Default()
	userPath := UserPath(opts.Getenv)
	projectPath, kind := opts.Path, layerExplicit
	if projectPath == "" {
		projectPath, kind = ImplicitPath, layerProject
		if opts.Dir != "" {
			projectPath = filepath.Join(opts.Dir, ImplicitPath)
		}
		if _, err := os.Lstat(projectPath); errors.Is(err, fs.ErrNotExist) {
			projectPath = ""
		} else if userPath != "" && sameFile(projectPath, userPath) {
			// mm started in the user's own configuration directory: that
			// agent.yaml is the user's file, read once.
			projectPath = ""
		}
	}
	if opts.Path != "" && opts.Getenv(askDepthVar) != "" {
		// An agent asked by another (ask_agent, mm --ask) reads its own
		// file only, as docs/ask.md says: the user's mmConfigs, servers
		// and prompt are the asking agent's, not its.
		userPath = ""
	}
	if userPath != "" {
		u, err := readLayer(cfg, userPath, layerUser, false)
		if err != nil {
			return nil, err
		}
		if u != nil {
			l.user = u
			l.warned = append(l.warned, cfg.Warnings...)
			cfg.Warnings = nil
		}
	}
	l.base = cfg.clone()
	if projectPath != "" {
		t, err := readLayer(cfg, projectPath, kind, true)
		if err != nil {
			return nil, err
		}
		l.top = t
		l.warned = append(l.warned, cfg.Warnings...)
		cfg.Warnings = nil
	}
	l.full = cfg
	// What the project's keys would do reads the environment the layers
	// were read with (an API key variable that is not set sends nothing).
	cfg.layers = l
	if l.top != nil && l.top.kind == layerProject {
		l.Project = newProject(l)
	}
	return l, nil
}

// readLayer decodes the file at path over cfg. A missing file is no layer
// (nil, nil) unless must says it has to exist.
func readLayer(cfg *Config, path, kind string, must bool) (*layer, error) {
	data, err := readFile(path)
	switch {
	case err == nil:
	case errors.Is(err, fs.ErrNotExist) && !must:
		return nil, nil
	default:
		return nil, &Error{Path: path, Msg: readFailure(err)}
	}
	l := &layer{kind: kind, path: path, data: data}
	if abs, err := filepath.Abs(filepath.Dir(path)); err == nil {
		l.dir = abs
	} else {
		l.dir = filepath.Dir(path)
	}
	root, err := parseYAML(data, path)
	if err != nil {
		return nil, err
	}
	d := &decoder{file: path, dir: l.dir, cfg: cfg, budget: nodeBudget}
	if root != nil {
		if err := d.top(root); err != nil {
			return nil, withWarnings(err, append(cfg.Warnings, d.warnings...))
		}
	}
	cfg.Warnings = append(cfg.Warnings, d.warnings...)
	if !d.permissionsSet {
		delete(d.nodes, "permissions")
	}
	l.nodes = d.nodes
	if err := deprecatedPermissions(cfg, path, d.nodes); err != nil {
		return nil, withWarnings(err, cfg.Warnings)
	}
	return l, nil
}

// deprecatedPermissions applies the deprecated permissions key of one file
// (nodes holds "permissions" when that file gives it a value): ask wins
// over yolo: true in the same file, as the reference says; a later file's
// yolo, and AGENT_YOLO, still win over it.
func deprecatedPermissions(cfg *Config, path string, nodes map[string]*yaml.Node) error {
	n, ok := nodes["permissions"]
	if !ok {
		return nil
	}
	switch cfg.Permissions {
	case "ask":
		cfg.Yolo = false
		cfg.Warnings = append(cfg.Warnings, "[warning: permissions: ask is deprecated — use yolo: false instead (mm reads it as yolo: false until then)]")
	case "auto":
		cfg.Warnings = append(cfg.Warnings, "[warning: permissions: auto is deprecated — remove it; it changes nothing, yolo decides (true unless set)]")
	default:
		return placed(path, &problem{key: "permissions", msg: `permissions must be "auto" or "ask"`, got: n.Value != ""}, map[string]srcNode{"permissions": {path, n}}, nil)
	}
	return nil
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// Resolve makes the configuration: the project's gated keys applied when
// apply is true (trusted, or trusted this once), else left out, with the
// stricter-only keys kept no looser than the user's layers; then the
// environment and the flags, then the validation. A -c file is always
// applied whole. warn adds, when keys are left out, the start-up warning
// that names them and `mm trust` (for the modes that cannot ask).
func (l *Layers) Resolve(apply, warn bool) (*Config, error) {
	cfg := l.full.clone()
	var skipped []string
	if p := l.Project; p != nil && !apply {
		skipped = p.withhold(cfg, l.base)
	}
	cfg.Warnings = append(slices.Clone(l.warned), cfg.Warnings...)
	if warn && len(skipped) > 0 {
		cfg.Warnings = append(cfg.Warnings, l.Project.Warning(skipped))
	}
	if l.top != nil {
		cfg.Path, cfg.Dir = l.top.path, l.top.dir
	} else if l.user != nil {
		cfg.Path, cfg.Dir = l.user.path, l.user.dir
	}
	cfg.layers = l
	cfg.skipped = skipped
	if len(skipped) > 0 {
		// The file's gated keys are checked all the same: a broken file is
		// an error, trusted or not, and says so on its line. Its servers'
		// ${VAR} are not expanded: nothing of the environment goes into
		// what is not applied.
		if _, err := finish(l.full.clone(), l.shown(), l.nodesFor(true), l.opts, false); err != nil {
			return nil, withWarnings(err, cfg.Warnings)
		}
	}
	out, err := finish(cfg, l.shown(), l.nodesFor(len(skipped) == 0), l.opts, true)
	if err != nil {
		return nil, withWarnings(err, cfg.Warnings)
	}
	out.ModelSet = out.ModelSet || l.user.sets("model") || l.top.sets("model")
	out.SkillsDirSet = l.user.sets("skillsDir") || (l.top.sets("skillsDir") && !slices.Contains(skipped, "skillsDir"))
	return out, nil
}

// shown is the path the errors name when no file holds the key at fault:
// the last file read, else the built-in defaults.
func (l *Layers) shown() string {
	switch {
	case l.top != nil:
		return l.top.path
	case l.user != nil:
		return l.user.path
	}
	return NoFile
}

// srcNode is a value and the file it came from.
type srcNode struct {
	file string
	n    *yaml.Node
}

// nodesFor merges the files' value nodes, by key path, the later file
// winning; a list the later file sets replaces the earlier file's entries
// whole. withTop false leaves the project file's out (its keys still
// apply, but a problem on the user's value must name the user's file).
func (l *Layers) nodesFor(withTop bool) map[string]srcNode {
	out := map[string]srcNode{}
	add := func(ly *layer) {
		if ly == nil {
			return
		}
		for _, list := range []string{"mcp.servers", "lsp.servers"} {
			if ly.sets(list) {
				for k := range out {
					if strings.HasPrefix(k, list+"[") {
						delete(out, k)
					}
				}
			}
		}
		for k, n := range ly.nodes {
			out[k] = srcNode{ly.path, n}
		}
	}
	add(l.user)
	if withTop {
		add(l.top)
	}
	return out
}

// clone is a copy of c that shares no map or slice that mm changes.
func (c *Config) clone() *Config {
	out := *c
	out.Sampling = maps.Clone(c.Sampling)
	out.Fallback = nil
	if c.Fallback != nil {
		f := *c.Fallback
		out.Fallback = &f
	}
	out.LSP.Servers = slices.Clone(c.LSP.Servers)
	out.MCP.Permissions = maps.Clone(c.MCP.Permissions)
	out.MCP.Servers = slices.Clone(c.MCP.Servers)
	for i := range out.MCP.Servers {
		s := &out.MCP.Servers[i]
		s.Env, s.Headers = maps.Clone(s.Env), maps.Clone(s.Headers)
	}
	out.MMConfigs = maps.Clone(c.MMConfigs)
	out.Hooks = c.Hooks.clone()
	out.Warnings = slices.Clone(c.Warnings)
	return &out
}

// origin names where key's effective value comes from, for /config.
func (c *Config) origin(key string) string {
	l := c.layers
	if l == nil {
		return "built-in"
	}
	env := map[string]string{"provider": "AGENT_PROVIDER", "model": "AGENT_MODEL", "baseUrl": "AGENT_BASE_URL", "yolo": "AGENT_YOLO", "trace.enabled": "AGENT_TRACE"}
	if key == "model" && l.opts.Model != "" {
		return "flag -m"
	}
	if key == "model" && c.ModelServed {
		return "the server's only model"
	}
	if key == "sandbox.mode" && l.opts.Sandbox != "" {
		return "flag -sandbox"
	}
	if key == "tui" && l.opts.TUI {
		return "flag -tui"
	}
	if v, ok := env[key]; ok && l.opts.Getenv(v) != "" {
		return "env " + v
	}
	from := "built-in"
	if l.user.sets(key) {
		from = l.user.kind + " " + l.user.path
	}
	if l.top.sets(key) {
		if c.isSkipped(key) {
			return from + " (the project file's value is not applied: not trusted)"
		}
		from = l.top.kind + " " + l.top.path
	}
	return from
}

// isSkipped reports whether the project file's value for key was left out.
func (c *Config) isSkipped(key string) bool {
	for _, s := range c.skipped {
		if s == key || strings.HasPrefix(key, s+".") || strings.HasPrefix(s, key+".") {
			return true
		}
	}
	return false
}

// InUse says which configuration files mm runs with, for the banner: the
// user's file, then the project's with whether it is trusted.
func (c *Config) InUse() string {
	l := c.layers
	if l == nil {
		return c.Path
	}
	var parts []string
	if l.user != nil {
		parts = append(parts, l.user.path)
	}
	if l.top != nil {
		s := l.top.path
		if p := l.Project; p != nil {
			switch {
			case p.Trusted:
				s += " (trusted)"
			case len(c.skipped) > 0:
				s += " (not trusted: " + strings.Join(c.skipped, ", ") + " not applied)"
			case len(p.Gated) > 0:
				s += " (trusted this time)"
			default:
				s += " (not trusted; nothing it sets needs trust)"
			}
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, " + ")
}

// Setting is one key of /config: its effective value and where it came
// from.
type Setting struct{ Key, Value, From string }

// Settings lists every key with its effective value and its origin
// (built-in, user file PATH, project file PATH, config file PATH for -c,
// env VAR, flag -m, flag -sandbox). A list shows its entries' names only, and secrets
// (header values, env values) are never shown. Each value is one line
// (ShownLine).
func (c *Config) Settings() []Setting {
	var out []Setting
	add := func(key, value string) {
		out = append(out, Setting{key, value, c.origin(key)})
	}
	q := func(s string) string {
		if r := []rune(s); len(r) > 60 {
			s = string(r[:60]) + "…"
		}
		return fmt.Sprintf("%q", s)
	}
	b := func(v bool) string { return fmt.Sprint(v) }
	add("provider", c.Provider)
	add("model", c.Model)
	add("baseUrl", shownURL(c.BaseURL))
	if c.Fallback == nil {
		add("fallback", "(the provider's)")
	} else {
		add("fallback", shownURL(*c.Fallback))
	}
	add("apiKeyEnv", c.APIKeyEnv)
	add("contextWindow", fmt.Sprint(c.ContextWindow))
	add("maxOutput", fmt.Sprint(c.MaxOutput))
	add("maxTurns", fmt.Sprint(c.MaxTurns))
	add("previewLines", fmt.Sprint(c.PreviewLines))
	add("displayCommands", b(c.DisplayCommands))
	add("showThinking", b(c.ShowThinking))
	add("system", q(c.System))
	add("skillsDir", c.SkillsDir)
	add("bashTool", b(c.BashTool))
	add("editTools", b(c.EditTools))
	add("fetchContentTool", b(c.FetchContentTool))
	add("askUserTool", b(c.AskUserTool))
	add("planTool", b(c.PlanTool))
	for _, k := range slices.Sorted(maps.Keys(c.Sampling)) {
		add("sampling."+k, fmt.Sprint(c.Sampling[k]))
	}
	add("watchdogTimeout", c.WatchdogTimeout.String())
	add("firstTokenTimeout", c.FirstTokenTimeout.String())
	add("bashTimeout", c.BashTimeout.String())
	add("context.enabled", b(c.Context.Enabled))
	add("context.threshold", fmt.Sprint(c.Context.Threshold))
	add("context.maxMessages", fmt.Sprint(c.Context.MaxMessages))
	add("context.keepLastTurns", fmt.Sprint(c.Context.KeepLastTurns))
	add("context.summaryMaxTokens", fmt.Sprint(c.Context.SummaryMaxTokens))
	add("context.prompt", q(c.Context.Prompt))
	add("context.showStats", b(c.Context.ShowStats))
	add("sessions.enabled", b(c.Sessions.Enabled))
	add("sessions.dir", c.Sessions.Dir)
	add("trace.enabled", b(c.Trace.Enabled))
	add("trace.dir", c.Trace.Dir)
	add("sandbox.mode", c.Sandbox.Mode)
	add("sandbox.network", b(c.Sandbox.Network))
	if c.Sandbox.Writable == nil {
		add("sandbox.writable", "(the build caches)")
	} else {
		add("sandbox.writable", listOf(c.Sandbox.Writable))
	}
	add("sandbox.required", b(c.Sandbox.Required))
	add("fetchAllowLinkLocal", b(c.FetchAllowLinkLocal))
	add("acp.name", c.ACP.Name)
	add("acp.title", c.ACP.Title)
	var names []string
	for _, s := range c.LSP.Servers {
		names = append(names, s.Name)
	}
	add("lsp.servers", listOf(names))
	names = nil
	for _, s := range c.MCP.Servers {
		names = append(names, s.Name)
	}
	add("mcp.servers", listOf(names))
	var perms []string
	for _, k := range sortedKeys(c.MCP.Permissions) {
		perms = append(perms, k+": "+c.MCP.Permissions[k])
	}
	add("mcp.permissions", listOf(perms))
	add("mcp.timeout", c.MCP.Timeout.String())
	add("mcp.promptBudget", fmt.Sprint(c.MCP.PromptBudget))
	add("tui", b(c.TUI))
	add("yolo", b(c.Yolo))
	add("mmConfigs", listOf(slices.Sorted(maps.Keys(c.MMConfigs))))
	var hooks []string
	for _, ev := range HookEvents {
		if n := len(c.Hooks.List(ev)); n > 0 {
			hooks = append(hooks, fmt.Sprintf("%s: %d", ev, n))
		}
	}
	add("hooks", listOf(hooks))
	add("projectInstructions", b(c.ProjectInstructions))
	add("toolCallRetry", b(c.ToolCallRetry))
	for i := range out {
		if out[i].Value == "" {
			out[i].Value = `""`
		}
		// A value may come from the project's file: a newline in it
		// would add a line of its own making to /config.
		out[i].Value = ShownLine(out[i].Value)
	}
	return out
}

func listOf(items []string) string {
	if len(items) == 0 {
		return "(none)"
	}
	return strings.Join(items, ", ")
}

// shownURL is a URL as /config and the trust question show it: its
// password and query values masked, and in ASCII — a host in another
// script can look like localhost (a Cyrillic о) and be a domain of
// anyone's, so its other characters are shown escaped (\u043e).
func shownURL(v string) string {
	if v == "" {
		return ""
	}
	v = maskUnparsedURL(v)
	for _, r := range v {
		if r >= utf8.RuneSelf {
			q := strconv.QuoteToASCII(v)
			return q[1 : len(q)-1]
		}
	}
	return v
}
