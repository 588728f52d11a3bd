package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// With server-everything and server-filesystem (28 tools, about 14 KB of
// declarations) and the default promptBudget (4096), the model is given
// one tool, mcp, and works through it: list, schema, call.
func TestMCPBudgetModeThroughTheBinary(t *testing.T) {
	ev := mcpServerBin(t, "mcp-server-everything")
	fsBin := mcpServerBin(t, "mcp-server-filesystem")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "note.txt"), []byte("budget mode works\n"), 0o644)
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n    - name: ev\n      command: "+mcpQuote(ev)+
		"\n    - name: fs\n      command: "+mcpQuote(fsBin)+"\n      args: [\""+dir+"\"]\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"list","server":"fs"}`)}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"schema","server":"fs","tool":"read_text_file"}`)}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", jsonArgs(t, map[string]any{"action": "call", "server": "fs", "tool": "read_text_file", "arguments": map[string]any{"path": filepath.Join(dir, "note.txt")}}))}},
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "read the note through mcp")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests\n%s", len(reqs), r.stderr)
	}
	body := string(reqs[0].Body)
	if !strings.Contains(body, `"name":"mcp"`) || strings.Contains(body, `"name":"fs_read_text_file"`) || strings.Contains(body, `"name":"ev_echo"`) {
		t.Errorf("the first request does not declare the mcp tool alone:\n%.2000s", body)
	}
	res := mcpResults(t, reqs[3])
	if len(res) != 3 {
		t.Fatalf("tool results: %q", res)
	}
	if !strings.Contains(res[0], "read_text_file") || !strings.Contains(res[1], `"path"`) || !strings.Contains(res[2], "budget mode works") {
		t.Errorf("list, schema, call:\n%s\n---\n%s\n---\n%s", res[0], res[1], res[2])
	}
	// Every request declares the same tools: the prefix stays byte-stable.
	for i, q := range reqs[1:] {
		if toolsOf(t, q) != toolsOf(t, reqs[0]) {
			t.Errorf("request %d declares other tools", i+2)
		}
	}
}

// toolsOf is the tools array of a request, as sent.
func toolsOf(t *testing.T, req llmtest.Request) string {
	t.Helper()
	body := string(req.Body)
	i := strings.Index(body, `"tools":`)
	if i < 0 {
		return ""
	}
	return body[i:]
}
