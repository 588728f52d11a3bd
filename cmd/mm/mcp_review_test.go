package main_test

import (
	"testing"

	"mm/internal/llmtest"
)

// Through the `mcp` tool of the budget mode, the permission prompt names
// the tool that will run (server/tool as the server calls it), not the
// model's spelling of it; and "allow for the session" allows that one MCP
// tool, not every tool of every server behind `mcp`.
func TestMCPMetaPromptNamesTheToolAndSessionAllowsOne(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "yolo: false\nmcp:\n  promptBudget: 0\n  servers:\n"+mcpTinyServer(t, "tiny", dir, ""))
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"call","server":"TINY","tool":"TINY/PING"}`)}},
		llmtest.Turn{Text: "pinged"},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"call","server":"tiny","tool":"hang"}`)}},
		llmtest.Turn{Text: "refused"},
	)
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("first")
	s.expect("🔐 mcp tiny/ping")
	s.expect("[s] allow tiny/ping for the session")
	s.answer("s")
	s.expect("pinged")
	s.ask("second")
	s.expect("🔐 mcp tiny/hang")
	s.answer("r")
	s.expect("refused")
	reqs := srv.ChatRequests()
	if got := mcpResults(t, reqs[3]); len(got) != 2 || got[1] != "[mcp rejected by the user]" {
		t.Errorf("the second tool ran on the first one's session allowance: %q", got)
	}
}
