package tools

import (
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
)

func TestMCPDeclaredSize(t *testing.T) {
	decl := func(name, desc, params string) int {
		// One declaration as the tools array carries it, and its comma.
		s := `,{"type":"function","function":{"name":"` + name + `"`
		if desc != "" {
			s += `,"description":"` + desc + `"`
		}
		return len(s + `,"parameters":` + params + `}}`)
	}
	cases := []struct {
		name  string
		tools []MCPTool
		want  int
	}{
		{"none", nil, 0},
		{"one", []MCPTool{{Server: "fs", Name: "read", Description: "Read it.", InputSchema: `{"type":"object"}`}},
			decl("fs_read", "Read it.", `{"type":"object"}`)},
		{"schema compacted, HTML not escaped, quotes escaped", []MCPTool{{Server: "ev", Name: "echo", Description: `Say "<hi>" & go`, InputSchema: "{\"type\": \"object\",\n  \"properties\": {}}"}},
			decl("ev_echo", `Say \"<hi>\" & go`, `{"type":"object","properties":{}}`)},
		{"name sanitised", []MCPTool{{Server: "ev", Name: "get.sum/v2", InputSchema: `{}`}},
			decl("ev_get_sum_v2", "", `{}`)},
		{"name cut to 64", []MCPTool{{Server: "ev", Name: strings.Repeat("n", 80), InputSchema: `{}`}},
			decl("ev_"+strings.Repeat("n", 61), "", `{}`)},
		{"bad schema goes out as an empty object schema", []MCPTool{{Server: "ev", Name: "x", InputSchema: `{`}},
			decl("ev_x", "", `{"type":"object","properties":{}}`)},
		{"two", []MCPTool{{Server: "a", Name: "b", InputSchema: `{}`}, {Server: "a", Name: "c", InputSchema: `{}`}},
			decl("a_b", "", `{}`) + decl("a_c", "", `{}`)},
	}
	for _, c := range cases {
		if got := MCPDeclaredSize(c.tools); got != c.want {
			t.Errorf("%s: %d bytes, want %d", c.name, got, c.want)
		}
	}
}

// The `mcp` tool's own declaration, counted the same way, is what budget
// mode costs instead.
func TestMCPMetaDeclaredSize(t *testing.T) {
	tool := NewMCPMeta(mcpFixture(), 1000)
	req := &ai.ModelRequest{Tools: []*ai.ToolDefinition{{Name: "x"}, tool.Definition()}}
	base := &ai.ModelRequest{Tools: []*ai.ToolDefinition{{Name: "x"}}}
	a, _ := llm.BuildRequest(base, llm.RequestOptions{})
	b, _ := llm.BuildRequest(req, llm.RequestOptions{})
	if n := len(b) - len(a); n > 700 {
		t.Errorf("the mcp tool takes %d bytes of every request", n)
	} else {
		t.Logf("the mcp tool takes %d bytes of every request", n)
	}
}
