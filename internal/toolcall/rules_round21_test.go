package toolcall

import "testing"

// Round 21's rules (rule_round21.go), each with the near misses that must
// stay as they were.
func TestRuleRound21(t *testing.T) {
	// k2_horizon_ifm: the typed and untyped XML forms and the JSON form.
	checkCalls(t, "K2 Horizon typed", recoverText(t, "<ifm|tool_calls><ifm|tool_call>read_file<ifm|arg_key>path</ifm|arg_key><ifm|arg_type>string</ifm|arg_type><ifm|arg_value>a.go</ifm|arg_value><ifm|arg_key>start</ifm|arg_key><ifm|arg_type>integer</ifm|arg_type><ifm|arg_value>3</ifm|arg_value></ifm|tool_call></ifm|tool_calls>"),
		call{"read_file", `{"path":"a.go","start":3}`})
	checkCalls(t, "K2 Horizon JSON", recoverText(t, `<ifm|tool_calls><ifm|tool_call>{"name": "bash", "arguments": {"command": "ls"}}</ifm|tool_call></ifm|tool_calls>`), call{"bash", `{"command":"ls"}`})
	checkRejected(t, "K2 Horizon without the required argument", recoverText(t, "<ifm|tool_calls><ifm|tool_call>bash</ifm|tool_call>"), false, "command")
	shown := "Its calls look like `<ifm|tool_call>bash<ifm|arg_key>command</ifm|arg_key><ifm|arg_value>ls</ifm|arg_value></ifm|tool_call>` in the raw stream."
	wantShownAsWritten(t, "near miss: K2 Horizon markup in inline code", shown)

	// minicpm_collapsed_attr: the lost space and BPE's Ġ.
	checkCalls(t, "MiniCPM collapsed", recoverText(t, `<functionname="bash"><paramname="command">ls -la</param></function>`), call{"bash", `{"command":"ls -la"}`})
	checkCalls(t, "MiniCPM with Ġ", recoverText(t, `<functionĠname="read_file"><paramĠname="path">go.mod</param></function>`), call{"read_file", `{"path":"go.mod"}`})

	// properties_wrapped_args: unwrapped only onto the tool's own keys.
	checkCalls(t, "properties holding a Python dict", recoverText(t, `<function name="read_file"><param name="properties">{'path': 'go.mod'}</param></function>`), call{"read_file", `{"path":"go.mod"}`})
	checkRejected(t, "near miss: properties with another key", recoverText(t, `<function name="read_file"><param name="properties">{'file': 'go.mod', 'x': 1}</param></function>`), false, "path")

	// function_underscore_name: only a declared name and a <parameter= next.
	checkCalls(t, "<function_NAME>", recoverText(t, "<function_bash>\n<parameter=command>\nls lib\n</parameter>\n</function>\n</tool_call>"), call{"bash", `{"command":"ls lib"}`})
	checkRejected(t, "<function_NAME> cut", recoverCut(t, "<function_bash>\n<parameter=command>\nfind . -name"), true, "cut off")
	wantNoCall(t, "near miss: an undeclared <function_NAME>", recoverText(t, "<function_shell>\n<parameter=command>\nls\n</parameter>\n</function>"))
	wantNoCall(t, "near miss: <function_NAME> with no parameter", recoverText(t, "Rename <function_bash> to <function_sh> in the template."))

	// gemma_collapsed_opener: <tool_call:NAME{, <|tool_call>:NAME{ and a
	// stray '>' before the closer; in code it is shown, and the text is
	// the reply as written.
	checkCalls(t, "Gemma <tool_call:NAME{", recoverText(t, `<tool_call:Bash{command:<|"|>echo 'test 1'<|"|>}><tool_call|>`), call{"bash", `{"command":"echo 'test 1'"}`})
	checkCalls(t, "Gemma bare colon", recoverText(t, `<|tool_call>:fetch_content{url:<|"|>https://go.dev<|"|>}<tool_call|>`), call{"fetch_content", `{"url":"https://go.dev"}`})
	wantShownAsWritten(t, "near miss: the collapsed opener in inline code", "The 31B writes `<tool_call:Bash{command:<|\"|>ls<|\"|>}<tool_call|>` instead.")

	// gemma_calls_in_one_block, and gemma_body_at_line_start.
	checkCalls(t, "two Gemma calls in one block", recoverText(t, `<|tool_call>call:read_file{path:<|"|>a.md<|"|>}call:read_file{path:<|"|>b.md<|"|>}<tool_call|>`),
		call{"read_file", `{"path":"a.md"}`}, call{"read_file", `{"path":"b.md"}`})
	checkCalls(t, "near miss: call: after a closed block", recoverText(t, "<|tool_call>call:read_file{path:<|\"|>a.md<|\"|>}<tool_call|> and then call:bash{command:<|\"|>ls<|\"|>} in prose"), call{"read_file", `{"path":"a.md"}`})
	checkCalls(t, "Gemma body opening a line", recoverText(t, "Let me check what is in the directory.\nbash{command:<|\"|>ls -la<|\"|>}"), call{"bash", `{"command":"ls -la"}`})
	wantNoCall(t, "near miss: Gemma body inside a sentence", recoverText(t, "The model wrote bash{command:<|\"|>ls -la<|\"|>} without its opener."))
	wantNoCall(t, "near miss: a body without Gemma's quote", recoverText(t, "Let me check.\nbash{command:ls}"))
	wantNoCall(t, "near miss: an undeclared name", recoverText(t, "Let me check.\nshell{command:<|\"|>ls<|\"|>}"))

	// xai_function_call and call_begun_no_name.
	checkCalls(t, "Grok's xai:function_call", recoverText(t, `<xai:function_call name="bash"><parameter name="command">git status</parameter></xai:function_call>`), call{"bash", `{"command":"git status"}`})
	checkRejected(t, "Grok's call with no parameter", recoverText(t, "Reviewing package configuration\n\n<xai:function_call name=\"Read\">"), false, "path")
	checkRejected(t, "Grok's bare opener", recoverText(t, "<xai:function_call>"), false, "no tool name")
	checkRejected(t, `a reply of {"`, recoverText(t, `{"`), false, "no tool name")
	wantText(t, "near miss: an answer that is a brace", recoverText(t, `{`))
	wantShownAsWritten(t, "near miss: Grok's markup in a fence", "Grok leaks this:\n```\n<xai:function_call name=\"bash\"><parameter name=\"command\">ls</parameter></xai:function_call>\n```\nbut only when streaming.")

	// self_closing_tool_attrs: the whole reply, the tool's own attributes.
	checkCalls(t, "self-closing tool element", recoverText(t, `<bash command="ls -l" />`), call{"bash", `{"command":"ls -l"}`})
	checkCalls(t, "two, one per line, XML escapes read", recoverText(t, "<bash command=\"grep -rn &quot;TODO&quot; src\" />\n<bash command=\"go vet ./... &amp;&amp; echo ok\" />"),
		call{"bash", `{"command":"grep -rn \"TODO\" src"}`}, call{"bash", `{"command":"go vet ./... && echo ok"}`})
	wantNoCall(t, "near miss: an attribute the tool lacks", recoverText(t, `<bash cmd="ls -l" />`))
	wantNoCall(t, "near miss: the element in a sentence", recoverText(t, `Write <bash command="ls -l" /> in the config.`))

	// functionary_v2_recipient.
	checkCalls(t, "Functionary v2 framing", recoverText(t, "<|from|>assistant\n<|recipient|>fetch_content\n<|content|>{\"url\": \"https://wttr.in/NYC\"}"), call{"fetch_content", `{"url":"https://wttr.in/NYC"}`})
	res := recoverText(t, "<|from|>assistant\n<|recipient|>all\n<|content|>Reading it.\n<|from|>assistant\n<|recipient|>read_file\n<|content|>{\"path\": \"a\"}<|stop|>")
	checkCalls(t, "Functionary v2 text then call", res, call{"read_file", `{"path":"a"}`})
	if res.Text != "Reading it." {
		t.Errorf("Functionary v2: text %q, want the message to all", res.Text)
	}
	wantNoCall(t, "near miss: an undeclared recipient", recoverText(t, "<|from|>assistant\n<|recipient|>get_weather\n<|content|>{\"city\": \"NYC\"}"))

	// m3_nested_elements: MiniMax-M3's array of items.
	checkCalls(t, "M3 nested items", recoverText(t, "]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"edit_file\">]<]minimax[>[<path>a.txt]<]minimax[>[</path>]<]minimax[>[<edits>]<]minimax[>[<item>]<]minimax[>[<old>x]<]minimax[>[</old>]<]minimax[>[<new>y]<]minimax[>[</new>]<]minimax[>[</item>]<]minimax[>[</edits>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>"),
		call{"edit_file", `{"path":"a.txt","edits":[{"old":"x","new":"y"}]}`})

	// dsml_closer_in_value: only at a server value's end.
	checkCalls(t, "DSML closer in a server value", recoverServer(t, "read_file", `{"path": "Paris</｜DSML｜parameter"}`), call{"read_file", `{"path":"Paris"}`})
	checkCalls(t, "near miss: DSML text inside a value", recoverServer(t, "write_file", `{"path": "a.md", "content": "the </｜DSML｜parameter> closer ends it"}`), call{"write_file", `{"path":"a.md","content":"the </｜DSML｜parameter> closer ends it"}`})

	// missing_beside_bad_value: both faults named.
	checkRejected(t, "edit with only old_string", recoverText(t, "<invoke name=\"edit_file\"><parameter name=\"old_string\">\n    return null;\n</parameter></invoke>"), false, "needs the argument path")

	// tool_calls_text_no_name.
	checkRejected(t, "toolCalls entries with no name", recoverText(t, `{ "toolCalls": [ { "id": "call_001", "type": "bash", "command": "git branch -a" } ] }`), false, "no tool name")
	wantText(t, "near miss: a toolCalls list of records in prose", recoverText(t, `The log had { "toolCalls": [ { "id": "call_001", "type": "bash" } ] } in it.`))

	// stray_closing_braces and fenced_whole_reply.
	checkCalls(t, "extra closing braces", recoverText(t, "```json\n{\"tool\": \"bash\", \"arguments\": {\"command\": \"ls\"}}}}\n```"), call{"bash", `{"command":"ls"}`})
	checkCalls(t, "the fence is the whole reply", recoverText(t, "```json\n{\"tool\": \"read_file\", \"arguments\": {\"path\": \"a\"}}\n```"), call{"read_file", `{"path":"a"}`})
	wantNoCall(t, "near miss: the fence described", recoverText(t, "The dispatcher expects:\n```json\n{\"tool\": \"read_file\", \"arguments\": {\"path\": \"a\"}}\n```"))

	// repeated_call_blocks: a repeat with a call between runs again; the
	// same call twice in a row, or the server's call written again, once.
	checkCalls(t, "A, B, A", recoverText(t, "<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}</tool_call> Now the log: <tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"git log\"}}</tool_call> And a again: <tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"a\"}}</tool_call>"),
		call{"read_file", `{"path":"a"}`}, call{"bash", `{"command":"git log"}`}, call{"read_file", `{"path":"a"}`})
	checkCalls(t, "A, A", recoverText(t, "<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"date >> log\"}}</tool_call>\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"date >> log\"}}</tool_call>"),
		call{"bash", `{"command":"date >> log"}`})
	both := Recover(Input{Content: `<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>`, ToolCalls: []RawCall{{ID: "1", Name: "bash", Arguments: `{"command": "ls"}`}}, FinishReason: "tool_calls", Tools: toolsFor(t)})
	checkCalls(t, "the server's call written again", both, call{"bash", `{"command":"ls"}`})

	// A stripped header on the final channel addressed to a tool.
	checkCalls(t, "final to=NAME", recoverText(t, `final to=write_file code {"path":"/tmp/out.txt","content":"hello"}`), call{"write_file", `{"path":"/tmp/out.txt","content":"hello"}`})
	wantNoCall(t, "near miss: the final word in a sentence", recoverText(t, `Then the model sends its final to=write_file code {"path":"/tmp/out.txt","content":"hi"} line.`))

	// shown_round21: illustration, what a parser accepts, a sentence that
	// goes on after the block.
	wantNoCall(t, "an illustration", recoverText(t, "This is a documentation example for the read_file tool call format. You should never execute these examples directly. The real calls go through the API.\n<invoke name=\"read_file\"><parameter name=\"path\">a.ts</parameter></invoke>"))
	wantNoCall(t, "what a parser accepts", recoverText(t, "Your parser only accepts the documented spelling:\n\n```\n<|tool_call>call:bash{command:<|\"|>ls /tmp<|\"|>}<tool_call|>\n```\n\nso add the other one."))
	wantNoCall(t, "a sentence going on", recoverText(t, "It wants\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>\nbut the model writes something else."))
	checkCalls(t, "near miss: what a parser expects, then the step", recoverText(t, "The parser expects JSON, so I'll write the config as JSON:\n\n<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"cfg.json\", \"content\": \"{}\"}}\n</tool_call>"),
		call{"write_file", `{"path":"cfg.json","content":"{}"}`})
}

// wantShownAsWritten: no call, no correction, and the text is the reply
// exactly as the model wrote it (a rewrite made for the readers never
// reaches the user).
func wantShownAsWritten(t *testing.T, label, content string) {
	t.Helper()
	res := recoverText(t, content)
	wantText(t, label, res)
	if res.Text != content {
		t.Errorf("%s: text %q, want the reply as written", label, res.Text)
	}
}

// The red team's findings on round 21 (widened-adversarial-round21.jsonl),
// as rules: transcripts, markup inside another call's value, reported
// output, and the leads that must still run.
func TestRuleRound21RedTeam(t *testing.T) {
	wantNoCall(t, "a Functionary transcript with the user's turn", recoverText(t, "<|from|>user\n<|recipient|>all\n<|content|>clean up\n<|from|>assistant\n<|recipient|>bash\n<|content|>{\"command\": \"rm -rf build\"}"))
	wantNoCall(t, "a Functionary transcript with the tool's result", recoverText(t, "<|from|>assistant\n<|recipient|>bash\n<|content|>{\"command\": \"rm -rf build\"}\n<|from|>bash\n<|recipient|>all\n<|content|>removed build"))
	checkCalls(t, "a file documenting Gemma's opener keeps it", recoverText(t, `<tool_call>{"name": "write_file", "arguments": {"path": "notes.md", "content": "<tool_call:bash{command:<|\"|>ls<|\"|>}<tool_call|>"}}</tool_call>`),
		call{"write_file", `{"path":"notes.md","content":"<tool_call:bash{command:<|\"|>ls<|\"|>}<tool_call|>"}`})
	checkCalls(t, "a file documenting Grok's element keeps it", recoverText(t, `<tool_call>{"name": "write_file", "arguments": {"path": "t.txt", "content": "<xai:function_call name=\"bash\"></xai:function_call>"}}</tool_call>`),
		call{"write_file", `{"path":"t.txt","content":"<xai:function_call name=\"bash\"></xai:function_call>"}`})
	checkCalls(t, "M3 XML content stays text", recoverText(t, "]<]minimax[>[<tool_call>\n]<]minimax[>[<invoke name=\"write_file\">]<]minimax[>[<path>pom.xml]<]minimax[>[</path>]<]minimax[>[<content><dependencies><dependency>junit</dependency></dependencies>]<]minimax[>[</content>]<]minimax[>[</invoke>\n]<]minimax[>[</tool_call>"),
		call{"write_file", `{"path":"pom.xml","content":"<dependencies><dependency>junit</dependency></dependencies>"}`})
	checkCalls(t, "M2 wrapper with element arguments", recoverText(t, "<minimax:tool_call>\n<invoke name=\"write_file\">\n<path>menu.html</path>\n<content><ul><item>Home</item></ul></content>\n</invoke>\n</minimax:tool_call>"),
		call{"write_file", `{"path":"menu.html","content":"<ul><item>Home</item></ul>"}`})
	checkCalls(t, "a DSML closer as a file's whole content", recoverServer(t, "write_file", `{"path": "t.txt", "content": "</｜DSML｜parameter>"}`), call{"write_file", `{"path":"t.txt","content":"</｜DSML｜parameter>"}`})
	wantNoCall(t, "<function_bash> mentioned in prose", recoverText(t, "In the leaked reply the opener was <function_bash>\n<parameter=command> followed on the next line, and the value rm -rf x sat between the tags."))
	wantNoCall(t, "<tool_call:NAME{ inside a sentence", recoverText(t, `The model writes <tool_call:bash{command:<|"|>rm -rf x<|"|>}><tool_call|> where the documented opener should be.`))
	for _, lead := range []string{"Gemma wrote this instead of a real call:", "From the log, Grok leaked this into the content:", "Lines like these showed up in the chat instead of tool calls:", "Here is what the server streamed before the fix:", "The raw completion from vLLM was:", "### Example of the fault"} {
		wantNoCall(t, "reported: "+lead, recoverText(t, lead+"\n\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"rm -rf x\"}}</tool_call>"))
	}
	wantNoCall(t, "described after", recoverText(t, "final to=bash code {\"command\":\"rm -rf x\"}\n\nThat line is what the stripped harmony output looked like."))
	wantText(t, "a record of finished calls", recoverText(t, `{"toolCalls": [{"id": "call_001", "type": "bash", "status": "completed", "exitCode": 0}]}`))
	for _, tc := range []struct{ label, text string }{
		{"documentation examples as a topic", "The documentation examples in README.md still use the old flag, so I'll update them:\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>"},
		{"a preposition after the call", "Running the migration <tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call> from the repo root so the paths resolve."},
		{"the next step in lower case", "I'll rebuild the index.\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>\nwhen it finishes I'll rerun the search."},
		{"but first", "Listing it:\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>\nbut first the cache is cleared."},
		{"the model's own step after what another wrote", "Opening the file the other agent wrote:\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>"},
		{"Gemma's collapsed opener after reasoning", "<think>\nList it.\n</think>\n<tool_call:bash{command:<|\"|>ls<|\"|>}<tool_call|>"},
		{"<function_NAME> inside <tool_call>", "I'll list it.\n\n<tool_call>\n<function_bash>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>"},
	} {
		checkCalls(t, "near miss: "+tc.label, recoverText(t, tc.text), call{"bash", `{"command":"ls"}`})
	}
}
