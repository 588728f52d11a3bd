package main_test

// Input in line mode, through the binary in a pseudo-terminal: type-ahead
// that survives the turn and the 🔐 prompt, pastes in the history, the
// plain (non-terminal) transcript, TERM=dumb, and one .mm per project.

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// lastQuestion is the question of the i-th chat request.
func lastQuestion(t *testing.T, srv *llmtest.Server, i int) string {
	t.Helper()
	reqs := srv.ChatRequests()
	if len(reqs) <= i {
		t.Fatalf("%d chat requests, want more than %d", len(reqs), i)
	}
	msgs := reqs[i].JSON["messages"].([]any)
	q, _ := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	return q
}

// screenSeq is ansi and the cursor moves that draw the type-ahead under
// an unfinished answer line (DECSC, IND, RI, DECRC).
var screenSeq = regexp.MustCompile(`\x1b\[[0-9;?]*[a-zA-Z]|\x1b[78DM]|\r|\x08`)

// screen follows a session's output like expect, without the cursor
// moves around the type-ahead line.
type screen struct {
	s    *ptySession
	mark int
}

func watch(s *ptySession) *screen {
	return &screen{s: s, mark: len(screenSeq.ReplaceAllString(s.raw(), ""))}
}

func (w *screen) expect(want string) {
	w.s.t.Helper()
	var txt string
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		txt = screenSeq.ReplaceAllString(w.s.raw(), "")
		if i := strings.Index(txt[min(w.mark, len(txt)):], want); i >= 0 {
			w.mark += i + len(want)
			return
		}
	}
	w.s.t.Fatalf("timed out waiting for %q; the screen after the mark:\n%s", want, txt[min(w.mark, len(txt)):])
}

// What is typed while the answer streams is in view all along (on the
// row under the unfinished answer line), and a turn that ends, or is
// stopped with Esc, leaves it at the next prompt, editable.
func TestLineTypeAheadStaysUntilSent(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	srv := llmtest.New(t,
		llmtest.Turn{Text: "a b c d e f g", ChunkDelay: 200 * time.Millisecond},
		llmtest.Turn{Text: "first reply"},
		llmtest.Turn{Text: "Working on it, please wait", Fault: llmtest.FaultHangMidStream, FaultAfter: 6},
		llmtest.Turn{Text: "second reply"},
	)
	s := startREPL(t, t.TempDir(), srv, nil)
	s.ask("go")
	s.expect("a b")
	w := watch(s)
	s.send("next one")
	w.expect("› next one") // drawn while the answer line is still open
	w.expect(" g")
	w.expect("out tokens") // the turn is over
	w.expect("› next one") // the next prompt starts with it
	s.send(" edited\r")
	w.expect("first reply")
	if q := lastQuestion(t, srv, 1); q != "next one edited" {
		t.Errorf("the type-ahead sent as %q", q)
	}

	w.expect("› ")
	s.send("hang\r")
	w.expect("Working on")
	s.send("draft")
	w.expect("› draft")
	s.send("\x1b")
	w.expect("[turn stopped]")
	w.expect("› draft")
	s.send("\r")
	w.expect("second reply")
	if q := lastQuestion(t, srv, 3); q != "draft" {
		t.Errorf("after Esc the type-ahead sent as %q", q)
	}
}

// A 🔐 prompt that comes up while something is typed neither hides it
// nor takes its keys: a key typed after the guard time, while the
// type-ahead is pending, is more type-ahead; the text is the next
// question.
func TestLineTypeAheadSurvivesPermissionPrompt(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{FirstByteDelay: time.Second, ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch ran"}`}}},
		llmtest.Turn{Text: "asked next"},
	)
	s := startREPL(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.ask("go")
	s.expect("Thinking")
	s.send("then explain")
	s.expect("🔐 bash touch ran")
	s.expect("[a] allow once")
	s.expect("› then explain")
	s.answer(" a")
	s.expect("› then explain a")
	s.absent("→")
	s.send("\x1b")
	s.expect("[turn stopped]")
	s.expect("› then explain a")
	s.send("\r")
	s.expect("asked next")
	if q := lastQuestion(t, srv, 1); q != "then explain a" {
		t.Errorf("the type-ahead sent as %q", q)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Error("the type-ahead answered the prompt")
	}
}

// A multi-line paste is kept in the history as its text: ↑ sends the
// paste again, in the session and after a restart, from a history file
// that keeps one question a line; an older file's lines still read.
func TestLinePasteInHistory(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".mm"), 0o700)
	os.WriteFile(filepath.Join(dir, ".mm", "history"), []byte("an old question\n"), 0o600)
	paste := "explain this: line one\nline two\nline three"
	srv := llmtest.New(t, llmtest.Turn{Text: "zero"}, llmtest.Turn{Text: "one"}, llmtest.Turn{Text: "two"}, llmtest.Turn{Text: "three"})
	s := startREPL(t, dir, srv, nil)
	s.expect("› ")
	s.send("\x1b[A")
	s.expect("an old question")
	s.send("\r")
	s.expect("zero")
	if q := lastQuestion(t, srv, 0); q != "an old question" {
		t.Errorf("the old file's line sent as %q", q)
	}
	s.expect("› ")
	s.send("explain this: \x1b[200~line one\rline two\rline three\x1b[201~\r")
	s.expect("one")
	s.expect("› ")
	s.send("\x1b[A")
	s.expect("[paste #1: 3 lines]")
	s.send("\r")
	s.expect("two")
	if q := lastQuestion(t, srv, 2); q != paste {
		t.Errorf("recalled paste sent as %q", q)
	}
	s.expect("› ")
	s.send("\x04")
	s.exit()

	b, _ := os.ReadFile(filepath.Join(dir, ".mm", "history"))
	lines := strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
	if len(lines) != 4 || lines[1] != "an old question" || lines[2] != lines[3] || strings.Contains(string(b), "[paste #") {
		t.Errorf("history file:\n%s", b)
	}

	s = startREPL(t, dir, srv, nil)
	s.expect("› ")
	s.send("\x1b[A")
	s.expect(" 3 lines]")
	s.send("\r")
	s.expect("three")
	if q := lastQuestion(t, srv, 3); q != paste {
		t.Errorf("after a restart the paste was sent as %q", q)
	}
}

// Ctrl-D at a 🔐 prompt refuses the call; mm keeps running.
func TestLineCtrlDAtPermissionRefuses(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, call("bash", `{"command":"touch x"}`), llmtest.Turn{Text: "refused then"}, llmtest.Turn{Text: "still here"})
	s := startREPL(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.ask("go")
	s.expect("🔐 bash touch x")
	s.expect("[a] allow once")
	s.answer("\x04")
	s.expect("→ refused")
	s.expect("refused then")
	s.ask("again")
	s.expect("still here")
	if _, err := os.Stat(filepath.Join(dir, "x")); err == nil {
		t.Error("the call ran after Ctrl-D")
	}
	if got := lastQuestion(t, srv, 1); got != "[command rejected by the user]" {
		t.Errorf("the model read %q", got)
	}
}

// Without a terminal the transcript shows the prompt, each question and
// each answer to a 🔐 prompt, names no key mm cannot read, and marks the
// thinking.
func TestLinePlainTranscript(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Turn{Reasoning: "pondering it", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo hi"}`}}},
		llmtest.Turn{Text: "Done."},
	)
	r := mm(t, t.TempDir(), srv, []string{"AGENT_YOLO=false"}, "run it\nsure\na\n/quit\n")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{"› run it\n", "┊ pondering it\n", "   ? sure\n   answer with one letter", "   ? a\n   → allowed once\n", "Done.\n", "› /quit\n"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
		}
	}
	if strings.Contains(r.stdout, "Esc") || strings.Contains(r.stdout, "Ctrl-C") {
		t.Errorf("a key hint mm cannot honour:\n%s", r.stdout)
	}
}

// TERM=dumb: no colour and no spinner; the thinking is marked.
func TestLineDumbTerminal(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Reasoning: "thinking it over", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo grey"}`}}}, llmtest.Turn{Text: "done", ChunkDelay: 300 * time.Millisecond})
	s := startREPL(t, t.TempDir(), srv, []string{"TERM=dumb"})
	s.ask("go")
	s.expect("┊ thinking it over")
	s.expect("   grey")
	s.expect("done")
	raw := s.raw()
	for _, code := range []string{"\x1b[2m", "\x1b[90m", "\x1b[31m", "\x1b[0m"} {
		if strings.Contains(raw, code) {
			t.Errorf("colour code %q with TERM=dumb", code)
		}
	}
	for _, f := range []string{"⠋", "⠙", "Thinking"} {
		if strings.Contains(raw, f) {
			t.Errorf("spinner %q with TERM=dumb", f)
		}
	}
}

// NO_COLOR in the REPL, and mm -p's stderr (never coloured there): the
// thinking is told apart from the answer by its mark.
func TestLineThinkingMarkedWithoutColour(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Reasoning: "weighing options", Text: "the answer"})
	s := startREPL(t, t.TempDir(), srv, []string{"NO_COLOR=1"})
	s.ask("go")
	s.expect("┊ weighing options")
	s.expect("the answer")

	srv = llmtest.New(t, llmtest.Turn{Reasoning: "line one\nline two", Text: "the answer"})
	r := mm(t, t.TempDir(), srv, nil, "", "-p", "go")
	if r.code != 0 || !strings.Contains(r.stderr, "┊ line one\n┊ line two\n") || strings.Contains(r.stdout, "┊") {
		t.Errorf("exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
	}
}

// One project, one history: mm started in two subdirectories of a Git
// repository keeps <repo>/.mm/history, and its .gitignore keeps .mm out
// of `git status`.
func TestLineHistoryAtRepositoryRoot(t *testing.T) {
	repo := t.TempDir()
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", args...)
		cmd.Dir = repo
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	if _, err := exec.LookPath("git"); err != nil {
		os.Mkdir(filepath.Join(repo, ".git"), 0o755)
	} else {
		git("init", "-q")
	}
	for _, d := range []string{"a/b", "c"} {
		os.MkdirAll(filepath.Join(repo, d), 0o755)
	}
	srv := llmtest.New(t, llmtest.Turn{Text: "one"}, llmtest.Turn{Text: "two"})
	s := startREPL(t, filepath.Join(repo, "a", "b"), srv, nil)
	s.ask("asked from a/b")
	s.expect("one")
	s.expect("› ")
	s.send("\x04")
	s.exit()
	if b, err := os.ReadFile(filepath.Join(repo, ".mm", "history")); err != nil || string(b) != "asked from a/b\n" {
		t.Errorf("<repo>/.mm/history: %q %v", b, err)
	}
	for _, d := range []string{"a/b/.mm", "a/.mm"} {
		if _, err := os.Lstat(filepath.Join(repo, d)); err == nil {
			t.Errorf("%s created", d)
		}
	}
	if _, err := os.Stat(filepath.Join(repo, ".mm", ".gitignore")); err != nil {
		t.Errorf(".mm/.gitignore: %v", err)
	}
	if _, err := exec.LookPath("git"); err == nil {
		if st := git("status", "--porcelain", "--untracked-files=all"); strings.Contains(st, ".mm") {
			t.Errorf("git status shows .mm:\n%s", st)
		}
	}

	s = startREPL(t, filepath.Join(repo, "c"), srv, nil)
	s.expect("› ")
	s.send("\x1b[A")
	s.expect("asked from a/b")
	s.send("\r")
	s.expect("two")
	if q := lastQuestion(t, srv, 1); q != "asked from a/b" {
		t.Errorf("recalled from c as %q", q)
	}
}
