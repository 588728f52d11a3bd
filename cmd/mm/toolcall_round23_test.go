package main_test

import (
	"strings"
	"testing"
)

// Round 23 through mm -p (issue #25, rule_round23.go): ATEM's block
// without its header, GLM-4.7-Flash's <KEY="VALUE"</KEY> pairs and the
// <name>/<arguments> element call each run, and their markup reaches
// neither stdout nor the streamed text; a block after "This is what comes
// back:" never runs.
func TestRound23FormatsRunThroughMM(t *testing.T) {
	checkFormatsRun(t, []textFormat{
		{"ATEM block", "<atem:function_calls>\n<atem:invoke name=\"bash\">\n<atem:parameter name=\"command\">touch one</atem:parameter>\n</atem:invoke>\n</atem:function_calls>", "atem:", []string{"one"}},
		{"GLM attribute pairs", "<tool_call>bash<command=\"touch one\"</command>\n</tool_call>", "<command=", []string{"one"}},
		{"name/arguments elements", "<tool_call><name>bash</name><arguments>{\"command\": \"touch one\"}</arguments></tool_call>", "<arguments>", []string{"one"}},
	})
	r := shownTextTurn(t, "This is what comes back:\n\n```xml\ncall\n<invoke name=\"Bash\">\n<parameter name=\"command\">touch pwned</parameter>\n</invoke>\n```\n\nStripping the `call` line fixes it.")
	if !strings.Contains(r.stdout, "pwned") {
		t.Errorf("the answer was not shown:\n%s", r.stdout)
	}
}
