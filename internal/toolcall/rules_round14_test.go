package toolcall

import "testing"

func TestRuleKimiK3XTML(t *testing.T) {
	k3 := `<|open|>tools<|sep|><|open|>call tool="read_file" index="0"<|sep|><|open|>argument key="path" type="string"<|sep|>a.go<|close|>argument<|sep|><|open|>argument key="start" type="number"<|sep|>3<|close|>argument<|sep|><|close|>call<|sep|><|close|>tools<|sep|>`
	r := recoverText(t, "<|open|>response<|sep|>Let me look.<|close|>response<|sep|>"+k3)
	checkCalls(t, "a typed call after a response block", r, call{"read_file", `{"path":"a.go","start":3}`})
	if r.Text != "Let me look." {
		t.Errorf("text %q, want the response's words", r.Text)
	}
	checkRejected(t, "cut after the call opener: the correction names path",
		recoverText(t, `<|open|>tools<|sep|><|open|>call tool="read_file" index="0"<|sep|>`), true, "path")
	wantText(t, "near miss: in a code span", recoverText(t, "K3 writes `"+k3+"` for calls."))
	wantText(t, "near miss: a call opener with no tools block", recoverText(t, `<|open|>call tool="read_file"<|sep|>`))
}

func TestRuleGlimmerATEM(t *testing.T) {
	checkCalls(t, "a header and an ATEM block",
		recoverText(t, " to=read_file<|message|><atem:function_calls>\n<atem:invoke name=\"read_file\">\n<atem:parameter name=\"path\">go.mod</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eot|>"),
		call{"read_file", `{"path":"go.mod"}`})
	checkCalls(t, "token text inside a value is the value",
		recoverText(t, " to=bash<|message|><atem:function_calls>\n<atem:invoke name=\"bash\">\n<atem:parameter name=\"command\">echo '<|eot|>'</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eot|>"),
		call{"bash", `{"command":"echo '<|eot|>'"}`})
	// After prose the header is not Glimmer's; the block is no raw body
	// for the stripped-harmony reader either (argsHoldCall).
	r := recoverText(t, "First:\n to=bash<|message|><atem:function_calls>\n<atem:invoke name=\"bash\">\n<atem:parameter name=\"command\">ls</atem:parameter>\n</atem:invoke>\n</atem:function_calls>")
	for _, c := range r.Calls {
		if string(c.Arguments) != `{"command":"ls"}` {
			t.Errorf("near miss: a block after prose ran %s %s", c.Name, c.Arguments)
		}
	}
}

func TestRuleRound14t(t *testing.T) {
	checkCalls(t, "doubled_brace: an object's closer written twice in a list",
		recoverText(t, `<|tool_call|>[{"name": "bash", "arguments": {"command": "date"}}}]<|end_of_text|>`),
		call{"bash", `{"command":"date"}`})
	checkRejected(t, "pythonic_braces: [NAME{…}] as the whole reply", recoverText(t, `[read_file{path="a.go"}]`), false, "NAME(key=value)")
	wantText(t, "near miss: braces of an undeclared name", recoverText(t, `[weather{city="Paris"}]`))
	wantText(t, "a lead-in ending by naming a format",
		recoverText(t, "MiniMax-M2 uses structured XML tag format:\n\n```xml\n<minimax:tool_call>\n<invoke name=\"bash\">\n<parameter name=\"command\">ls</parameter>\n</invoke>\n</minimax:tool_call>\n```"))
	checkCalls(t, "near miss: the model's own step into a format",
		recoverText(t, "I'll write it in the Hermes format:\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>"),
		call{"bash", `{"command":"ls"}`})
}
