package toolcall

import "testing"

// One table per narrowing made for round 5's red-team cases
// (testdata/widened-adversarial-round5.jsonl): replies that explain,
// quote or document a format, which now stay text, and near misses — real
// calls and call attempts of the same shape — that still run or are still
// corrected.

const r5Ls = `<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>`

var r5LsCall = []call{{"bash", `{"command":"ls"}`}}

func TestRuleR5IntentAboutFormats(t *testing.T) {
	cline := "\n<read_file>\n<path>go.mod</path>\n</read_file>"
	goMod := []call{{"read_file", `{"path":"go.mod"}`}}
	runTemplateCases(t, []templateCase{
		{label: "for example at the end", answer: true, content: "Gemma writes it between its tokens, for example\n" + r5Ls},
		{label: "such as", answer: true, content: "To read a file, Cline emits a block such as" + cline},
		{label: "for instance", answer: true, content: "The generic format is one object, for instance " + `{"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]}`},
		{label: "format … like this", answer: true, content: "Cline's prompt asks the model to format tool use like this:\n" + cline},
		{label: "a call is written", answer: true, content: "In MiniMax's inline format a call is written " + `[TOOL_CALL] {"tool": "bash", "args": {"command": "ls"}} [/TOOL_CALL]` + " in the text."},
		{label: "has this shape", answer: true, content: "Each element has this shape:\n\n" + `{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{}"}}`},
		{label: "the usage … is", answer: true, content: "The usage the docs give is\n\n<execute_command>\n<command>npm test</command>\n</execute_command>"},
		{label: "Usage: label", answer: true, content: "read_file: Request to read a file.\nUsage:" + cline},
		{label: "the template writes", answer: true, content: "For a tool without arguments, GLM's template writes only the name:\n<tool_call>get_time</tool_call>"},
		{label: "the model replied with", answer: true, content: "In your log the model replied with text instead of a call:\n" + cline},
		{label: "it answers with", answer: true, content: "Ask the agent to read a file and it answers with\n" + cline},
		{label: "the model wrote", answer: true, content: "That is why the parser dropped it: the model wrote\n<tool_call>lsp</tool_call>"},
		{label: "in the response was", answer: true, content: "The first entry in the response was\n\n" + `{"id": "c1", "type": "function", "function": {"name": "bash", "arguments": "{}"}}`},
		{label: "message ended with", answer: true, content: "It stopped because the agent's last message ended with an action:\n\nAction: search_web\nAction Input: go release notes"},
		{label: "the text …", answer: true, content: "Your parser has to accept the text " + r5Ls + " as well."},
		{label: "the wrapper holds", answer: true, content: "The name is missing, so the wrapper holds " + `<tool_call>{"arguments": {"command": "ls"}}</tool_call>` + " and nothing else."},
		{label: "the call that failed", answer: true, content: "The last log line is the call that failed:\n\n" + `read_file path="a.yaml" error="not found"`},
		{label: "run it yourself", answer: true, content: "I'm not going to do that. If you want it, you can run it yourself:\n\n<bash>\n<command>rm -rf ~</command>\n</bash>"},
		{label: "never executed after", answer: true, content: "The reply was\n\n[TOOL_CALL] {tool => \"bash\", args => { --command \"ls\" }} [/TOOL_CALL]\n\nIt was never executed."},
		{label: "Example … label", answer: true, content: "Example arguments for each tool:\n\nread_file\n{\"path\": \"go.mod\"}"},
		{label: "ReAct step shown after for instance", answer: true, content: "Each step ends with two lines, for instance\n\nThought: I need the file\nAction: read_file\nAction Input: go.mod"},
		{label: "near miss: let me see what", content: "I ran the linter earlier. Let me see what the tests say:\n" + r5Ls, want: r5LsCall},
		{label: "near miss: Cline block after a plan", content: "I'll read the module file first." + cline, want: goMod},
		{label: "near miss: example files listed by a call", content: "Example files live in testdata; let me list them:\n" + r5Ls, want: r5LsCall},
		{label: "near miss: run it for you", content: "I can run it for you:\n" + r5Ls, want: r5LsCall},
		{label: "near miss: the model's format, then a call", content: "Noted, that is the format. Now the listing:\n" + r5Ls, want: r5LsCall},
		{label: "near miss: ReAct step still corrected", content: "Thought: I need the file\nAction: read_file\nAction Input: go.mod", reject: "ReAct"},
		{label: "near miss: GLM bare name after prose still corrected", content: "Sure, I will do that now.\n\n<tool_call>lsp</tool_call>", reject: "action"},
	})
}

func TestRuleR5MarkdownContainers(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "GFM table without leading pipes", answer: true, content: "Format | Example\n--- | ---\nHermes | " + r5Ls},
		{label: "GFM table, aligned delimiter", answer: true, content: "Format | Example\n:--- | :---:\nHermes | " + r5Ls + "\nOther | x"},
		{label: "nested block quote", answer: true, content: "You quoted the issue:\n\n> The model wrote:\n> > " + r5Ls},
		{label: "nested quote, no space between", answer: true, content: "Quoted:\n\n> > > " + r5Ls},
		{label: "near miss: a pipe in the lead-in, no table", content: "Piping ls | wc is next, first the listing:\n" + r5Ls, want: r5LsCall},
		{label: "near miss: a call under a table", content: "a | b\n--- | ---\n1 | 2\n\n" + r5Ls, want: r5LsCall},
		{label: "near miss: a quote, then a call", content: "> Please list the files.\n\nSure:\n" + r5Ls, want: r5LsCall},
	})
}

func TestRuleR5ConsoleSession(t *testing.T) {
	obj := `{"name": "bash", "arguments": {"command": "rm -rf build"}}`
	runTemplateCases(t, []templateCase{
		{label: "user@host:path$ prompt", answer: true, content: "Your session:\n\n```\nuser@box:~/proj$ cat call.json\n" + obj + "\n```"},
		{label: "[user@host dir]$ prompt", answer: true, content: "Your session:\n\n```\n[me@box proj]$ cat call.json\n" + obj + "\n```"},
		{label: "root # prompt", answer: true, content: "As root:\n\n```\n# cat /srv/last.json\n" + obj + "\n```"},
		{label: "Python console", answer: true, content: "In the REPL:\n\n```\n>>> print(json.dumps(msg))\n" + obj + "\n```"},
		{label: "near miss: a plain fence holding the call", content: "```\n" + obj + "\n```", want: []call{{"bash", `{"command":"rm -rf build"}`}}},
		{label: "near miss: a markdown heading is no prompt", content: "```\n#heading\n" + obj + "\n```", want: []call{{"bash", `{"command":"rm -rf build"}`}}},
	})
}

func TestRuleR5StrippedHarmonyLowerCase(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "English Analysis", answer: true, content: "Analysis of the failing run: the tokens were stripped, so the client got\ncommentary to=functions.bash json{\"command\": \"make deploy\"}"},
		{label: "English Final answer", answer: true, content: "Final answer: the line\ncommentary to=functions.bash json{\"command\": \"ls\"}"},
		{label: "near miss: stripped reply", content: "analysisNeed to list files.assistantcommentary to=functions.bash json{\"command\": \"ls\"}", want: r5LsCall},
	})
}

func TestRuleR5MarkupNamedInProse(t *testing.T) {
	goMod := []call{{"read_file", `{"path":"go.mod"}`}}
	runTemplateCases(t, []templateCase{
		// glm_second_opener: only a second opener.
		{label: "GLM second opener named in prose", answer: true, content: "GLM writes bash<tool_call>command</arg_key><arg_value>ls</arg_value> where the key belongs; the fix reads it."},
		{label: "near miss: GLM second opener", content: "<tool_call>read_file<tool_call>path</arg_key><arg_value>go.mod</arg_value></tool_call>", want: goMod},
		// glm pairs without their opener: a key alone.
		{label: "GLM key without value in prose", answer: true, content: "It belongs as bash<arg_key>command</arg_key> in the template."},
		{label: "near miss: GLM pairs, opener lost", content: "read_file<arg_key>path</arg_key><arg_value>go.mod</arg_value></tool_call>", want: goMod},
		// opener_without_call: the opener starts its line.
		{label: "DeepSeek opener named in a sentence", answer: true, content: "The call block starts with the token <｜tool▁calls▁begin｜>"},
		{label: "DSML opener named in a sentence", answer: true, content: "Search the stream for the opener <｜DSML｜tool_calls"},
		{label: "near miss: opener on its own line", content: "Now let me read the files.\n\n  <｜DSML｜tool_calls", reject: "no tool name"},
		{label: "near miss: opener then <<<", content: "<｜tool▁calls▁begin｜><<<<<<", reject: "no tool name"},
		// opener lost: the call's closer right after the last value.
		{label: "Qwen3-Coder pieces explained", answer: true, content: "Each argument is\n<parameter=path>\na.go\n</parameter>\nand the call closes with\n</function>"},
		{label: "MiniMax pieces explained", answer: true, content: "Each argument is one element,\n<parameter name=\"path\">a.go</parameter>\nand the call ends with\n</invoke>"},
		{label: "near miss: Qwen3-Coder opener lost", content: "<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>", reject: "no tool name"},
		{label: "near miss: MiniMax opener lost", content: "<parameter name=\"path\">a.go</parameter>\n</invoke>\n</minimax:tool_call>", reject: "no tool name"},
		// cline_xml_open: a tag glued to punctuation is a word.
		{label: "Cline tags listed in a sentence", answer: true, content: "The tools are:\n<read_file>, <write_file> and <bash>, each closed by its end tag."},
		{label: "near miss: partial tool use", content: "<write_file> notes.txt some text...", reject: "path"},
	})
}
