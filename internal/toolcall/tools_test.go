package toolcall

import (
	"encoding/json"
	"testing"
)

// schemaText is mm's tool schemas as the tools declare them; production
// passes the real ones.
var schemaText = map[string]string{
	"bash":          `{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`,
	"read_file":     `{"type":"object","properties":{"path":{"type":"string"},"start":{"type":"integer"},"end":{"type":"integer"},"numbered":{"type":"boolean"}},"required":["path"]}`,
	"write_file":    `{"type":"object","properties":{"path":{"type":"string"},"content":{"type":"string"}},"required":["path","content"]}`,
	"edit_file":     `{"type":"object","properties":{"path":{"type":"string"},"edits":{"type":"array","items":{"type":"object","properties":{"old":{"type":"string"},"new":{"type":"string"}},"required":["old","new"]}},"dry_run":{"type":"boolean"}},"required":["path","edits"]}`,
	"lsp":           `{"type":"object","properties":{"action":{"type":"string"},"path":{"type":"string"},"symbol":{"type":"string"},"line":{"type":"integer"},"column":{"type":"integer"},"new_name":{"type":"string"}},"required":["action","path"]}`,
	"fetch_content": `{"type":"object","properties":{"url":{"type":"string"},"output":{"type":"string"},"baseUrl":{"type":"string"},"tables":{"type":"string"},"strikethrough":{"type":"boolean"},"taskList":{"type":"boolean"}},"required":["url"]}`,
	"read_skill":    `{"type":"object","properties":{"name":{"type":"string"}},"required":["name"]}`,
	"ask_agent":     `{"type":"object","properties":{"agent":{"type":"string"},"prompt":{"type":"string"},"with_context":{"type":"boolean"}},"required":["agent","prompt"]}`,
	"ask_words":     `{"type":"object","properties":{"questions":{"type":"array","description":"1 to 4 questions: {question, type, options}"}},"required":["questions"]}`,
	"ask_user":      `{"type":"object","properties":{"questions":{"type":"array","items":{"type":"object"}}},"required":["questions"]}`,
	// An MCP server's edit tool (Serena's replace_regex), declared as mm
	// declares MCP tools: an empty repl deletes what the regex matches.
	"replace_regex": `{"type":"object","properties":{"relative_path":{"type":"string"},"regex":{"type":"string"},"repl":{"type":"string"},"allow_multiple_occurrences":{"type":"boolean"}},"required":["relative_path","regex","repl"]}`,
}

// ask_words is ask_user as mm declares it: items described in words only.
var allToolNames = []string{"bash", "read_file", "write_file", "edit_file", "lsp", "fetch_content", "read_skill", "ask_agent", "ask_user", "ask_words"}

// toolsFor returns the declared tools with those names, in that order.
func toolsFor(t testing.TB, names ...string) []Tool {
	t.Helper()
	if len(names) == 0 {
		names = allToolNames
	}
	out := make([]Tool, 0, len(names))
	for _, n := range names {
		txt, ok := schemaText[n]
		if !ok {
			t.Fatalf("no schema for tool %q", n)
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(txt), &m); err != nil {
			t.Fatalf("schema %s: %v", n, err)
		}
		out = append(out, Tool{Name: n, Schema: m})
	}
	return out
}

// mmTools is the six tools the corpus declares.
func mmTools(t testing.TB) []Tool {
	return toolsFor(t, "bash", "read_file", "write_file", "edit_file", "lsp", "fetch_content")
}
