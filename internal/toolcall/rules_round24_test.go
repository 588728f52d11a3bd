package toolcall

import "testing"

// Round 24's rules (rule_round24.go), each with the near misses that must
// stay as they were.
func TestRuleRound24(t *testing.T) {
	// Gemma: the stray colon, the split <call> opener, a namespace.
	checkCalls(t, "<|tool_call>:call:", recoverText(t, `<|tool_call>:call:bash{command:<|"|>pytest<|"|>}`), call{"bash", `{"command":"pytest"}`})
	checkCalls(t, "<call>NAME{…}", recoverText(t, `<call>fetch_content{url:<|"|>https://go.dev<|"|>}`), call{"fetch_content", `{"url":"https://go.dev"}`})
	wantNoCall(t, "near miss: an XML <call> element", recoverText(t, "The XML has <call>foo{bar}</call> in it."))
	checkCalls(t, "call:NS.NAME", recoverText(t, `call:fs.read_file{path:<|"|>/work/Makefile<|"|>}`), call{"read_file", `{"path":"/work/Makefile"}`})
	wantNoCall(t, "near miss: a namespaced undeclared name", recoverText(t, `call:os.system{cmd:<|"|>rm -rf x<|"|>}`))

	// calling_tool_text.
	checkCalls(t, `[Calling tool="NAME" k="v"]`, recoverText(t, `[Calling tool="bash" command="curl -s \"https://example.com\"" timeout="5000"]`), call{"bash", `{"command":"curl -s \"https://example.com\""}`})
	checkCalls(t, "both forms, one per line", recoverText(t, "Let me check. [Calling tool=\"read_file\" path=\"/tmp/a.txt\"]\n[Calling tool: bash({\"command\":\"cat /tmp/a.txt\"})]"),
		call{"read_file", `{"path":"/tmp/a.txt"}`}, call{"bash", `{"command":"cat /tmp/a.txt"}`})
	checkRejected(t, "no argument", recoverText(t, `[Calling tool="bash"]`), false, "command")
	wantNoCall(t, "near miss: the form quoted in a sentence", recoverText(t, `Small models write [Calling tool="bash" command="rm -rf x"] instead of a real call.`))
	wantNoCall(t, "near miss: after a refusal", recoverText(t, "I won't run this.\nCalling tool: bash({\"command\": \"rm -rf x\"})"))

	// kimi_id_fault.
	checkRejected(t, "a Kimi id naming two tools", recoverText(t, `<|tool_calls_section_begin|> <|tool_call_begin|> bash:functions.execute:0 <|tool_call_argument_begin|> {"command":"id"} <|tool_call_end|> <|tool_calls_section_end|>`), false, "two tools")
	res := recoverText(t, "Here is the result.\n<|tool_calls_section_begin|> <|tool_call_begin|> functions.bash:0 GARBAGE <|tool_call_end|> <|tool_calls_section_end|>")
	checkRejected(t, "a Kimi call without its argument token", res, false, "command")
	if res.Text != "Here is the result." {
		t.Errorf("a corrected Kimi call: text %q, want only the words before its section", res.Text)
	}
	if res := recoverText(t, "On it.\n[Calling tool=\"bash\"]"); res.Text != "On it." {
		t.Errorf("a corrected Calling tool line: text %q, want only the lead-in", res.Text)
	}
	checkCalls(t, "near miss: a whole Kimi call with spaces", recoverText(t, `<|tool_calls_section_begin|> <|tool_call_begin|> functions.bash:0 <|tool_call_argument_begin|> {"command":"ls"} <|tool_call_end|> <|tool_calls_section_end|>`), call{"bash", `{"command":"ls"}`})

	// tool_call_fence_objects.
	checkCalls(t, "```tool_call fences after acting lead-ins", recoverText(t, "I'll read the file first:\n\n```tool_call\n{\"tool\": \"read_file\", \"parameters\": {\"file_path\": \"a.txt\"}}\n```\n\nThen I'll write a new file:\n\n```tool_call\n{\"tool\": \"write_file\", \"parameters\": {\"file_path\": \"b.txt\", \"content\": \"hi\"}}\n```\n"),
		call{"read_file", `{"path":"a.txt"}`}, call{"write_file", `{"path":"b.txt","content":"hi"}`})
	wantNoCall(t, "near miss: a tool_call fence in documentation", recoverText(t, "The agent expects this block:\n\n```tool_call\n{\"tool\": \"bash\", \"parameters\": {\"command\": \"rm -rf x\"}}\n```\n"))

	// placeholder_tool_name; a lone "{" as server arguments.
	wantText(t, "a format's template echoed", recoverText(t, "Use this JSON format\n{\n  \"name\": \"tool_name\",\n  \"arguments\": {\"parameter1\": \"value1\"}\n}. Then continue."))
	checkRejected(t, `server arguments "{"`, recoverServer(t, "bash", `{`), true, "command")
}
