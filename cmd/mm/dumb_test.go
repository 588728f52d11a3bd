package main_test

// TERM=dumb (Emacs' M-x shell, some CI logs): no status line can hold what
// the user types while the model works, so mm shows it as plain lines.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// waitChats waits until the server has received n chat requests: the turn
// runs, and mm reads the keys itself (the terminal no longer echoes them).
func waitChats(t *testing.T, srv *llmtest.Server, n int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(srv.ChatRequests()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("the server got %d chat request(s), want %d", len(srv.ChatRequests()), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// What is typed during a turn shows while the model works and at a 🔐
// prompt, never answers the prompt, and is the next prompt's input once
// the turn ends; no bracketed-paste switch is written.
func TestDumbTerminalShowsTypeAhead(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{FirstByteDelay: 2 * time.Second, ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch typed"}`}}},
		llmtest.Turn{Text: "over"},
		llmtest.Turn{FirstByteDelay: 2 * time.Second, Text: "second answer"},
		llmtest.Turn{Text: "third answer"},
	)
	s := startREPL(t, dir, srv, []string{"TERM=dumb", "AGENT_YOLO=false"})
	s.ask("go")
	waitChats(t, srv, 1)
	s.send("show me")
	s.expect("› show me")
	s.send(" the diff")
	s.expect(" the diff")
	s.expect("🔐 bash touch typed")
	s.expect("[a] allow once")
	s.expect(`   (typed so far: "show me the diff" — Ctrl-U clears it, Enter sends it)`)
	s.send("\x15") // Ctrl-U
	s.answer("r")
	s.expect("→ refused")
	s.expect("over")
	if _, err := os.Stat(filepath.Join(dir, "typed")); err == nil {
		t.Error("the command ran on type-ahead")
	}

	// Typed while the model works, not sent: it shows, then it is the
	// next prompt's input.
	s.ask("again")
	waitChats(t, srv, 3)
	s.send("next one")
	s.expect("› next one")
	s.expect("second answer")
	s.expect("› ")
	s.send("\r")
	s.expect("third answer")
	msgs := srv.ChatRequests()[3].JSON["messages"].([]any)
	if q := msgs[len(msgs)-1].(map[string]any)["content"]; q != "next one" {
		t.Errorf("the next question sent: %q", q)
	}
	if raw := s.raw(); strings.Contains(raw, "\x1b[?2004") {
		t.Errorf("bracketed-paste switch with TERM=dumb:\n%q", raw)
	}
}
