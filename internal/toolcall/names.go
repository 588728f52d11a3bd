package toolcall

import (
	"strings"
)

// toolAliases are the only names mm maps to another tool: the names other
// agents (Claude Code, Gemini CLI, Qwen Code, gpt-oss's built-in shell) train
// models on, folded to lower case. A tool with no counterpart (WebSearch,
// Glob, task, python) is never guessed.
var toolAliases = map[string]string{
	"bash":              "bash",
	"run_shell_command": "bash",
	"container.exec":    "bash",
	"read":              "read_file",
	"write":             "write_file",
	"edit":              "edit_file",
}

// toolset is the declared tools, indexed for name resolution. Schemas are
// read only for the tools a reply calls: prose and clean calls stay cheap.
type toolset struct {
	raw     map[string]map[string]any
	schemas map[string]*objSchema
	lower   map[string]string // lower-case name → declared name
	names   []string
}

func newToolset(tools []Tool) *toolset {
	ts := &toolset{raw: make(map[string]map[string]any, len(tools)), lower: make(map[string]string, len(tools))}
	for _, t := range tools {
		if _, dup := ts.raw[t.Name]; dup {
			continue
		}
		ts.raw[t.Name] = t.Schema
		ts.names = append(ts.names, t.Name)
		if _, ok := ts.lower[strings.ToLower(t.Name)]; !ok {
			ts.lower[strings.ToLower(t.Name)] = t.Name
		}
	}
	return ts
}

// schema returns the parsed schema of a declared tool.
func (ts *toolset) schema(name string) *objSchema {
	if o, ok := ts.schemas[name]; ok {
		return o
	}
	if ts.schemas == nil {
		ts.schemas = map[string]*objSchema{}
	}
	o := parseSchema(ts.raw[name])
	ts.schemas[name] = o
	return o
}

// cleanName removes what models and servers glue to a tool name: a
// functions. prefix, a Kimi :INDEX suffix, trailing control text
// (<|channel|>…, <arg_key>…), quotes and spaces.
func cleanName(raw string) string {
	s := strings.TrimSpace(raw)
	if i := strings.IndexAny(s, "<[{( \t\n\r"); i >= 0 {
		s = s[:i]
	}
	s = strings.Trim(s, "\"'`")
	if len(s) > len("functions.") && strings.EqualFold(s[:len("functions.")], "functions.") {
		s = s[len("functions."):]
	}
	// Kimi's call id functions.NAME:INDEX with '.' and ':' replaced by '_',
	// as clients and servers sanitise ids to OpenAI's [a-zA-Z0-9_-]
	// (functions_Bash_2 in ggml-org/llama.cpp#24658's log).
	if len(s) > len("functions_") && strings.EqualFold(s[:len("functions_")], "functions_") {
		if i := strings.LastIndexByte(s, '_'); i > len("functions_") && i+1 < len(s) && strings.Trim(s[i+1:], "0123456789") == "" {
			s = s[len("functions_"):i]
		}
	}
	if i := strings.LastIndexByte(s, ':'); i > 0 {
		digits := s[i+1:]
		if digits != "" && strings.Trim(digits, "0123456789") == "" {
			s = s[:i]
		}
	}
	return s
}

// resolve maps the name a model wrote to a declared tool. It returns the
// declared name, or "" when no tool matches.
func (ts *toolset) resolve(raw string) string {
	if _, ok := ts.raw[raw]; ok {
		return raw
	}
	s := cleanName(raw)
	if s == "" {
		return ""
	}
	if _, ok := ts.raw[s]; ok {
		return s
	}
	if n, ok := ts.lower[strings.ToLower(s)]; ok {
		return n
	}
	if target, ok := toolAliases[strings.ToLower(s)]; ok {
		if _, declared := ts.raw[target]; declared {
			return target
		}
	}
	if d := repeatedName(s); d != "" {
		return ts.resolve(d)
	}
	if n := ts.foldedName(s); n != "" {
		return n
	}
	// A namespace before the name: Gemini's and Gemma's default_api.NAME
	// (the Python namespace their function calling writes calls in),
	// tools.NAME; functions. is cleanName's.
	if i := strings.IndexByte(s, '.'); i > 0 && callNamespaces[strings.ToLower(s[:i])] && !strings.Contains(s[i+1:], ".") { // rule_redteam7.go
		if n := ts.resolve(s[i+1:]); n != "" {
			return n
		}
	}
	return ts.resolveRound7b(s) // rule_round7b.go
}

// nameInMarkup (server calls only: structuredCandidates) reads a name field that a server filled with the markup
// around the name (<|tool_call_begin|>read_file, <function=read_file>,
// assistant<|channel|>commentary to=functions.read_file, [read_file],
// functions::read_file, read_file@0): when the field holds punctuation and
// exactly one of its words is a declared tool's name, that is the tool.
// A field of plain words (read_file_tool, mcp_read_file) is not read: only
// markup around a name, never a longer name, is taken off.
func (ts *toolset) nameInMarkup(raw string) string {
	if !strings.ContainsAny(raw, "<>|[]{}()=:@.`\"' \t\n") {
		return ""
	}
	found := ""
	for _, w := range strings.FieldsFunc(raw, func(r rune) bool {
		return !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9')
	}) {
		if _, ok := ts.raw[w]; !ok {
			if found != "" && !markupWordAfterName(w) {
				return "" // a longer name (sandbox.bash.run): red team 9
			}
			continue
		}
		if found != "" && found != w {
			return "" // two tools named: no guess
		}
		found = w
	}
	return found
}

// foldedName matches a name spelled in another case convention (ReadFile,
// readFile, read-file, READ_FILE) to the one declared tool it spells:
// clients rename tools between snake, camel and kebab case, and models
// trained on one write the others.
func (ts *toolset) foldedName(s string) string {
	f := foldName(s)
	if f == "" {
		return ""
	}
	found := ""
	for _, n := range ts.names {
		if foldName(n) == f {
			if found != "" {
				return "" // two tools spell the same: no guess
			}
			found = n
		}
	}
	return found
}

func foldName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == '_' || r == '-':
		case r >= 'A' && r <= 'Z':
			b.WriteRune(r + 'a' - 'A')
		case r >= 'a' && r <= 'z' || r >= '0' && r <= '9':
			b.WriteRune(r)
		default:
			return "" // not a plain identifier: never folded
		}
	}
	return b.String()
}

func isIdentWord(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isIdent(s[i]) {
			return false
		}
	}
	return s != ""
}

// serverAliases are names mapped only when a server returned them as a
// call's name, never in the text: fetch is the reference MCP fetch server's
// tool (url) and Zed's, WebFetch Claude Code's; in the text fetch( is code.
var serverAliases = map[string]string{"fetch": "fetch_content", "webfetch": "fetch_content", "web_fetch": "fetch_content"}

// serverAlias maps a server call's name through serverAliases, to a
// declared tool only.
func (ts *toolset) serverAlias(raw string) string {
	target, ok := serverAliases[strings.ToLower(strings.TrimSpace(raw))]
	if !ok {
		return ""
	}
	if _, declared := ts.raw[target]; !declared {
		return ""
	}
	return target
}
