package toolcall

import "testing"

// Tests for the rules written for widened-threads-round3b.jsonl
// (rule_argsonly.go, rule_react.go), each with near misses.

func wantText(t *testing.T, label string, res Result) {
	t.Helper()
	if len(res.Calls) != 0 || len(res.Rejections) != 0 {
		t.Errorf("%s: calls %v, rejections %v; want text", label, res.Calls, res.Rejections)
	}
}

// argsOnlyCall: inside <tool_call> an object with arguments and no name is
// a call attempt that names no tool: corrected, never run.
func TestRuleArgsOnlyCall(t *testing.T) {
	checkRejected(t, "hermes", recoverText(t, "<tool_call>\n{\"arguments\":{\"command\":\"mkdir -p doc\"}}\n</tool_call>"), false, "no tool name")
	checkRejected(t, "parameters", recoverText(t, "<tool_call>{\"parameters\": {\"path\": \"a.go\"}}</tool_call>"), false, "no tool name")
	// Near misses: outside call markup the same object is JSON data; with
	// another key it is a record; a scalar "arguments" is no call body.
	wantText(t, "bare", recoverText(t, "{\"arguments\": {\"command\": \"ls\"}}"))
	wantText(t, "fenced", recoverText(t, "The payload is:\n```json\n{\"arguments\": {\"command\": \"ls\"}}\n```"))
	if res := recoverText(t, "<tool_call>{\"arguments\": {\"command\": \"ls\"}, \"status\": \"ok\"}</tool_call>"); len(res.Calls) != 0 {
		t.Errorf("record ran %v", res.Calls)
	}
	if res := recoverText(t, "<tool_call>{\"arguments\": \"ls\"}</tool_call>"); len(res.Calls) != 0 {
		t.Errorf("scalar arguments ran %v", res.Calls)
	}
}

// reactAction: a reply that ends with a ReAct Action / Action Input block
// is corrected, never run, whether or not the action names a tool.
func TestRuleReactAction(t *testing.T) {
	checkRejected(t, "unknown", recoverText(t, "Thought: I need to search\nAction: Internet Search Tool(user_query) - Scrapes the web.\nAction Input: {\"query\": \"x\"}"), false, "not a tool")
	checkRejected(t, "declared", recoverText(t, "Action: bash\nAction Input: {\"command\": \"ls\"}\nObservation:"), false, "ReAct")
	checkRejected(t, "multi-line input", recoverText(t, "Action: read_file\nAction Input: {\n  \"path\": \"a.go\"\n}"), false, "ReAct")
	// Near misses: the model writes the observation and answers itself; the
	// block is in a fence; Action Input does not follow Action; prose.
	wantText(t, "observed", recoverText(t, "Action: bash\nAction Input: {\"command\": \"ls\"}\nObservation: a.go\nThought: done\nFinal Answer: a.go"))
	wantText(t, "fenced", recoverText(t, "A ReAct step looks like:\n```\nAction: bash\nAction Input: {\"command\": \"ls\"}\n```"))
	wantText(t, "unfenced open", recoverText(t, "Example:\n```\nAction: bash\nAction Input: ls"))
	wantText(t, "apart", recoverText(t, "Action: bash\nThen I would write\nAction Input: ls"))
	wantText(t, "prose", recoverText(t, "The Action Input: line holds the arguments."))
	wantText(t, "example lead-in", recoverText(t, "In ReAct, a step looks like this:\nAction: bash\nAction Input: {\"command\": \"ls\"}"))
	wantText(t, "quoted", recoverText(t, "> Action: bash\n> Action Input: ls"))
}
