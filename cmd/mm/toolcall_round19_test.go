package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Round 19 through mm -p (issue #25, rule_round19.go): DeepSeek's object
// missing its last brace before the call's end token, and a Hermes call
// whose opening brace is gone, run once and their markup never reaches
// stdout; a raw body that opens an object is told, never run as a command.
func TestRound19FormatsRunThroughMM(t *testing.T) {
	const ds = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>"
	const dsEnd = "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
	for _, tc := range []struct{ label, text, leak string }{
		{"DeepSeek's brace missing", "<think>I make it.</think>\n\n" + ds + "bash<｜tool▁sep｜>{\"command\": \"touch one\"" + dsEnd, "tool▁sep"},
		{"Hermes' brace elided", "<tool_call>\"name\": \"bash\", \"arguments\": {\"command\": \"touch one\"}}</tool_call>", "tool_call"},
	} {
		t.Run(tc.label, func(t *testing.T) {
			r := runTextTurn(t, tc.text, "make it", "one")
			if strings.Contains(r.stdout, tc.leak) || strings.Contains(r.stderr, tc.leak) {
				t.Errorf("the call's markup was shown:\n%s\n%s", r.stdout, r.stderr)
			}
		})
	}
	t.Run("a body that opens an object", func(t *testing.T) {
		dir := t.TempDir()
		srv := llmtest.New(t, llmtest.Turn{Text: ds + "bash<｜tool▁sep｜>touch pwned {" + dsEnd}, llmtest.Turn{Text: "sent again"}, llmtest.Turn{Text: "sent again"})
		r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "make it")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
			t.Errorf("the broken body ran as a command")
		}
		told := false
		for _, q := range srv.ChatRequests() {
			told = told || strings.Contains(string(q.Body), "not valid JSON")
		}
		if !told {
			t.Errorf("the model was not told its arguments are no JSON:\n%s\n%s", r.stdout, r.stderr)
		}
	})
}
