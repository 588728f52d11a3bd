package main_test

// Faults found by the review of issue #14, each driven through the
// binary the way a user meets it.

import (
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
	s.send("\x04")
	s.exit()
}
