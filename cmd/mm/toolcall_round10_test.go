package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Round 10's formats through mm -p (issue #25, rule_round10p.go and
// rule_round10a.go): every line of an OLMo 3 block runs, Hunyuan 3's
// sentinel call runs, and neither block's markup reaches the terminal
// while the reply streams.
func TestRound10FormatsRunThroughMM(t *testing.T) {
	for _, tc := range []struct{ label, text string }{
		{"OLMo 3 block of two calls", "<function_calls>\nbash(command='touch one')\nbash(command='touch two')\n</function_calls>"},
		{"Hunyuan 3 sentinel calls", `<tool_call:opensource>bash<tool_sep:opensource>{"command": "touch one"}<arg_value:opensource>` + "\n" +
			`<tool_call:opensource>bash<tool_sep:opensource>{"command": "touch two"}<arg_value:opensource>`},
	} {
		t.Run(tc.label, func(t *testing.T) {
			dir := t.TempDir()
			srv := llmtest.New(t, llmtest.Turn{Text: tc.text}, llmtest.Turn{Text: "done"})
			r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "make them")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			for _, f := range []string{"one", "two"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("%s was not made: %v\n%s", f, err, r.stderr)
				}
			}
			for _, marker := range []string{"function_calls", "opensource"} {
				if strings.Contains(r.stdout+r.stderr, marker) {
					t.Errorf("the call markup %q was printed:\n%s\n%s", marker, r.stdout, r.stderr)
				}
			}
		})
	}
}
