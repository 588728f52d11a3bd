package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Round 24 through mm -p (issue #25, rule_round24.go): Rapid-MLX's
// [Calling tool="NAME" k="v"] and Calling tool: NAME({…}) lines and
// kubrick's ```tool_call fences each run, and their markup reaches
// neither stdout nor the streamed text; a Kimi call whose id names two
// tools never runs.
func TestRound24FormatsRunThroughMM(t *testing.T) {
	checkFormatsRun(t, []textFormat{
		{"Calling tool lines", "[Calling tool=\"bash\" command=\"touch one\"]\n[Calling tool: bash({\"command\": \"touch two\"})]", "Calling tool", []string{"one", "two"}},
		{"tool_call fences", "I'll make the file.\n\n```tool_call\n{\"tool\": \"bash\", \"parameters\": {\"command\": \"touch one\"}}\n```\n", "parameters", []string{"one"}},
	})

	// The two-name Kimi call is corrected: nothing runs, its tokens are
	// not the answer, and the model is asked again.
	dir := t.TempDir()
	kimi := "On it.\n<|tool_calls_section_begin|> <|tool_call_begin|> bash:functions.execute:0 <|tool_call_argument_begin|> {\"command\":\"touch pwned\"} <|tool_call_end|> <|tool_calls_section_end|>"
	srv := llmtest.New(t, llmtest.Turn{Text: kimi}, llmtest.Turn{Text: "done"}, llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "make it")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Errorf("a Kimi call naming two tools ran:\n%s", r.stderr)
	}
	if !strings.Contains(r.stderr, "names two tools") || strings.Contains(r.stdout, "tool_call_begin") {
		t.Errorf("want the correction, and no tokens in the answer:\nstdout %s\nstderr %s", r.stdout, r.stderr)
	}
}
