package main_test

// Faults found by reviewing mm -acp the way an editor meets it.

import (
	"encoding/json"
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

// An editor keys its tool call entries by toolCallId, and the model
// writes the ids: one that reuses an id (call_1 at every turn, twice in
// one reply) or writes anything there still gets one entry per call, and
// the permission request and updates of a call name its entry.
func TestACPToolCallIDsAreUnique(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{
			{ID: "call_1", Name: "bash", Arguments: `{"command":"echo a"}`},
			{ID: "call_1", Name: "bash", Arguments: `{"command":"echo b"}`},
		}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "\x1b[31m../x\n", Name: "bash", Arguments: `{"command":"echo c"}`}}},
		llmtest.Turn{Text: "first"},
		toolCall("call_1", "bash", `{"command":"echo d"}`),
		llmtest.Turn{Text: "second"},
	)
	cfg := writeConfig(t, dir, "provider: llamacpp\nyolo: false\nsessions:\n  enabled: true\n")
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	answer := func(id int) {
		t.Helper()
		next := c.mark()
		for {
			i, m := c.waitFrom(next, "a permission request or the answer", func(m acpMsg) bool {
				return m.isResponse(id) || m.Method == "session/request_permission"
			})
			if m.Method == "" {
				return
			}
			c.respond(m.ID, map[string]any{"outcome": selected("allow_once")})
			next = i + 1
		}
	}
	answer(c.prompt(sid, "one"))
	answer(c.prompt(sid, "two"))
	checkIDs := func(us []map[string]any, requests []map[string]any, want int) {
		t.Helper()
		seen, ended := map[string]bool{}, map[string]bool{}
		for _, u := range us {
			id, _ := u["toolCallId"].(string)
			if u["status"] == "completed" || u["status"] == "failed" {
				ended[id] = true
			}
			switch u["sessionUpdate"] {
			case "tool_call":
				if seen[id] {
					t.Errorf("two tool_calls share the id %q", id)
				}
				if strings.ContainsAny(id, "\x1b\n/") {
					t.Errorf("a tool call id with control characters or a slash: %q", id)
				}
				seen[id] = true
			case "tool_call_update":
				if !seen[id] {
					t.Errorf("an update of %q, never announced", id)
				}
			}
		}
		if len(seen) != want || len(ended) != want {
			t.Errorf("%d tool calls, %d ended, want %d: %v %v", len(seen), len(ended), want, seen, ended)
		}
		for _, p := range requests {
			if tc, _ := p["toolCall"].(map[string]any); !seen[tc["toolCallId"].(string)] {
				t.Errorf("a permission request for an unknown call: %v", tc["toolCallId"])
			}
		}
	}
	var requests []map[string]any
	c.mu.Lock()
	for _, m := range c.msgs[from:] {
		if m.Method == "session/request_permission" {
			var p map[string]any
			json.Unmarshal(m.Params, &p)
			requests = append(requests, p)
		}
	}
	c.mu.Unlock()
	if len(requests) != 4 {
		t.Errorf("%d permission requests, want 4", len(requests))
	}
	checkIDs(c.updates(sid, from, -1), requests, 4)
	// The same in the replay of session/load.
	from = c.mark()
	var res map[string]any
	c.result(c.call("session/load", map[string]any{"sessionId": sid, "cwd": dir, "mcpServers": []any{}}), &res)
	checkIDs(c.updates(sid, from, -1), nil, 4)
}
