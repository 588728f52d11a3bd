package main_test

// The window mode (mm -tui) driven in a pseudo-terminal whose output a
// terminal emulator (x/vt) draws: the tests read the screen a person sees,
// and wait for what it shows, never for a time.

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"

	"mm/internal/llmtest"
)

type tuiSession struct {
	t    testing.TB
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	emu  *vt.Emulator
	raw  bytes.Buffer // every byte mm wrote
	alt  bool         // the emulator is on the alternate screen
	done chan error
	read chan struct{} // closed when mm's output has all been read
}

// startTUI starts mm -tui in an 80x24 terminal and waits for its header.
func startTUI(t testing.TB, dir string, srv *llmtest.Server, env []string, args ...string) *tuiSession {
	t.Helper()
	return startTUIBin(t, mmBin, dir, srv, env, args...)
}

// startTUIBin is startTUI with another build of mm (hooksBin).
func startTUIBin(t testing.TB, bin, dir string, srv *llmtest.Server, env []string, args ...string) *tuiSession {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"-tui"}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "TERM=xterm-256color")
	if srv != nil {
		cmd.Env = append(cmd.Env, "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	}
	cmd.Env = append(cmd.Env, env...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 80})
	if err != nil {
		t.Fatal(err)
	}
	s := &tuiSession{t: t, cmd: cmd, tty: tty, emu: vt.NewEmulator(80, 24), done: make(chan error, 1), read: make(chan struct{})}
	s.emu.SetCallbacks(vt.Callbacks{AltScreen: func(on bool) { s.alt = on }})
	go func() {
		defer close(s.read)
		buf := make([]byte, 32*1024)
		for {
			n, err := tty.Read(buf)
			s.mu.Lock()
			s.raw.Write(buf[:n])
			s.emu.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	// The emulator answers mm's queries (colours, cursor) as a terminal
	// does: its replies go back to mm as input.
	go func() {
		buf := make([]byte, 1024)
		for {
			n, err := s.emu.Read(buf)
			if n > 0 {
				tty.Write(buf[:n])
			}
			if err != nil {
				return
			}
		}
	}()
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		tty.Close()
		s.mu.Lock()
		s.emu.Close()
		// Under MM_TEST_RACE=1 a race report goes to the terminal.
		if strings.Contains(s.raw.String(), "WARNING: DATA RACE") {
			t.Errorf("mm reported a data race:\n%s", s.raw.String())
		}
		s.mu.Unlock()
	})
	return s
}

// screen is the text the terminal shows now.
func (s *tuiSession) screen() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.emu.String()
}

// row is the text of one row of the screen.
func (s *tuiSession) row(y int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var b strings.Builder
	for x := 0; x < s.emu.Width(); x++ {
		if c := s.emu.CellAt(x, y); c != nil {
			b.WriteString(c.Content)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// wait waits until the screen shows want.
func (s *tuiSession) wait(want string) {
	s.t.Helper()
	s.waitFor(want, func(scr string) bool { return strings.Contains(scr, want) })
}

func (s *tuiSession) waitFor(what string, ok func(string) bool) {
	s.t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		if ok(s.screen()) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatalf("timed out waiting for %s; the screen:\n%s", what, s.screen())
}

func (s *tuiSession) send(keys string) {
	s.t.Helper()
	if _, err := s.tty.Write([]byte(keys)); err != nil {
		s.t.Fatal(err)
	}
}

// exit waits for mm to end and returns the error of its wait.
func (s *tuiSession) exit() error {
	s.t.Helper()
	select {
	case err := <-s.done:
		// What mm wrote last (leaving the alternate screen) is drawn
		// once the pty has been read to its end.
		select {
		case <-s.read:
		case <-time.After(10 * time.Second):
			s.t.Fatal("the pty was not read to its end")
		}
		return err
	case <-time.After(20 * time.Second):
		s.t.Fatalf("mm did not exit; the screen:\n%s", s.screen())
		return nil
	}
}

// exitCodeOf is the status of a wait's error (0 for nil).
func exitCodeOf(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// answer presses a key in the permission zone once it has been on screen
// longer than mm's guard (500 ms), as a person reading it does.
func (s *tuiSession) answer(k string) {
	time.Sleep(700 * time.Millisecond)
	s.send(k)
}

// The header on the top row, the question, the answer under `‣ mm`, then
// Ctrl-D on the empty box: the alternate screen is left, the cursor shown,
// and one line says how to go on.
func TestTUIAnswerAndCtrlD(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "The answer is forty-two."})
	cfg := writeConfig(t, t.TempDir(), "model: test-model\nacp:\n  title: Homer (coder)\n")
	s := startTUI(t, t.TempDir(), srv, nil, "-c", cfg)
	s.wait("Ctrl-D quits")
	if got, want := s.row(0), "mm [Homer (coder)] · test-model @ llamacpp"; got != want {
		t.Errorf("header %q, want %q", got, want)
	}
	s.send("what is it?\r")
	s.wait("The answer is forty-two.")
	s.wait("‣ mm [Homer (coder)]")
	s.wait("› what is it?")
	if got := s.row(0); !strings.HasPrefix(got, "mm [Homer (coder)]") {
		t.Errorf("the header left the top row: %q", got)
	}
	s.waitFor("the alternate screen", func(string) bool { s.mu.Lock(); defer s.mu.Unlock(); return s.alt })
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Fatalf("mm -tui ended with %v:\n%s", err, s.screen())
	}
	s.mu.Lock()
	alt, hidden, raw := s.alt, s.emu.CursorHidden(), s.raw.String()
	s.mu.Unlock()
	if alt || hidden {
		t.Errorf("terminal not restored: alternate screen %v, cursor hidden %v", alt, hidden)
	}
	if !strings.Contains(s.screen(), "[left the window mode") {
		t.Errorf("no line on how to go on:\n%s", s.screen())
	}
	if !strings.Contains(raw, "\x1b[?1049l") {
		t.Error("the alternate screen was never left")
	}
}

// The built-in title is left out of the header and of the answer's label.
func TestTUIHeaderBuiltInTitle(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "hello there"})
	cfg := writeConfig(t, t.TempDir(), "model: m1\n")
	s := startTUI(t, t.TempDir(), srv, nil, "-c", cfg)
	s.wait("Ctrl-D quits")
	if got, want := s.row(0), "mm · m1 @ llamacpp"; got != want {
		t.Errorf("header %q, want %q", got, want)
	}
	s.send("hi\r")
	s.wait("hello there")
	if !strings.Contains(s.screen(), "‣ mm\n") {
		t.Errorf("no ‣ mm label:\n%s", s.screen())
	}
}

// With yolo: false the permission zone replaces the input box: a allows
// the call (the command runs, its line says done), n refuses it and the
// model reads the ACP text.
func TestTUIBashPermission(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		call("bash", `{"command":"touch made && echo hello-from-bash"}`), llmtest.Turn{Text: "first done"},
		call("bash", `{"command":"touch refused"}`), llmtest.Turn{Text: "second done"},
	)
	s := startTUI(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.wait("Ctrl-D quits")
	s.send("make it\r")
	s.wait("🔐 bash touch made && echo hello-from-bash")
	s.wait("[a] allow once")
	s.answer("a")
	s.wait("allowed once")
	s.wait("‣ bash touch made && echo hello-from-bash · done")
	s.wait("hello-from-bash")
	s.wait("first done")
	// The answer sits under the call's line, above the output that came
	// after it.
	s.waitFor("the answer between the call and its output", func(scr string) bool {
		return regexp.MustCompile(`‣ bash touch made && echo hello-from-bash · done[^\n]*\n +→ allowed once\s*\n *hello-from-bash`).MatchString(scr)
	})
	if _, err := os.Stat(filepath.Join(dir, "made")); err != nil {
		t.Error("the allowed command did not run")
	}

	s.send("again\r")
	s.wait("🔐 bash touch refused")
	s.answer("n")
	s.wait("refused for the session")
	s.wait("‣ bash touch refused · refused")
	s.wait("second done")
	if _, err := os.Stat(filepath.Join(dir, "refused")); err == nil {
		t.Error("the refused command ran")
	}
	reqs := srv.ChatRequests()
	msgs := reqs[3].JSON["messages"].([]any)
	if got := msgs[len(msgs)-1].(map[string]any)["content"].(string); got != "[command rejected by the user]" {
		t.Errorf("the refusal the model read: %q", got)
	}
}

// A key typed before the zone has been on screen long enough is not an
// answer (the line mode's type-ahead guard).
func TestTUIPermissionGuard(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, call("bash", `{"command":"touch x"}`), llmtest.Turn{Text: "over"})
	s := startTUI(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.wait("Ctrl-D quits")
	s.send("go\r")
	s.wait("[a] allow once")
	s.send("a") // at once: too soon
	s.answer("r")
	s.wait("→ refused")
	s.wait("over")
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("the key typed too soon allowed the call")
	}
}

// Esc stops a streaming answer; the next question works.
func TestTUIEscCancels(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Turn{Text: "one two three four five six seven eight nine ten eleven twelve", ChunkDelay: 300 * time.Millisecond},
		llmtest.Turn{Text: "Second answer."},
	)
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("count\r")
	s.wait("one two")
	s.send("\x1b")
	s.wait("[turn stopped]")
	if strings.Contains(s.screen(), "twelve") {
		t.Errorf("the answer went on after Esc:\n%s", s.screen())
	}
	s.send("next\r")
	s.wait("Second answer.")
}

// Ctrl-C twice quits (status 130, as an interrupted line mode), and the
// terminal is restored; a SIGINT is a Ctrl-C.
func TestTUICtrlCTwice(t *testing.T) {
	srv := llmtest.New(t)
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("\x03")
	s.wait("Ctrl-C again quits")
	s.send("\x03")
	if code := exitCodeOf(s.exit()); code != 130 {
		t.Fatalf("mm -tui ended with status %d, want 130 (interrupted)", code)
	}
	s.mu.Lock()
	if s.alt || s.emu.CursorHidden() {
		t.Error("terminal not restored after Ctrl-C twice")
	}
	s.mu.Unlock()

	s = startTUI(t, t.TempDir(), llmtest.New(t), nil)
	s.wait("Ctrl-D quits")
	s.cmd.Process.Signal(os.Interrupt)
	s.wait("Ctrl-C again quits")
	s.cmd.Process.Signal(os.Interrupt)
	if code := exitCodeOf(s.exit()); code != 130 {
		t.Fatalf("status %d after two SIGINTs, want 130", code)
	}
}

// Text from the model with escape sequences is drawn inert: no title set,
// no screen cleared, the bytes never written raw.
func TestTUIHostileText(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "safe\x1b]0;pwned\x07 \x1b[2Jstill \u202eevil\x1b[31m red"})
	s := startTUI(t, t.TempDir(), srv, nil)
	var titles []string
	s.mu.Lock()
	s.emu.SetCallbacks(vt.Callbacks{AltScreen: func(on bool) { s.alt = on }, Title: func(t string) { titles = append(titles, t) }})
	s.mu.Unlock()
	s.wait("Ctrl-D quits")
	s.send("hi\r")
	s.wait("safe^[]0;pwned^G ^[[2Jstill <U+202E>evil^[[31m red")
	s.mu.Lock()
	raw := s.raw.String()
	got := titles
	s.mu.Unlock()
	for _, bad := range []string{"\x1b]0;pwned", "\x1b[2Jstill", "\u202e", "\x1b[31m red"} {
		if strings.Contains(raw, bad) {
			t.Errorf("%q reached the terminal raw", bad)
		}
	}
	for _, title := range got {
		if strings.Contains(title, "pwned") {
			t.Errorf("the model set the window title: %q", title)
		}
	}
}

// Without a terminal -tui falls back to the line mode with one notice; so
// does tui: true; -acp ignores the key.
func TestTUIFallbacks(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "plain answer"}, llmtest.Turn{Text: "from the key"})
	dir := t.TempDir()
	r := mm(t, dir, srv, nil, "hello\n", "-tui")
	if r.code != 0 || strings.Count(r.stdout, "[the window mode (-tui) needs a terminal: line mode]") != 1 || !strings.Contains(r.stdout, "plain answer") {
		t.Errorf("piped -tui: code %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	cfg := writeConfig(t, t.TempDir(), "tui: true\n")
	r = mm(t, dir, srv, nil, "hello\n", "-c", cfg)
	if strings.Count(r.stdout, "needs a terminal: line mode]") != 1 || !strings.Contains(r.stdout, "from the key") {
		t.Errorf("piped tui: true: code %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
}

// tui: true in the configuration opens the window in a terminal.
func TestTUIConfigKey(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "windowed"})
	cfg := writeConfig(t, t.TempDir(), "tui: true\nmodel: keyed\n")
	s := startPTY(t, t.TempDir(), srv, nil, "-c", cfg)
	s.expect("mm · keyed @ llamacpp")
	s.expect("Ctrl-D quits")
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.text(), "[left the window mode") {
		t.Errorf("tui: true did not open the window:\n%s", s.text())
	}
}

// -acp ignores tui: true: it speaks the protocol on stdout.
func TestTUIIgnoredWithACP(t *testing.T) {
	cfg := writeConfig(t, t.TempDir(), "tui: true\n")
	init := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}` + "\n"
	r := mm(t, t.TempDir(), llmtest.New(t), nil, init, "-acp", "-c", cfg)
	if !strings.HasPrefix(r.stdout, `{"jsonrpc":"2.0","id":1,"result"`) || strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("-acp with tui: true wrote:\n%q\n%s", r.stdout, r.stderr)
	}
}

// numbered is n lines "line 01" … for a long answer.
func numbered(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "line %02d\n", i)
	}
	return b.String()
}

// PgUp/PgDn and Home/End scroll the conversation; a stream does not pull
// a conversation scrolled up back to the bottom; End follows it again.
func TestTUIScrolling(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Turn{Text: numbered(60)},
		llmtest.Turn{Text: "first-chunk " + strings.Repeat("more ", 5) + "\n" + numbered(30) + "the-very-end", ChunkDelay: 20 * time.Millisecond},
	)
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("long\r")
	s.wait("line 60")
	s.wait("in / ")
	if strings.Contains(s.screen(), "line 01") {
		t.Errorf("line 01 should have scrolled out of a 24-row window:\n%s", s.screen())
	}
	s.send("\x1b[5~") // PgUp
	s.waitFor("line 60 scrolled out", func(scr string) bool { return !strings.Contains(scr, "line 60") })
	s.wait("scrolled up (End follows)")
	s.send("\x1b[H") // Home
	s.wait("Enter sends")
	if got := s.row(0); !strings.HasPrefix(got, "mm · ") {
		t.Errorf("the header left the top row when scrolled: %q", got)
	}
	s.send("\x1b[6~") // PgDn
	s.waitFor("the page after the top", func(scr string) bool { return !strings.Contains(scr, "Enter sends") })
	s.send("\x1b[F") // End
	s.wait("line 60")

	s.send("stream\r")
	s.wait("first-chunk")
	s.send("\x1b[5~")
	s.wait("scrolled up (End follows)")
	// The turn's summary on the status line: the stream has ended while
	// the conversation was scrolled up, and stayed where it was.
	s.waitFor("the second summary", func(scr string) bool {
		return strings.Count(s.statusRow(), "in / ") == 1 && !strings.Contains(scr, "Thinking")
	})
	if strings.Contains(s.screen(), "the-very-end") {
		t.Errorf("the stream pulled the scrolled-up conversation to the bottom:\n%s", s.screen())
	}
	s.send("\x1b[F")
	s.wait("the-very-end")
}

// statusRow is the row above the input box.
func (s *tuiSession) statusRow() string {
	s.mu.Lock()
	h := s.emu.Height()
	s.mu.Unlock()
	return s.row(h - 2)
}

// A resize lays the conversation out again for the new width; the header
// stays on the top row and the box at the bottom.
func TestTUIResizeReflows(t *testing.T) {
	var words []string
	for i := 1; i <= 40; i++ {
		words = append(words, fmt.Sprintf("w%02d", i))
	}
	srv := llmtest.New(t, llmtest.Turn{Text: strings.Join(words, " ")})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("words\r")
	s.wait("w40")
	s.mu.Lock()
	s.emu.Resize(50, 20)
	s.mu.Unlock()
	if err := pty.Setsize(s.tty, &pty.Winsize{Rows: 20, Cols: 50}); err != nil {
		t.Fatal(err)
	}
	// 40 words of 4 columns: 4 rows at 50 columns (3 at 80).
	s.waitFor("the answer on 4 rows", func(scr string) bool {
		n := 0
		for _, l := range strings.Split(scr, "\n") {
			if strings.Contains(l, "w") && strings.HasPrefix(strings.TrimSpace(l), "w") {
				n++
			}
		}
		return n == 4 && strings.Contains(scr, "w40")
	})
	if got := s.row(0); !strings.HasPrefix(got, "mm · ") {
		t.Errorf("header after the resize: %q", got)
	}
	if got := s.row(19); !strings.HasPrefix(got, "›") {
		t.Errorf("the input box is not on the last row after the resize: %q\n%s", got, s.screen())
	}
}

// Leaving while a command runs stops the turn and still restores the
// terminal.
func TestTUIQuitDuringCommand(t *testing.T) {
	srv := llmtest.New(t, call("bash", `{"command":"sleep 30"}`), llmtest.Turn{Text: "never"})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("sleep\r")
	s.wait("‣ bash sleep 30 · running")
	s.send("\x03")
	s.wait("Ctrl-C again quits")
	s.send("\x03")
	if code := exitCodeOf(s.exit()); code != 130 {
		t.Fatalf("mm -tui ended with status %d, want 130 (interrupted)", code)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.alt || s.emu.CursorHidden() {
		t.Error("terminal not restored after quitting mid-command")
	}
}

// A question sent while the model works stops the turn and is asked next,
// as in the line mode.
func TestTUITypeAheadAsksNext(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Turn{Text: "slow one two three four five six seven eight nine ten", ChunkDelay: 300 * time.Millisecond},
		llmtest.Turn{Text: "The next answer."},
	)
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("first\r")
	s.wait("slow one")
	s.send("second question\r")
	s.wait("[turn stopped]")
	s.wait("› second question")
	s.wait("The next answer.")
	if got := lastQuestion(t, srv, 1); !strings.Contains(got, "second question") {
		t.Errorf("the second request asked %q", got)
	}
}

// SIGTERM closes the window as Ctrl-D does: the terminal restored, the
// leaving line printed.
func TestTUISigterm(t *testing.T) {
	s := startTUI(t, t.TempDir(), llmtest.New(t), nil)
	s.wait("Ctrl-D quits")
	s.cmd.Process.Signal(syscall.SIGTERM)
	if code := exitCodeOf(s.exit()); code != 143 {
		t.Errorf("status %d after SIGTERM, want 143", code)
	}
	s.mu.Lock()
	alt, hidden := s.alt, s.emu.CursorHidden()
	s.mu.Unlock()
	if alt || hidden {
		t.Errorf("terminal not restored after SIGTERM: alternate screen %v, cursor hidden %v", alt, hidden)
	}
	if !strings.Contains(s.screen(), "[left the window mode") {
		t.Errorf("no leaving line after SIGTERM:\n%s", s.screen())
	}
}

// The mouse wheel scrolls the conversation.
func TestTUIMouseWheel(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: numbered(60)})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("long\r")
	s.wait("line 60")
	s.send("\x1b[<64;10;10M\x1b[<64;10;10M") // wheel up, twice (SGR)
	s.wait("scrolled up (End follows)")
	s.waitFor("line 60 scrolled out", func(scr string) bool { return !strings.Contains(scr, "line 60") })
}

// write_file under yolo: false: the zone shows the planned change; r
// refuses and the model reads the ACP text; Ctrl-D in the zone refuses
// too; Esc stops the turn, which refuses the call.
func TestTUIWritePermission(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		call("write_file", `{"path":"new.txt","content":"\tfresh-content\n"}`), llmtest.Turn{Text: "after r"},
		call("write_file", `{"path":"two.txt","content":"x\n"}`), llmtest.Turn{Text: "after ctrl-d"},
		call("write_file", `{"path":"three.txt","content":"y\n"}`), llmtest.Turn{Text: "never shown"},
	)
	s := startTUI(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.wait("Ctrl-D quits")
	s.send("write\r")
	s.wait("🔐 write_file new.txt")
	// A tab takes the four columns the conversation gives it, not the
	// terminal's tab stop.
	s.wait("1 +│     fresh-content")
	s.answer("r")
	s.wait("→ refused")
	s.wait("‣ write_file new.txt · refused")
	s.wait("after r")
	msgs := srv.ChatRequests()[1].JSON["messages"].([]any)
	if got := msgs[len(msgs)-1].(map[string]any)["content"].(string); got != "[write_file rejected by the user]" {
		t.Errorf("the refusal the model read: %q", got)
	}

	s.send("two\r")
	s.wait("🔐 write_file two.txt")
	s.answer("\x04")
	s.wait("after ctrl-d")

	s.send("three\r")
	s.wait("🔐 write_file three.txt")
	s.send("\x1b")
	s.wait("[turn stopped]")
	s.wait("› ") // the box is back
	for _, f := range []string{"new.txt", "two.txt", "three.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s was written though refused", f)
		}
	}
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Fatal(err)
	}
}

// ↑ and ↓ go through .mm/history, the line mode's file: a question of an
// earlier session comes back, and this window's questions are added.
func TestTUIHistory(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: "answer one"}, llmtest.Turn{Text: "answer two"})
	s := startTUI(t, dir, srv, nil)
	s.wait("Ctrl-D quits")
	s.send("alpha question\r")
	s.wait("answer one")
	s.send("\x04")
	s.exit()
	data, _ := os.ReadFile(filepath.Join(dir, ".mm", "history"))
	if !strings.Contains(string(data), "alpha question\n") {
		t.Fatalf(".mm/history: %q", data)
	}

	s = startTUI(t, dir, srv, nil)
	s.wait("Ctrl-D quits")
	s.send("draft")
	s.wait("› draft")
	s.send("\x1b[A") // ↑
	s.waitFor("the recalled question in the box", func(string) bool { return s.row(23) == "› alpha question" })
	s.send("\x1b[B") // ↓: the draft again
	s.waitFor("the draft back", func(string) bool { return s.row(23) == "› draft" })
	s.send("\x1b[A\r")
	s.wait("answer two")
	if got := lastQuestion(t, srv, 1); !strings.Contains(got, "alpha question") {
		t.Errorf("the recalled question sent: %q", got)
	}
}

// faintAt reports whether the first cell of want on the screen is faint.
func (s *tuiSession) faintAt(want string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for y := 0; y < s.emu.Height(); y++ {
		var b strings.Builder
		for x := 0; x < s.emu.Width(); x++ {
			if c := s.emu.CellAt(x, y); c != nil {
				b.WriteString(c.Content)
			}
		}
		if i := strings.Index(b.String(), want); i >= 0 {
			// The index in bytes; the rows tested are ASCII up to want.
			return s.emu.CellAt(i, y).Style.Attrs&uv.AttrFaint != 0
		}
	}
	return false
}

// The reasoning is dimmed, and folded to its first lines once the answer
// starts; with NO_COLOR it is marked as in the line mode instead.
func TestTUIThinking(t *testing.T) {
	turn := llmtest.Turn{Reasoning: "ponder-one\nponder-two\nponder-three\nponder-four", Text: "the-answer"}
	s := startTUI(t, t.TempDir(), llmtest.New(t, turn), nil)
	s.wait("Ctrl-D quits")
	s.send("think\r")
	s.wait("the-answer")
	s.wait("… 2 more line(s) of thinking")
	if strings.Contains(s.screen(), "ponder-three") {
		t.Errorf("the reasoning was not folded:\n%s", s.screen())
	}
	if !s.faintAt("ponder-one") {
		t.Error("the reasoning is not dimmed")
	}
	if s.faintAt("the-answer") {
		t.Error("the answer is dimmed")
	}
	// Ctrl-O unfolds the reasoning (the last thing folded), again folds it.
	s.send("\x0f")
	s.wait("ponder-four")
	s.send("\x0f")
	s.wait("… 2 more line(s) of thinking (Ctrl-O unfolds)")
	if strings.Contains(s.screen(), "ponder-four") {
		t.Errorf("Ctrl-O again did not fold the reasoning:\n%s", s.screen())
	}

	s = startTUI(t, t.TempDir(), llmtest.New(t, turn), []string{"NO_COLOR=1"})
	s.wait("Ctrl-D quits")
	s.send("think\r")
	s.wait("the-answer")
	s.wait("┊ ponder-one")
}

// A line of 10 MB from the model keeps the layout: the header on the top
// row, the box at the bottom, the line drawn in part and the rest counted
// (until the engine stops reading the answer at 8 MiB).
func TestTUIHugeLine(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "a", Fault: llmtest.FaultHugeAnswer, FaultAfter: 1, FaultBytes: 10 << 20})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("huge\r")
	s.wait("bytes on this line]")
	s.wait("over 8 MiB") // the engine stops reading at 8 MiB
	if got := s.row(0); !strings.HasPrefix(got, "mm · ") {
		t.Errorf("header after a huge line: %q", got)
	}
	if got := s.row(23); !strings.HasPrefix(got, "›") {
		t.Errorf("the box after a huge line: %q", got)
	}
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Fatal(err)
	}
}

// ask_user in the window: each type of question with its keys, (i/N),
// the highlighted option, the answers the model reads; Esc declines a
// whole form.
func TestTUIAskUser(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	srv := llmtest.New(t,
		call("ask_user", fourQuestions), llmtest.Turn{Text: "Thanks, noted."},
		call("ask_user", fourQuestions), llmtest.Turn{Text: "Declined, fine."},
		call("ask_user", fourQuestions), llmtest.Turn{Text: "Third form."},
	)
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("ask me\r")
	s.wait("❓ Which colour? (1/4)")
	s.wait("… waiting for your answer")
	s.wait("❯ 2. blue")    // the default
	s.send("\x1b[B\x1b[B") // ↓↓: green, then round to red
	s.wait("❯ 1. red")
	s.answer("\r")

	s.wait("❓ Which files? (2/4)")
	s.send("\x1b[B \x1b[B ") // ↓ Space ↓ Space
	s.wait("❯ [x] c.go")
	s.wait("[x] b.go")
	s.wait("[ ] a.go")
	s.answer("\r")

	s.wait("❓ Go on? (3/4)")
	s.answer("o")

	s.wait("❓ Your name? (4/4)")
	s.send("Ada L\x7fLovelace")
	s.wait("Ada Lovelace")
	s.answer("\r")
	s.wait("Thanks, noted.")
	want := "The user answered:\n- Which colour? → red\n- Which files? → b.go, c.go\n- Go on? → yes\n- Your name? → Ada Lovelace"
	if got := toolResult(t, srv, 1); got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}

	s.send("again\r")
	s.wait("❓ Which colour? (1/4)")
	s.send("\x1b")
	s.wait("→ declined")
	s.wait("Declined, fine.")
	if got := toolResult(t, srv, 3); !strings.HasPrefix(got, "[the user declined to answer") {
		t.Errorf("declined: the model read %q", got)
	}

	// A digit answers a choice; Enter sends no multi with nothing
	// ticked; ←→ and Enter answer a confirm; Enter takes a text's
	// default-less box only once typed.
	s.send("third\r")
	s.wait("❓ Which colour? (1/4)")
	s.answer("3")
	s.wait("❓ Which files? (2/4)")
	s.answer("\r") // nothing ticked: still asked
	s.send(" ")
	s.wait("❯ [x] a.go")
	s.answer("\r")
	s.wait("❓ Go on? (3/4)")
	s.send("\x1b[C") // →: no
	s.wait("❯ no")
	s.answer("\r")
	s.wait("❓ Your name? (4/4)")
	s.answer("\r") // empty, no default: still asked
	s.send("Bo")
	s.answer("\r")
	s.wait("Third form.")
	want = "The user answered:\n- Which colour? → green\n- Which files? → a.go\n- Go on? → no\n- Your name? → Bo"
	if got := toolResult(t, srv, 5); got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
}

// A tool's output is folded to previewLines; Ctrl-O unfolds the last
// folded one, and folds it again.
func TestTUIUnfoldLastOutput(t *testing.T) {
	srv := llmtest.New(t, call("bash", `{"command":"seq 1 30 | sed 's/^/out-/'"}`), llmtest.Turn{Text: "counted"})
	cfg := writeConfig(t, t.TempDir(), "previewLines: 3\n")
	s := startTUI(t, t.TempDir(), srv, nil, "-c", cfg)
	s.wait("Ctrl-D quits")
	s.send("count\r")
	s.wait("counted")
	s.wait("out-3")
	s.wait("… 27 more line(s)")
	s.wait("(Ctrl-O unfolds)")
	if strings.Contains(s.screen(), "out-4\n") {
		t.Errorf("out-4 shown before unfolding:\n%s", s.screen())
	}
	s.send("\x0f") // Ctrl-O
	s.wait("out-30")
	s.send("\x0f")
	s.waitFor("folded again", func(scr string) bool { return !strings.Contains(scr, "out-30") })
}

// /new forgets the conversation; /help lists the window's commands;
// /context shows the line mode's table (tui_commands_test.go has the
// others).
func TestTUISlashCommands(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "first answer"}, llmtest.Turn{Text: "fresh answer"})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("one\r")
	s.wait("first answer")
	s.send("/help\r")
	s.wait("/redo      take the last /undo back")
	s.send("/context\r")
	s.wait("system prompt")
	s.send("/new\r")
	s.wait("new conversation\n")
	s.send("two\r")
	s.wait("fresh answer")
	msgs := srv.ChatRequests()[1].JSON["messages"].([]any)
	for _, m := range msgs {
		if c, _ := m.(map[string]any)["content"].(string); strings.Contains(c, "first answer") {
			t.Errorf("the conversation before /new was sent again: %v", msgs)
		}
	}
}

// A form the model made too tall for the window takes at most half of it:
// the question is cut, the options scroll with the cursor and say how many
// are hidden, the header and the help stay, and every option answers.
func TestTUIAskUserTallForm(t *testing.T) {
	var opts []string
	for i := 1; i <= 40; i++ {
		opts = append(opts, fmt.Sprintf("%q", fmt.Sprintf("f%02d.go", i)))
	}
	var words strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&words, " w%d", i)
	}
	q := `{"questions":[{"question":"Pick a file` + words.String() + `?","options":[` + strings.Join(opts, ",") + `]}]}`
	srv := llmtest.New(t, call("ask_user", q), llmtest.Turn{Text: "ok"})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("ask\r")
	s.wait("❯ 1. f01.go")
	s.wait("… 34 more below")
	s.wait("↑↓ choose")
	if top := s.row(0); !strings.HasPrefix(top, "mm ") {
		t.Errorf("the header left the top row: %q\n%s", top, s.screen())
	}
	if strings.Contains(s.screen(), " w150 ") {
		t.Errorf("the question took more than its rows:\n%s", s.screen())
	}
	s.send("\x1b[A") // ↑ goes round to the last option
	s.wait("❯ 40. f40.go")
	s.wait("… 34 more above")
	s.answer("\r")
	s.wait("ok")
	if got := toolResult(t, srv, 1); !strings.HasSuffix(got, "→ f40.go") {
		t.Errorf("the model read %q", got)
	}
}

// A text question's default, written by the model, is shown inert in the
// box (the box itself drops only C0 and C1 controls, not bidi ones).
func TestTUIAskUserHostileDefault(t *testing.T) {
	q := `{"questions":[{"question":"Name?","default":"ab\u202ecd"}]}`
	srv := llmtest.New(t, call("ask_user", q), llmtest.Turn{Text: "ok"})
	s := startTUI(t, t.TempDir(), srv, nil)
	s.wait("Ctrl-D quits")
	s.send("ask\r")
	s.wait("❓ Name?")
	s.wait("ab<U+202E>cd")
	s.mu.Lock()
	raw := s.raw.String()
	s.mu.Unlock()
	if strings.Contains(raw, "\u202e") {
		t.Error("a bidi control from the model reached the terminal raw")
	}
}

// The status line: the calls of the running turn, yolo, the sandbox.
func TestTUIStatusLine(t *testing.T) {
	srv := llmtest.New(t, call("bash", `{"command":"true"}`), call("bash", `{"command":"sleep 30"}`), llmtest.Turn{Text: "x"})
	cfg := writeConfig(t, t.TempDir(), "sandbox:\n  mode: workspace\n")
	s := startTUI(t, t.TempDir(), srv, nil, "-c", cfg)
	s.wait("Ctrl-D quits")
	if row := s.statusRow(); !strings.Contains(row, "yolo · sandbox workspace") {
		t.Errorf("status line %q", row)
	}
	s.send("go\r")
	s.wait("‣ bash sleep 30 · running")
	s.waitFor("the calls counted", func(string) bool { return strings.Contains(s.statusRow(), "· 2 call(s) · Esc stops") })
	s.send("\x1b")
	s.wait("[turn stopped]")
}

// /undo in the window puts back what the last turn changed, bash's
// changes too, and tells the model; /redo takes it back.
func TestTUIUndo(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("before\n"), 0o644)
	srv := llmtest.New(t,
		call("bash", `{"command":"echo after > keep.txt && echo new > made.txt"}`), llmtest.Turn{Text: "changed"},
		llmtest.Turn{Text: "noted"},
	)
	s := startTUI(t, dir, srv, nil)
	s.wait("Ctrl-D quits")
	s.send("change them\r")
	s.wait("changed")
	if b, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(b) != "after\n" {
		t.Fatalf("the command did not run: %q", b)
	}
	s.send("/undo\r")
	s.wait("/redo takes it back")
	if b, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(b) != "before\n" {
		t.Errorf("keep.txt not put back: %q", b)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err == nil {
		t.Error("made.txt not removed")
	}
	s.send("/redo\r")
	s.wait("redid")
	if b, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(b) != "after\n" {
		t.Errorf("/redo: keep.txt %q", b)
	}
	s.send("next\r")
	s.wait("noted")
	reqs := srv.ChatRequests()
	msgs := reqs[len(reqs)-1].JSON["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	if !strings.Contains(last, "[The user ran /undo") || !strings.Contains(last, "[The user ran /redo") {
		t.Errorf("the model was not told: %q", last)
	}
}
