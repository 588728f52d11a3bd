package toolcall

import "testing"

// Round 23's rules (rule_round23.go), each with the near misses that must
// stay as they were.
func TestRuleRound23(t *testing.T) {
	// atem_bare_block.
	checkCalls(t, "ATEM without its header", recoverText(t, "before <atem:function_calls>\n<atem:invoke name=\"bash\">\n<atem:parameter name=\"command\">ls</atem:parameter>\n</atem:invoke>\n</atem:function_calls> after"), call{"bash", `{"command":"ls"}`})
	checkRejected(t, "ATEM cut", recoverCut(t, `<atem:function_calls><atem:invoke name="bash"><atem:unknown>x</atem:unknown><atem:parameter name="command">echo hi`), true, "cut off")
	checkRejected(t, "ATEM invoke with no name", recoverText(t, `<atem:function_calls><atem:invoke badname="bash"></atem:invoke></atem:function_calls>`), false, "no tool name")
	checkCalls(t, "near miss: a file documenting ATEM", recoverText(t, `<tool_call>{"name": "write_file", "arguments": {"path": "a.md", "content": "<atem:function_calls><atem:invoke name=\"bash\"></atem:invoke></atem:function_calls>"}}</tool_call>`),
		call{"write_file", `{"path":"a.md","content":"<atem:function_calls><atem:invoke name=\"bash\"></atem:invoke></atem:function_calls>"}`})

	// glm_attr_pairs.
	checkCalls(t, "GLM-4.7-Flash attribute pairs", recoverText(t, "Let me open it.<tool_call>read_file<path=\"notes/rome.md\"</path><start=\"10\"</start>\n</tool_call>"), call{"read_file", `{"path":"notes/rome.md","start":10}`})
	wantNoCall(t, "near miss: an undeclared name", recoverText(t, `<tool_call>get_weather<location="Rome"</location></tool_call>`))

	// name_arguments_elements.
	checkCalls(t, "<name>/<arguments> elements", recoverText(t, "I'll look that up.\n<tool_call><name>read_file</name><arguments>{\"path\": \"a\"}</arguments></tool_call>"), call{"read_file", `{"path":"a"}`})

	// function_name_cut and qwen3_coder_no_function.
	checkRejected(t, "<function=m", recoverText(t, "<function=m"), false, "no tool name")
	checkRejected(t, `<invoke name=">`, recoverText(t, "<invoke name=\">\n<parameter name=\"command\">ls</parameter>\n</invoke>"), false, "no tool name")
	checkRejected(t, "parameters with no <function=…>", recoverText(t, "Text<tool_call><parameter=path>.</parameter></tool_call>"), false, "no tool name")
	wantText(t, "near miss: <function= in a sentence", recoverText(t, "The opener is <function= and then the name."))

	// glued_foreign_object.
	checkRejected(t, "a foreign object glued before bash's", recoverServer(t, "bash", `{"path":"a.txt","content":"hi"}{"command":"sleep 30"}`), false, "glued together")
	checkCalls(t, "near miss: bash's arguments split in two", recoverServer(t, "write_file", `{"path":"a.txt"}{"content":"hi"}`), call{"write_file", `{"path":"a.txt","content":"hi"}`})

	// gemma_name_repeated; tool_calls_envelope_cut; "what comes back:".
	checkCalls(t, "call:NAME:NAME{…}", recoverText(t, `<|tool_call>call:write_file:write_file{path: "a.md", content: "x"}<tool_call|>`), call{"write_file", `{"path":"a.md","content":"x"}`})
	checkRejected(t, "an envelope cut", recoverText(t, `{"tool_calls":[ {"id": "x", "type": "function", "function": {"name": "fetch_content", "arguments": "`), true, "cut off")
	wantNoCall(t, "what comes back", recoverText(t, "This is what comes back:\n\n```xml\ncall\n<invoke name=\"Bash\">\n<parameter name=\"command\">echo hi</parameter>\n</invoke>\n```\n\nStripping the line fixes it."))
	wantNoCall(t, "a quoted </think> in a value after reasoning is no reasoning's end", recoverText(t, "<think>x</think>Here is a note: \"</think>\" was in the log."))
	checkCalls(t, "near miss: a call whose value is \"</think>\"", recoverText(t, `<think>thinking...</think><tool_call>{"name": "bash", "arguments": {"command": "</think>"}}</tool_call>`), call{"bash", `{"command":"</think>"}`})
}
