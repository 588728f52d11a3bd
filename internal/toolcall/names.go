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
	return ts.resolveRound7b(s) // rule_round7b.go
}
