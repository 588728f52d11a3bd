package tools

// Stand-ins for the mcp meta tool of the budget mode (branch i15-mcpmeta
// writes the real ones in mcp_meta.go); the lead deletes this file at
// merge.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// MCPDeclaredSize is the bytes the direct declarations of ts would take
// on the wire (stand-in: name, description and schema of each tool).
func MCPDeclaredSize(ts []MCPTool) int {
	n := 0
	for _, t := range ts {
		n += len(t.Server) + 1 + len(t.Name) + len(t.Description) + len(t.InputSchema) + 60
	}
	return n
}

// NewMCPMeta is the single mcp tool (stand-in: list, schema, call).
func NewMCPMeta(s MCPServers, maxOutput int) *Tool {
	const schema = `{"type":"object","properties":{"action":{"type":"string","enum":["list","schema","call"]},"server":{"type":"string"},"tool":{"type":"string"},"arguments":{"type":"object"}},"required":["action"]}`
	type in struct {
		Action, Server, Tool string
		Arguments            json.RawMessage
	}
	return &Tool{
		Name:        "mcp",
		Description: "Use the MCP servers' tools: list them, read one tool's schema, call one.",
		Schema:      MustSchema(schema), SchemaText: schema, Kind: KindOther,
		Mutates: func(json.RawMessage) bool { return true },
		Checked: func(ctx context.Context, args json.RawMessage) (string, bool) {
			var a in
			json.Unmarshal(args, &a)
			var b strings.Builder
			for _, t := range s.Tools() {
				if a.Server != "" && t.Server != a.Server || a.Tool != "" && t.Name != a.Tool {
					continue
				}
				switch a.Action {
				case "schema":
					return t.InputSchema, false
				case "list":
					fmt.Fprintf(&b, "%s/%s: %s\n", t.Server, t.Name, t.Description)
				}
			}
			if a.Action == "call" {
				return s.Call(ctx, a.Server, a.Tool, a.Arguments)
			}
			return b.String(), false
		},
	}
}
