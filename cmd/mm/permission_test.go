package main_test

// Hardening of what the user sees and approves: everything the model, a
// tool or the server writes reaches the terminal inert; the 🔐 prompt
// shows exactly what runs; type-ahead never answers it; a write is the
// diff that was shown, or nothing.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mm/internal/llmtest"
)

func jsonArgs(t *testing.T, v map[string]any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func (s *ptySession) raw() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// The attack: the terminal would show `🔐 bash ls -la` while
// `touch X` runs and the clipboard takes what the model chose.
func TestPermissionPromptShowsWhatRuns(t *testing.T) {
	dir := t.TempDir()
	cmd := "touch X #\x1b]52;c;ZXZpbA==\x07\r\x1b[2K>ls -la"
	srv := llmtest.New(t,
		llmtest.Turn{Reasoning: "plan \x1b]0;title\x07", Text: "Sure \x1b[2J", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: jsonArgs(t, map[string]any{"command": cmd})}}},
		llmtest.Turn{Text: "done \u009b31m\u202e"},
	)
	s := startREPL(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.ask("go")
	s.expect("🔐 bash touch X #^[]52;c;ZXZpbA==^G^M^[[2K>ls -la")
	s.expect("[a] allow once")
	s.answer("r")
	s.expect(`done \u009b31m<U+202E>`)
	raw := s.raw()
	for _, bad := range []string{"\x1b]52", "\x1b]0;", "\x1b[2J", "\x1b[2K>", "\u009b", "\u202e", "\a"} {
		if strings.Contains(raw, bad) {
			t.Errorf("the terminal received %q from the model", bad)
		}
	}
	if !strings.Contains(s.text(), "Sure ^[[2J") || !strings.Contains(s.text(), "plan ^[]0;title^G") {
		t.Errorf("the answer and the thinking are not shown visibly:\n%s", s.text())
	}
	if _, err := os.Stat(filepath.Join(dir, "X")); err == nil {
		t.Error("the refused command ran")
	}
}

// A multi-line command is shown whole in the prompt.
func TestPermissionPromptShowsEveryLine(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		call("bash", jsonArgs(t, map[string]any{"command": "echo harmless\n\n  rm -rf important  \necho done"})),
		llmtest.Turn{Text: "ok"},
	)
	s := startREPL(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.ask("go")
	s.expect("🔐 bash: 4 lines")
	s.expect("│ echo harmless")
	s.expect("│ \n")
	s.expect("│   rm -rf important")
	s.expect("│ echo done")
	s.expect("[a] allow once")
	s.answer("r")
	s.expect("ok")
}

// Typing that started before the prompt appeared never answers it: "show
// me the diff" must not allow bash for the session.
func TestPermissionTypeAheadNeverAnswers(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{FirstByteDelay: time.Second, ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch typed"}`}}},
		llmtest.Turn{Text: "over"},
	)
	s := startREPL(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.ask("go")
	s.expect("Thinking")
	s.send("show me the diff")
	s.expect("🔐 bash touch typed")
	s.expect("Waiting for your answer")
	time.Sleep(1500 * time.Millisecond) // a key would have answered by now
	s.absent("allowed")
	s.absent("→")
	if _, err := os.Stat(filepath.Join(dir, "typed")); err == nil {
		t.Fatal("the command ran on type-ahead")
	}
	// A key in the flow of typing never answers either: an "a" right
	// after the Ctrl-U that cleared the line is type-ahead again.
	s.send("\x15a")
	time.Sleep(time.Second)
	s.absent("→")
	if _, err := os.Stat(filepath.Join(dir, "typed")); err == nil {
		t.Fatal("a key typed in the flow of typing answered the prompt")
	}
	s.send("\x15") // Ctrl-U clears the type-ahead
	s.answer("r")
	s.expect("→ refused")
	s.expect("over")
	if _, err := os.Stat(filepath.Join(dir, "typed")); err == nil {
		t.Error("the refused command ran")
	}
}

// write_file under yolo: false: the prompt shows the diff; the user edits
// the file while the prompt waits; allowing then writes nothing of the
// model's, and the model is told why.
func TestPermissionWriteShowsDiffAndKeepsUserEdit(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "notes.txt")
	os.WriteFile(path, []byte("one\ntwo\nthree\n"), 0o644)
	srv := llmtest.New(t,
		call("write_file", `{"path":"notes.txt","content":"one\nTWO\nthree\n"}`),
		llmtest.Turn{Text: "the model went on"},
	)
	s := startREPL(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.ask("change it")
	s.expect("🔐 write_file notes.txt")
	s.expect("notes.txt: would be replaced, +1 -1 lines, first change at line 2")
	s.expect("-│ two")
	s.expect("+│ TWO")
	s.expect("[a] allow once")
	if err := os.WriteFile(path, []byte("the user's own edit\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s.answer("a")
	s.expect("changed on disk")
	// The second request has arrived once its answer shows ("written"
	// would match the tool's own "nothing written").
	s.expect("the model went on")
	if b, _ := os.ReadFile(path); string(b) != "the user's own edit\n" {
		t.Errorf("the user's edit was overwritten: %q", b)
	}
	msgs := srv.ChatRequests()[1].JSON["messages"].([]any)
	if got := msgs[len(msgs)-1].(map[string]any)["content"].(string); !strings.Contains(got, "changed on disk") {
		t.Errorf("the model read %q", got)
	}
}

// Without a terminal, an answer is a whole line that is exactly one of
// the documented answers; the end of the input refuses.
func TestPlainPermissionAnswers(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, call("bash", `{"command":"touch yes"}`), llmtest.Turn{Text: "first"},
		call("bash", `{"command":"touch never"}`), llmtest.Turn{Text: "second"})
	r := mm(t, dir, srv, []string{"AGENT_YOLO=false"}, "go\nallow\nsure thing\na\nagain\n")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if n := strings.Count(r.stdout, "answer with one letter on its own line: a, s, p, r or n"); n != 2 {
		t.Errorf("asked again %d times, want 2:\n%s", n, r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "yes")); err != nil {
		t.Error("the allowed command did not run")
	}
	if !strings.Contains(r.stdout, "→ refused (end of input)") {
		t.Errorf("the end of input did not refuse:\n%s", r.stdout)
	}
	if _, err := os.Stat(filepath.Join(dir, "never")); err == nil {
		t.Error("a command ran at the end of the input")
	}
}

// Plain line mode: a SIGINT while idle does not cancel the next question.
func TestPlainIdleInterruptKeepsNextQuestion(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "still here"})
	cmd := exec.Command(mmBin)
	cmd.Dir = t.TempDir()
	cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	stdin, _ := cmd.StdinPipe()
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	waitForOutput(t, &out, "Ctrl-D quits")
	cmd.Process.Signal(syscall.SIGINT)
	time.Sleep(200 * time.Millisecond) // let the signal arrive while idle
	stdin.Write([]byte("hello\n"))
	waitForOutput(t, &out, "still here")
	stdin.Close()
	if err := cmd.Wait(); err != nil {
		t.Errorf("exit: %v\n%s", err, out.String())
	}
	if strings.Contains(out.String(), "[turn stopped]") {
		t.Errorf("the idle SIGINT stopped the next question:\n%s", out.String())
	}
}

// A history file or a .mm directory that the project ships as a link is
// not followed; what mm creates is private.
func TestHistoryRefusesLinks(t *testing.T) {
	for _, link := range []string{".mm", ".mm/history"} {
		t.Run(link, func(t *testing.T) {
			dir, elsewhere := t.TempDir(), t.TempDir()
			victim := filepath.Join(elsewhere, "bashrc")
			os.WriteFile(victim, []byte("keep me\n"), 0o644)
			target := victim
			if link == ".mm" {
				target = elsewhere
			} else {
				os.Mkdir(filepath.Join(dir, ".mm"), 0o755)
			}
			os.Symlink(target, filepath.Join(dir, link))
			srv := llmtest.New(t, llmtest.Turn{Text: "fine"})
			s := startREPL(t, dir, srv, nil)
			s.expect("no history is kept:")
			s.expect("is a symbolic link")
			s.ask("a question for the history")
			s.expect("fine")
			s.expect("› ") // the turn is over: Ctrl-D quits at the prompt
			s.send("\x04")
			s.exit()
			if b, _ := os.ReadFile(victim); string(b) != "keep me\n" {
				t.Errorf("the link's target was written: %q", b)
			}
			if entries, _ := os.ReadDir(elsewhere); len(entries) != 1 {
				t.Errorf("files created through the link: %v", entries)
			}
		})
	}
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: "fine"})
	s := startREPL(t, dir, srv, nil)
	s.ask("remember me")
	s.expect("fine")
	s.expect("› ")
	s.send("\x04")
	s.exit()
	for name, want := range map[string]os.FileMode{".mm": 0o700, ".mm/history": 0o600} {
		fi, err := os.Stat(filepath.Join(dir, name))
		if err != nil || fi.Mode().Perm() != want {
			t.Errorf("%s: %v %v, want %v", name, fi.Mode().Perm(), err, want)
		}
	}
}

// lockedBuffer is an output buffer a test reads while mm writes it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// waitForOutput waits until want shows in out.
func waitForOutput(t *testing.T, out *lockedBuffer, want string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %q:\n%s", want, out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// mm -p: nothing the model, a tool or the server writes reaches stdout or
// stderr with a control character a terminal would interpret (without a
// terminal mm writes no colour codes, so no ESC may appear at all).
func TestOneShotOutputIsInert(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "displayCommands: true\n")
	srv := llmtest.New(t,
		llmtest.Turn{Reasoning: "think \x1b]0;t\x07", Text: "a \x1b[2J", ToolCalls: []llmtest.ToolCall{
			{Name: "bash", Arguments: jsonArgs(t, map[string]any{"command": "printf 'out \\033]52;c;QUFB\\007 \\302\\233'; echo \x1b[31mred"})},
			{Name: "nope\x1b[2K", Arguments: `{}`},
		}},
		llmtest.Turn{Fault: "http-500", ErrorMessage: "boom \x1b]8;;http://evil\x07link\x1b]8;;\x07 \u009b"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 3 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for name, out := range map[string]string{"stdout": r.stdout, "stderr": r.stderr} {
		for _, bad := range []string{"\x1b", "\a", "\u009b"} {
			if strings.Contains(out, bad) {
				t.Errorf("%s holds %q:\n%q", name, bad, out)
			}
		}
	}
	// The text of a round that calls a tool is narration: on stderr.
	for _, want := range []string{"a ^[[2J", "think ^[]0;t^G", "out ^[]52;c;QUFB^G \\u009b", "no tool named nope^[", "boom ^[]8;;http://evil^Glink^[]8;;^G \\u009b", "bash: printf"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if r.stdout != "" {
		t.Errorf("stdout: %q", r.stdout)
	}
}
