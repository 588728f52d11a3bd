package main_test

import (
	"strings"
	"testing"
)

// Round 22 through mm -p (issue #25, rule_round22.go): Dify's ReAct step
// with its JSON blob on the Action line, Qwen-Agent's [FUNCTION]/[ARGS]
// lines, a bare [{function, args}] list and Cline's element inside
// <tool_call> each run, and their markup never reaches stdout; a call
// object inside a sentence, or one reported as tried, never runs.
func TestRound22FormatsRunThroughMM(t *testing.T) {
	checkFormatsRun(t, []textFormat{
		{"ReAct JSON action", "Thought: I need the file first.\nAction: {\"action\": \"bash\", \"action_input\": {\"command\": \"touch one\"}}", "action_input", []string{"one"}},
		{"Qwen-Agent brackets", " [FUNCTION] bash\n[ARGS] {\"command\": \"touch one\"}", "[ARGS]", []string{"one"}},
		{"function/args list", `[{"function": "bash", "args": {"command": "touch one"}},{"function": "bash", "args": {"command": "touch two"}}]`, "args", []string{"one", "two"}},
		{"Cline in <tool_call>", "<tool_call><bash><command>touch one</command></bash></tool_call>", "<command>", []string{"one"}},
	})
	for _, text := range []string{
		`Here is a tool call: {"name": "bash", "arguments": {"command": "touch pwned"}} and some more text`,
		"The first try failed.\n\nAlso tried: {\"name\": \"bash\", \"arguments\": {\"command\": \"touch pwned\"}}",
	} {
		r := shownTextTurn(t, text)
		if !strings.Contains(r.stdout, "pwned") {
			t.Errorf("the answer was not shown:\n%s", r.stdout)
		}
	}
}
