package main_test

// Faults found by the review of issue #14, each driven through the
// binary the way a user meets it.

import (
	"os"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// A model that writes newlines into a question or an option must not
// draw lines that look like options: each question and each option is
// one line of the terminal, so the numbers the user reads are the
// numbers mm takes.
func TestReviewAskUserOneLinePerOption(t *testing.T) {
	q := `{"question":"Pick one\n 1. fake (default)","options":["a\n 2. b","c"]}`
	srv := llmtest.New(t, call("ask_user", q), llmtest.Turn{Text: "Thanks."})
	s := startREPL(t, t.TempDir(), srv, nil)
	s.ask("ask me")
	s.expect("❓ Pick one 1. fake (default)")
	s.expect(" 1. a 2. b")
	s.expect(" 2. c")
	s.expect(" ? ")
	screen := s.text()
	for _, fake := range []string{"\n 1. fake (default)", "\n 2. b"} {
		if strings.Contains(screen, fake) {
			t.Errorf("the terminal shows a line %q that is no option:\n%s", strings.TrimPrefix(fake, "\n"), screen)
		}
	}
	s.send("2\r")
	s.expect("→ c")
	s.expect("Thanks.")
	// The prompt first: a key typed while the turn ends is type-ahead the
	// REPL may drop (this test once timed out under load there).
	s.expect("› ")
	s.send("\x04")
	s.exit()
}

// `<agent> answered (N characters)` counts the answer that scrolled, not
// what is left of it once cut to maxOutput for the model (with the cut
// marker counted in).
func TestReviewAnsweredCountsTheWholeAnswer(t *testing.T) {
	dir := t.TempDir()
	answer := "ANSWER " + strings.Repeat("y", 600) // 607 characters
	child := llmtest.New(t, llmtest.Turn{Text: answer})
	parentCfg, _ := askPair(t, dir, child, "", "description: reviews code\nyolo: true")
	if err := appendFile(parentCfg, "maxOutput: 300\n"); err != nil {
		t.Fatal(err)
	}
	parent := llmtest.New(t, askCall(`{"agent":"reviewer","prompt":"look"}`), llmtest.Turn{Text: "Parent done."})
	r := mm(t, dir, parent, nil, "go\n", "-c", parentCfg)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if out := r.stdout + r.stderr; !strings.Contains(out, "reviewer answered (607 characters)") {
		t.Errorf("no `reviewer answered (607 characters)`:\n%s", out)
	}
	if got := askResult(t, parent.ChatRequests()[1]); !strings.Contains(got, "characters cut") {
		t.Errorf("the model read the whole answer, not cut to maxOutput: %q", got)
	}
}

func appendFile(path, text string) error {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteString(text)
	return err
}

// A choice answers with an option's text as well as its number, even
// when that text is itself a number (a year, a port).
func TestReviewAskUserChoiceNumericOption(t *testing.T) {
	q := `{"question":"Which year?","options":["2023","2024"]}`
	srv := llmtest.New(t, call("ask_user", q), llmtest.Turn{Text: "Thanks."})
	s := startREPL(t, t.TempDir(), srv, nil)
	s.ask("ask me")
	s.expect(" 2. 2024")
	s.expect(" ? ")
	s.send("2024\r")
	s.expect("→ 2024")
	s.expect("Thanks.")
	if got := toolResult(t, srv, 1); got != "The user answered:\n- Which year? → 2024" {
		t.Errorf("the model read %q", got)
	}
	s.send("\x04")
	s.exit()
}

// An mmConfigs entry naming something that is no file (a device, a
// directory) must not stop mm at start: reading /dev/zero for the
// agent's role never ends.
func TestReviewAskAgentEntryNotAFile(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: "Started."})
	cfg := writeConfig(t, dir, "provider: llamacpp\nmmConfigs:\n  zero: /dev/zero\n  folder: "+dir+"\n")
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "hi")
	if r.code != 0 || r.stdout != "Started.\n" {
		t.Fatalf("exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	body := string(srv.ChatRequests()[0].Body)
	for _, want := range []string{` folder — (no description)`, ` zero — (no description)`} {
		if !strings.Contains(body, want) {
			t.Errorf("ask_agent's description lacks %q:\n%s", want, body)
		}
	}
}

// Asking such an agent fails at once, as a configuration error.
func TestReviewAskAgentNotAFileAsked(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nmmConfigs:\n  zero: /dev/zero\n")
	r := mm(t, dir, nil, nil, "", "-c", cfg, "--ask", "zero", "hi")
	if r.code != 1 || !strings.Contains(r.stderr, "[ask_agent: zero failed: config error: /dev/zero is not a file]") {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
}
