package main_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// In the budget mode a call that names no tool that exists is answered
// with the correction the model needs, whatever mcp.permissions says: a
// rule `ask` of another tool does not send it to the permission check
// (which -p refuses, and the model never learns what exists). A misspelt
// name that does find a tool gets that tool's rule.
func TestMCPBudgetUnknownToolIsCorrectedNotAsked(t *testing.T) {
	for _, yolo := range []string{"true", "false"} {
		t.Run("yolo "+yolo, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "yolo: "+yolo+"\nmcp:\n  promptBudget: 0\n  permissions:\n    tiny/ping: ask\n  servers:\n"+mcpTinyServer(t, "tiny", dir, ""))
			srv := llmtest.New(t,
				llmtest.Turn{ToolCalls: []llmtest.ToolCall{
					mcpCall("mcp", `{"action":"call","server":"nosuch","tool":"x"}`),
					mcpCall("mcp", `{"action":"call","server":"tiny","tool":"hangg"}`),
					mcpCall("mcp", `{"action":"call","server":"tiny","tool":"Pi-Ng"}`),
				}},
				llmtest.Turn{Text: "ok"},
			)
			r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			res := mcpResults(t, srv.ChatRequests()[1])
			want := []string{
				`[error: mcp: there is no server named "nosuch"; the servers are: tiny]`,
				`[error: mcp: the server tiny has no tool named "hangg"; its tools are: hang, ping]`,
				"[mcp rejected by the user]",
			}
			if strings.Join(res, "\n") != strings.Join(want, "\n") {
				t.Errorf("results:\n%s", strings.Join(res, "\n"))
			}
			if strings.Contains(r.stderr, "🔐 mcp nosuch") || strings.Contains(r.stderr, "🔐 mcp tiny/hangg") {
				t.Errorf("a call naming no tool went to the permission check:\n%s", r.stderr)
			}
			if !strings.Contains(r.stderr, "🔐 mcp tiny/ping refused") {
				t.Errorf("the misspelt ping did not get its rule:\n%s", r.stderr)
			}
		})
	}
}

// Esc while an MCP call runs stops the turn; the model reads that the
// call was cancelled while it ran (the server had it), not that it was
// not run.
func TestMCPEscDuringCallSaysItRan(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n"+mcpTinyServer(t, "tiny", dir, ""))
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_hang", `{}`)}},
		llmtest.Turn{Text: "after the cancel"},
	)
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("hang")
	s.expect("🔌 tiny/hang")
	mcpWaitHang(t, filepath.Join(dir, "called"), 1)
	s.send("\x1b")
	s.expect("[turn stopped]")
	s.ask("next")
	s.expect("after the cancel")
	res := mcpResults(t, srv.ChatRequests()[1])
	if len(res) != 1 || res[0] != "[error: cancelled while it ran]" {
		t.Errorf("the model read %q", res)
	}
}

// A result over the limit of one MCP message (16 MiB) fails that call
// with a text that says so, and the server goes on: the next call is
// answered by the same process.
func TestMCPHugeResultKeepsServer(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n"+mcpTinyServer(t, "tiny", dir, "      env: {EXTRA: \"1\"}\n"))
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_big", `{}`), mcpCall("tiny_ping", `{}`)}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	res := mcpResults(t, srv.ChatRequests()[1])
	want := []string{"[error: the result of tiny/big is over the limit of 16 MiB for one MCP message (it is 20.0 MiB)]", "pong"}
	if strings.Join(res, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%.300s", strings.Join(res, "\n"))
	}
	if pids := mcpWaitLines(t, filepath.Join(dir, "pids"), 1); len(pids) != 1 {
		t.Errorf("the server was started %d times", len(pids))
	}
}

// A server-side tool name with a newline in it stays on one line in the
// 🔐 prompt and the 🔌 line, and in -p's refusal, declared one by one and
// through the mcp tool.
func TestMCPToolNameWithNewlineStaysOneLine(t *testing.T) {
	dir := t.TempDir()
	server := mcpTinyServer(t, "tiny", dir, "      env: {EXTRA: \"1\"}\n")
	cfg := writeConfig(t, dir, "yolo: false\nmcp:\n  servers:\n"+server)
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_odd_name", `{}`)}},
		llmtest.Turn{Text: "it ran"},
	)
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("odd")
	s.expect(`🔌 tiny/odd\nname: (no arguments)`)
	s.expect(`🔐 tiny/odd\nname (no arguments)`)
	s.expect("[a] allow once")
	s.answer("a")
	s.expect("it ran")
	if strings.Contains(s.text(), "odd\nname") {
		t.Errorf("the name broke a line:\n%s", s.text())
	}
	reqs := srv.ChatRequests()
	if got := mcpResults(t, reqs[len(reqs)-1]); len(got) != 1 || got[0] != "odd" {
		t.Errorf("result: %q", got)
	}

	// Through the mcp tool, in -p.
	budget := writeConfig(t, dir, "yolo: false\nmcp:\n  promptBudget: 0\n  servers:\n"+server)
	srv.Push(llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"call","server":"tiny","tool":"odd\nname"}`)}}, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", budget, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, `🔐 mcp tiny/odd\nname refused`) || strings.Contains(r.stderr, "odd\nname") {
		t.Errorf("the refusal is not one line:\n%s", r.stderr)
	}
}

// mm -acp starts the servers of mcp.servers with each session, not when
// the process starts: before session/new none runs; session/new starts
// one; closing the session stops it.
func TestMCPACPStartsServersWithTheSession(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nmcp:\n  servers:\n"+mcpTinyServer(t, "tiny", dir, ""))
	srv := llmtest.New(t)
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	pids := filepath.Join(dir, "pids")
	if b, _ := os.ReadFile(pids); len(b) > 0 {
		t.Fatalf("a server runs before any session: %q", b)
	}
	sid := c.newSession(dir)
	if got := mcpWaitLines(t, pids, 1); len(got) != 1 {
		t.Fatalf("session/new started %d servers", len(got))
	}
	c.call("session/close", map[string]any{"sessionId": sid})
	pid, _ := strconv.Atoi(mcpWaitLines(t, pids, 1)[0])
	mcpWaitGone(t, pid)
}
