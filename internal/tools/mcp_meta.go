package tools

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"
	"unicode/utf8"

	"mm/internal/toolcall"
)

// The `mcp` tool: declared instead of every MCP tool when their
// declarations would take more than mcp.promptBudget bytes of every request
// (a small model cannot afford thirty schemas). The model lists a server's
// tools, reads the schema of the one it needs, and calls it: the schemas it
// never uses cost nothing.

//go:embed mcp_meta.md
var mcpMetaDescription string

// The properties are few and flat, in the order a model fills them; only
// action is required so that `list` needs nothing else.
const mcpMetaSchema = `{"type":"object","properties":{` +
	`"action":{"type":"string","enum":["list","schema","call"]},` +
	`"server":{"type":"string"},` +
	`"tool":{"type":"string"},` +
	`"arguments":{"type":"object"}},` +
	`"required":["action"]}`

// MCPServerNamer is what the servers may also offer: the name of every
// configured server, ready or not, in mcp.servers order. The `mcp` tool's
// description lists these names, so it does not change when a server gets
// ready (Tools only lists the ready ones), and a call on a server not ready
// yet is told so rather than "no such server".
type MCPServerNamer interface {
	ServerNames() []string
}

// mcpOneLine is how long a tool's line in a list may be.
const mcpOneLine = 120

// mcpSummaryArgs is how much of a call's arguments its one-line summary shows.
const mcpSummaryArgs = 120

// NewMCPMeta returns the `mcp` tool over s. Its description names the
// servers once, at construction (MCPServerNamer when s has it, else the
// servers of the tools ready now), so the request prefix stays byte-stable;
// the tools themselves are read from s on every call. Outputs are cut to
// maxOutput characters.
func NewMCPMeta(s MCPServers, maxOutput int) *Tool {
	names := mcpConfigured(s)
	if len(names) == 0 {
		names = mcpServerOrder(s.Tools())
	}
	list := strings.Join(names, ", ")
	if list == "" {
		list = "none"
	}
	return &Tool{
		Name:        "mcp",
		Description: strings.ReplaceAll(strings.TrimSpace(mcpMetaDescription), "<servers>", list),
		Schema:      MustSchema(mcpMetaSchema),
		SchemaText:  mcpMetaSchema,
		// A call may change anything; KindOf narrows it.
		Kind: KindOther,
		// Only a call that finds a tool runs anything: a call that names
		// none is answered with what exists, which needs nobody's leave.
		Mutates: func(args json.RawMessage) bool {
			_, _, ok := MCPMetaTarget(s, args)
			return ok
		},
		KindOf: func(args json.RawMessage) Kind {
			a := decodeMCPMeta(args)
			if a.action != "call" {
				return KindRead
			}
			if t, _ := mcpResolve(s, a); t != nil && t.ReadOnly {
				return KindRead
			}
			return KindOther
		},
		Summary: func(args json.RawMessage) string {
			return mcpMetaSummary(mcpResolved(s, decodeMCPMeta(args)), args)
		},
		// An answer "for the session" covers the one MCP tool the call
		// runs, not every tool of every server behind `mcp`.
		SessionKey: func(args json.RawMessage) string {
			a := mcpResolved(s, decodeMCPMeta(args))
			if a.action != "call" {
				return "mcp"
			}
			return MCPShown(a.server, a.tool)
		},
		Preview: func(args json.RawMessage) string {
			a := decodeMCPMeta(args)
			if a.action != "call" || utf8.RuneCount(a.arguments) <= mcpSummaryArgs {
				return ""
			}
			var v any
			if json.Unmarshal(a.arguments, &v) != nil {
				return string(a.arguments)
			}
			b, _ := json.MarshalIndent(v, "", "  ")
			return string(b)
		},
		Checked: func(ctx context.Context, args json.RawMessage) (string, bool) {
			out, failed := runMCPMeta(ctx, s, decodeMCPMeta(args))
			return mcpCut(out, maxOutput), failed
		},
		Run: func(ctx context.Context, args json.RawMessage) string {
			out, _ := runMCPMeta(ctx, s, decodeMCPMeta(args))
			return mcpCut(out, maxOutput)
		},
	}
}

// mcpMetaArgs is one call of the `mcp` tool, read leniently.
type mcpMetaArgs struct {
	action    string // list, schema or call once normalised; else as written
	server    string
	tool      string
	arguments json.RawMessage // nil when absent
	bad       error           // the arguments were not an object
}

// mcpActions maps the words models use for the three actions.
var mcpActions = map[string]string{
	"list": "list", "ls": "list", "tools": "list", "listtools": "list", "list_tools": "list", "servers": "list",
	"schema": "schema", "describe": "schema", "info": "schema", "help": "schema", "getschema": "schema", "get_schema": "schema", "inspect": "schema", "show": "schema",
	"call": "call", "run": "call", "invoke": "call", "use": "call", "execute": "call", "exec": "call", "calltool": "call", "call_tool": "call",
}

func decodeMCPMeta(args json.RawMessage) mcpMetaArgs {
	var raw struct {
		Action    string          `json:"action"`
		Server    string          `json:"server"`
		Tool      string          `json:"tool"`
		Arguments json.RawMessage `json:"arguments"`
	}
	if err := json.Unmarshal(args, &raw); err != nil {
		return mcpMetaArgs{bad: err}
	}
	a := mcpMetaArgs{server: strings.TrimSpace(raw.Server), tool: strings.TrimSpace(raw.Tool)}
	act := strings.ToLower(strings.TrimSpace(raw.Action))
	if n, ok := mcpActions[strings.ReplaceAll(act, "-", "_")]; ok {
		act = n
	} else if n, ok := mcpActions[strings.NewReplacer("-", "", "_", "", " ", "").Replace(act)]; ok {
		act = n
	}
	a.action = act
	if t := strings.TrimSpace(string(raw.Arguments)); t != "" && t != "null" && t != `""` {
		a.arguments = json.RawMessage(t)
		// Arguments sent as the JSON text of an object.
		var s string
		if json.Unmarshal(a.arguments, &s) == nil {
			a.arguments = json.RawMessage(strings.TrimSpace(s))
		}
	}
	return a
}

// runMCPMeta does one call; failed says the model reads an error.
func runMCPMeta(ctx context.Context, s MCPServers, a mcpMetaArgs) (string, bool) {
	if a.bad != nil {
		return fmt.Sprintf("[error: mcp: bad arguments: %v]", a.bad), true
	}
	switch a.action {
	case "list":
		return mcpList(s, a)
	case "schema":
		t, err := mcpResolve(s, a)
		if err != "" {
			return err, true
		}
		return mcpSchemaText(t), false
	case "call":
		t, err := mcpResolve(s, a)
		if err != "" {
			return err, true
		}
		args, reason := mcpRepair(t, a.arguments)
		if reason != "" {
			if a.arguments == nil {
				// Most likely the tool's arguments were written next to
				// action, where they are not declared (and were dropped).
				reason = "the tool's arguments go in arguments, an object: " + reason
			}
			return fmt.Sprintf("[error: mcp: %s; its input schema: %s]", reason, mcpCompact(t.InputSchema)), true
		}
		return s.Call(ctx, t.Server, t.Name, args)
	case "":
		return "[error: mcp: action is needed: list, schema or call]", true
	}
	return fmt.Sprintf("[error: mcp: unknown action %q; the actions are list, schema and call]", a.action), true
}

// mcpList is the tools of one server, or of every ready server, one line
// each.
func mcpList(s MCPServers, a mcpMetaArgs) (string, bool) {
	all := s.Tools()
	servers := mcpServerOrder(all)
	if a.server != "" {
		name, err := mcpServer(s, all, a.server)
		if err != "" {
			return err, true
		}
		servers = []string{name}
	} else if len(servers) == 0 {
		return mcpNoneReady(s), true
	}
	var b strings.Builder
	for i, srv := range servers {
		if i > 0 {
			b.WriteByte('\n')
		}
		tools := mcpToolsOf(all, srv)
		fmt.Fprintf(&b, "%s: %d tools\n", srv, len(tools))
		for _, t := range tools {
			if d := mcpFirstLine(t.Description); d != "" {
				fmt.Fprintf(&b, "- %s: %s\n", t.Name, d)
			} else {
				fmt.Fprintf(&b, "- %s\n", t.Name)
			}
		}
	}
	fmt.Fprintf(&b, `Next: {"action":"schema","server":"%s","tool":"<name>"} gives a tool's arguments.`, servers[0])
	return b.String(), false
}

// mcpSchemaText is what the model reads before a call.
func mcpSchemaText(t *MCPTool) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s/%s", t.Server, t.Name)
	if d := strings.TrimSpace(t.Description); d != "" {
		b.WriteString(": " + d)
	}
	fmt.Fprintf(&b, "\nInput schema: %s\n", mcpCompact(t.InputSchema))
	fmt.Fprintf(&b, `Call: {"action":"call","server":"%s","tool":"%s","arguments":{…}}`, t.Server, t.Name)
	return b.String()
}

// mcpResolve finds the tool a schema or call names. It forgives what models
// do: the tool named `server/tool`, `server.tool` or by its direct
// declaration `server_tool`, no server when only one has that tool, case
// and `-`/`_` differences. The error is what the model reads: it names
// what there is.
func mcpResolve(s MCPServers, a mcpMetaArgs) (*MCPTool, string) {
	all := s.Tools()
	servers := mcpServerOrder(all)
	if len(servers) == 0 {
		return nil, mcpNoneReady(s)
	}
	server, tool := a.server, a.tool
	// A qualified tool name: server/tool, server.tool, server:tool.
	if i := strings.IndexAny(tool, "/.:"); i > 0 {
		if name, ok := mcpFold(servers, tool[:i]); ok && (server == "" || strings.EqualFold(server, name)) {
			server, tool = name, strings.TrimSpace(tool[i+1:])
		}
	}
	// The direct declaration's name: server_tool.
	if tool != "" {
		for _, srv := range servers {
			if (server == "" || strings.EqualFold(server, srv)) && len(tool) > len(srv)+1 && strings.EqualFold(tool[:len(srv)+1], srv+"_") {
				if mcpFindTool(mcpToolsOf(all, srv), tool) == nil {
					if t := mcpFindTool(mcpToolsOf(all, srv), tool[len(srv)+1:]); t != nil {
						return t, ""
					}
				}
			}
		}
	}
	if server == "" {
		switch {
		case len(servers) == 1:
			server = servers[0]
		case tool == "":
			return nil, fmt.Sprintf("[error: mcp: %s needs server and tool; the servers are: %s]", a.action, strings.Join(servers, ", "))
		default:
			var found []*MCPTool
			for _, srv := range servers {
				if t := mcpFindTool(mcpToolsOf(all, srv), tool); t != nil {
					found = append(found, t)
				}
			}
			switch len(found) {
			case 1:
				return found[0], ""
			case 0:
				return nil, fmt.Sprintf("[error: mcp: no server has a tool named %q; the servers are: %s (list one to see its tools)]", tool, strings.Join(servers, ", "))
			}
			var on []string
			for _, t := range found {
				on = append(on, t.Server)
			}
			return nil, fmt.Sprintf("[error: mcp: several servers have a tool named %q: %s; say which in server]", tool, strings.Join(on, ", "))
		}
	}
	name, err := mcpServer(s, all, server)
	if err != "" {
		return nil, err
	}
	tools := mcpToolsOf(all, name)
	if tool == "" {
		return nil, fmt.Sprintf("[error: mcp: %s needs tool; the tools of %s are: %s]", a.action, name, mcpNames(tools))
	}
	if t := mcpFindTool(tools, tool); t != nil {
		return t, ""
	}
	return nil, fmt.Sprintf("[error: mcp: the server %s has no tool named %q; its tools are: %s]", name, tool, mcpNames(tools))
}

// MCPMetaTarget is the tool a call of the `mcp` tool runs, as its server
// calls it (the model's spelling resolved as the call resolves it); ok is
// false for list and schema, and for a call that finds no tool (it is
// answered with what exists and runs nothing). The permission check applies
// the rule of that tool (mcp.permissions), not one guessed from the
// spelling.
func MCPMetaTarget(s MCPServers, args json.RawMessage) (server, tool string, ok bool) {
	a := decodeMCPMeta(args)
	if a.bad != nil || a.action != "call" {
		return "", "", false
	}
	t, _ := mcpResolve(s, a)
	if t == nil {
		return "", "", false
	}
	return t.Server, t.Name, true
}

// mcpResolved is a call with the server and tool it resolves to (the
// tool's own name on its server), so that the permission prompt shows
// what will run rather than the model's spelling; unchanged otherwise.
func mcpResolved(s MCPServers, a mcpMetaArgs) mcpMetaArgs {
	if a.action == "call" {
		if t, _ := mcpResolve(s, a); t != nil {
			a.server, a.tool = t.Server, t.Name
		}
	}
	return a
}

// mcpServer finds a ready server by name (case aside).
func mcpServer(s MCPServers, all []MCPTool, name string) (string, string) {
	ready := mcpServerOrder(all)
	if n, ok := mcpFold(ready, name); ok {
		return n, ""
	}
	if n, ok := mcpFold(mcpConfigured(s), name); ok {
		others := "none"
		if len(ready) > 0 {
			others = strings.Join(ready, ", ")
		}
		return "", fmt.Sprintf("[error: mcp: the server %s is not ready (still starting, or it failed); the servers ready are: %s]", n, others)
	}
	known := ready
	if c := mcpConfigured(s); len(c) > 0 {
		known = c
	}
	if len(known) == 0 {
		return "", mcpNoneReady(s)
	}
	return "", fmt.Sprintf("[error: mcp: there is no server named %q; the servers are: %s]", name, strings.Join(known, ", "))
}

func mcpNoneReady(s MCPServers) string {
	if c := mcpConfigured(s); len(c) > 0 {
		return fmt.Sprintf("[error: mcp: no server is ready yet (%s: still starting, or failed)]", strings.Join(c, ", "))
	}
	return "[error: mcp: no server is ready]"
}

// mcpFindTool finds a tool by its exact name, else by the one name equal
// to it without case, `-`, `_` and spaces (get_sum for get-sum).
func mcpFindTool(tools []MCPTool, name string) *MCPTool {
	for i := range tools {
		if tools[i].Name == name {
			return &tools[i]
		}
	}
	var found *MCPTool
	for i := range tools {
		if mcpFoldKey(tools[i].Name) == mcpFoldKey(name) {
			if found != nil {
				return nil
			}
			found = &tools[i]
		}
	}
	return found
}

func mcpFold(names []string, name string) (string, bool) {
	for _, n := range names {
		if strings.EqualFold(n, strings.TrimSpace(name)) {
			return n, true
		}
	}
	return "", false
}

func mcpFoldKey(s string) string {
	return strings.ToLower(strings.NewReplacer("-", "", "_", "", " ", "").Replace(s))
}

// mcpRepair makes a call's arguments fit the tool's schema the way mm
// repairs every call of a declared tool (internal/toolcall): numbers sent as
// strings, misspelt or aliased names, a missing required argument told. A
// schema without properties gets the arguments as sent.
func mcpRepair(t *MCPTool, args json.RawMessage) (json.RawMessage, string) {
	if args == nil {
		args = json.RawMessage("{}")
	}
	var obj map[string]any
	if json.Unmarshal(args, &obj) != nil {
		return nil, "arguments must be a JSON object"
	}
	var schema map[string]any
	if json.Unmarshal([]byte(t.InputSchema), &schema) != nil {
		return args, ""
	}
	if props, _ := schema["properties"].(map[string]any); len(props) == 0 {
		return args, ""
	}
	res := toolcall.Recover(toolcall.Input{
		ToolCalls: []toolcall.RawCall{{Name: t.Name, Arguments: string(args)}},
		Tools:     []toolcall.Tool{{Name: t.Name, Schema: schema}},
	})
	if len(res.Calls) == 1 {
		return res.Calls[0].Arguments, ""
	}
	if len(res.Rejections) > 0 {
		return nil, res.Rejections[0].Reason
	}
	return args, ""
}

// mcpServerOrder is the servers of tools, in their order.
func mcpServerOrder(tools []MCPTool) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range tools {
		if !seen[t.Server] {
			seen[t.Server] = true
			out = append(out, t.Server)
		}
	}
	return out
}

func mcpConfigured(s MCPServers) []string {
	if n, ok := s.(MCPServerNamer); ok {
		return n.ServerNames()
	}
	return nil
}

func mcpToolsOf(all []MCPTool, server string) []MCPTool {
	var out []MCPTool
	for _, t := range all {
		if t.Server == server {
			out = append(out, t)
		}
	}
	return out
}

func mcpNames(tools []MCPTool) string {
	names := make([]string, len(tools))
	for i, t := range tools {
		names[i] = t.Name
	}
	if len(names) == 0 {
		return "none"
	}
	return strings.Join(names, ", ")
}

// mcpFirstLine is a description's first line, cut near mcpOneLine
// characters at a sentence's end when there is one.
func mcpFirstLine(d string) string {
	d = strings.TrimSpace(d)
	if i := strings.IndexByte(d, '\n'); i >= 0 {
		d = strings.TrimSpace(d[:i])
	}
	r := []rune(d)
	if len(r) <= mcpOneLine {
		return d
	}
	cut := string(r[:mcpOneLine])
	if i := strings.LastIndex(cut, ". "); i >= mcpOneLine/3 {
		return cut[:i+1]
	}
	if i := strings.LastIndexByte(cut, ' '); i > 0 {
		cut = cut[:i]
	}
	return cut + "…"
}

// mcpCompact is a schema's text without its spaces, as the request carries
// it (internal/llm).
func mcpCompact(schema string) string {
	var c bytes.Buffer
	if json.Compact(&c, []byte(schema)) == nil {
		return c.String()
	}
	return strings.TrimSpace(schema)
}

func mcpMetaSummary(a mcpMetaArgs, args json.RawMessage) string {
	if a.bad != nil {
		return string(args)
	}
	// The names are one line, as MCPShown writes them.
	target := mcpNameLine.Replace(a.server)
	if a.tool != "" {
		if target != "" {
			target += "/"
		}
		target += mcpNameLine.Replace(a.tool)
	}
	switch a.action {
	case "list":
		return strings.TrimSpace("list " + target)
	case "schema":
		return strings.TrimSpace("schema " + target)
	case "call":
		sum := target
		if a.arguments != nil {
			text := a.arguments
			var c bytes.Buffer
			if json.Compact(&c, a.arguments) == nil {
				text = c.Bytes()
			}
			if r := []rune(string(text)); len(r) > mcpSummaryArgs {
				text = []byte(string(r[:mcpSummaryArgs]) + "…")
			}
			sum += ": " + string(text)
		}
		return sum
	}
	return string(args)
}

// mcpCut cuts an output to max characters, once: the servers' call output
// comes already cut (MCPServers.Call) and is not cut again.
func mcpCut(out string, max int) string {
	if truncatedMark.MatchString(out) {
		return out
	}
	return Truncate(out, max)
}
