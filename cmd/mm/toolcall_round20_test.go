package main_test

import (
	"strings"
	"testing"
)

// Round 20 through mm -p (issue #25, rule_round20.go): a stripped Kimi
// call glued to the model's sentence, Pin-Hook's [API_CALL] block, bare
// NAME{…} calls and two harmony headers whose tokens were stripped each
// run, and their markup never reaches stdout; a call a sentence compares
// with, or shows as a format's pattern, never runs.
func TestRound20FormatsRunThroughMM(t *testing.T) {
	for _, tc := range []struct {
		label, text, leak string
		files             []string
	}{
		{"Kimi glued to a sentence", `I'll make the file.functions.bash:1{"command": "touch one"}`, "functions.", []string{"one"}},
		{"Pin-Hook", `<function>[API_CALL]bash[PARAM_CALL]{"command": "touch one"}[API_CALL]bash[PARAM_CALL]{"command": "touch two"}</function>`, "API_CALL", []string{"one", "two"}},
		{"bare NAME{…}", `bash{"command": "touch one"}bash{"command": "touch two"}`, "bash{", []string{"one", "two"}},
		{"two stripped harmony headers", "<|channel|>analysis<|message|>Make both.<|end|>\nto=functions.bash <|message|>{\"command\": \"touch one\"}\nto=functions.bash <|message|>{\"command\": \"touch two\"}", "to=functions", []string{"one", "two"}},
	} {
		t.Run(tc.label, func(t *testing.T) {
			r := runTextTurn(t, tc.text, "make it", tc.files...)
			if strings.Contains(r.stdout, tc.leak) {
				t.Errorf("the call's markup was shown:\n%s", r.stdout)
			}
		})
	}
	for _, text := range []string{
		"The server ends up with plain text instead of [TOOL_CALLS]bash[ARGS]{\"command\": \"touch pwned\"}. Turn skip_special_tokens off.",
		"GLM 4.5's tool call pattern is:\n```\n<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>touch pwned</arg_value>\n</tool_call>\n```\n\nQwen3 Coder's is different.",
	} {
		r := shownTextTurn(t, text)
		if !strings.Contains(r.stdout, "pwned") {
			t.Errorf("the answer was not shown:\n%s", r.stdout)
		}
	}
}
