package main_test

// The window mode's sessions (sessions.enabled, -continue, -resume,
// /sessions, /resume, /new, the leaving line) and its asked agents
// (ask_agent, /ask-<name>): the line mode's behaviour, drawn in the
// window, through the built binary in a pseudo-terminal.

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// sessionID is the id of a session file.
func sessionID(path string) string { return strings.TrimSuffix(filepath.Base(path), ".json") }

// inWindow fails the test unless mm drew the window (the alternate
// screen), not the line mode it falls back to.
func (s *tuiSession) inWindow() {
	s.t.Helper()
	s.wait("Ctrl-D quits")
	s.mu.Lock()
	alt := s.alt
	s.mu.Unlock()
	if !alt {
		s.t.Fatalf("the window fell back to the line mode:\n%s", s.screen())
	}
}

// The window saves as the line mode does: a file after the first turn,
// listed by /sessions; /new starts a second file; the leaving line names
// mm -continue, which opens the window on the latest conversation (the
// line mode's `resumed session` line, the old history sent again) and
// goes on in the same file.
func TestTUISessionSavedNewAndContinued(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "First answer."}, llmtest.Turn{Text: "Second answer."})
	s := startTUI(t, dir, srv, nil, "-c", cfg)
	s.inWindow()
	s.send("q one\r")
	s.wait("First answer.")
	waitFor(t, "the first session", func() bool { return len(sessionFiles(t, dir)) == 1 })
	first := sessionFiles(t, dir)[0]
	waitFor(t, "the first turn saved", func() bool { return strings.Contains(readFileString(first), `"turns": 1`) })
	s.send("/sessions\r")
	s.wait("newest first (/resume ID):")
	s.wait(sessionID(first))
	s.wait(`1 turn`)
	s.send("/new\r")
	s.wait("new conversation")
	s.send("q two\r")
	s.wait("Second answer.")
	waitFor(t, "the second session", func() bool { return len(sessionFiles(t, dir)) == 2 })
	var second string
	for _, f := range sessionFiles(t, dir) {
		if f != first {
			second = f
		}
	}
	waitFor(t, "the second turn saved", func() bool { return strings.Contains(readFileString(second), `"q two"`) })
	if strings.Contains(readFileString(second), "q one") {
		t.Errorf("/new did not start a fresh conversation:\n%s", readFileString(second))
	}
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Fatalf("exit: %v\n%s", err, s.screen())
	}
	if want := "[left the window mode: mm -tui -continue goes on with this conversation]"; !strings.Contains(s.screen(), want) {
		t.Errorf("the leaving line does not name %q:\n%s", want, s.screen())
	}
	if _, err := os.Stat(second + ".lock"); err == nil {
		t.Error("the lock file outlived mm")
	}

	// tui: true this time: the leaving line names mm -continue alone.
	cfg = writeConfig(t, dir, sessionsConfig+"tui: true\n")
	srv.Push(llmtest.Turn{Text: "Third answer."})
	s = startTUI(t, dir, srv, nil, "-c", cfg, "-continue")
	s.inWindow()
	s.wait("resumed session " + sessionID(second) + ": 1 turn, 2 messages")
	// The resumed conversation is drawn again, in its order, above where
	// it goes on.
	s.waitFor("the resumed conversation drawn", func(scr string) bool {
		return regexp.MustCompile(`(?s)resumed session .*› q two.*‣ mm.*Second answer\..*── the conversation goes on here ──`).MatchString(scr)
	})
	s.send("q three\r")
	s.wait("Third answer.")
	waitFor(t, "the resumed turn saved", func() bool { return strings.Contains(readFileString(second), `"turns": 2`) })
	msgs := requestMessages(t, srv.ChatRequests()[2])
	if len(msgs) != 4 || msgs[1].(map[string]any)["content"] != "q two" || msgs[3].(map[string]any)["content"] != "q three" {
		t.Errorf("after -continue the model read: %v", msgs)
	}
	if n := len(sessionFiles(t, dir)); n != 2 {
		t.Errorf("%d session files after -continue, want 2 (it goes on in its own)", n)
	}
	s.send("\x04")
	s.exit()
	if want := "[left the window mode: mm -continue goes on with this conversation]"; !strings.Contains(s.screen(), want) {
		t.Errorf("tui: true: the leaving line does not name %q:\n%s", want, s.screen())
	}
}

// The conversation is written during the turn, as in the line mode: while
// the permission zone waits (before the call runs) the file already holds
// the question.
func TestTUISessionCheckpointMidTurn(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig+"yolo: false\n")
	srv := llmtest.New(t, call("bash", `{"command":"echo checkpointed"}`), llmtest.Turn{Text: "over"})
	s := startTUI(t, dir, srv, nil, "-c", cfg)
	s.inWindow()
	s.send("the mid-turn question\r")
	s.wait("🔐 bash echo checkpointed")
	waitFor(t, "a checkpoint", func() bool {
		f := sessionFiles(t, dir)
		return len(f) == 1 && strings.Contains(readFileString(f[0]), "the mid-turn question")
	})
	s.answer("a")
	s.wait("over")
	f := sessionFiles(t, dir)[0]
	waitFor(t, "the call's result saved", func() bool { return strings.Contains(readFileString(f), "checkpointed\\n") })
	s.send("\x04")
	s.exit()
}

// -resume ID and /resume ID in the window; /resume with two words says
// its usage; a planted (unsigned) session is listed as foreign and
// refused, as in the line mode; with sessions off /sessions says so and
// the leaving line is today's.
func TestTUISessionResume(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "first answer"})
	if r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "my own question"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	own := sessionID(sessionFiles(t, dir)[0])
	plant(t, dir, plantedID, plantedBody(plantedID, ""))

	srv.Push(llmtest.Turn{Text: "resumed answer"})
	s := startTUI(t, dir, srv, nil, "-c", cfg, "-resume", own)
	s.inWindow()
	s.wait("resumed session " + own + ": 1 turn, 2 messages")
	s.send("/sessions\r")
	s.wait(plantedID)
	s.wait("(foreign: not written by your mm")
	s.send("/resume " + plantedID + "\r")
	s.wait("[resume failed: session " + plantedID + " was not written by your mm")
	s.send("/resume a b\r")
	s.wait("usage: /resume [ID]")
	s.send("/resume " + own + "\r")
	s.waitFor("a second resumed line", func(scr string) bool {
		i := strings.Index(scr, "› /resume "+own)
		return i >= 0 && strings.Contains(scr[i:], "\nresumed session "+own+": 1 turn, 2 messages")
	})
	s.send("and now?\r")
	s.wait("resumed answer")
	msgs := requestMessages(t, srv.ChatRequests()[1])
	if len(msgs) != 4 || msgs[1].(map[string]any)["content"] != "my own question" {
		t.Errorf("after /resume the model read: %v", msgs)
	}
	if sentAny(srv, "without asking") {
		t.Error("the planted session reached the model")
	}
	s.send("\x04")
	s.exit()

	off := writeConfig(t, t.TempDir(), "provider: llamacpp\n")
	s = startTUI(t, t.TempDir(), srv, nil, "-c", off)
	s.wait("Ctrl-D quits")
	s.send("/sessions\r")
	s.wait("sessions are off — set sessions.enabled: true")
	s.send("\x04")
	s.exit()
	if !strings.Contains(s.screen(), "[left the window mode: mm -tui opens a new one]") {
		t.Errorf("sessions off: the leaving line\n%s", s.screen())
	}
}

// ask_agent in the window: while the asked agent works the header names
// it, asked by this agent; its answer sits under `‣ mm [<its title>]`,
// its call titled `<agent> · <title>`, its permission request in the
// permission zone; the call ends `<agent> answered (N characters)` and the
// header is this agent's again.
func TestTUIAskAgent(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{Reasoning: "Child reasoning here.", Text: "Making it.", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch made.txt && echo touched"}`}}},
		llmtest.Turn{Text: "Made it."},
	)
	parentCfg, _ := askPair(t, dir, child, "  title: Marge (reviewer)\n", "description: reviews code\nyolo: false")
	parent := llmtest.New(t,
		call("ask_agent", `{"agent":"reviewer","prompt":"make the file"}`),
		llmtest.Turn{Text: "Parent done."},
	)
	s := startTUI(t, dir, parent, nil, "-c", parentCfg)
	s.wait("Ctrl-D quits")
	home := s.row(0)
	s.send("go\r")
	s.wait("🔐 reviewer asks: Run `touch made.txt && echo touched`")
	s.wait("[a] allow once · [s] allow this for reviewer's session · [r] refuse · [n] never")
	if got, want := s.row(0), "mm [Marge (reviewer)] · child-model @ llamacpp · asked by mm"; got != want {
		t.Errorf("header while the agent works %q, want %q", got, want)
	}
	s.wait("‣ mm [Marge (reviewer)]")
	s.wait("Child reasoning here.")
	if !s.faintAt("Child reasoning here.") {
		t.Error("the asked agent's reasoning is not dimmed")
	}
	s.wait("Making it.")
	s.answer("a")
	s.wait("allowed once")
	s.wait("‣ reviewer · Run `touch made.txt && echo touched` · done")
	s.wait("   touched")
	s.wait("Made it.")
	s.wait("reviewer answered (8 characters)")
	s.wait("Parent done.")
	s.waitFor("this agent's header again", func(string) bool { return s.row(0) == home })
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Errorf("the allowed call did not run: %v", err)
	}
	if got := askResult(t, parent.ChatRequests()[1]); got != "Made it." {
		t.Errorf("tool result %q", got)
	}
	// The answer, then this agent's own under its label again.
	scr := s.screen()
	if i, j := strings.Index(scr, "reviewer answered"), strings.LastIndex(scr, "‣ mm\n"); i < 0 || j < i {
		t.Errorf("this agent's answer is not labelled after the asked one:\n%s", scr)
	}
	s.send("\x04")
	s.exit()
}

// /ask-<name> and /ask-with-context-<name> in the window: the line mode's
// `🗣` line, the asked agent (named by its mmConfigs name when it has no
// title) in the header and over its answer, the answered line, and the
// exchange added to the history; /help lists them.
func TestTUISlashAsk(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "Child says hi."}, llmtest.Turn{Text: "A summary."})
	parentCfg, _ := askPair(t, dir, child, "", "")
	parent := llmtest.New(t, llmtest.Turn{Text: "Parent again."})
	s := startTUI(t, dir, parent, nil, "-c", parentCfg)
	s.wait("Ctrl-D quits")
	s.send("/ask-reviewer what now?\r")
	s.wait("🗣 ask_agent: reviewer (llamacpp/child-model) — what now?")
	s.wait("‣ mm [reviewer]")
	s.wait("Child says hi.")
	s.wait("reviewer answered (14 characters)")
	s.waitFor("this agent's header again", func(string) bool { return strings.HasPrefix(s.row(0), "mm · ") })
	s.send("and?\r")
	s.wait("Parent again.")
	body := string(parent.ChatRequests()[0].Body)
	if !strings.Contains(body, `{"role":"user","content":"/ask-reviewer what now?"},{"role":"assistant","content":"reviewer answered:\nChild says hi."}`) {
		t.Errorf("the /ask exchange is not in the history:\n%s", body)
	}
	s.send("/ask-with-context-reviewer summarize\r")
	s.wait("A summary.")
	creqs := child.ChatRequests()
	if got := lastUser(t, creqs[len(creqs)-1]); !strings.Contains(got, "Assistant: Parent again.") || !strings.Contains(got, "The task:\nsummarize") {
		t.Errorf("with context, the child read:\n%s", got)
	}
	s.send("/help\r")
	s.wait("/ask-NAME PROMPT")
	s.wait("/ask-with-context-NAME PROMPT")
	s.send("\x04")
	s.exit()
}

// The asked agent's title comes from its file and its text from its
// model: both are drawn inert, in the header, the label and the answer.
func TestTUIAskAgentHostileTitle(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "hi \x1b]0;owned\x07 \u202eevil"})
	parentCfg, _ := askPair(t, dir, child, "  title: \"Bad\\e]0;pwned\\a\\u202e\"\n", "")
	s := startTUI(t, dir, llmtest.New(t), nil, "-c", parentCfg)
	s.inWindow()
	s.send("/ask-reviewer hello\r")
	s.wait("‣ mm [Bad^[]0;pwned^G<U+202E>]")
	s.wait("hi ^[]0;owned^G <U+202E>evil")
	s.wait("reviewer answered")
	s.mu.Lock()
	raw := s.raw.String()
	s.mu.Unlock()
	for _, bad := range []string{"\x1b]0;pwned", "\x1b]0;owned", "\u202e"} {
		if strings.Contains(raw, bad) {
			t.Errorf("%q reached the terminal raw", bad)
		}
	}
	s.send("\x04")
	s.exit()
}

// Esc during /ask-<name> stops the ask: the asked agent's request waiting
// in the permission zone is refused, the call does not run, what it had
// said is kept with the line mode's stop line, and the header is this
// agent's again.
func TestTUISlashAskEsc(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{Text: "Starting.", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch never.txt"}`}}},
		llmtest.Turn{Text: "unused"},
	)
	parentCfg, _ := askPair(t, dir, child, "", "description: reviews code\nyolo: false")
	s := startTUI(t, dir, llmtest.New(t), nil, "-c", parentCfg)
	s.inWindow()
	home := s.row(0)
	s.send("/ask-reviewer do it\r")
	s.wait("🔐 reviewer asks: Run `touch never.txt`")
	if !strings.HasSuffix(s.row(0), "· asked by mm") {
		t.Errorf("header while asked: %q", s.row(0))
	}
	s.send("\x1b")
	s.wait("refused (the turn stopped)")
	s.wait("[ask_agent: reviewer stopped before finishing: interrupted by the user]")
	s.waitFor("this agent's header again", func(string) bool { return s.row(0) == home })
	if _, err := os.Stat(filepath.Join(dir, "never.txt")); err == nil {
		t.Error("the stopped agent's call ran")
	}
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Errorf("exit: %v", err)
	}
}

// A save that fails (the sessions directory is a symbolic link) is said
// once in the window, in the line mode's words, the turns go on, and the
// leaving line does not offer a -continue that would find nothing.
func TestTUISessionSaveFailure(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	os.MkdirAll(filepath.Join(dir, ".mm"), 0o700)
	if err := os.Symlink(t.TempDir(), filepath.Join(dir, ".mm", "sessions")); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.Turn{Text: "One."}, llmtest.Turn{Text: "Two."})
	s := startTUI(t, dir, srv, nil, "-c", cfg)
	s.inWindow()
	s.send("hi\r")
	s.wait("One.")
	s.wait("the conversation is not saved]")
	s.send("again\r")
	s.wait("Two.")
	if n := strings.Count(s.screen(), "not saved]"); n != 1 {
		t.Errorf("the failure was said %d times:\n%s", n, s.screen())
	}
	s.send("\x04")
	s.exit()
	if !strings.Contains(strings.ReplaceAll(s.screen(), "\n", ""), "[left the window mode: mm -tui opens a new one]") {
		t.Errorf("the leaving line after a failed save:\n%s", s.screen())
	}
}
