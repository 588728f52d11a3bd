package toolcall

import "testing"

// Round 15's rules (rule_round15.go and the readers they widen), each with
// its near miss.

func TestRuleRound15Markup(t *testing.T) {
	checkCalls(t, "DSML with both bars lost",
		recoverText(t, `<DSMLtool_calls><DSMLinvoke name="read_file"><DSMLparameter name="path" string="true">a.go</DSMLparameter><DSMLparameter name="start" string="false">3</DSMLparameter></DSMLinvoke></DSMLtool_calls>`),
		call{"read_file", `{"path":"a.go","start":3}`})
	wantText(t, "near miss: a DSML-glued word that is no DSML tag", recoverText(t, `<DSMLfoo name="read_file">a.go</DSMLfoo>`))
	checkCalls(t, "<param=K> tags", recoverText(t, "<tool_call><function=bash><param=command>echo 42</param></function></tool_call>"), call{"bash", `{"command":"echo 42"}`})
	checkCalls(t, "a call id before the JSON arguments", recoverText(t, `<tool_call><function=read_file>[call_abc]{"path": "a.go"}</function></tool_call>`), call{"read_file", `{"path":"a.go"}`})
	checkCalls(t, "CDATA holding markup", recoverText(t, "<tool_calls><invoke name=\"write_file\"><parameter name=\"content\"><![CDATA[x\n<invoke name=\"demo\"></invoke>]]></parameter><parameter name=\"path\">n.md</parameter></invoke></tool_calls>"),
		call{"write_file", `{"content":"x\n<invoke name=\"demo\"></invoke>","path":"n.md"}`})
	checkCalls(t, "<tool_name> with JSON parameters in CDATA", recoverText(t, `<tool_call><tool_name>read_file</tool_name><parameters><![CDATA[{"path": "w.md"}]]></parameters></tool_call>`), call{"read_file", `{"path":"w.md"}`})
	checkCalls(t, "shrunk DSML", recoverText(t, "Let me look:\n\n<｜｜DSML｜｜r=bash>\n<｜｜DSML｜｜m>cat a.js</｜｜DSML｜｜m>\n</｜｜DSML｜｜r>"), call{"bash", `{"command":"cat a.js"}`})
	wantText(t, "near miss: shrunk DSML shown", recoverText(t, "For example:\n\n<｜｜DSML｜｜r=bash>\n<｜｜DSML｜｜m>cat a.js</｜｜DSML｜｜m>\n</｜｜DSML｜｜r>"))
}

func TestRuleRound15Nameless(t *testing.T) {
	checkRejected(t, "GLM pairs with no name", recoverText(t, "<tool_call><arg_key>path</arg_key><arg_value>a.md</arg_value></tool_call>"), false, "no tool name")
	checkRejected(t, "an invoke with no name", recoverText(t, `<tool_calls><invoke><parameter name="path">README.md</parameter></invoke></tool_calls>`), false, "no tool name")
	checkRejected(t, "a DSML opener then garbage", recoverText(t, "<｜DSML｜tool_calls> <<<broken syntax without invoke"), false, "no tool name")
	checkRejected(t, "an opener never closed around a word", recoverText(t, "<tool_call>partial"), false, "no tool named")
	checkRejected(t, "closed markers around an identifier", recoverText(t, "<|tool_call>MALFORMED_NO_CALL_PREFIX<tool_call|>"), false, "no tool named")
	wantText(t, "near miss: closed markers around a plain word", recoverText(t, "<|tool_call>nonsense<tool_call|>"))
	wantText(t, "near miss: the opener alone", recoverText(t, "The opener is:\n<｜DSML｜tool_calls>"))
	wantText(t, "near miss: pairs after prose", recoverText(t, "GLM writes pairs:\n<tool_call><arg_key>path</arg_key><arg_value>a.md</arg_value></tool_call>"))
}

func TestRuleRound15Shown(t *testing.T) {
	block := "<tool_calls><invoke name=\"read_file\"><parameter name=\"path\">README.md</parameter></invoke></tool_calls>"
	wantText(t, "a Chinese disclaimer after a fence", recoverText(t, "```xml\n"+block+"\n```\n\n这里只是展示格式，不是真实调用。"))
	r := recoverText(t, "```xml\n"+block+"\n```\n<tool_calls><invoke name=\"bash\"><parameter name=\"command\">ls</parameter></invoke></tool_calls>")
	checkCalls(t, "a fenced block beside a bare one: only the bare runs", r, call{"bash", `{"command":"ls"}`})
	checkCalls(t, "near miss: a fenced block alone runs", recoverText(t, "```xml\n"+block+"\n```"), call{"read_file", `{"path":"README.md"}`})
	wantText(t, "a Python script's call line", recoverText(t, "import fetch_content\n\nfetch_content(\"q\", \"https://example.com\")"))
	checkRejected(t, "near miss: the same call line alone", recoverText(t, "fetch_content(\"q\", \"https://example.com\")"), false, "keyword arguments")
}

func TestRuleRound15Continue(t *testing.T) {
	checkCalls(t, "lower-case keywords", recoverText(t, "```tool\ntool_name: bash\nbegin_arg: command\nls -la\nend_arg\n```"), call{"bash", `{"command":"ls -la"}`})
	checkCalls(t, "the fence left off", recoverText(t, "I'll help.\nTOOL_NAME: bash\nBEGIN_ARG: command\ngit status\nEND_ARG\n"), call{"bash", `{"command":"git status"}`})
	wantText(t, "near miss: fence left off, text after", recoverText(t, "TOOL_NAME: bash\nBEGIN_ARG: command\ngit status\nEND_ARG\nThat is the syntax."))
	wantText(t, "near miss: fence left off, no such tool", recoverText(t, "TOOL_NAME: deploy\nBEGIN_ARG: target\nprod\nEND_ARG"))
}

func TestRuleRound15Cline(t *testing.T) {
	checkCalls(t, "glued blocks", recoverText(t, "<read_file><path>a.ts</path></read_file><read_file><path>b.ts</path></read_file>"), call{"read_file", `{"path":"a.ts"}`}, call{"read_file", `{"path":"b.ts"}`})
	checkCalls(t, "after the model's step and a colon on its line", recoverText(t, "I'll check the config first: <read_file><path>a.ts</path></read_file>"), call{"read_file", `{"path":"a.ts"}`})
	wantText(t, "near miss: after a label and a colon", recoverText(t, "The test fails on this input. Input: <read_file><path>a.ts</path></read_file>"))
	wantText(t, "near miss: a chain broken by a block that does not read", recoverText(t, "Wrong: <read_file>a.ts</read_file>Right: <read_file><path>a.ts</path></read_file>"))
	wantText(t, "near miss: a sentence to the user after an inline block", recoverText(t, "<read_file><path>a.ts</path></read_file> Paste that into the chat box."))
	checkCalls(t, "labels glued after blocks", recoverText(t, "First file: <read_file><path>a.ts</path></read_file>Second file: <read_file><path>b.ts</path></read_file>"), call{"read_file", `{"path":"a.ts"}`}, call{"read_file", `{"path":"b.ts"}`})
	checkCalls(t, "an inline bash block's entities decoded, as for any Cline block",
		recoverText(t, "First, I'll build it. <bash><command>make &amp;&amp; make test</command></bash> That should show the failures."), call{"bash", `{"command":"make && make test"}`})
	checkCalls(t, "a sentence glued after the only block", recoverText(t, "<read_file><path>a.ts</path></read_file>Here's what I found."), call{"read_file", `{"path":"a.ts"}`})
	checkCalls(t, "inline between the model's step and its next", recoverText(t, "First, I'll check the directory. <bash><command>ls .</command></bash> That should give us what we need."), call{"bash", `{"command":"ls ."}`})
	wantText(t, "near miss: a clause about the block", recoverText(t, "<read_file><path>a.ts</path></read_file> is how Roo reads a file."))
	wantText(t, "near miss: a lead that is no step", recoverText(t, "Write it as <read_file><path>a.ts</path></read_file> Then run it."))
}

func TestRuleRound15Glimmer(t *testing.T) {
	r := recoverText(t, ` to=self<|message|>check<|eom|><|start|>assistant to=read_file<|message|><atem:function_calls><atem:invoke name="read_file"><atem:parameter name="path">a.md</atem:parameter></atem:invoke></atem:function_calls><|eom|><|start|>assistant to=user<|message|>It is sunny<|eot|>`)
	checkCalls(t, "reasoning, a call and an answer in one reply", r, call{"read_file", `{"path":"a.md"}`})
	if r.Text != "It is sunny" {
		t.Errorf("text %q, want the to=user message", r.Text)
	}
	checkCalls(t, "a one-line block with blank lines around", recoverText(t, "\n"+` to=read_file<|message|><atem:function_calls><atem:invoke name="read_file"><atem:parameter name="path">a.md</atem:parameter></atem:invoke></atem:function_calls>`+"\n\n"), call{"read_file", `{"path":"a.md"}`})
}

func TestRuleReactActionArgs(t *testing.T) {
	checkRejected(t, "arguments on the Action line", recoverText(t, "Thought: I need a tool.\nAction: search ({\"input\": \"x\"})"), false, "not a tool")
	wantText(t, "near miss: no Thought line", recoverText(t, "Action: search ({\"input\": \"x\"})"))
	wantText(t, "near miss: a sentence", recoverText(t, "Thought: I need a tool.\nAction: search the web (carefully)."))
}

func TestRuleRound16t(t *testing.T) {
	checkCalls(t, "MemGPT's function/params with the outer brace left off",
		recoverText(t, "{\n  \"function\": \"write_file\",\n  \"params\": {\n    \"path\": \"w.txt\",\n    \"content\": \"hi\"\n  }\n"), call{"write_file", `{"content":"hi","path":"w.txt"}`})
	checkCalls(t, "two MemGPT objects in a row",
		recoverText(t, "{\"function\": \"bash\", \"params\": {\"command\": \"ls\"}}\n{\"function\": \"bash\", \"params\": {\"command\": \"pwd\"}}"), call{"bash", `{"command":"ls"}`}, call{"bash", `{"command":"pwd"}`})
	checkRejected(t, "MemGPT's params cut", recoverText(t, "{\"function\": \"bash\", \"params\": {\"command\": \"grep -rn x .\","), true, "")
	wantText(t, "near miss: a record with a function key", recoverText(t, "{\"function\": \"accountant\", \"params\": {\"salary\": 3}}"))
	checkCalls(t, "a **Tool Call:** label and fenced arguments",
		recoverText(t, "**Tool Call:** `bash`\n```json\n{\"command\": \"ls\"}\n```"), call{"bash", `{"command":"ls"}`})
	wantText(t, "near miss: the label in a document", recoverText(t, "The UI shows:\n\n**Tool Call:** `bash`\n```json\n{\"command\": \"ls\"}\n```"))
	checkCalls(t, "AutoGPT's thoughts and command",
		recoverText(t, "```json\n{\"thoughts\": {\"text\": \"go\"}, \"command\": {\"name\": \"bash\", \"args\": {\"command\": \"ls\"}}}\n```"), call{"bash", `{"command":"ls"}`})
	checkCalls(t, "a fence of function objects",
		recoverText(t, "```json\n[{\"function\": {\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}}]\n```"), call{"bash", `{"command":"ls"}`})
	checkRejected(t, "call markers around a broken object", recoverText(t, "<tool_request>{invalid json}</tool_request>"), false, "no tool name")
	checkRejected(t, "bare <function openers", recoverText(t, "Let me try another way.\n\n<function\n<function"), false, "no tool name")
	checkCalls(t, "MCP-namespaced Cline blocks with a line between",
		recoverText(t, "<filesystem.read_file>\n<path>a</path>\n</filesystem.read_file>\nSome text.\n<filesystem.read_file>\n<path>b</path>\n</filesystem.read_file>"), call{"read_file", `{"path":"a"}`}, call{"read_file", `{"path":"b"}`})
}
