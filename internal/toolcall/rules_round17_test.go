package toolcall

import (
	"strings"
	"testing"
)

// Round 17p's rules, each with the near misses that must stay as they were.
func TestRuleRound17p(t *testing.T) {
	// cut_wrapped_value: a call in its wrapper whose last value runs to the
	// end with no closer was cut; without the wrapper, a model that writes
	// no closers is read as before; a closed earlier value and an open last
	// one inside DSML is cut too.
	checkRejected(t, "Qwen3-Coder cut in its wrapper", recoverText(t, "<tool_call><function=fetch_content><parameter=url>https://wttr.in/San Francisco, CA"), true, "")
	checkRejected(t, "DSML cut", recoverText(t, "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"bash\"><｜DSML｜parameter name=\"command\" string=\"true\">rm -rf build"), true, "")
	checkCalls(t, "near miss: no wrapper, no closers anywhere", recoverText(t, "<function=write_file>\n<parameter=path> a.txt\n<parameter=content> hello"), call{"write_file", `{"content":"hello","path":"a.txt"}`})
	checkCalls(t, "near miss: the wrapper's closer eaten", recoverText(t, "<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>"), call{"bash", `{"command":"ls"}`})

	// xml_command_escaped: a command escaped throughout is decoded; one
	// with a raw & besides, and file content, keep their entities.
	checkCalls(t, "escaped command", recoverText(t, "<tool_call><function=bash><parameter=command>printf &quot;a&amp;b&quot;</parameter></function></tool_call>"), call{"bash", `{"command":"printf \"a&b\""}`})
	checkCalls(t, "near miss: a raw & besides", recoverText(t, "<tool_call><function=bash><parameter=command>sed 's/&/&amp;/g' f.html</parameter></function></tool_call>"), call{"bash", `{"command":"sed 's/&/&amp;/g' f.html"}`})
	checkCalls(t, "near miss: file content", recoverText(t, "<tool_call><function=write_file><parameter=path>a.html</parameter><parameter=content>Tom &amp; Jerry</parameter></function></tool_call>"), call{"write_file", `{"content":"Tom &amp; Jerry","path":"a.html"}`})

	// openai_element_text over an array: corrected, naming a missing
	// argument; the same array in prose stays text.
	checkRejected(t, "array, arguments empty", recoverText(t, `[{"id": "call_001", "type": "function", "function": {"name": "bash", "arguments": {}}}]`), false, "needs the argument command")
	checkRejected(t, "array, arguments given", recoverText(t, `[{"id": "call_001", "type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"ls\"}"}}]`), false, "wire format")
	wantText(t, "in prose", recoverText(t, `The API returns [{"id": "call_001", "type": "function", "function": {"name": "bash", "arguments": {}}}] for it.`))
	wantText(t, "an extra key", recoverText(t, `[{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": {}}, "status": "done"}]`))

	// lone_tool_call_opener: a reply ending on a lone <tool_call> began a
	// call; after a format label or inside a sentence it is prose.
	checkRejected(t, "lone opener", recoverText(t, "Let me check the file.\n\n<tool_call> "), false, "no tool name")
	wantText(t, "near miss: format label", recoverText(t, "Use this format:\n\n<tool_call>"))
	wantText(t, "near miss: in a sentence", recoverText(t, "Wrap each call in <tool_call>"))
}

func recoverRawCalls(t *testing.T, calls ...RawCall) Result {
	t.Helper()
	return Recover(Input{ToolCalls: calls, FinishReason: "tool_calls", Tools: toolsFor(t, "bash", "read_file", "write_file", "edit_file", "lsp", "fetch_content")})
}

// Round 17h's rules.
func TestRuleRound17h(t *testing.T) {
	// merge_fragment_calls: deltas handed on as entries are joined while
	// the call before them is not whole; two whole calls with one id stay
	// two.
	checkCalls(t, "anonymous pieces", recoverRawCalls(t, RawCall{ID: "c1", Name: "read_file"}, RawCall{Arguments: `{"path":"edu"`}, RawCall{Arguments: `,"start":4`}, RawCall{Arguments: "}"}),
		call{"read_file", `{"path":"edu","start":4}`})
	checkCalls(t, "the id repeated", recoverRawCalls(t, RawCall{ID: "c1", Name: "read_file", Arguments: `{"path":`}, RawCall{ID: "c1", Name: "read_file", Arguments: `"a.md"}`}),
		call{"read_file", `{"path":"a.md"}`})
	checkCalls(t, "near miss: two whole calls, one id", recoverRawCalls(t, RawCall{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}, RawCall{ID: "c1", Name: "bash", Arguments: `{"command":"pwd"}`}),
		call{"bash", `{"command":"ls"}`}, call{"bash", `{"command":"pwd"}`})

	// functionKeyReply's tunacode shapes: the whole reply only, two keys.
	checkCalls(t, "tool/args", recoverText(t, `{"tool": "bash", "args": {"command": "ls"}}`), call{"bash", `{"command":"ls"}`})
	checkCalls(t, "function/parameters", recoverText(t, `{"function": "bash", "parameters": {"command": "ls"}}`), call{"bash", `{"command":"ls"}`})
	wantText(t, "near miss: in prose", recoverText(t, `The agent logs {"tool": "bash", "args": {"command": "ls"}} for each step.`))
	wantText(t, "near miss: a third key", recoverText(t, `{"tool": "bash", "args": {"command": "ls"}, "result": "a.go"}`))
	wantText(t, "near miss: an undeclared tool", recoverText(t, `{"tool": "search", "args": {"q": "x"}}`))

	// A ReAct input written as an object that lacks the required argument
	// is named in the correction; a bare string input is not judged.
	checkRejected(t, "schema echoed", recoverText(t, "Thought: I need a tool.\nAction: bash\nAction Input: {'type': 'object', 'properties': AttributedDict()}"), false, "needs the argument command")
	res := recoverText(t, "Thought: I need a tool.\nAction: bash\nAction Input: ls -la")
	if len(res.Rejections) != 1 || strings.Contains(res.Rejections[0].Reason, "needs the argument") {
		t.Errorf("a bare string input: %+v", res.Rejections)
	}
}

// Round 17t's rules.
func TestRuleRound17t(t *testing.T) {
	fence := "```json\n{\"tool_calls\": [{\"type\": \"function\", \"function\": {\"arguments\": \"{\\\"command\\\":\\\"ls\\\"}\", \"name\": \"bash\"}}]}\n```"
	// fenced_wire_calls: after a lead-in where the model acts, or alone;
	// a lead-in that shows it, or text after it, keeps it data.
	checkCalls(t, "tool_calls fence after an intent", recoverText(t, "I will list the files.\n\n"+fence), call{"bash", `{"command":"ls"}`})
	checkCalls(t, "MCP request, made-up result after", recoverText(t, "```json\n{\"method\": \"tools/call\", \"params\": {\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}}\n```\n\n```json\n{\"result\": {\"success\": true}}\n```"), call{"bash", `{"command":"ls"}`})
	wantText(t, "near miss: shown", recoverText(t, "Here is the tool call shape OpenCode expects:\n\n"+fence))
	for _, lead := range []string{"I will show you what the request looks like.", "Let me explain the MCP request format:", "I'll write the request for you to send yourself:"} {
		wantText(t, "near miss: "+lead, recoverText(t, lead+"\n\n"+fence))
	}
	wantText(t, "near miss: text after", recoverText(t, "I will list the files.\n\n"+fence+"\n\nThat is what the API sends."))
	wantText(t, "near miss: an undeclared tool", recoverText(t, "```json\n{\"method\": \"tools/call\", \"params\": {\"name\": \"search\", \"arguments\": {}}}\n```"))

	// swallowed_pair: a GLM value that runs over a broken pair is
	// corrected; one holding a whole pair as data is read.
	checkRejected(t, "broken pair", recoverText(t, "<tool_call>bash<arg_key>command</arg_key><arg_value>pwd</arg_value><tool_call>cwd</arg_key><arg_value>/tmp</arg_value></tool_call>"), false, "broken <arg_key>/<arg_value> pair")
	checkCalls(t, "near miss: markup as data", recoverText(t, "<tool_call>write_file<arg_key>path</arg_key><arg_value>a.md</arg_value><arg_key>content</arg_key><arg_value>write <arg_value>V</arg_value> after </arg_key></arg_value></tool_call>"),
		call{"write_file", `{"content":"write <arg_value>V</arg_value> after </arg_key>","path":"a.md"}`})

	// glm_value_without_key: a key opened with <arg_value> is no key.
	checkRejected(t, "key opened with arg_value", recoverText(t, "<tool_call>edit_file<arg_value>new_text</arg_key><arg_value>def x; end</arg_value></tool_call>"), false, "needs the argument path")
}

// Red team 17r's negatives and the real calls near them.
func TestRuleRedTeam17r(t *testing.T) {
	fence := "```json\n{\"method\": \"tools/call\", \"params\": {\"name\": \"bash\", \"arguments\": {\"command\": \"touch pwned\"}}}\n```"
	for _, lead := range []string{"I'll send this request from Postman:", "Next, I'll post this body to the server's /mcp endpoint with curl:", "From your own client you would call it the same way. I'll send this request:"} {
		wantText(t, "handed to another client: "+lead, recoverText(t, lead+"\n"+fence))
	}
	for _, lead := range []string{"我来查看一下目录结构：", "go.mod を読みます。", "I'll run the tests:"} {
		checkCalls(t, "acting lead-in: "+lead, recoverText(t, lead+"\n"+fence), call{"bash", `{"command":"touch pwned"}`})
	}
	for _, text := range []string{"To make a call, wrap it in\n<tool_call>", "Your regex should match lines that start with\n<tool_call>"} {
		wantText(t, "a sentence run on into the opener", recoverText(t, text))
	}
	checkCalls(t, "raw > beside an entity", recoverText(t, "<tool_call><function=bash><parameter=command>grep -o '&amp;' a.html > /tmp/amp.txt</parameter></function></tool_call>"), call{"bash", `{"command":"grep -o '&amp;' a.html > /tmp/amp.txt"}`})
	wantText(t, "a keyless block shown", recoverText(t, "The shape from the issue is:\n<tool_call>bash\n<arg_value>ls -la</arg_value>\n</tool_call>"))
	wantText(t, "a keyless block run on from the sentence", recoverText(t, "its input ends with\n<tool_call>bash\n<arg_value>pwd</arg_value>\n</tool_call>"))
	checkRejected(t, "near miss: a keyless block after the model's step", recoverText(t, "Let me list the files.\n<tool_call>bash\n<arg_value>ls -la</arg_value>\n</tool_call>"), false, "needs the argument command")
}
