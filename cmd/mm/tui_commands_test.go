package main_test

// The window mode's slash commands, Tab-completion, readline keys and
// Ctrl-R, driven in a pty on an emulated screen (tui_test.go's helpers).

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// box is the input box's row (the last one) as the screen shows it.
func (s *tuiSession) box() string { return s.row(23) }

// waitBox waits until the box shows want.
func (s *tuiSession) waitBox(want string) {
	s.t.Helper()
	s.waitFor("the box "+want, func(string) bool { return s.box() == want })
}

// The line mode's commands run in the window with the line mode's texts:
// /help lists them and the window's keys, /config, /context, /abort with
// nothing running, an unknown command, /model and /model NAME (the header
// and the next request follow it).
func TestTUICommandTexts(t *testing.T) {
	srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", Models: []string{"llama3.2:latest", "gemma3:4b"}},
		llmtest.Turn{Text: "from llama"})
	s := startTUI(t, t.TempDir(), srv, append(ollamaEnv(srv, "qwen3"), noUserConfig(t)...))
	s.wait("Ctrl-D quits")
	s.send("/help\r")
	for _, want := range []string{"/model     list the models", "Keys: Enter sends", "Tab completes", "Ctrl-R searches"} {
		s.wait(want)
	}
	s.send("\x1b[5~") // PgUp: the help's start
	for _, want := range []string{"/help      list the commands", "/compact   compress", "/context   what fills"} {
		s.wait(want)
	}
	s.send("\x1b[F") // End
	s.send("/config\r")
	s.wait("tui                        true  (flag -tui)") // the window was opened by the flag
	s.send("/context\r")
	s.wait("system prompt")
	s.send("/abort\r")
	s.wait("nothing is running")
	s.send("/bogus\r")
	s.wait("unknown command /bogus — /help lists them")
	s.send("/model a b\r")
	s.wait("usage: /model [NAME]")
	s.send("/model\r")
	s.wait("* qwen3:latest (in use)")
	s.wait("  gemma3:4b")
	s.send("/model llama3.2:latest\r")
	s.wait("model: llama3.2:latest (from the next request)")
	s.waitFor("the header naming the new model", func(string) bool { return s.row(0) == "mm · llama3.2:latest @ ollama" })
	s.send("hi\r")
	s.wait("from llama")
	if got := srv.ChatRequests()[0].JSON["model"]; got != "llama3.2:latest" {
		t.Errorf("the request names %v, want llama3.2:latest", got)
	}
}

// /compact runs off the window's loop: while the summary is awaited the
// status line says so and the box takes keys; a question sent meanwhile
// waits for the command (it is not stopped); Esc stops it, the history
// unchanged, and the question goes out then. A second /compact compresses.
func TestTUICompact(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\ncontext:\n  keepLastTurns: 1\n")
	srv := llmtest.New(t,
		llmtest.Turn{Text: padded("a1")}, llmtest.Turn{Text: "a2"},
		llmtest.Turn{Fault: llmtest.FaultHangBeforeFirstByte},
		llmtest.Turn{Text: "a3"},
		llmtest.Turn{Text: llmtest.SummaryTextPrefix + ": q1 answered with a1."},
		llmtest.Turn{Text: "a4"},
	)
	s := startTUI(t, dir, srv, noUserConfig(t), "-c", cfg)
	s.wait("Ctrl-D quits")
	// Each question is sent once the turn before it has ended (its
	// summary on the status row): a line sent while a turn runs stops it,
	// and under load the answer's text shows before its turn ends.
	turnEnded := func(what, before string) string {
		s.waitFor(what, func(string) bool {
			st := s.statusRow()
			return strings.Contains(st, "in / ") && st != before
		})
		return s.statusRow()
	}
	s.send("q1\r")
	s.wait("a1 with the details")
	first := turnEnded("the end of q1's turn", "")
	s.send("q2\r")
	s.wait("a2")
	turnEnded("the end of q2's turn", first)
	s.send("/compact\r")
	s.waitFor("the status of /compact", func(string) bool { return strings.Contains(s.statusRow(), "Compressing the conversation") })
	s.send("q3")
	s.waitBox("› q3")
	s.send("\r")
	s.waitBox("›")
	if st := s.statusRow(); !strings.Contains(st, "Compressing the conversation") {
		t.Fatalf("a question sent during /compact stopped it: status %q", st)
	}
	s.send("\x1b")
	s.wait("[/compact stopped — the history is unchanged]")
	s.wait("a3")
	s.send("/compact\r")
	s.wait("🗜️ compressed the conversation: 7 → 5 messages")
	s.send("q4\r")
	s.wait("a4")
	reqs := srv.ChatRequests()
	if q := contentOf(messagesOf(t, reqs[3])[len(messagesOf(t, reqs[3]))-1]); q != "q3" {
		t.Errorf("the request after the stopped /compact asks %q, want q3", q)
	}
	var got []string
	for _, m := range messagesOf(t, reqs[len(reqs)-1])[1:] {
		got = append(got, contentOf(m))
	}
	if len(got) != 5 || !strings.HasPrefix(got[1], llmtest.SummaryTextPrefix) || got[2] != "q3" || got[4] != "q4" {
		t.Errorf("history after /compact: %q", got)
	}
}

// Tab completes in the box: one candidate whole (a blank after it);
// several their common part, listed over the box, Tab again going
// through them, Esc putting back what was typed; /ask-<name> of
// mmConfigs; /model's names, asked of the server once.
func TestTUITabCompletion(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t)
	parentCfg, _ := askPair(t, dir, child, "", "")
	srv := llmtest.NewWith(t, llmtest.Options{ModelName: "qwen3:latest", Models: []string{"llama3.2:latest", "gemma3:4b", "gemma3:27b", "gemma3:\x1b[31mred\u202e"}},
		llmtest.Turn{Text: "ok"})
	s := startTUI(t, dir, srv, noUserConfig(t), "-c", parentCfg)
	s.wait("Ctrl-D quits")
	s.send("/he\t")
	s.waitBox("› /help")
	s.send("\x15/co\t")
	s.wait("/compact  /context  /config")
	s.waitBox("› /co")
	s.send("\t")
	s.waitBox("› /compact")
	s.send("\t")
	s.waitBox("› /context")
	s.send("\x1b[Z") // Shift-Tab: back
	s.waitBox("› /compact")
	s.send("\x1b") // Esc: what was typed
	s.waitBox("› /co")
	s.waitFor("the list closed", func(scr string) bool { return !strings.Contains(scr, "/compact  /context") })
	s.send("\x15/ask-r\t")
	s.waitBox("› /ask-reviewer")

	s.send("\x15/model g\t")
	s.wait("gemma3:4b  gemma3:27b")
	s.waitBox("› /model gemma3:")
	gets := modelsGets(srv)
	s.send("2\t")
	s.waitBox("› /model gemma3:27b")
	s.send("\x15/model l\t")
	s.waitBox("› /model llama3.2:latest")
	if n := modelsGets(srv); n != gets {
		t.Errorf("the server was asked for its models again (%d GETs, then %d)", gets, n)
	}
	s.send("\r")
	s.wait("model: llama3.2:latest (from the next request)")
	// A name with an escape or a bidi control is never offered, and
	// reaches the screen only inert (in /model's list).
	s.send("/model\r")
	s.wait("gemma3:^[[31mred<U+202E>")
	s.mu.Lock()
	raw := s.raw.String()
	s.mu.Unlock()
	if strings.Contains(raw, "\x1b[31mred") || strings.Contains(raw, "\u202e") {
		t.Error("a model name reached the terminal raw")
	}
}

// /resume's ids complete from the session store the line mode resumes
// from.
func TestTUIResumeCompletion(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: "saved answer"})
	env := noUserConfig(t)
	cfg := writeConfig(t, dir, sessionsConfig)
	r := mm(t, dir, srv, env, "a question to save\n/quit\n", "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	ents, _ := os.ReadDir(filepath.Join(dir, ".mm", "sessions"))
	var id string
	for _, e := range ents {
		if n, ok := strings.CutSuffix(e.Name(), ".json"); ok {
			id = n
		}
	}
	if id == "" {
		t.Fatalf("no session saved: %v", ents)
	}
	s := startTUI(t, dir, srv, env, "-c", cfg)
	s.waitFor("the window or the line mode", func(scr string) bool {
		return strings.Contains(scr, "Ctrl-D quits") || strings.Contains(scr, "does not save sessions yet")
	})
	if strings.Contains(s.screen(), "does not save sessions yet") {
		t.Skip("the window falls back to the line mode with sessions on (sessions in the window: i23-sess)")
	}
	s.send("/resume " + id[:4] + "\t")
	s.waitBox("› /resume " + id)
}

// The line mode's readline keys in the box: words of letters and digits
// for Ctrl-W, Alt-Backspace, Alt-B, Alt-F and Alt-D, Ctrl-A, Ctrl-E,
// Ctrl-K, Ctrl-U, and Ctrl-Y putting the last cut back.
func TestTUIReadlineKeys(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "got it"})
	s := startTUI(t, t.TempDir(), srv, noUserConfig(t))
	s.wait("Ctrl-D quits")
	s.send("cat foo/bar.txt")
	s.waitBox("› cat foo/bar.txt")
	s.send("\x17") // Ctrl-W: "txt" only, as readline
	s.waitBox("› cat foo/bar.")
	s.send("\x1b\x7f") // Alt-Backspace: "bar."
	s.waitBox("› cat foo/")
	s.send("\x19") // Ctrl-Y: the last cut back
	s.waitBox("› cat foo/bar.")
	s.send("\x01X") // Ctrl-A, then a key at the start
	s.waitBox("› Xcat foo/bar.")
	s.send("\x1bf\x1bfY") // Alt-F twice: the start of the word after the next
	s.waitBox("› Xcat foo/Ybar.")
	s.send("\x1bbZ") // Alt-B
	s.waitBox("› Xcat foo/ZYbar.")
	s.send("\x01\x1bd") // Ctrl-A, Alt-D: the word after the cursor
	s.waitBox("›  foo/ZYbar.")
	s.send("\x19") // Ctrl-Y
	s.waitBox("› Xcat foo/ZYbar.")
	s.send("\x0b") // Ctrl-K: to the end
	s.waitBox("› Xcat")
	s.send("\x05!\x19") // Ctrl-E, a key, Ctrl-Y
	s.waitBox("› Xcat! foo/ZYbar.")
	s.send("\x15") // Ctrl-U: all before the cursor
	s.waitBox("›")
	s.send("\x19\r")
	s.wait("got it")
	if got := lastQuestion(t, srv, 0); !strings.Contains(got, "Xcat! foo/ZYbar.") {
		t.Errorf("the question sent: %q", got)
	}
}

// Ctrl-R searches .mm/history backwards as the line mode's readline: the
// box shows the match, a line the search; Ctrl-R again an older match,
// Ctrl-S a newer one;
// Esc puts the box back; Enter sends the match; another key keeps it in
// the box, and ↑/↓ go on from it.
func TestTUIReverseSearch(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".mm"), 0o700); err != nil {
		t.Fatal(err)
	}
	hist := "alpha question\nbeta thing\nALPHA second\n"
	if err := os.WriteFile(filepath.Join(dir, ".mm", "history"), []byte(hist), 0o600); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, llmtest.Turn{Text: "beta answered"}, llmtest.Turn{Text: "alpha answered"})
	s := startTUI(t, dir, srv, noUserConfig(t))
	s.wait("Ctrl-D quits")
	s.send("draft")
	s.waitBox("› draft")
	s.send("\x12alp") // Ctrl-R
	s.wait("bck-i-search: alp_")
	s.waitFor("the newest match", func(scr string) bool { return strings.Contains(scr, "› ALPHA second") })
	s.send("\x12")
	s.waitFor("the older match", func(scr string) bool { return strings.Contains(scr, "› alpha question") })
	s.send("\x12")
	s.wait("failing bck-i-search: alp_")
	s.send("\x13") // Ctrl-S: forward, towards the newer
	s.wait("fwd-i-search: alp_")
	s.waitFor("the newer match", func(scr string) bool { return strings.Contains(scr, "› ALPHA second") })
	s.send("\x1b") // Esc: the box as it was
	s.waitBox("› draft")
	s.waitFor("the search closed", func(scr string) bool { return !strings.Contains(scr, "bck-i-search") })

	s.send("\x15\x12bet\r") // Enter sends the match
	s.wait("beta answered")
	if got := lastQuestion(t, srv, 0); !strings.Contains(got, "beta thing") {
		t.Errorf("the question sent: %q", got)
	}
	s.send("zz\x12ALPHA s\x05") // Ctrl-E ends the search, the match kept
	s.waitBox("› ALPHA second")
	s.send("\x1b[A") // ↑ goes on from the match
	s.waitBox("› beta thing")
	s.send("\x1b[B\x1b[B\x1b[B") // ↓ past the newest: the box before the search
	s.waitBox("› zz")
	s.send("\x15\x12question\x05 more")
	s.waitBox("› alpha question more")
	s.send("\r")
	s.wait("alpha answered")
}
