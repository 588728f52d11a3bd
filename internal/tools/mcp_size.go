package tools

import (
	"strings"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
)

// MCPDeclaredSize is how many bytes of every request the MCP tools would
// take declared one by one (`<server>_<tool>`, the description and the
// schema as the server gives them): the figure mcp.promptBudget is weighed
// against. It is counted by writing the request itself (llm.BuildRequest)
// with and without them, so the JSON escaping, the compacted schema and the
// commas between declarations are counted exactly as sent. The names'
// uniqueness suffixes, for two tools that map to one name, are not counted.
func MCPDeclaredSize(ts []MCPTool) int {
	if len(ts) == 0 {
		return 0
	}
	// One tool before them, as the built-in tools are: each MCP
	// declaration then costs its own bytes and one comma.
	first := &ai.ToolDefinition{Name: "x"}
	base := &ai.ModelRequest{Tools: []*ai.ToolDefinition{first}}
	with := &ai.ModelRequest{Tools: []*ai.ToolDefinition{first}}
	for _, t := range ts {
		def := &ai.ToolDefinition{Name: mcpDirectName(t.Server, t.Name), Description: t.Description}
		def.Metadata = map[string]any{llm.RawSchemaKey: t.InputSchema}
		with.Tools = append(with.Tools, def)
	}
	a, err1 := llm.BuildRequest(base, llm.RequestOptions{})
	b, err2 := llm.BuildRequest(with, llm.RequestOptions{})
	if err1 != nil || err2 != nil {
		// Not reached: these requests have no sampling keys to refuse.
		n := 0
		for _, t := range ts {
			n += len(t.Server) + len(t.Name) + len(t.Description) + len(t.InputSchema) + 64
		}
		return n
	}
	return len(b) - len(a)
}

// mcpDirectName is a tool's direct declaration name as the issue gives it:
// `<server>_<tool>`, every character outside [a-zA-Z0-9_-] replaced by `_`,
// cut to 64 (the OpenAI limit).
func mcpDirectName(server, tool string) string {
	name := strings.Map(func(r rune) rune {
		if r == '_' || r == '-' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, server+"_"+tool)
	if len(name) > 64 {
		name = name[:64]
	}
	return name
}
