package main_test

// Faults found by reviewing mm -acp the way an editor meets it.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// A client learns a session's id from the answer to session/new: an
// update about the session sent before that answer is one it cannot place
// (Zed drops it, and the slash commands never appear).
func TestACPCommandsAfterNewSessionAnswer(t *testing.T) {
	dir := t.TempDir()
	c := startACP(t, dir, llmtest.New(t), nil)
	c.initialize()
	from := c.mark()
	id := c.request("session/new", map[string]any{"cwd": dir, "mcpServers": []any{}})
	answer, _ := c.waitFrom(from, "the answer to session/new", func(m acpMsg) bool { return m.isResponse(id) })
	update, _ := c.waitFrom(from, "available_commands_update", func(m acpMsg) bool {
		u := m.update()
		return u != nil && u["sessionUpdate"] == "available_commands_update"
	})
	if update < answer {
		t.Errorf("available_commands_update (message %d) came before the answer to session/new (message %d):\n%s", update, answer, c.transcript())
	}
}

// One session whose cwd cannot hold the trace directory does not stop the
// tracing of the other sessions: each traces into its own cwd.
func TestACPTraceFailureStaysInItsSession(t *testing.T) {
	dir, good, bad := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(bad, ".mm", "traces"), "a file where the directory goes\n")
	cfg := writeConfig(t, dir, "provider: llamacpp\ntrace:\n  enabled: true\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "bad"}, llmtest.Turn{Text: "good"})
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sb, sg := c.newSession(bad), c.newSession(good)
	if r := c.stopReason(c.prompt(sb, "hello")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	waitFor(t, "the trace warning", func() bool {
		return strings.Contains(c.stderr.String(), "[trace: cannot write to "+filepath.Join(bad, ".mm", "traces"))
	})
	if r := c.stopReason(c.prompt(sg, "hello")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	if traced := tracedRequests(t, good); len(traced) != 1 {
		t.Errorf("traces in the good session's cwd: %v\nstderr:\n%s", traced, c.stderr.String())
	}
}

// A call that failed shows as failed, even when the failure is said at the
// end of its output (a command killed by a cancel after it printed) or in
// the tool's own words (fetch_content's error codes).
func TestACPFailedCallsShowFailed(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		toolCall("f1", "fetch_content", jsonArgs(t, map[string]any{"url": "http://" + closedPort(t) + "/"})),
		llmtest.Turn{Text: "no page"},
		toolCall("b1", "bash", `{"command":"echo before; sleep 4217"}`),
	)
	cfg := writeConfig(t, dir, "provider: llamacpp\nfetchContentTool: true\n")
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	if r := c.stopReason(c.prompt(sid, "fetch")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	id := c.prompt(sid, "run")
	// Cancelled once the command has printed.
	c.waitUpdate(from, sid, "the command running", func(u map[string]any) bool {
		return u["toolCallId"] == "b1" && u["sessionUpdate"] == "tool_call"
	})
	waitFor(t, "the command's sleep", func() bool { return processRunning("sleep 4217") })
	c.notifyMM("session/cancel", map[string]any{"sessionId": sid})
	if r := c.stopReason(id); r != "cancelled" {
		t.Fatalf("stopReason %q", r)
	}
	us := c.updates(sid, from, -1)
	for _, call := range []string{"f1", "b1"} {
		u := ofCall(us, call)
		if len(u) == 0 || u[len(u)-1]["status"] != "failed" {
			t.Errorf("%s does not end failed: %v", call, u)
		}
	}
}

// processRunning reports whether a process of this user runs with that
// command line.
func processRunning(cmdline string) bool {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.ReplaceAll(strings.TrimRight(string(b), "\x00"), "\x00", " ") == cmdline {
			return true
		}
	}
	return false
}
