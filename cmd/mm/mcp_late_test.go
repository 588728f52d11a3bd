package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// A server not ready after the start-up wait is reported under the
// banner; once ready, its tools are declared from the next prompt on, and
// the declarations change that one time only.
func TestMCPLateServerToolsComeOnce(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	gate := filepath.Join(dir, "go")
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n"+mcpTinyServer(t, "tiny", dir, "      env: {WAIT_FOR: "+mcpQuote(gate)+"}\n"))
	srv := llmtest.New(t,
		llmtest.Turn{Text: "first"},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_ping", `{}`)}},
		llmtest.Turn{Text: "second"},
		llmtest.Turn{Text: "third"},
	)
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	if !strings.Contains(s.text(), "[warning: the MCP server tiny is not ready after 5s — its tools come when it is]") {
		t.Fatalf("no warning under the banner:\n%s", s.text())
	}
	s.ask("one")
	s.expect("first")
	if err := os.WriteFile(gate, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	s.expect("[the MCP server tiny is ready — its tools are declared from the next prompt on]")
	// The line came while the prompt waited: it is on screen already.
	s.send("two\r")
	s.expect("second")
	s.ask("three")
	s.expect("third")
	reqs := srv.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	if mcpContains(mcpDeclared(t, reqs[0]), "tiny_ping") {
		t.Errorf("declared before it was ready: %v", mcpDeclared(t, reqs[0]))
	}
	if !mcpContains(mcpDeclared(t, reqs[1]), "tiny_ping") {
		t.Errorf("not declared once ready: %v", mcpDeclared(t, reqs[1]))
	}
	if got := mcpResults(t, reqs[2]); len(got) != 1 || got[0] != "pong" {
		t.Errorf("result: %q", got)
	}
	if mcpToolsJSON(t, reqs[1]) != mcpToolsJSON(t, reqs[2]) || mcpToolsJSON(t, reqs[2]) != mcpToolsJSON(t, reqs[3]) {
		t.Error("the declarations changed more than once")
	}
}
