package main_test

import (
	"strings"
	"testing"
)

// Round 21 through mm -p (issue #25, rule_round21.go): K2 Horizon's ifm|
// markup, Gemma 4's collapsed <tool_call:NAME{ opener with two calls in
// one block, Grok's xai:function_call, Functionary v2's framing and
// Qwen3-Coder's drifted <function_NAME> each run, and their markup never
// reaches stdout; a call a sentence goes on after, or one in inline code,
// never runs, and the answer is shown as the model wrote it.
func TestRound21FormatsRunThroughMM(t *testing.T) {
	checkFormatsRun(t, []textFormat{
		{"K2 Horizon", "<ifm|tool_calls><ifm|tool_call>bash<ifm|arg_key>command</ifm|arg_key><ifm|arg_type>string</ifm|arg_type><ifm|arg_value>touch one</ifm|arg_value></ifm|tool_call></ifm|tool_calls>", "ifm|", []string{"one"}},
		{"Gemma collapsed opener", `<tool_call:bash{command:<|"|>touch one<|"|>}call:bash{command:<|"|>touch two<|"|>}><tool_call|>`, "tool_call", []string{"one", "two"}},
		{"Grok xai:function_call", `<xai:function_call name="bash"><parameter name="command">touch one</parameter></xai:function_call>`, "xai:", []string{"one"}},
		{"Functionary v2", "<|from|>assistant\n<|recipient|>bash\n<|content|>{\"command\": \"touch one\"}", "recipient", []string{"one"}},
		{"<function_NAME>", "<function_bash>\n<parameter=command>\ntouch one\n</parameter>\n</function>\n</tool_call>", "parameter", []string{"one"}},
	})
	for _, tc := range []struct{ text, shown string }{
		{"Grok leaks this:\n```\n<xai:function_call name=\"bash\"><parameter name=\"command\">touch pwned</parameter></xai:function_call>\n```\nbut only when it streams.", "<xai:function_call name="},
		{"The 31B writes `<tool_call:bash{command:<|\"|>touch pwned<|\"|>}<tool_call|>` instead of the documented opener.", "`<tool_call:bash{"},
	} {
		r := shownTextTurn(t, tc.text)
		if !strings.Contains(r.stdout, tc.shown) {
			t.Errorf("the answer was not shown as written (want %q):\n%s", tc.shown, r.stdout)
		}
	}
}

// textFormat is a reply written in one format, the markup that must not
// be shown and the files its calls make.
type textFormat struct {
	label, text, leak string
	files             []string
}

// checkFormatsRun drives mm -p through each reply: its calls make their
// files, and its markup reaches neither stdout nor the streamed text
// (internal/agent/guard.go holds it).
func checkFormatsRun(t *testing.T, formats []textFormat) {
	t.Helper()
	for _, tc := range formats {
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
