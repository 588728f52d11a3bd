package main_test

import (
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// everythingConfig is a configuration with server-everything as ev, its
// tools declared one by one, and extra lines after it.
func everythingConfig(t *testing.T, dir, extra string) string {
	t.Helper()
	ev := mcpServerBin(t, "mcp-server-everything")
	return writeConfig(t, dir, "mcp:\n  promptBudget: 100000\n  servers:\n    - name: ev\n      command: "+mcpQuote(ev)+"\n"+extra)
}

// yolo: false asks for every MCP call, a read-only one too, whatever
// mcp.permissions says; the prompt shows the server, the tool and the
// arguments, sanitised. Refused, the model reads the refusal; allowed,
// the call runs.
func TestMCPYoloFalseAsks(t *testing.T) {
	dir := t.TempDir()
	cfg := everythingConfig(t, dir, "  permissions:\n    ev: auto\nyolo: false\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("ev_echo", `{"message":"no \u001b[2J"}`)}},
		llmtest.Turn{Text: "The echo was not run."},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("ev_echo", `{"message":"yes"}`)}},
		llmtest.Turn{Text: "The echo ran."},
	)
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("first")
	s.expect(`🔐 ev/echo {"message":"no \u001b[2J"}`)
	s.expect("[a] allow once")
	s.answer("r")
	s.expect("The echo was not run.")
	s.ask("second")
	s.expect(`🔐 ev/echo {"message":"yes"}`)
	s.expect("[a] allow once")
	s.answer("a")
	// Not "allowed": the answer's own echo ("→ allowed once") comes first.
	s.expect("The echo ran.")
	reqs := srv.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := mcpResults(t, reqs[1]); len(got) != 1 || got[0] != "[ev_echo rejected by the user]" {
		t.Errorf("refused: %q", got)
	}
	if got := mcpResults(t, reqs[3]); len(got) != 2 || got[1] != "Echo: yes" {
		t.Errorf("allowed: %q", got)
	}
	if strings.Contains(s.raw(), "\x1b[2J") {
		t.Error("the arguments reached the terminal raw")
	}
}

// -p cannot ask: under yolo: false an MCP call is refused.
func TestMCPYoloFalseRefusedInOneShot(t *testing.T) {
	dir := t.TempDir()
	cfg := everythingConfig(t, dir, "yolo: false\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("ev_echo", `{"message":"x"}`)}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got := mcpResults(t, srv.ChatRequests()[1]); len(got) != 1 || got[0] != "[ev_echo rejected by the user]" {
		t.Errorf("result: %q", got)
	}
}

// Under yolo: true, mcp.permissions decides: auto runs, ask asks (and -p,
// which cannot ask, refuses); server/tool wins over the server's entry.
func TestMCPPermissionsAskUnderYolo(t *testing.T) {
	dir := t.TempDir()
	cfg := everythingConfig(t, dir, "  permissions:\n    ev: auto\n    ev/get-sum: ask\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("ev_echo", `{"message":"x"}`), mcpCall("ev_get-sum", `{"a":1,"b":2}`)}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	got := mcpResults(t, srv.ChatRequests()[1])
	if len(got) != 2 || got[0] != "Echo: x" || got[1] != "[ev_get-sum rejected by the user]" {
		t.Errorf("results: %q", got)
	}
	// In the line mode the same call asks.
	srv.Push(llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("ev_get-sum", `{"a":1,"b":2}`)}}, llmtest.Turn{Text: "summed"})
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("sum")
	s.expect(`🔐 ev/get-sum {"a":1,"b":2}`)
	s.expect("[a] allow once")
	s.answer("a")
	s.expect("summed")
	reqs := srv.ChatRequests()
	if got := mcpResults(t, reqs[len(reqs)-1]); len(got) != 1 || got[0] != "The sum of 1 and 2 is 3." {
		t.Errorf("allowed: %q", got)
	}
}
