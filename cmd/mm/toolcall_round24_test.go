package main_test

import (
	"strings"
	"testing"
)

// Round 24 through mm -p (issue #25, rule_round24.go): Rapid-MLX's
// [Calling tool="NAME" k="v"] and Calling tool: NAME({…}) lines and
// kubrick's ```tool_call fences each run, and their markup reaches
// neither stdout nor the streamed text; a Kimi call whose id names two
// tools never runs.
func TestRound24FormatsRunThroughMM(t *testing.T) {
	for _, tc := range []struct {
		label, text, leak string
		files             []string
	}{
		{"Calling tool lines", "[Calling tool=\"bash\" command=\"touch one\"]\n[Calling tool: bash({\"command\": \"touch two\"})]", "Calling tool", []string{"one", "two"}},
		{"tool_call fences", "I'll make the file.\n\n```tool_call\n{\"tool\": \"bash\", \"parameters\": {\"command\": \"touch one\"}}\n```\n", "parameters", []string{"one"}},
	} {
		t.Run(tc.label, func(t *testing.T) {
			r := runTextTurn(t, tc.text, "make it", tc.files...)
			if strings.Contains(r.stdout, tc.leak) {
				t.Errorf("the call's markup was shown:\n%s", r.stdout)
			}
			if strings.Contains(r.stderr, tc.leak) {
				t.Errorf("the call's markup was streamed:\n%s", r.stderr)
			}
		})
	}
}
