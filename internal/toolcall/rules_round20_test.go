package toolcall

import "testing"

// Round 20's rules (rule_round20.go), each with the near misses that must
// stay as they were.
func TestRuleRound20(t *testing.T) {
	// kimi_glued_to_sentence: a stripped Kimi call glued to a full stop
	// runs; glued to an attribute chain, or naming no declared tool, not.
	checkCalls(t, "Kimi glued to a sentence", recoverText(t, `Let me list the files.functions.bash:1{"command": "ls"}`), call{"bash", `{"command":"ls"}`})
	wantNoCall(t, "near miss: an attribute chain", recoverText(t, `x = self.functions.bash:1{"command": "ls"}`))
	wantNoCall(t, "near miss: an undeclared name", recoverText(t, `Let me list the files.functions.list:1{"command": "ls"}`))

	// A lone Kimi section opener at the end is a call begun.
	checkRejected(t, "Kimi section opener alone", recoverText(t, "I'll search for files. <|tool_calls_section_begin|>"), false, "no tool name")
	wantNoCall(t, "near miss: the opener named", recoverText(t, "Kimi opens its calls with the token <|tool_calls_section_begin|>"))

	// pinhook_api_call: one or several calls, a raw body, a cut object;
	// in a fence or before prose it is shown.
	checkCalls(t, "Pin-Hook two calls", recoverText(t, `<function>[API_CALL]bash[PARAM_CALL]{"command": "mkdir out"}[API_CALL]read_file[PARAM_CALL]{"path": "a"}</function>`),
		call{"bash", `{"command":"mkdir out"}`}, call{"read_file", `{"path":"a"}`})
	checkCalls(t, "Pin-Hook raw body", recoverText(t, `<function>[API_CALL]bash[PARAM_CALL]ls -la</function>`), call{"bash", `{"command":"ls -la"}`})
	checkRejected(t, "Pin-Hook cut", recoverCut(t, `<function>[API_CALL]write_file[PARAM_CALL]{"path": "a.py", "content": "import os`), true, "cut off")
	wantNoCall(t, "near miss: Pin-Hook in a fence", recoverText(t, "The format:\n```\n<function>[API_CALL]bash[PARAM_CALL]{\"command\": \"ls\"}</function>\n```"))
	wantNoCall(t, "near miss: Pin-Hook then prose", recoverText(t, `<function>[API_CALL]bash[PARAM_CALL]{"command": "ls"}</function> is how Pin-Hook writes it.`))

	// bare_name_calls and paren_json_args: only the whole reply.
	checkCalls(t, "bare NAME{…} twice", recoverText(t, `read_file{"path": "go.mod"}read_file{"path": "go.sum"}`),
		call{"read_file", `{"path":"go.mod"}`}, call{"read_file", `{"path":"go.sum"}`})
	checkCalls(t, "NAME({…})", recoverText(t, `read_file({"path":"notes"})`), call{"read_file", `{"path":"notes"}`})
	wantNoCall(t, "near miss: bare NAME{…} in a sentence", recoverText(t, `The server ends up with bash{"command": "ls"} in the text.`))
	wantNoCall(t, "near miss: an undeclared bare name", recoverText(t, `shell{"command": "ls"}`))

	// call_compared and call_pattern_named: the marker a sentence compares
	// with, or a format's pattern, is shown.
	wantNoCall(t, "instead of a Mistral call", recoverText(t, `You get text instead of [TOOL_CALLS]bash[ARGS]{"command": "ls"}. Turn the option off.`))
	wantNoCall(t, "a format's call pattern", recoverText(t, "GLM 4.5's tool call pattern is:\n```\n<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>\n```\n\nSo the parsers differ."))
	checkCalls(t, "near miss: a Mistral call after a lead-in", recoverText(t, `I'll list it. [TOOL_CALLS]bash[ARGS]{"command": "ls"}`), call{"bash", `{"command":"ls"}`})

	// llama3_object_unknown_tool: the whole Llama 3 object with a name no
	// tool has is told the tools; another shape is data.
	checkRejected(t, "Llama 3 object, unknown tool", recoverText(t, `{"type": "function", "name": "get_locations", "parameters": {"user": "me"}}`), false, "no tool named get_locations")
	checkRejected(t, "Llama 3 object, unknown tool, placeholder value", recoverText(t, `{"type": "function", "name": "get_locations", "parameters": {"user": "your_user_id"}}`), false, "no tool named get_locations")
	wantText(t, "near miss: another type", recoverText(t, `{"type": "tool", "name": "get_locations", "parameters": {"user": "your_user_id"}}`))
	wantText(t, "near miss: a fourth key", recoverText(t, `{"type": "function", "name": "get_locations", "parameters": {"user": "your_user_id"}, "x": 1}`))

	// reply_is_json_string and fenced_after_acting_lead.
	checkCalls(t, "a stringified call", recoverText(t, `"{\"tool\":\"read_file\",\"args\":{\"path\":\"/tmp/demo\"}}"`), call{"read_file", `{"path":"/tmp/demo"}`})
	checkCalls(t, "tool/args fenced after 'Let me call'", recoverText(t, "Let me call the tool.\n```json\n{\"tool\":\"read_file\",\"args\":{\"path\":\"a\",},}\n```"), call{"read_file", `{"path":"a"}`})
	wantNoCall(t, "near miss: tool/args fenced after a description", recoverText(t, "The dispatcher expects this object.\n```json\n{\"tool\":\"read_file\",\"args\":{\"path\":\"a\"}}\n```"))

	// param_name_tag: MiniCPM's <param name="K">V</param>; HTML's void
	// <param> is no argument.
	checkCalls(t, "<param name> in <function=…>", recoverText(t, "<function=read_file>\n<param name=\"path\">README.md</param>\n</function>"), call{"read_file", `{"path":"README.md"}`})
	wantNoCall(t, "near miss: HTML's param", recoverText(t, "<function=read_file>\n<param name=\"movie\" value=\"a.swf\">\n</function>"))

	// r1_layout_one_field_off: a server call named "function".
	checkCalls(t, "R1 layout one field off", recoverServer(t, "function", "fetch_content\n```json\n{\"url\": \"https://go.dev\"}\n```"), call{"fetch_content", `{"url":"https://go.dev"}`})
	wantNoCall(t, "near miss: an undeclared name in it", recoverServer(t, "function", "weather\n```json\n{\"url\": \"https://go.dev\"}\n```"))

	// content_as_identifier: a variable name as content is told.
	checkRejected(t, "content as a variable", recoverText(t, `<tool_call>{"name": "write_file", "arguments": {"path": "a.txt", "content": my_data}}</tool_call>`), false, "variable name")
	checkCalls(t, "near miss: Gemma's bare word", recoverText(t, `<|tool_call>call:write_file{content:hello,path:a.txt}<tool_call|>`), call{"write_file", `{"path":"a.txt","content":"hello"}`})
	checkCalls(t, "near miss: an unquoted path", recoverText(t, `<tool_call>{"name": "read_file", "arguments": {"path": README.md}}</tool_call>`), call{"read_file", `{"path":"README.md"}`})

	// next_stripped_header and header_lost_only_channel (harmony).
	checkCalls(t, "two stripped headers", recoverText(t, "<|channel|>analysis<|message|>Read, then list.<|end|>\nto=functions.read_file <|message|>{\"path\": \"a\"}\nto=functions.bash <|message|>{\"command\": \"ls\"}"),
		call{"read_file", `{"path":"a"}`}, call{"bash", `{"command":"ls"}`})
	checkCalls(t, "only <|channel|> lost", recoverText(t, "THOUGHT: Read file\ncommentary  to=read_file  <|constrain|>json  <|message|>  {\"path\": \"a\"}"), call{"read_file", `{"path":"a"}`})
	wantNoCall(t, "near miss: a header pasted under prose", recoverText(t, "The log shows\ncommentary to=functions.bash json {\"command\": \"ls\"}"))

	// minimax_block_typography, with a null argument.
	checkRejected(t, "MiniMax block with smart quotes", recoverText(t, "[TOOL_CALL] {tool => “lsp”, args => { –action “list” –path null }} [/TOOL_CALL]"), false, "path")
	checkCalls(t, "MiniMax block with smart quotes, whole", recoverText(t, "[TOOL_CALL] {tool => “read_file”, args => { –path “a.go” }} [/TOOL_CALL]"), call{"read_file", `{"path":"a.go"}`})

	// GPT4All's code interpreter, and tool_tag_in_wrapper.
	checkRejected(t, "GPT4All's interpreter", recoverText(t, "Let me compute that.\n<javascript_interpret>\n```javascript\nconsole.log(1)\n```\n</javascript_interpret>"), false, "code interpreter")
	checkCalls(t, "a tool's tag in <toolcall>", recoverText(t, `<toolcall><bash>{"command":"pwd"}</bash></toolcall>`), call{"bash", `{"command":"pwd"}`})
	wantNoCall(t, "near miss: an undeclared tag in <toolcall>", recoverText(t, `<toolcall><shell>{"command":"pwd"}</shell></toolcall>`))
}

// recoverCut runs Recover on content cut by the token limit.
func recoverCut(t *testing.T, content string) Result {
	t.Helper()
	return Recover(Input{Content: content, FinishReason: "length", Tools: toolsFor(t)})
}

// recoverServer runs Recover on one server tool call with any name.
func recoverServer(t *testing.T, name, args string) Result {
	t.Helper()
	return recoverCall(t, name, args)
}
