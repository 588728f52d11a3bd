package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"mm/internal/tools"
)

// DeclareOptions are what the declarations depend on besides the tools.
type DeclareOptions struct {
	// Budget is mcp.promptBudget: past it, the single mcp tool is declared.
	Budget    int
	MaxOutput int
	// Ask says a tool asks under yolo: true (mcp.permissions).
	Ask func(server, tool string) bool
	// Taken are the names already declared (the built-in tools).
	Taken []string
}

// Declarations are the tools the model is given for ts: one per MCP tool,
// named <server>_<tool>, in the order of ts — or, when their declarations
// would take more than the budget, the single mcp tool.
func Declarations(s tools.MCPServers, ts []tools.MCPTool, o DeclareOptions) []*tools.Tool {
	if len(ts) == 0 {
		return nil
	}
	if tools.MCPDeclaredSize(ts) > o.Budget {
		t := tools.NewMCPMeta(s, o.MaxOutput)
		if o.Ask != nil {
			// The rule of the tool the call runs, however the model spelt
			// it; a call that finds no tool runs nothing and asks nothing
			// (the model reads what exists instead).
			t.AsksUnderYolo = func(args json.RawMessage) bool {
				server, tool, ok := tools.MCPMetaTarget(s, args)
				return ok && o.Ask(server, tool)
			}
		}
		return []*tools.Tool{t}
	}
	taken := map[string]bool{}
	for _, n := range o.Taken {
		taken[n] = true
	}
	var out []*tools.Tool
	for _, mt := range ts {
		name := uniqueName(ToolName(mt.Server, mt.Name), taken)
		taken[name] = true
		out = append(out, direct(s, mt, name, o))
	}
	return out
}

// direct is one MCP tool declared as itself.
func direct(s tools.MCPServers, mt tools.MCPTool, name string, o DeclareOptions) *tools.Tool {
	schemaText := mt.InputSchema
	var schema map[string]any
	if json.Unmarshal([]byte(schemaText), &schema) != nil || schema == nil {
		// A server whose schema is not an object still gets a tool the
		// model can call; the server checks the arguments.
		schemaText = `{"type":"object"}`
		schema = map[string]any{"type": "object"}
	}
	kind := tools.KindOther
	if mt.ReadOnly {
		kind = tools.KindRead
	}
	server, tool := mt.Server, mt.Name
	ask := o.Ask != nil && o.Ask(server, tool)
	return &tools.Tool{
		Name: name, Description: mt.Description, Schema: schema, SchemaText: schemaText,
		Kind: kind, MCP: tools.MCPShown(server, tool),
		// yolo: false asks for every MCP call, read-only or not: mm cannot
		// check what a server does (the reference).
		Mutates:       func(json.RawMessage) bool { return true },
		AsksUnderYolo: func(json.RawMessage) bool { return ask },
		Summary:       ArgsSummary,
		Checked: func(ctx context.Context, args json.RawMessage) (string, bool) {
			return s.Call(ctx, server, tool, args)
		},
	}
}

// ArgsSummary is a call's arguments on one line: compact JSON (a newline
// in a value stays \n).
func ArgsSummary(args json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, args) != nil {
		return string(args)
	}
	if b.String() == "{}" || b.Len() == 0 {
		return "(no arguments)"
	}
	return b.String()
}

// ToolName is <server>_<tool> with every character outside
// [a-zA-Z0-9_-] replaced by _, cut to 64 bytes (the OpenAI limit).
func ToolName(server, tool string) string {
	var b strings.Builder
	for _, r := range server + "_" + tool {
		if r < 128 && (r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	name := b.String()
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}

// uniqueName adds _2, _3… (within 64 bytes) to a name already taken.
func uniqueName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for i := 2; ; i++ {
		suffix := fmt.Sprintf("_%d", i)
		base := name
		if len(base)+len(suffix) > 64 {
			base = base[:64-len(suffix)]
		}
		if !taken[base+suffix] {
			return base + suffix
		}
	}
}
