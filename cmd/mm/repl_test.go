package main_test

// The line REPL driven in a pseudo-terminal, the way a person meets it.

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"mm/internal/llmtest"
)

type ptySession struct {
	t    *testing.T
	cmd  *exec.Cmd
	tty  *os.File
	mu   sync.Mutex
	out  bytes.Buffer
	mark int // expect searches from here
	done chan error
	// drained is closed once the terminal has been read to its end (the
	// last process holding it gone): what mm printed as it exited is in out.
	drained chan struct{}
}

var ansi = regexp.MustCompile(`\x1b\[[0-9;?]*[a-zA-Z]|\r|\x08`)

func startREPL(t *testing.T, dir string, srv *llmtest.Server, env []string, args ...string) *ptySession {
	t.Helper()
	s := startPTY(t, dir, srv, env, args...)
	s.expect("Ctrl-D quits")
	return s
}

// startPTY starts mm in a pseudo-terminal without waiting for the banner
// (a question may come first).
func startPTY(t *testing.T, dir string, srv *llmtest.Server, env []string, args ...string) *ptySession {
	t.Helper()
	cmd := exec.Command(mmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "TERM=xterm-256color")
	if srv != nil {
		cmd.Env = append(cmd.Env, "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	}
	cmd.Env = append(cmd.Env, env...)
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 40, Cols: 200})
	if err != nil {
		t.Fatal(err)
	}
	s := &ptySession{t: t, cmd: cmd, tty: tty, done: make(chan error, 1), drained: make(chan struct{})}
	go func() {
		defer close(s.drained)
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	go func() { s.done <- cmd.Wait() }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		tty.Close()
	})
	return s
}

// text is what the terminal shows, without escape sequences.
func (s *ptySession) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return ansi.ReplaceAllString(s.out.String(), "")
}

// expect waits until want appears after the mark, then moves the mark past it.
func (s *ptySession) expect(want string) {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		txt := s.text()
		if i := strings.Index(txt[min(s.mark, len(txt)):], want); i >= 0 {
			s.mark += i + len(want)
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.t.Fatalf("timed out waiting for %q; the screen after the mark:\n%s", want, s.text()[min(s.mark, len(s.text())):])
}

// absent checks that want does not appear after the mark right now.
func (s *ptySession) absent(want string) {
	s.t.Helper()
	if txt := s.text(); strings.Contains(txt[min(s.mark, len(txt)):], want) {
		s.t.Errorf("%q shown:\n%s", want, txt[s.mark:])
	}
}

func (s *ptySession) send(keys string) {
	s.t.Helper()
	if _, err := io.WriteString(s.tty, keys); err != nil {
		s.t.Fatal(err)
	}
}

// ask types a question at the prompt.
func (s *ptySession) ask(q string) {
	s.t.Helper()
	s.expect("› ")
	s.send(q + "\r")
}

func (s *ptySession) exit() error {
	s.t.Helper()
	select {
	case err := <-s.done:
		// mm's last words (the leaving line) may still be in the
		// terminal's buffer when the process is reaped: read them first. A
		// command mm started may hold the terminal a little longer; it is
		// not waited for past a few seconds.
		select {
		case <-s.drained:
		case <-time.After(3 * time.Second):
		}
		return err
	case <-time.After(10 * time.Second):
		// Its goroutines on the screen (SIGQUIT: Go prints them on
		// stderr, the terminal) say where it hangs.
		s.quitDump()
		s.t.Fatalf("mm did not exit; the screen:\n%s", s.text())
		return nil
	}
}

// answer presses a key at a permission prompt once the prompt has been on
// screen longer than mm's guard time (500 ms), as a person reading it
// does: a key that comes sooner is type-ahead, never an answer.
func (s *ptySession) answer(k string) {
	s.t.Helper()
	time.Sleep(700 * time.Millisecond)
	s.send(k)
}

func call(name, args string) llmtest.Turn {
	return llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: name, Arguments: args}}}
}

// A session that reads, edits and tests a file: the tool lines, the
// preview, the summary; /new and Ctrl-D.
func TestREPLSession(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() {\n\tcount := 1\n\tprintln(count)\n}\n"), 0o644)
	srv := llmtest.New(t,
		llmtest.Turn{Reasoning: "Let me read it.", ToolCalls: []llmtest.ToolCall{{Name: "read_file", Arguments: `{"path":"main.go"}`}}},
		call("edit_file", `{"path":"main.go","edits":[{"old":"count := 1","new":"count := 2"}]}`),
		call("bash", `{"command":"grep -n count main.go"}`),
		llmtest.Turn{Text: "count is now 2."},
		llmtest.Turn{Text: "Fresh start."},
	)
	s := startREPL(t, dir, srv, nil)
	s.ask("set count to 2")
	s.expect("Let me read it.")
	s.expect("📝 read_file: main.go")
	s.expect("📝 edit_file: main.go")
	s.expect("🛠️ bash: grep -n count main.go")
	s.expect("   4:\tcount := 2")
	s.expect("count is now 2.")
	s.expect("⚙ 1 command(s) · 📝 2 file op(s) · ")
	s.ask("/new")
	s.expect("new conversation")
	s.ask("hello")
	s.expect("Fresh start.")
	s.expect("› ")
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); !strings.Contains(string(b), "\tcount := 2\n") {
		t.Errorf("main.go:\n%s", b)
	}
	if msgs := srv.ChatRequests()[4].JSON["messages"].([]any); len(msgs) != 2 {
		t.Errorf("after /new the request holds %d messages, want system + question", len(msgs))
	}
	if b, err := os.ReadFile(filepath.Join(dir, ".mm", "history")); err != nil || !strings.Contains(string(b), "set count to 2") {
		t.Errorf("history: %q %v", b, err)
	}
}

// yolo: false: each of a, s, r, n does what it says.
func TestREPLPermissionKeys(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		call("bash", `{"command":"touch a"}`), llmtest.Turn{Text: "one"},
		call("write_file", `{"path":"b.txt","content":"new"}`), llmtest.Turn{Text: "two"},
		call("bash", `{"command":"touch c"}`), call("bash", `{"command":"touch d"}`), llmtest.Turn{Text: "three"},
		call("edit_file", `{"path":"keep.txt","edits":[{"old":"x","new":"y"}]}`), call("edit_file", `{"path":"keep.txt","edits":[{"old":"x","new":"z"}]}`), llmtest.Turn{Text: "four"},
	)
	os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("x\n"), 0o644)
	s := startREPL(t, dir, srv, []string{"AGENT_YOLO=false"})

	s.ask("a")
	s.expect("🔐 bash touch a")
	s.expect("[a] allow once")
	s.answer("a")
	s.expect("allowed once")
	s.expect("one")

	s.ask("r")
	s.expect("🔐 write_file b.txt")
	s.answer("r")
	s.expect("refused")
	s.expect("two")

	s.ask("s")
	s.expect("🔐 bash touch c")
	s.answer("s")
	s.expect("allowed for the session")
	s.expect("🛠️ bash: touch d")
	s.expect("three")
	if strings.Count(s.text(), "🔐 bash") != 2 {
		t.Errorf("asked again after allow-for-the-session:\n%s", s.text())
	}

	s.ask("n")
	s.expect("🔐 edit_file keep.txt")
	s.answer("n")
	s.expect("refused for the session")
	s.expect("four")
	if strings.Count(s.text(), "🔐 edit_file") != 1 {
		t.Errorf("asked again after never")
	}

	for _, f := range []string{"a", "c", "d"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s was allowed but not created", f)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "b.txt")); err == nil {
		t.Error("the refused write_file wrote b.txt")
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "keep.txt")); string(b) != "x\n" {
		t.Errorf("keep.txt changed to %q after never", b)
	}
	reqs := srv.ChatRequests()
	last := func(i int) string {
		msgs := reqs[i].JSON["messages"].([]any)
		return msgs[len(msgs)-1].(map[string]any)["content"].(string)
	}
	if got := last(3); got != "[write_file rejected by the user]" {
		t.Errorf("refusal read by the model: %q", got)
	}
	if got := last(8); got != "[edit_file rejected by the user]" {
		t.Errorf("never, second call: %q", got)
	}
}

// Esc while the answer streams stops the turn; the next question works and
// the history says the turn was interrupted. Ctrl-C stops a running command.
func TestREPLEscCancels(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{Text: "one two three four five six seven eight nine ten eleven twelve", ChunkDelay: 300 * time.Millisecond},
		llmtest.Turn{Text: "Second answer."},
		call("bash", `{"command":"echo $$ > sh.pid; sleep 30"}`),
		llmtest.Turn{Text: "Third answer."},
	)
	s := startREPL(t, dir, srv, nil)
	s.ask("count slowly")
	s.expect("one two")
	s.send("\x1b")
	s.expect("[turn stopped]")
	s.ask("next")
	s.expect("Second answer.")
	msgs := srv.ChatRequests()[1].JSON["messages"].([]any)
	prev := msgs[len(msgs)-2].(map[string]any)["content"].(string)
	if !strings.HasPrefix(prev, "one two") || !strings.HasSuffix(prev, "[interrupted by the user]") || strings.Contains(prev, "twelve") {
		t.Errorf("the interrupted answer in the history: %q", prev)
	}

	s.ask("sleep")
	s.expect("🛠️ bash: echo $$ > sh.pid; sleep 30")
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, _ := os.ReadFile(filepath.Join(dir, "sh.pid")); len(b) > 1 {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	start := time.Now()
	s.send("\x03")
	s.expect("[turn stopped]")
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Ctrl-C took %s", d)
	}
	s.ask("again")
	s.expect("Third answer.")
}

// A question typed while the model works stops the turn and is asked next.
func TestREPLTypeAheadAsksNext(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Turn{Text: "a b c d e f g h i j k l m n o p", ChunkDelay: 300 * time.Millisecond},
		llmtest.Turn{Text: "Answer to the second."},
	)
	s := startREPL(t, t.TempDir(), srv, nil)
	s.ask("first")
	s.expect("a b")
	s.send("second question\r")
	s.expect("› second question")
	s.expect("Answer to the second.")
	msgs := srv.ChatRequests()[1].JSON["messages"].([]any)
	if q := msgs[len(msgs)-1].(map[string]any)["content"]; q != "second question" {
		t.Errorf("next question sent: %q", q)
	}
}

// A multi-line paste is one question, not one per line.
func TestREPLMultiLinePaste(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "Got it."})
	s := startREPL(t, t.TempDir(), srv, nil)
	s.expect("› ")
	s.send("explain this: \x1b[200~line one\rline two\rline three\x1b[201~")
	s.expect("[paste #1: 3 lines]")
	s.send("\r")
	s.expect("Got it.")
	msgs := srv.ChatRequests()[0].JSON["messages"].([]any)
	if q := msgs[len(msgs)-1].(map[string]any)["content"]; q != "explain this: line one\nline two\nline three" {
		t.Errorf("question sent: %q", q)
	}
}

// Without a terminal (piped), the session reads one question per line and
// writes plain text.
func TestREPLPlainWithoutTerminal(t *testing.T) {
	srv := llmtest.New(t, call("bash", `{"command":"echo piped"}`), llmtest.Turn{Text: "Plain answer."})
	r := mm(t, t.TempDir(), srv, []string{"AGENT_YOLO=false"}, "run it\na\n/quit\n")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"🔐 bash echo piped", "allowed once", "🛠️ bash: echo piped", "   piped", "Plain answer.", "⚙ 1 command(s)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "\x1b[") {
		t.Errorf("escape sequences without a terminal:\n%q", r.stdout)
	}
}

// NO_COLOR: the same session without colour codes.
func TestREPLNoColor(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Reasoning: "thinking it over", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo grey"}`}}}, llmtest.Turn{Text: "done"})
	s := startREPL(t, t.TempDir(), srv, []string{"NO_COLOR=1"})
	s.ask("go")
	s.expect("   grey")
	s.expect("done")
	s.mu.Lock()
	raw := s.out.String()
	s.mu.Unlock()
	for _, code := range []string{"\x1b[2m", "\x1b[90m", "\x1b[31m", "\x1b[0m"} {
		if strings.Contains(raw, code) {
			t.Errorf("colour code %q with NO_COLOR", code)
		}
	}
	if !strings.Contains(s.text(), "thinking it over") {
		t.Error("thinking not shown")
	}
}
