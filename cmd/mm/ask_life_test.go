package main_test

// The asked agent's signs of life and its permissions, through the
// binary: the ask's watch follows the child's model calls and counts its
// progress reports; the child runs with AGENT_YOLO=false and submits its
// calls to the agent that asks.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// appendTo adds lines to a config file.
func appendTo(t *testing.T, path, yaml string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, append(b, yaml...), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A child whose server sends llama.cpp's progress while it reads the
// prompt, for longer than both agents' watchdogTimeout and the child's
// firstTokenTimeout: each report is a sign of life (the child passes
// them on as _mm/progress), so the ask goes on to the answer.
func TestAskAgentProgressIsLife(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	// 5 s of reports half a second apart: longer than the 3 s limits
	// (and the ask's second of grace), a report well within each.
	child := llmtest.New(t, llmtest.Turn{Progress: []int{0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000}, ChunkDelay: 500 * time.Millisecond, Text: "Read it."})
	parentCfg, _ := askPair(t, dir, child, "watchdogTimeout: 3s\nfirstTokenTimeout: 3s\n", "")
	appendTo(t, parentCfg, "watchdogTimeout: 3s\n")
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"read this long prompt"}`),
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got := askResult(t, parent.ChatRequests()[1]); got != "Read it." {
		t.Errorf("tool result %q", got)
	}
}

// Before its first token, the child's firstTokenTimeout applies (3m by
// default), not this agent's watchdogTimeout: a server that takes longer
// than the latter to start answering is no dead child.
func TestAskAgentFirstTokenTimeoutApplies(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{FirstByteDelay: 3 * time.Second, Text: "Late but here."})
	parentCfg, _ := askPair(t, dir, child, "", "")
	appendTo(t, parentCfg, "watchdogTimeout: 1s\n")
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"answer"}`),
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got := askResult(t, parent.ChatRequests()[1]); got != "Late but here." {
		t.Errorf("tool result %q", got)
	}
}

// The asked agent runs with AGENT_YOLO=false whatever decides its calls:
// it submits them, and this agent's rule answers (its entry's yolo: true;
// then, without one, this agent's own yolo, true by default).
func TestAskAgentChildRunsWithYoloFalse(t *testing.T) {
	for _, entry := range []string{"yolo: true", "description: reviews code"} {
		dir := t.TempDir()
		child := llmtest.New(t,
			llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo \"$AGENT_YOLO\" > yolo.txt"}`}}},
			llmtest.Turn{Text: "noted"},
		)
		parentCfg, _ := askPair(t, dir, child, "", entry)
		parent := llmtest.New(t,
			askCall(`{"agent":"reviewer","prompt":"note it"}`),
			llmtest.Turn{Text: "done"},
		)
		r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
		if r.code != 0 {
			t.Fatalf("%s: exit %d\n%s", entry, r.code, r.stderr)
		}
		got, err := os.ReadFile(filepath.Join(dir, "yolo.txt"))
		if err != nil {
			t.Fatalf("%s: the call did not run: %v\n%s", entry, err, r.stderr)
		}
		if strings.TrimSpace(string(got)) != "false" {
			t.Errorf("%s: the child ran with AGENT_YOLO=%s", entry, got)
		}
		if strings.Contains(r.stderr, "refused") {
			t.Errorf("%s: a call was refused:\n%s", entry, r.stderr)
		}
	}
}

// mm -acp sends _mm/progress (an extension notification) while its
// model reads the prompt, to a client that asked for it in
// clientCapabilities._meta, and to no other: an editor never sees it.
func TestACPProgressNotification(t *testing.T) {
	for _, asks := range []bool{true, false} {
		dir := t.TempDir()
		srv := llmtest.New(t, llmtest.Turn{Progress: []int{0, 100, 200}, Text: "Read."})
		c := startACP(t, dir, srv, nil)
		caps := map[string]any{}
		if asks {
			caps["_meta"] = map[string]any{"mm/progress": true}
		}
		c.initializeWith(caps)
		sid := c.newSession(dir)
		from := c.mark()
		if r := c.stopReason(c.prompt(sid, "read")); r != "end_turn" {
			t.Fatalf("stop reason %s", r)
		}
		var got []string
		c.mu.Lock()
		for _, m := range c.msgs[from:] {
			if m.Method == "_mm/progress" {
				got = append(got, string(m.Params))
			}
		}
		c.mu.Unlock()
		switch {
		case asks && (len(got) == 0 || got[0] != `{"sessionId":"`+sid+`"}`):
			t.Errorf("asked for: the notifications %q", got)
		case !asks && len(got) > 0:
			t.Errorf("not asked for, yet sent: %q", got)
		}
	}
}

// A child that itself hangs while it reads its prompt (stopped by a
// signal: its own watchdog cannot run out) ends the ask once its
// firstTokenTimeout, and the ask's second of grace, have gone by.
func TestAskAgentHungChildWhileReading(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	child := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo $PPID > pid"}`}}},
		llmtest.Turn{FirstByteDelay: 30 * time.Second, Text: "too late"},
	)
	parentCfg, _ := askPair(t, dir, child, "watchdogTimeout: 1s\nfirstTokenTimeout: 2s\n", "yolo: true")
	appendTo(t, parentCfg, "watchdogTimeout: 1s\n")
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"note your pid, then answer"}`),
		llmtest.Turn{Text: "done"},
	)
	cmd := mmCommand(t, dir, parent, "-c", parentCfg, "-p", "go")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := waitPidFile(t, pidFile, 20*time.Second)
	// Once the child has sent its second model call, it reads: stop it.
	deadline := time.Now().Add(20 * time.Second)
	for len(child.ChatRequests()) < 2 {
		if time.Now().After(deadline) {
			t.Fatal("the child made no second model call")
		}
		time.Sleep(10 * time.Millisecond)
	}
	defer pausePid(t, pid)()
	if err := cmd.Wait(); err != nil {
		t.Fatalf("mm: %v", err)
	}
	want := "[ask_agent: reviewer failed: no sign of life from it for 2s (its firstTokenTimeout)]"
	if got := askResult(t, parent.ChatRequests()[1]); got != want {
		t.Errorf("tool result %q\nwant %q", got, want)
	}
}
