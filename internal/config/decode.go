package config

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// nodeBudget bounds the nodes the decoder visits. Aliases and merge keys
// let a small file name the same subtree many times over (the "billion
// laughs"); past this budget the file is refused instead of eating memory.
const nodeBudget = 1000000

// decoder walks the YAML node tree over a Config, so that each wrong value
// is reported with its line and its key path, in mm's own words, instead of
// a raw decoder message.
type decoder struct {
	file string // the path shown in errors
	dir  string // absolute directory of the file: mmConfigs paths are relative to it
	cfg  *Config

	warnings []string
	// permissionsSet is true when the file gives the deprecated key a value,
	// even an empty one (which is an error, unlike an absent key).
	permissionsSet bool
	budget         int
	// nodes are the value nodes read, by key path ("maxTurns",
	// "lsp.servers[0]"), so that a check made on the final configuration
	// can still name the line and the value it found wrong.
	nodes map[string]*yaml.Node
}

// read records n as the value of the key path.
func (d *decoder) read(path string, n *yaml.Node) {
	if d.nodes == nil {
		d.nodes = map[string]*yaml.Node{}
	}
	d.nodes[path] = n
}

// pair is one key and its value in a mapping.
type pair struct{ key, val *yaml.Node }

func (d *decoder) errAt(n *yaml.Node, format string, args ...any) *Error {
	return &Error{Path: d.file, Line: n.Line, Msg: fmt.Sprintf(format, args...)}
}

// resolve follows aliases (*name) to the node they stand for.
func resolve(n *yaml.Node) *yaml.Node {
	for i := 0; n != nil && n.Kind == yaml.AliasNode && n.Alias != nil && i < 64; i++ {
		n = n.Alias
	}
	return n
}

// isNull is a value written as nothing, ~ or null. mm reads it as an absent
// key: the default stays.
func isNull(n *yaml.Node) bool {
	return n == nil || n.Kind == 0 || (n.Kind == yaml.ScalarNode && n.ShortTag() == "!!null")
}

// describe shows a wrong value in a message: strings quoted (and cut when
// long, a whole prompt helps nobody), other scalars as written, containers
// by their kind.
func describe(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a mapping"
	case yaml.SequenceNode:
		return "a list"
	case yaml.ScalarNode:
		v := n.Value
		if utf8.RuneCountInString(v) > 40 {
			v = string([]rune(v)[:40]) + "…"
		}
		if n.ShortTag() == "!!null" {
			return "null"
		}
		if n.ShortTag() == "!!str" || strings.ContainsAny(v, "\n\t") {
			return strconv.Quote(v)
		}
		return v
	}
	return "nothing"
}

// join builds a key path: "context" + "threshold" = "context.threshold".
func join(where, key string) string {
	if where == "" {
		return key
	}
	return where + "." + key
}

// spend takes count nodes from the budget.
func (d *decoder) spend(n *yaml.Node, count int) error {
	d.budget -= count
	if d.budget < 0 {
		return d.errAt(n, "the file is too large once its aliases (*name) and merges (<<) are expanded")
	}
	return nil
}

// pairs lists the entries of mapping n, merge keys (<<: *base) expanded
// with the explicit keys winning, as YAML defines them. A key written twice
// is an error: which one was meant cannot be guessed.
func (d *decoder) pairs(n *yaml.Node, where string, depth int) ([]pair, error) {
	if err := d.spend(n, 1+len(n.Content)/2); err != nil {
		return nil, err
	}
	if depth > 16 {
		return nil, d.errAt(n, "%s: merges (<<) nest too deeply", orFile(where))
	}
	var explicit, merged []pair
	seen := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			// A mapping or a list used as a key names nothing mm knows.
			continue
		}
		if k.ShortTag() == "!!merge" {
			m, err := d.mergeSources(v, where, depth)
			if err != nil {
				return nil, err
			}
			merged = append(merged, m...)
			continue
		}
		if first, dup := seen[k.Value]; dup {
			return nil, d.errAt(k, "%s is set twice (first on line %d)", join(where, k.Value), first)
		}
		seen[k.Value] = k.Line
		explicit = append(explicit, pair{k, v})
	}
	out := explicit
	for _, p := range merged {
		if _, ok := seen[p.key.Value]; ok {
			continue
		}
		seen[p.key.Value] = p.key.Line
		out = append(out, p)
	}
	return out, nil
}

// mergeSources expands the value of a << key: a mapping or a list of them.
func (d *decoder) mergeSources(v *yaml.Node, where string, depth int) ([]pair, error) {
	v = resolve(v)
	switch v.Kind {
	case yaml.MappingNode:
		return d.pairs(v, where, depth+1)
	case yaml.SequenceNode:
		var out []pair
		for _, item := range v.Content {
			item = resolve(item)
			if item.Kind != yaml.MappingNode {
				return nil, d.errAt(item, "%s: << must merge a mapping, got %s", orFile(where), describe(item))
			}
			m, err := d.pairs(item, where, depth+1)
			if err != nil {
				return nil, err
			}
			out = append(out, m...)
		}
		return out, nil
	}
	return nil, d.errAt(v, "%s: << must merge a mapping, got %s", orFile(where), describe(v))
}

func orFile(where string) string {
	if where == "" {
		return "the file"
	}
	return where
}

// mapping checks that n is a mapping and lists its entries.
func (d *decoder) mapping(n *yaml.Node, key, what string) ([]pair, error) {
	if n.Kind != yaml.MappingNode {
		return nil, d.errAt(n, "%s must be a mapping%s, got %s", key, what, describe(n))
	}
	return d.pairs(n, key, 0)
}

// str reads any scalar as text: `model: 1.10` is the model "1.10".
func (d *decoder) str(n *yaml.Node, key string) (string, error) {
	d.read(key, n)
	if n.Kind != yaml.ScalarNode || isNull(n) {
		return "", d.errAt(n, "%s must be a string, got %s", key, describe(n))
	}
	return n.Value, nil
}

// integer reads a whole number; 40.0 is accepted, 40.5 is not.
func (d *decoder) integer(n *yaml.Node, key string) (int, error) {
	d.read(key, n)
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int":
			var v int
			if n.Decode(&v) == nil {
				return v, nil
			}
		case "!!float":
			var f float64
			if n.Decode(&f) == nil && f == math.Trunc(f) && math.Abs(f) <= 1<<53 {
				return int(f), nil
			}
		}
	}
	return 0, d.errAt(n, "%s must be an integer, got %s", key, describe(n))
}

// number reads an integer or a decimal number, as float64.
func (d *decoder) number(n *yaml.Node, key string) (float64, error) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!int", "!!float":
			var f float64
			if n.Decode(&f) == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
				return f, nil
			}
		}
	}
	return 0, d.errAt(n, "%s must be a number, got %s", key, describe(n))
}

// boolean reads true or false. Like yaml.v3 decoding into a bool, the
// YAML 1.1 words (yes, no, on, off) are accepted when written unquoted.
func (d *decoder) boolean(n *yaml.Node, key string) (bool, error) {
	if n.Kind == yaml.ScalarNode {
		switch n.ShortTag() {
		case "!!bool":
			var b bool
			if n.Decode(&b) == nil {
				return b, nil
			}
		case "!!str":
			if n.Style&(yaml.SingleQuotedStyle|yaml.DoubleQuotedStyle|yaml.LiteralStyle|yaml.FoldedStyle) == 0 {
				switch n.Value {
				case "y", "Y", "yes", "Yes", "YES", "on", "On", "ON":
					return true, nil
				case "n", "N", "no", "No", "NO", "off", "Off", "OFF":
					return false, nil
				}
			}
		}
	}
	return false, d.errAt(n, "%s must be true or false, got %s", key, describe(n))
}

// duration reads a Go duration: 20s, 3m, 1m30s, 500ms (and 0).
func (d *decoder) duration(n *yaml.Node, key string) (time.Duration, error) {
	d.read(key, n)
	if n.Kind == yaml.ScalarNode && !isNull(n) {
		if v, err := time.ParseDuration(strings.TrimSpace(n.Value)); err == nil {
			return v, nil
		}
	}
	return 0, d.errAt(n, "%s must be a duration like 20s or 3m, got %s", key, describe(n))
}

// stringList reads a list of strings; a lone string is a list of one.
func (d *decoder) stringList(n *yaml.Node, key string) ([]string, error) {
	d.read(key, n)
	if n.Kind == yaml.ScalarNode {
		s, err := d.str(n, key)
		return []string{s}, err
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errAt(n, "%s must be a list of strings, got %s", key, describe(n))
	}
	out := make([]string, 0, len(n.Content))
	for i, item := range n.Content {
		s, err := d.str(resolve(item), fmt.Sprintf("%s[%d]", key, i))
		if err != nil {
			return nil, err
		}
		out = append(out, s)
	}
	return out, nil
}

// top decodes the file's root mapping over d.cfg.
func (d *decoder) top(root *yaml.Node) error {
	ps, err := d.pairs(root, "", 0)
	if err != nil {
		return err
	}
	c := d.cfg
	for _, p := range ps {
		key, v := p.key.Value, resolve(p.val)
		if !d.known(p.key, "", topKeys) {
			continue
		}
		if isNull(v) {
			// An empty value keeps the earlier layer's value (the default:
			// for fallback nil, "use the provider's fallback").
			continue
		}
		// Every key set is recorded, whatever its type: the layers
		// (layers.go) tell from it which file set a key.
		d.read(key, v)
		var err error
		switch key {
		case "provider":
			c.Provider, err = d.str(v, key)
		case "model":
			c.Model, err = d.str(v, key)
		case "baseUrl":
			c.BaseURL, err = d.str(v, key)
		case "fallback":
			var s string
			if s, err = d.str(v, key); err == nil {
				c.Fallback = &s
			}
		case "apiKeyEnv":
			c.APIKeyEnv, err = d.str(v, key)
		case "contextWindow":
			c.ContextWindow, err = d.integer(v, key)
		case "maxOutput":
			c.MaxOutput, err = d.integer(v, key)
		case "maxTurns":
			c.MaxTurns, err = d.integer(v, key)
		case "previewLines":
			c.PreviewLines, err = d.integer(v, key)
		case "displayCommands":
			c.DisplayCommands, err = d.boolean(v, key)
		case "showThinking":
			c.ShowThinking, err = d.boolean(v, key)
		case "system":
			c.System, err = d.str(v, key)
		case "skillsDir":
			c.SkillsDir, err = d.str(v, key)
		case "bashTool":
			c.BashTool, err = d.boolean(v, key)
		case "editTools":
			c.EditTools, err = d.boolean(v, key)
		case "fetchContentTool":
			c.FetchContentTool, err = d.boolean(v, key)
		case "askUserTool":
			c.AskUserTool, err = d.boolean(v, key)
		case "planTool":
			c.PlanTool, err = d.boolean(v, key)
		case "sampling":
			err = d.sampling(v)
		case "watchdogTimeout":
			c.WatchdogTimeout, err = d.duration(v, key)
		case "firstTokenTimeout":
			c.FirstTokenTimeout, err = d.duration(v, key)
		case "bashTimeout":
			c.BashTimeout, err = d.duration(v, key)
		case "context":
			err = d.context(v)
		case "sessions":
			err = d.sessions(v)
		case "trace":
			err = d.trace(v)
		case "acp":
			err = d.acp(v)
		case "lsp":
			err = d.lsp(v)
		case "mcp":
			err = d.mcp(v)
		case "sandbox":
			err = d.sandbox(v)
		case "hooks":
			err = d.hooks(v)
		case "fetchAllowLinkLocal":
			c.FetchAllowLinkLocal, err = d.boolean(v, key)
		case "tui":
			c.TUI, err = d.boolean(v, key)
		case "yolo":
			c.Yolo, err = d.boolean(v, key)
		case "permissions":
			c.Permissions, err = d.str(v, key)
			d.permissionsSet = true
		case "mmConfigs":
			err = d.mmConfigs(v)
		case "projectInstructions":
			c.ProjectInstructions, err = d.boolean(v, key)
		case "toolCallRetry":
			c.ToolCallRetry, err = d.boolean(v, key)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// section walks the entries of one nested mapping, skipping empty values,
// and hands each known key to set; the others get a warning.
func (d *decoder) section(n *yaml.Node, name string, known []string, set func(key, path string, v *yaml.Node) error) error {
	ps, err := d.mapping(n, name, "")
	if err != nil {
		return err
	}
	d.read(name, n)
	for _, p := range ps {
		v := resolve(p.val)
		if !d.known(p.key, name, known) || isNull(v) {
			continue
		}
		d.read(join(name, p.key.Value), v)
		if err := set(p.key.Value, join(name, p.key.Value), v); err != nil {
			return err
		}
	}
	return nil
}

func (d *decoder) context(n *yaml.Node) error {
	c := &d.cfg.Context
	return d.section(n, "context", contextKeys, func(key, path string, v *yaml.Node) (err error) {
		switch key {
		case "enabled":
			c.Enabled, err = d.boolean(v, path)
		case "threshold":
			c.Threshold, err = d.integer(v, path)
		case "maxMessages":
			c.MaxMessages, err = d.integer(v, path)
		case "keepLastTurns":
			c.KeepLastTurns, err = d.integer(v, path)
		case "summaryMaxTokens":
			c.SummaryMaxTokens, err = d.integer(v, path)
		case "prompt":
			c.Prompt, err = d.str(v, path)
		case "showStats":
			c.ShowStats, err = d.boolean(v, path)
		}
		return err
	})
}

func (d *decoder) sessions(n *yaml.Node) error {
	s := &d.cfg.Sessions
	return d.section(n, "sessions", sessionsKeys, func(key, path string, v *yaml.Node) (err error) {
		switch key {
		case "enabled":
			s.Enabled, err = d.boolean(v, path)
		case "dir":
			s.Dir, err = d.str(v, path)
		}
		return err
	})
}

func (d *decoder) trace(n *yaml.Node) error {
	t := &d.cfg.Trace
	return d.section(n, "trace", traceKeys, func(key, path string, v *yaml.Node) (err error) {
		switch key {
		case "enabled":
			t.Enabled, err = d.boolean(v, path)
		case "dir":
			t.Dir, err = d.str(v, path)
		}
		return err
	})
}

func (d *decoder) sandbox(n *yaml.Node) error {
	s := &d.cfg.Sandbox
	return d.section(n, "sandbox", sandboxKeys, func(key, path string, v *yaml.Node) (err error) {
		switch key {
		case "mode":
			s.Mode, err = d.str(v, path)
		case "network":
			s.Network, err = d.boolean(v, path)
		case "writable":
			s.Writable, err = d.stringList(v, path)
		case "required":
			s.Required, err = d.boolean(v, path)
			s.RequiredAt = Place{Path: d.file, Line: v.Line}
		}
		return err
	})
}

func (d *decoder) acp(n *yaml.Node) error {
	a := &d.cfg.ACP
	return d.section(n, "acp", acpKeys, func(key, path string, v *yaml.Node) (err error) {
		switch key {
		case "name":
			a.Name, err = d.str(v, path)
		case "title":
			a.Title, err = d.str(v, path)
		}
		return err
	})
}

func (d *decoder) lsp(n *yaml.Node) error {
	return d.section(n, "lsp", lspKeys, func(key, path string, v *yaml.Node) error {
		if key != "servers" {
			return nil
		}
		if v.Kind != yaml.SequenceNode {
			return d.errAt(v, "%s must be a list of servers, got %s", path, describe(v))
		}
		servers := make([]LSPServer, 0, len(v.Content))
		for i, item := range v.Content {
			var s LSPServer
			at := fmt.Sprintf("%s[%d]", path, i)
			err := d.section(resolve(item), at, lspServerKeys, func(key, path string, v *yaml.Node) (err error) {
				switch key {
				case "name":
					s.Name, err = d.str(v, path)
				case "command":
					s.Command, err = d.str(v, path)
				case "args":
					s.Args, err = d.stringList(v, path)
				case "extensions":
					s.Extensions, err = d.stringList(v, path)
				}
				return err
			})
			if err != nil {
				return err
			}
			servers = append(servers, s)
		}
		d.cfg.LSP.Servers = servers
		return nil
	})
}

// mmConfigs reads the other agents: `name: path` or
// `name: {path, description, yolo}`.
func (d *decoder) mmConfigs(n *yaml.Node) error {
	ps, err := d.mapping(n, "mmConfigs", " of names to config files")
	if err != nil {
		return err
	}
	for _, p := range ps {
		name := p.key.Value
		if msg := checkMMConfigName(name); msg != "" {
			return &Error{Path: d.file, Line: p.key.Line, Msg: msg}
		}
		at := "mmConfigs." + name
		v := resolve(p.val)
		var m MMConfig
		switch {
		case isNull(v):
			// `name:` with nothing is an empty path, reported below.
		case v.Kind == yaml.ScalarNode:
			m.Path = v.Value
		case v.Kind == yaml.MappingNode:
			err := d.section(v, at, mmConfigKeys, func(key, path string, v *yaml.Node) (err error) {
				switch key {
				case "path":
					m.Path, err = d.str(v, path)
				case "description":
					m.Description, err = d.str(v, path)
				case "yolo":
					var b bool
					if b, err = d.boolean(v, path); err == nil {
						m.Yolo = &b
					}
				}
				return err
			})
			if err != nil {
				return err
			}
		default:
			return d.errAt(v, "%s must be a path or a mapping with path, description and yolo, got %s", at, describe(v))
		}
		if blank(m.Path) {
			return &Error{Path: d.file, Line: p.key.Line, Msg: at + ": the path must not be empty"}
		}
		if !filepath.IsAbs(m.Path) {
			m.Path = filepath.Join(d.dir, m.Path)
		}
		// A missing file is a warning, not an error: the other agent's file
		// may be written later, and this agent works without it.
		if _, err := os.Stat(m.Path); errors.Is(err, fs.ErrNotExist) {
			d.warnings = append(d.warnings, fmt.Sprintf("[warning: %s: %s does not exist — asking %s will fail until it does]", at, m.Path, name))
		} else if err != nil {
			d.warnings = append(d.warnings, fmt.Sprintf("[warning: %s: %s cannot be read: %v]", at, m.Path, unwrapPath(err)))
		}
		if d.cfg.MMConfigs == nil {
			d.cfg.MMConfigs = map[string]MMConfig{}
		}
		d.cfg.MMConfigs[name] = m
	}
	return nil
}

// unwrapPath drops the path from a file error, which the message already
// shows.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
