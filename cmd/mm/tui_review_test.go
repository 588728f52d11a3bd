package main_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"

	"github.com/creack/pty"
)

// A key that moves the highlight, once the guard has let it through, makes
// the keys after it answers: ↓ then Enter typed in quick succession (as a
// person picks an option) answers the question, and Space then Enter sends
// a multi; the Enter is not lost for coming within 500 ms of the ↓.
func TestTUIAskUserQuickEnterAfterMove(t *testing.T) {
	srv := llmtest.New(t,
		call("ask_user", `{"questions":[{"question":"Which colour?","type":"choice","options":["red","blue","green"]},{"question":"Which files?","type":"multi","options":["a.go","b.go"]}]}`),
		llmtest.Turn{Text: "Noted."},
	)
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("ask me\r")
	s.wait("❓ Which colour? (1/2)")
	time.Sleep(700 * time.Millisecond) // the question read
	s.send("\x1b[B")
	s.wait("❯ 2. blue")
	s.send("\r")
	s.wait("❓ Which files? (2/2)")
	time.Sleep(700 * time.Millisecond)
	s.send(" ")
	s.wait("❯ [x] a.go")
	s.send("\r")
	s.wait("Noted.")
	want := "The user answered:\n- Which colour? → blue\n- Which files? → a.go"
	if got := toolResult(t, srv, 1); got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
}

// A call that did not complete ends `· failed`, as ACP shows it: a bash
// command stopped by Esc, a form declined.
func TestTUICancelledCallFailed(t *testing.T) {
	srv := llmtest.New(t,
		call("bash", `{"command":"sleep 30"}`),
		call("ask_user", `{"questions":[{"question":"Which colour?","type":"choice","options":["red","blue"]}]}`),
		llmtest.Turn{Text: "Declined, fine."},
	)
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("sleep\r")
	s.wait("‣ bash sleep 30 · running")
	s.send("\x1b")
	s.wait("[turn stopped]")
	s.wait("‣ bash sleep 30 · failed")

	s.send("ask\r")
	s.wait("❓ Which colour?")
	s.send("\x1b")
	s.wait("Declined, fine.")
	s.wait("‣ ask_user 1 question(s) · failed")
}

// A paste of several lines into the empty box shows them all, the first
// on the box's first row: the box grew, its view was left scrolled to
// the last line with empty rows under it.
func TestTUIPasteShowsEveryLine(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "got it"})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("\x1b[200~first pasted\nsecond pasted\nthird pasted\x1b[201~")
	s.waitFor("the three lines in the box", func(scr string) bool {
		return strings.Contains(scr, "› first pasted\n› second pasted\n› third pasted")
	})
	s.send("\r")
	s.wait("got it")
}

// A command too long for the permission zone (at 80x24, half the window)
// keeps the answer keys on screen, and its whole text is in the
// conversation, where PgUp reaches its last line: before, the keys line
// was cut with the command's end, and that end could not be read at all.
func TestTUILongPermissionKeepsKeys(t *testing.T) {
	var cmd []string
	for i := range 60 {
		cmd = append(cmd, fmt.Sprintf("echo line%02d", i))
	}
	args, _ := json.Marshal(map[string]string{"command": strings.Join(cmd, "\n")})
	srv := llmtest.New(t, call("bash", string(args)), llmtest.Turn{Text: "ran it"})
	s := startTUI(t, t.TempDir(), srv, []string{"AGENT_YOLO=false"})
	s.wait("Ctrl-D quits")
	s.send("big\r")
	s.wait("🔐 bash: 60 lines")
	s.wait("[a] allow once")
	s.wait("the whole request is in the conversation (PgUp)")
	s.send("\x1b[5~") // PgUp
	s.wait("echo line59")
	s.send("\x1b[F") // End
	s.answer("a")
	s.wait("ran it")
}

// A request that fitted the permission zone, cut when the window shrinks
// under it, is put in the conversation then, where PgUp reaches its end.
func TestTUIPermissionCutByResize(t *testing.T) {
	var cmd []string
	for i := range 8 {
		cmd = append(cmd, fmt.Sprintf("echo line%02d", i))
	}
	args, _ := json.Marshal(map[string]string{"command": strings.Join(cmd, "\n")})
	srv := llmtest.New(t, call("bash", string(args)), llmtest.Turn{Text: "ran it"})
	s := startTUI(t, t.TempDir(), srv, []string{"AGENT_YOLO=false"})
	s.wait("Ctrl-D quits")
	s.send("some\r")
	s.wait("echo line07")
	s.wait("[a] allow once")
	if strings.Contains(s.screen(), "more line(s)") {
		t.Fatalf("the request was cut at 24 rows:\n%s", s.screen())
	}
	s.mu.Lock()
	s.emu.Resize(80, 12)
	s.mu.Unlock()
	if err := pty.Setsize(s.tty, &pty.Winsize{Rows: 12, Cols: 80}); err != nil {
		t.Fatal(err)
	}
	s.wait("the whole request is in the conversation (PgUp)")
	s.send("\x1b[5~") // PgUp
	s.wait("echo line07")
	s.send("\x1b[F") // End
	s.answer("a")
	s.wait("ran it")
}

// Options longer than the window is wide: the highlighted one is drawn
// whole, wrapped, so two options alike up to the width can be told apart
// (they were cut to the width, the part that differs hidden).
func TestTUIAskUserLongOptionsReadable(t *testing.T) {
	long := strings.Repeat("use the same long approach ", 4)
	args, _ := json.Marshal(map[string]any{"questions": []any{map[string]any{
		"question": "Which one?", "type": "choice", "options": []string{long + "ending alpha", long + "ending beta"}}}})
	srv := llmtest.New(t, call("ask_user", string(args)), llmtest.Turn{Text: "Noted."})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("ask\r")
	s.wait("❓ Which one?")
	s.wait("ending alpha")
	s.send("\x1b[B")
	s.wait("ending beta")
	s.answer("\r")
	s.wait("Noted.")
	if got := toolResult(t, srv, 1); got != "The user answered:\n- Which one? → "+long+"ending beta" {
		t.Errorf("the model read %q", got)
	}
}

// Ctrl-C on a box with text and nothing running clears the box, as the
// line mode's Ctrl-C clears its line, and does not count towards quitting:
// a second Ctrl-C (on the empty box) does not end mm, a third does.
func TestTUICtrlCClearsBox(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "still here"})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("a long question I changed my mind about")
	s.wait("› a long question I changed my mind about")
	s.send("\x03")
	s.waitFor("the box cleared", func(string) bool { return s.row(23) == "›" })
	s.send("\x03")
	s.wait("Ctrl-C again quits")
	s.send("hello\r") // another key: Ctrl-C starts again
	s.wait("still here")
	s.send("\x03")
	s.wait("Ctrl-C again quits")
	s.send("\x03")
	if code := exitCodeOf(s.exit()); code != 130 {
		t.Errorf("exit status %d, want 130", code)
	}
}
