package main_test

import (
	"path/filepath"
	"strings"
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

// Under yolo: true a call that mcp.permissions sets to ask is refused in
// -p; the refusal says why truthfully (not "yolo: false") and names the
// MCP tool, through the `mcp` tool too.
func TestMCPAskRefusedInOneShotSaysWhy(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "yolo: true\nmcp:\n  promptBudget: 0\n  permissions:\n    tiny/ping: ask\n  servers:\n"+mcpTinyServer(t, "tiny", dir, ""))
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"call","tool":"PING"}`)}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if want := "🔐 mcp tiny/ping refused: nobody can confirm it with -p (mcp.permissions says ask)"; !strings.Contains(r.stderr, want) {
		t.Errorf("want %q in:\n%s", want, r.stderr)
	}
	if strings.Contains(r.stderr, "yolo: false") {
		t.Errorf("the refusal blames yolo: false under yolo: true:\n%s", r.stderr)
	}
}

// A server still starting when -p ends is stopped by mm: that is not a
// failed start, and mm does not report it as one on its way out.
func TestMCPLateServerStoppedAtExitIsNoFailure(t *testing.T) {
	dir := t.TempDir()
	gate := filepath.Join(dir, "never")
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n"+mcpTinyServer(t, "tiny", dir, "      env: {WAIT_FOR: "+mcpQuote(gate)+"}\n"))
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "[warning: the MCP server tiny is not ready after 5s") {
		t.Errorf("no late warning:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "did not start") {
		t.Errorf("the server mm stopped at exit is reported as a failed start:\n%s", r.stderr)
	}
}
