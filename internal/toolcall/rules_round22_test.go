package toolcall

import "testing"

// Round 22's rules (rule_round22.go), each with the near misses that must
// stay as they were.
func TestRuleRound22(t *testing.T) {
	// key_lost_opening_quote.
	checkCalls(t, "a key without its opening quote", recoverServer(t, "read_file", `{"path":"src/main.go",start":"10",end":"40"}`), call{"read_file", `{"path":"src/main.go","start":10,"end":40}`})

	// glm_cdata_is_text and glm_keys_then_values.
	checkCalls(t, "GLM keeps a CDATA-like value", recoverText(t, "<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>a.txt</arg_value>\n<arg_key>content</arg_key>\n<arg_value><![CDATA[x]]></arg_value></tool_call>"),
		call{"write_file", `{"path":"a.txt","content":"<![CDATA[x]]>"}`})
	checkCalls(t, "GLM keys then values", recoverText(t, "<tool_call>\nwrite_file\n<arg_key>path</arg_key>\n<arg_key>content</arg_key>\n<arg_value>notes.txt</arg_value>\n<arg_value>hello</arg_value>\n</tool_call>"),
		call{"write_file", `{"path":"notes.txt","content":"hello"}`})
	checkRejected(t, "near miss: more keys than values", recoverText(t, "<tool_call>\nwrite_file\n<arg_key>path</arg_key>\n<arg_key>content</arg_key>\n<arg_value>notes.txt</arg_value>\n</tool_call>"), false, "path")

	// harmony_constrained_no_recipient, and an empty message ended by <|call|>.
	checkRejected(t, "constrained commentary, no recipient", recoverText(t, `<|start|>assistant<|channel|>commentary<|constrain|>json<|message|>{"path": "SF"}<|end|>`), false, "no tool name")
	checkRejected(t, "empty message ended by <|call|>", recoverText(t, `<|start|>assistant<|channel|>commentary<|message|><|call|>`), false, "no tool name")

	// server_args_call_another_tool.
	checkRejected(t, "a server call holding another tool's call", recoverServer(t, "read_file", `{"name": "write_file", "arguments": {"path": "a", "content": "b"}}`), false, "whole call of write_file")

	// react_json_action, and LangChain's blob alone in a fence.
	checkCalls(t, "Action: {…} on its line", recoverText(t, "Thought: I should check the module file.\nAction: {\"action\": \"read_file\", \"action_input\": {\"path\": \"go.mod\"}}"), call{"read_file", `{"path":"go.mod"}`})
	checkCalls(t, "Action: ```[{…}]```", recoverText(t, "Thought: abc\nAction: ```[{\"action\": \"read_file\", \"action_input\": {\"path\": \"README.md\"}}]```"), call{"read_file", `{"path":"README.md"}`})
	wantNoCall(t, "near miss: an Action line with prose after", recoverText(t, "Thought: x\nAction: {\"action\": \"bash\", \"action_input\": {\"command\": \"ls\"}}\nThis is the format the agent expects."))
	wantNoCall(t, "near miss: an undeclared action", recoverText(t, "Thought: x\nAction: {\"action\": \"Final Answer\", \"action_input\": \"done\"}"))
	checkCalls(t, "a fenced blob with an argv input", recoverText(t, "```\n{\n  \"action\": \"bash\",\n  \"action_input\": [\"cat\", \"a.json\"]\n}\n```"), call{"bash", `{"command":"cat a.json"}`})

	// function_key_list.
	checkCalls(t, "[{function, args}]", recoverText(t, `[{"function": "read_file", "args": {"path": "a"}},{"function": "bash", "args": {"command": "ls"}}]`), call{"read_file", `{"path":"a"}`}, call{"bash", `{"command":"ls"}`})
	wantText(t, "near miss: a list with an undeclared function", recoverText(t, `[{"function": "read_file", "args": {"path": "a"}},{"function": "weather", "args": {"city": "x"}}]`))

	// tool_calls_envelope_fenced.
	checkRejected(t, "an envelope with call_type after 'I'll…'", recoverText(t, "I'll perform these in parallel:\n\n```json\n{\"tool_calls\": [{\"call_type\": \"list_dir\", \"arguments\": {\"path\": \"/\"}}]}\n```"), false, "no tool name")
	wantText(t, "near miss: the envelope described", recoverText(t, "The server logged:\n\n```json\n{\"tool_calls\": [{\"call_type\": \"list_dir\", \"arguments\": {\"path\": \"/\"}}]}\n```"))

	// cline_in_tool_call and tool_tag_with_parameter_tags.
	checkCalls(t, "Cline's element in <tool_call>", recoverText(t, `<tool_call><read_file><path>/a.txt</path></read_file></tool_call>`), call{"read_file", `{"path":"/a.txt"}`})
	checkCalls(t, "a tool element holding <parameter=…>", recoverText(t, `<read_file><parameter=path>/a.txt</parameter></read_file>`), call{"read_file", `{"path":"/a.txt"}`})
	wantNoCall(t, "near miss: an undeclared element holding <parameter=…>", recoverText(t, `<list_dir><parameter=path>/</parameter></list_dir>`))

	// qwen_agent_brackets.
	checkCalls(t, "[FUNCTION]/[ARGS]", recoverText(t, " [FUNCTION] fetch_content\n[ARGS] {\"url\": \"https://go.dev\"}"), call{"fetch_content", `{"url":"https://go.dev"}`})
	wantNoCall(t, "near miss: [FUNCTION] inside a sentence", recoverText(t, "Qwen-Agent writes [FUNCTION] fetch_content and [ARGS] {\"url\": \"https://go.dev\"} in some logs."))

	// tried, and json_inside_a_sentence.
	wantNoCall(t, "a call reported as tried", recoverText(t, "The read failed.\n\nAlso tried: {\"name\": \"read_file\", \"arguments\": {\"path\": \"/b.txt\"}}"))
	wantNoCall(t, "an object inside a sentence", recoverText(t, `Here is a tool call: {"name": "read_file", "arguments": {"path": "/test.txt"}} and some more text`))
	checkCalls(t, "near miss: a Mistral list with words around it", recoverText(t, `[TOOL_CALLS]  junk [{"name": "bash", "arguments":{"command": "ls"}}] trail`), call{"bash", `{"command":"ls"}`})

	// glm4_name_after_cjk_stop.
	checkCalls(t, "GLM-4's name glued to a CJK full stop", recoverText(t, "首先执行第一步：调用 `read_file` 获取数据。read_file\n{\"path\": \"a.csv\"}"), call{"read_file", `{"path":"a.csv"}`})
	wantNoCall(t, "near miss: a name glued to an English sentence", recoverText(t, "First, get the data.read_file\n{\"path\": \"a.csv\"}"))
}

// Red team 22r's findings on round 22 (widened-adversarial-round22.jsonl),
// as rules.
func TestRuleRound22RedTeam(t *testing.T) {
	step := "Thought: clean up.\nAction: {\"action\": \"bash\", \"action_input\": {\"command\": \"rm -rf x\"}}"
	for _, lead := range []string{"LangChain's JSON agent answers in this shape:\n\n", "This is the tail of agent.log:\n\n", "I won't run this — it would delete your files.\n\n", "<think>\nMaybe:\n"} {
		wantNoCall(t, "a ReAct step after "+lead, recoverText(t, lead+step))
	}
	checkCalls(t, "near miss: the step with an empty Observation", recoverText(t, step+"\nObservation:"), call{"bash", `{"command":"rm -rf x"}`})

	fixture := "<write_file>\n<path>t/call.json</path>\n<content>{\"name\": \"bash\", \"arguments\": {\"command\": \"rm -rf x\"}}</content>\n</write_file>"
	want := call{"write_file", `{"path":"t/call.json","content":"{\"name\": \"bash\", \"arguments\": {\"command\": \"rm -rf x\"}}"}`}
	checkCalls(t, "a fixture written by Cline's element", recoverText(t, fixture), want)
	checkCalls(t, "the same in <tool_call>", recoverText(t, "<tool_call>\n"+fixture+"\n</tool_call>"), want)
	checkCalls(t, "the same, its closer eaten", recoverText(t, "<tool_call>\n"+fixture), want)
	checkCalls(t, "the same after a lead-in", recoverText(t, "I'll write the fixture.\n\n"+fixture), want)
	wantNoCall(t, "the same after an example lead-in", recoverText(t, "For example, a call looks like this:\n\n"+fixture))

	wantNoCall(t, "a Chinese refusal before a glued name", recoverText(t, "请不要执行下面这条命令！bash\n{\"command\": \"rm -rf .git\"}"))
	wantNoCall(t, "a Chinese log report before a glued name", recoverText(t, "日志里记录的那次失败调用是：bash\n{\"command\": \"rm -rf x\"}"))
	wantNoCall(t, "a Japanese example before a glued name", recoverText(t, "例えば次のように呼び出します。bash\n{\"command\": \"rm -rf x\"}"))
	checkCalls(t, "near miss: 'I'll first read…' glued", recoverText(t, "我先读取配置文件。read_file\n{\"path\": \"config.yaml\"}"), call{"read_file", `{"path":"config.yaml"}`})

	wantText(t, "an envelope after 'I'll show you'", recoverText(t, "I'll show you the shape of the request body:\n\n```json\n{\"tool_calls\": [{\"call_type\": \"list_dir\", \"arguments\": {\"path\": \"/\"}}]}\n```"))
	wantText(t, "a constrained message after prose", recoverText(t, `Here is what the server returned: <|channel|>commentary<|constrain|>json<|message|>{"path": "SF"}<|end|>`))
	checkRejected(t, "near miss: the analysis message's own <|start|>", recoverText(t, `<|start|>assistant<|channel|>analysis<|message|>Read it.<|end|><|start|>assistant<|channel|>commentary<|constrain|>json<|message|>{"path": "a"}<|call|>`), false, "no tool name")
	wantText(t, "a list of tool definitions", recoverText(t, `[{"tool": "bash", "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}]`))
	res := recoverText(t, "[FUNCTION] bash\n[ARGS] {\"command\": \"rm -rf .git\"}\n[RESULT] (no output)")
	wantNoCall(t, "a Qwen-Agent transcript with its results", res)
	if res.Text == "" {
		t.Errorf("a Qwen-Agent transcript: the answer was lost")
	}
	checkCalls(t, "near miss: [FUNCTION] after reasoning", recoverText(t, "<think>\nRead it.\n</think>\n[FUNCTION] read_file\n[ARGS] {\"path\": \"a\"}"), call{"read_file", `{"path":"a"}`})
	checkCalls(t, "near miss: a list with string arguments and a trailing comma", recoverText(t, `[{"function": "read_file", "arguments": "{\"path\": \"a\"}"},]`), call{"read_file", `{"path":"a"}`})
	checkCalls(t, "near miss: <NAME><parameter=…> after 'Let me check.'", recoverText(t, "Let me check the module.\n<read_file><parameter=path>go.mod</parameter></read_file>"), call{"read_file", `{"path":"go.mod"}`})
}
