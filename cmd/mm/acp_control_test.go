package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// longCommand is a bash call that writes its pid, then sleeps in it.
func longCommand(id, pidFile string) llmtest.Turn {
	return toolCall(id, "bash", fmt.Sprintf(`{"command":"echo $$ > %s; exec sleep 30"}`, pidFile))
}

// waitGone waits for pid to end.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(acpWait)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s: process %d still runs", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// session/cancel stops the turn at once: the running command is killed
// and the prompt answers cancelled, never an error; the session goes on.
func TestACPCancelKillsCommand(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	srv := llmtest.New(t, longCommand("s1", pidFile), llmtest.Turn{Text: "next answer"})
	c := startACP(t, dir, srv, nil)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	id := c.prompt(sid, "sleep")
	pid := waitPidFile(t, pidFile, acpWait)
	c.notifyMM("session/cancel", map[string]any{"sessionId": sid})
	if r := c.stopReason(id); r != "cancelled" {
		t.Fatalf("stopReason %q", r)
	}
	waitGone(t, pid, "after session/cancel")
	if u := ofCall(c.updates(sid, from, -1), "s1"); len(u) != 2 || u[1]["status"] != "failed" {
		t.Errorf("the cancelled call: %v", u)
	}
	// The history was closed as the line mode closes a stopped turn: the
	// next prompt gets an answer, and the call has its response.
	if r := c.stopReason(c.prompt(sid, "and now?")); r != "end_turn" {
		t.Fatalf("after the cancel: %q", r)
	}
	reqs := srv.ChatRequests()
	if got := lastToolMessage(t, reqs[1]); got == "" {
		t.Errorf("the cancelled call has no response in the next request")
	}
}

// A cancel while a permission request waits abandons it: the SDK tells
// the client, and the prompt answers cancelled.
func TestACPCancelDuringPermission(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, toolCall("p1", "bash", `{"command":"touch never"}`), llmtest.Turn{Text: "ok"})
	cfg := writeConfig(t, dir, "provider: llamacpp\nyolo: false\n")
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	id := c.prompt(sid, "go")
	i, perm := c.waitRequest(0, "session/request_permission")
	c.notifyMM("session/cancel", map[string]any{"sessionId": sid})
	if r := c.stopReason(id); r != "cancelled" {
		t.Fatalf("stopReason %q", r)
	}
	c.waitFrom(i, "a $/cancel_request for the permission request", func(m acpMsg) bool {
		return m.Method == "$/cancel_request" && strings.Contains(string(m.Params), string(perm.ID))
	})
	// A late answer changes nothing.
	c.respond(perm.ID, map[string]any{"outcome": selected("allow_once")})
	if r := c.stopReason(c.prompt(sid, "hello")); r != "end_turn" {
		t.Fatalf("after a late permission answer: %q", r)
	}
	if fileExists(filepath.Join(dir, "never")) {
		t.Error("the call ran after the cancel")
	}
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}

// A second prompt while one runs in the same session is an error; the
// running one goes on to its end (the SDK alone would cancel it).
func TestACPBusySession(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	srv := llmtest.New(t,
		toolCall("s1", "bash", fmt.Sprintf(`{"command":"echo $$ > %s; while [ ! -e go-on ]; do sleep 0.02; done; echo finished"}`, pidFile)),
		llmtest.Turn{Text: "the first prompt's answer"})
	c := startACP(t, dir, srv, nil)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	first := c.prompt(sid, "wait")
	waitPidFile(t, pidFile, acpWait)
	m := c.response(c.prompt(sid, "again"))
	if m.Error == nil || !strings.Contains(m.Error.Message, "already running a prompt") {
		t.Fatalf("second prompt: %s", m.Raw)
	}
	write(t, filepath.Join(dir, "go-on"), "")
	if r := c.stopReason(first); r != "end_turn" {
		t.Fatalf("the first prompt: stopReason %q", r)
	}
	if u := ofCall(c.updates(sid, from, -1), "s1"); len(u) != 2 || contentText(u[1]) != "finished\n" {
		t.Errorf("the first prompt's command: %v", u)
	}
}

// Stdin closed: mm stops the running turn, kills its command and exits 0.
func TestACPStdinClosedEndsCleanly(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	srv := llmtest.New(t, longCommand("s1", pidFile))
	c := startACP(t, dir, srv, nil)
	c.initialize()
	sid := c.newSession(dir)
	c.prompt(sid, "sleep")
	pid := waitPidFile(t, pidFile, acpWait)
	if code := c.closeInput(); code != 0 {
		t.Fatalf("exit %d\n%s", code, c.stderr.String())
	}
	if !gone(pid) {
		t.Errorf("the command %d outlived mm", pid)
	}
}

func TestACPStopReasons(t *testing.T) {
	t.Run("maxTurns", func(t *testing.T) {
		dir := t.TempDir()
		srv := llmtest.New(t, toolCall("t1", "bash", `{"command":"true"}`))
		cfg := writeConfig(t, dir, "provider: llamacpp\nmaxTurns: 1\n")
		c := startACP(t, dir, srv, nil, "-c", cfg)
		c.initialize()
		if r := c.stopReason(c.prompt(c.newSession(dir), "go")); r != "max_turn_requests" {
			t.Errorf("stopReason %q", r)
		}
	})
	t.Run("max_tokens", func(t *testing.T) {
		dir := t.TempDir()
		cut := llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "w", Name: "write_file", Arguments: `{"path":"a.txt","content":"aaaa`}}, Finish: "length"}
		srv := llmtest.New(t, cut, cut, cut)
		c := startACP(t, dir, srv, nil)
		c.initialize()
		sid := c.newSession(dir)
		from := c.mark()
		if r := c.stopReason(c.prompt(sid, "go")); r != "max_tokens" {
			t.Errorf("stopReason %q", r)
		}
		// The calls handed back are told to the user, as thoughts.
		if got := chunkText(c.updates(sid, from, -1), "agent_thought_chunk"); !strings.Contains(got, "cut at max_tokens") {
			t.Errorf("thoughts: %q", got)
		}
		waitFor(t, "the notice on stderr", func() bool { return strings.Contains(c.stderr.String(), "cut at max_tokens") })
	})
}

// The watchdog ends the prompt with a JSON-RPC error whose message is the
// reference's text, and the stored session records it.
func TestACPWatchdogError(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: "partial answer here", Fault: llmtest.FaultHangMidStream, FaultAfter: 6})
	cfg := writeConfig(t, dir, "provider: llamacpp\nwatchdogTimeout: 1s\nfirstTokenTimeout: 2s\nsessions:\n  enabled: true\n")
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	m := c.response(c.prompt(sid, "go"))
	const want = "[error: connection hang detected after 1s]"
	if m.Error == nil || m.Error.Message != want {
		t.Fatalf("answer: %s", m.Raw)
	}
	s := readSession(t, filepath.Join(dir, ".mm", "sessions", sid+".json"))
	errs, _ := s["errors"].([]any)
	if len(errs) != 1 || errs[0].(map[string]any)["message"] != want || errs[0].(map[string]any)["where"] != "generation" {
		t.Errorf("errors: %v", s["errors"])
	}
}

func TestACPUnknownSessionAndMethod(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t)
	c := startACP(t, dir, srv, nil)
	c.initialize()
	m := c.response(c.prompt("nope-123", "hi"))
	if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, `"nope-123"`) {
		t.Errorf("unknown session: %s", m.Raw)
	}
	m = c.callBad("session/fly", map[string]any{})
	if m.Error == nil || m.Error.Code != -32601 {
		t.Errorf("unknown method: %s", m.Raw)
	}
	// Without sessions.enabled there is nothing to load or list.
	m = c.call("session/load", map[string]any{"sessionId": "x", "cwd": dir, "mcpServers": []any{}})
	if m.Error == nil || m.Error.Code != -32601 {
		t.Errorf("session/load: %s", m.Raw)
	}
}

// Bad input never ends the connection.
func TestACPBadInput(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t)
	c := startACP(t, dir, srv, nil)
	c.sendRaw(`{"jsonrpc":"2.0","id":1,"method":"initialize",`, true)
	_, m := c.waitFrom(0, "a parse error", func(m acpMsg) bool { return m.Error != nil })
	if m.Error.Code != -32700 || string(m.ID) != "null" {
		t.Errorf("malformed line: %s", m.Raw)
	}
	c.initialize()
	for _, line := range []string{`[1,2]`, `"hello"`, `{"jsonrpc":"2.0"}`} {
		from := c.mark()
		c.sendRaw(line, true)
		_, m := c.waitFrom(from, "an error for "+line, func(m acpMsg) bool { return m.Error != nil })
		if m.Error.Code != -32600 {
			t.Errorf("%s: %s", line, m.Raw)
		}
	}
	m = c.callBad("session/new", map[string]any{"cwd": dir}) // no mcpServers
	if m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("bad params: %s", m.Raw)
	}
	// A line over the SDK's 10 MiB limit is answered and dropped.
	from := c.mark()
	huge := `{"jsonrpc":"2.0","id":77,"method":"session/prompt","params":{"sessionId":"x","prompt":[{"type":"text","text":"` + strings.Repeat("a", 11<<20) + `"}]}}`
	c.sendRaw(huge, true)
	_, m = c.waitFrom(from, "an error for the huge line", func(m acpMsg) bool { return m.Error != nil })
	if m.Error.Code != -32600 || string(m.ID) != "77" {
		t.Errorf("huge line: %s", m.Raw)
	}
	sid := c.newSession(dir)
	if sid == "" {
		t.Fatal("the connection does not work after bad input")
	}
}
