package main_test

import (
	"strings"
	"testing"
)

// Rounds 14r and 15 through mm -p (issue #25, rule_round14r.go,
// rule_round15.go): the model's own terse steps and the fresh formats run,
// each call once; shown blocks create nothing.
func TestRound15FormatsRunThroughMM(t *testing.T) {
	for _, tc := range []struct{ label, text string }{
		{"an imperative naming the file the call writes", "Save it as one then:\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"one\", \"content\": \"1\"}}\n</tool_call>"},
		{"DSML with both bars lost", "<DSMLtool_calls><DSMLinvoke name=\"bash\"><DSMLparameter name=\"command\"><![CDATA[touch one]]></DSMLparameter></DSMLinvoke></DSMLtool_calls>"},
		{"LocalAI's <param=…> tags", "Let me call the function.<tool_call><function=bash><param=command>touch one</param></function></tool_call>"},
		{"Continue's block without its fence", "I'll help you with that.\ntool_name: bash\nbegin_arg: command\ntouch one\nend_arg\n"},
		{"Cline blocks glued", "<bash><command>touch one</command></bash><bash><command>touch two</command></bash>"},
	} {
		t.Run(tc.label, func(t *testing.T) { runTextTurn(t, tc.text, "make it", "one") })
	}
	// The markup of a call read from the text never reaches mm -p's
	// stdout, only the answer does (the stream guard's own markers are
	// tested in internal/agent's TestGuardHoldsCallMarkup).
	for _, tc := range []struct{ text, leak string }{
		{"**Tool Call:** `bash`\n```json\n{\"command\": \"touch one\"}\n```", "Tool Call"},
		{"{\n  \"function\": \"bash\",\n  \"params\": {\"command\": \"touch one\"}\n", "params"},
		{"<DSMLtool_calls><DSMLinvoke name=\"bash\"><DSMLparameter name=\"command\">touch one</DSMLparameter></DSMLinvoke></DSMLtool_calls>", "DSML"},
	} {
		r := runTextTurn(t, tc.text, "make it", "one")
		if strings.Contains(r.stdout, tc.leak) {
			t.Errorf("the call's markup reached stdout:\n%s", r.stdout)
		}
	}
	for _, text := range []string{
		"Save this as testdata/call.txt for the parser test:\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"pwned\", \"content\": \"x\"}}\n</tool_call>",
		"```xml\n<tool_calls><invoke name=\"bash\"><parameter name=\"command\">touch pwned</parameter></invoke></tool_calls>\n```\n\n这里只是展示格式，不是真实调用。",
		"import bash\n\nbash(\"touch pwned\", \"now\")",
		"<invoke name=\"bash\" partnerLink=\"shell\" operation=\"run\">\n<parameter name=\"command\">touch pwned</parameter>\n</invoke>",
	} {
		shownTextTurn(t, text)
	}
}
