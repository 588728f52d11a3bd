package main_test

// Sessions through the binary (sessions.enabled): the file written after
// each turn, /sessions, /resume and -continue, a kill -9 between turns,
// refused files, 0600 and no symbolic link, one file per process.

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mm/internal/llmtest"
)

const sessionsConfig = "provider: llamacpp\nsessions:\n  enabled: true\n"

// sessionFiles are the session files of dir's default sessions.dir.
func sessionFiles(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, ".mm", "sessions", "*.json"))
	return files
}

// readSession decodes one session file.
func readSession(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]any
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatalf("%s: %v\n%s", path, err, data)
	}
	return s
}

// requestMessages are the messages of a chat request, as sent.
func requestMessages(t *testing.T, req llmtest.Request) []any {
	t.Helper()
	msgs, _ := req.JSON["messages"].([]any)
	return msgs
}

// A conversation in plain line mode is written after each turn (0600,
// 0700 directory), listed by /sessions, and goes on after -continue: the
// next request carries the old history, byte for byte.
func TestSessionSavedListedContinued(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, call("bash", `{"command":"echo hi"}`), llmtest.Turn{Text: "It said hi."}, llmtest.Turn{Text: "Second answer."})
	r := mm(t, dir, srv, nil, "run echo\nand then?\n/sessions\n/quit\n", "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	files := sessionFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("session files: %v\n%s", files, r.stdout)
	}
	fi, _ := os.Stat(files[0])
	di, _ := os.Stat(filepath.Dir(files[0]))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("file %v, directory %v", fi.Mode(), di.Mode())
	}
	s := readSession(t, files[0])
	id := strings.TrimSuffix(filepath.Base(files[0]), ".json")
	if s["version"] != 1.0 || s["id"] != id || s["turns"] != 2.0 || s["provider"] != "llamacpp" {
		t.Errorf("session: %v", s)
	}
	if msgs := s["messages"].([]any); len(msgs) != 6 {
		t.Errorf("%d messages, want 6 (q, call, result, answer, q, answer): %v", len(msgs), msgs)
	}
	for _, want := range []string{"sessions in " + filepath.Join(dir, ".mm", "sessions") + ", newest first", id, "2 turns", `"run echo"`} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("/sessions lacks %q:\n%s", want, r.stdout)
		}
	}

	srv.Push(llmtest.Turn{Text: "Third answer."})
	r = mm(t, dir, srv, nil, "one more\n/quit\n", "-c", cfg, "-continue")
	if r.code != 0 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	if want := "resumed session " + id + ": 2 turns, 6 messages"; !strings.Contains(r.stdout, want) {
		t.Errorf("stdout lacks %q:\n%s", want, r.stdout)
	}
	reqs := srv.ChatRequests()
	last, before := reqs[len(reqs)-1], reqs[len(reqs)-2]
	// Everything the last request of the first mm sent, up to its end of
	// messages, starts the resumed request too.
	prefix := func(b []byte) []byte { return b[:bytes.Index(b, []byte(`],"tools":`))] }
	if p := prefix(before.Body); !bytes.HasPrefix(last.Body, p) {
		t.Errorf("the resumed request does not start with the old one:\nold %s\nnew %s", p, last.Body)
	}
	if msgs := requestMessages(t, last); len(msgs) != 8 || msgs[7].(map[string]any)["content"] != "one more" {
		t.Errorf("resumed request messages: %v", msgs)
	}
	// No other mm holds it: it goes on in its own file.
	if files := sessionFiles(t, dir); len(files) != 1 || readSession(t, files[0])["turns"] != 3.0 {
		t.Errorf("session files after resuming: %v", files)
	}
}

// plainMM is mm in plain line mode with a pipe on stdin.
type plainMM struct {
	cmd *exec.Cmd
	in  io.WriteCloser
	out lockedBuffer // stdout and stderr
}

func (p *plainMM) text() string { return p.out.String() }

func startPlain(t *testing.T, dir string, srv *llmtest.Server, args ...string) *plainMM {
	t.Helper()
	p := &plainMM{cmd: exec.Command(mmBin, args...)}
	p.cmd.Dir = dir
	p.cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	return p
}

// waitFor polls until cond holds (a generous ceiling, no fixed sleep).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("timed out waiting for %s", what)
}

// A mm killed with SIGKILL between turns leaves a session that loads:
// -continue sends its history.
func TestSessionSurvivesKill9(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "First answer."})
	p := startPlain(t, dir, srv, "-c", cfg)
	io.WriteString(p.in, "remember 42\n")
	waitFor(t, "the session file", func() bool {
		files := sessionFiles(t, dir)
		return len(files) == 1 && strings.Contains(readFileString(files[0]), "First answer.")
	})
	p.cmd.Process.Signal(syscall.SIGKILL)
	p.cmd.Wait()

	srv.Push(llmtest.Turn{Text: "It was 42."})
	r := mm(t, dir, srv, nil, "what was it?\n", "-c", cfg, "-continue")
	if r.code != 0 || !strings.Contains(r.stdout, "resumed session ") {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	msgs := requestMessages(t, srv.ChatRequests()[1])
	if len(msgs) != 4 || msgs[1].(map[string]any)["content"] != "remember 42" || msgs[2].(map[string]any)["content"] != "First answer." {
		t.Errorf("messages after -continue: %v", msgs)
	}
}

func readFileString(path string) string {
	b, _ := os.ReadFile(path)
	return string(b)
}

// A session file of a newer format, or a broken one, is refused with the
// reason; nothing of it reaches the model, and the failure is recorded in
// the errors of the conversation that goes on. (Both are signed with the
// user's key, as a newer mm of the same user writes them: a file that is
// not is foreign, sessions_foreign_test.go.)
func TestSessionRefused(t *testing.T) {
	for name, c := range map[string]struct{ body, want string }{
		"newer":  {"{\"version\": 2, \"id\": \"20260101-000000-aaaaaa\", \"messages\": [{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"secret old\"}]}], \"errors\": []\n}\n", "it was written by a newer mm (format version 2; this mm reads up to 1) — update mm to resume it"},
		"broken": {"{\"version\": 1, \"id\": \"20260101-000000-aaaaaa\", \"messages\": [{\"role\":\"user\",\"parts\":[{\"type\":\"text\",\"text\":\"secret old\"\n}\n", "is not a valid session file"},
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, sessionsConfig)
			sdir := filepath.Join(dir, ".mm", "sessions")
			os.MkdirAll(sdir, 0o700)
			c.body = signedByTestUser(t, c.body)
			os.WriteFile(filepath.Join(sdir, "20260101-000000-aaaaaa.json"), []byte(c.body), 0o600)
			srv := llmtest.New(t, llmtest.Turn{Text: "Fresh."})
			r := mm(t, dir, srv, nil, "new question\n", "-c", cfg, "-continue")
			if r.code != 0 {
				t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
			if want := "[resume failed: session 20260101-000000-aaaaaa is not loaded: "; !strings.Contains(r.stdout, want) || !strings.Contains(r.stdout, c.want) {
				t.Errorf("stdout lacks %q … %q:\n%s", want, c.want, r.stdout)
			}
			if msgs := requestMessages(t, srv.ChatRequests()[0]); len(msgs) != 2 {
				t.Errorf("half loaded: %v", msgs)
			}
			files := sessionFiles(t, dir)
			if len(files) != 2 {
				t.Fatalf("files: %v", files)
			}
			for _, f := range files {
				if strings.Contains(f, "aaaaaa") {
					if readFileString(f) != c.body {
						t.Errorf("the refused file was changed")
					}
					continue
				}
				errs := readSession(t, f)["errors"].([]any)
				if len(errs) != 1 || errs[0].(map[string]any)["where"] != "resume" {
					t.Errorf("errors: %v", errs)
				}
			}
		})
	}
}

// A sessions directory that is a symbolic link is never written through.
func TestSessionSymlinkRefused(t *testing.T) {
	dir := t.TempDir()
	elsewhere := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	os.MkdirAll(filepath.Join(dir, ".mm"), 0o700)
	if err := os.Symlink(elsewhere, filepath.Join(dir, ".mm", "sessions")); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.Turn{Text: "One."}, llmtest.Turn{Text: "Two."})
	r := mm(t, dir, srv, nil, "a\nb\n", "-c", cfg)
	want := "is a symbolic link — mm does not follow links for its own files — the conversation is not saved]"
	if r.code != 0 || strings.Count(r.stdout, want) != 1 {
		t.Fatalf("exit %d, want %q once:\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	if ents, _ := os.ReadDir(elsewhere); len(ents) != 0 {
		t.Errorf("written through the link: %v", ents)
	}
}

// mm -p says a session it cannot save on a line of its own, after the
// model's reasoning line (it was written onto the end of that line).
func TestSessionSaveFailureOneshotOwnLine(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	os.MkdirAll(filepath.Join(dir, ".mm"), 0o700)
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, ".mm", "sessions")); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.Turn{Reasoning: "Just answer.", Text: "One."})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "hi")
	if r.code != 0 || r.stdout != "One.\n" {
		t.Fatalf("exit %d: %q %s", r.code, r.stdout, r.stderr)
	}
	var warning string
	for _, line := range strings.Split(r.stderr, "\n") {
		if strings.Contains(line, "the conversation is not saved]") {
			warning = line
		}
	}
	if !strings.HasPrefix(warning, "[sessions: cannot use ") || strings.Count(r.stderr, "not saved") != 1 {
		t.Errorf("the warning is not a line of its own, once:\n%s", r.stderr)
	}
}

// Two mm in the same project at the same time write two files; a turn
// that mm stopped (the loop detector) is recorded with where: generation.
func TestSessionTwoProcessesAndErrors(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "A."}, llmtest.Turn{Text: "B."})
	p1 := startPlain(t, dir, srv, "-c", cfg)
	p2 := startPlain(t, dir, srv, "-c", cfg)
	io.WriteString(p1.in, "one\n")
	io.WriteString(p2.in, "two\n")
	waitFor(t, "two session files", func() bool { return len(sessionFiles(t, dir)) == 2 })
	p1.in.Close()
	p2.in.Close()
	p1.cmd.Wait()
	p2.cmd.Wait()

	var turns []llmtest.Turn
	for i := 0; i < 6; i++ {
		turns = append(turns, llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"cat missing.txt"}`}}})
	}
	srv.Push(turns...)
	dir2 := t.TempDir()
	cfg2 := writeConfig(t, dir2, sessionsConfig+"maxTurns: 20\n")
	mm(t, dir2, srv, nil, "read it\n", "-c", cfg2)
	files := sessionFiles(t, dir2)
	if len(files) != 1 {
		t.Fatalf("files: %v", files)
	}
	errs := readSession(t, files[0])["errors"].([]any)
	want := "[error: the model repeated the same bash call 6 times in a row with the same failing result — turn stopped by the loop detector; rephrase the request, or fix what the tool kept reporting]"
	if len(errs) != 1 || errs[0].(map[string]any)["where"] != "generation" || errs[0].(map[string]any)["message"] != want {
		t.Errorf("errors: %v", errs)
	}
}

// /resume ID and /resume (the latest) in line mode restore the history
// and say what they restored; without sessions.enabled they say how to
// turn sessions on, and -continue is refused.
func TestSessionResumeCommand(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "Old answer."})
	mm(t, dir, srv, nil, "old question\n", "-c", cfg)
	files := sessionFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("files: %v", files)
	}
	id := strings.TrimSuffix(filepath.Base(files[0]), ".json")
	srv.Push(llmtest.Turn{Text: "A."}, llmtest.Turn{Text: "B."})
	r := mm(t, dir, srv, nil, "/resume "+id+"\nnext\n/new\n/resume nope\n/resume\nlast\n", "-c", cfg)
	want := "resumed session " + id + `: 1 turn, 2 messages, last change `
	if r.code != 0 || strings.Count(r.stdout, want) != 1 || !strings.Contains(r.stdout, `first question: "old question"`) {
		t.Fatalf("exit %d, want %q once:\n%s%s", r.code, want, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stdout, `[resume failed: there is no session nope (/sessions lists them)]`) {
		t.Errorf("/resume nope:\n%s", r.stdout)
	}
	// The bare /resume took the latest: the conversation of "next".
	if !strings.Contains(r.stdout, ": 2 turns, 4 messages, last change ") {
		t.Errorf("/resume (latest):\n%s", r.stdout)
	}
	reqs := srv.ChatRequests()
	if msgs := requestMessages(t, reqs[1]); len(msgs) != 4 || msgs[1].(map[string]any)["content"] != "old question" {
		t.Errorf("after /resume ID: %v", msgs)
	}
	if msgs := requestMessages(t, reqs[2]); len(msgs) != 6 || msgs[3].(map[string]any)["content"] != "next" {
		t.Errorf("after /resume: %v", msgs)
	}

	off := t.TempDir()
	r = mm(t, off, srv, nil, "/sessions\n", "-c", writeConfig(t, off, "provider: llamacpp\n"))
	if !strings.Contains(r.stdout, "sessions are off — set sessions.enabled: true in the configuration to keep conversations") {
		t.Errorf("/sessions without sessions:\n%s", r.stdout)
	}
	r = mm(t, off, srv, nil, "", "-c", filepath.Join(off, "test.yaml"), "-continue")
	if r.code != 2 || !strings.Contains(r.stderr, "mm: -resume and -continue need sessions.enabled: true in the configuration") {
		t.Errorf("-continue without sessions: exit %d %s", r.code, r.stderr)
	}
}

// In a terminal: the turn's session is on disk when the answer is shown,
// a reasoning part is kept, /new starts a second file, and -resume ID
// brings the first back.
func TestSessionInTerminal(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Reasoning: "Think first.", Text: "First."}, llmtest.Turn{Text: "Second."})
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("q one")
	s.expect("First.")
	waitFor(t, "the first session", func() bool { return len(sessionFiles(t, dir)) == 1 })
	first := sessionFiles(t, dir)[0]
	s.ask("/new")
	s.expect("new conversation")
	s.ask("q two")
	s.expect("Second.")
	waitFor(t, "the second session", func() bool { return len(sessionFiles(t, dir)) == 2 })
	s.expect("› ") // the turn is over: Ctrl-D quits at the prompt
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Errorf("exit: %v", err)
	}
	if !strings.Contains(readFileString(first), `"type": "reasoning",`) {
		t.Errorf("no reasoning part:\n%s", readFileString(first))
	}
	id := strings.TrimSuffix(filepath.Base(first), ".json")
	srv.Push(llmtest.Turn{Text: "Third."})
	s = startREPL(t, dir, srv, nil, "-c", cfg, "-resume", id)
	s.expect("resumed session " + id + ": 1 turn, 2 messages")
	s.ask("q three")
	s.expect("Third.")
	s.expect("› ")
	s.send("\x04")
	s.exit()
	msgs := requestMessages(t, srv.ChatRequests()[2])
	if len(msgs) != 4 || msgs[1].(map[string]any)["content"] != "q one" {
		t.Errorf("after -resume: %v", msgs)
	}
}
