package toolcall

import "testing"

// Round 18's rules (rule_round18.go), each with the near misses that must
// stay as they were.
func TestRuleRound18Runs(t *testing.T) {
	// gptme_tool_call: a line @NAME(ID): {…}; in a fence, inside a
	// sentence, or with prose after the object on its line it is text.
	checkCalls(t, "gptme, two lines", recoverText(t, "@bash(c1): {\"command\": \"ls\"}\n@read_file(c2): {\"path\": \"a.go\"}"),
		call{"bash", `{"command":"ls"}`}, call{"read_file", `{"path":"a.go"}`})
	checkCalls(t, "gptme, a missing comma", recoverText(t, `@read_file(t1): {"path": "notes.txt" "numbered": true}`), call{"read_file", `{"numbered":true,"path":"notes.txt"}`})
	wantText(t, "near miss: gptme fenced", recoverText(t, "```\n@bash(c1): {\"command\": \"ls\"}\n```"))
	wantText(t, "near miss: gptme in a sentence", recoverText(t, `gptme writes @bash(c1): {"command": "ls"} for a call.`))
	wantText(t, "near miss: gptme, prose after the object", recoverText(t, `@bash(c1): {"command": "ls"} is how it looks.`))
	wantText(t, "near miss: an undeclared tool", recoverText(t, `@shell(c1): {"cmd": "ls"}`))

	// gorilla_function_marker, and no here-document.
	checkCalls(t, "gorilla, two calls", recoverText(t, " <<function>>read_file(path=\"a.md\")<<function>>bash(command=\"ls\")\n"),
		call{"read_file", `{"path":"a.md"}`}, call{"bash", `{"command":"ls"}`})
	wantText(t, "near miss: a here-document is still code", recoverText(t, "Run:\n\ncat <<EOF > a.txt\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>\nEOF"))

	// python_fence_in_wrapper: MiniCPM's fence in its wrapper; a python
	// fence of code in a wrapper is not a call.
	checkCalls(t, "MiniCPM", recoverText(t, "<|tool_call_start|>\n```python\nread_file(path=\"a.csv\",start=5)\n```\n<|tool_call_end|>"), call{"read_file", `{"path":"a.csv","start":5}`})
	wantNoCall(t, "near miss: code in the fence", recoverText(t, "<|tool_call_start|>\n```python\nimport os\nprint(os.listdir())\n```\n<|tool_call_end|>"))

	// chatglm3_tool_call: the header names a declared tool, tool_call( opens
	// the fence; another header or function is text.
	checkCalls(t, "ChatGLM3", recoverText(t, "Let me look.\n<|assistant|>read_file\n```python\ntool_call(path=\"a.md\")\n```"), call{"read_file", `{"path":"a.md"}`})
	wantNoCall(t, "near miss: an undeclared tool", recoverText(t, "<|assistant|>get_weather\n```python\ntool_call(city=\"Paris\")\n```"))
	wantNoCall(t, "near miss: not tool_call", recoverText(t, "<|assistant|>read_file\n```python\nprint(1)\n```"))

	// glm_param_pairs.
	checkCalls(t, "Xing pairs", recoverText(t, "<tool_call>read_file<param_key>path</param_key><param_value>a.go</param_value><param_key>start</param_key><param_value>3</param_value></tool_call>"), call{"read_file", `{"path":"a.go","start":3}`})

	// stripped_header_after_step: after the model's step only.
	checkCalls(t, "stripped header after a step", recoverText(t, "Let's check git tags. to=functions.bash code{\"command\":\"git tag\"}"), call{"bash", `{"command":"git tag"}`})
	wantText(t, "near miss: after a description", recoverText(t, "The header looks like this. to=functions.bash code{\"command\":\"git tag\"}"))

	// codeact_execute_bash: ending the reply, after no example's lead-in.
	checkCalls(t, "CodeAct", recoverText(t, "I will list it.\n\n<execute_bash>\nls -F src/\n</execute_bash>"), call{"bash", `{"command":"ls -F src/"}`})
	checkCalls(t, "CodeAct, its stop word ate the closer", recoverText(t, "<execute_bash>\nls -la"), call{"bash", `{"command":"ls -la"}`})
	wantText(t, "near miss: prose after it", recoverText(t, "<execute_bash>\nls\n</execute_bash>\nThat lists the files."))
	wantText(t, "near miss: shown", recoverText(t, "Run it like this:\n\n<execute_bash>\nrm -rf build\n</execute_bash>"))

	// yaml_in_tool_tag, split_closer, stray_value_closer.
	checkCalls(t, "YAML body", recoverText(t, "<write_file>\npath: a.txt\ncontent: |\n  one\n  two\n</write_file>"), call{"write_file", `{"content":"one\ntwo\n","path":"a.txt"}`})
	checkCalls(t, "YAML body, indented", recoverText(t, "<read_file>\n    path: main.go\n    start: 10\n</read_file>"), call{"read_file", `{"path":"main.go","start":10}`})
	wantText(t, "near miss: a key of no parameter", recoverText(t, "<write_file>\nTODO: fix it\n</write_file>"))
	wantText(t, "near miss: plain text in the tag", recoverText(t, "<bash>\nls -la\n</bash>"))
	checkCalls(t, "split closer", recoverText(t, "<bash><command>git log -3</\n  command></bash>"), call{"bash", `{"command":"git log -3"}`})
	checkCalls(t, "doubled closer", recoverText(t, "<bash><command>ls</command></command></bash>"), call{"bash", `{"command":"ls"}`})

	// claim_after_opening_call: only a call that opens the reply, and a
	// first-person claim.
	checkCalls(t, "claim after the call", recoverText(t, `write_file(path="m.md", content="x") I have saved the note.`), call{"write_file", `{"content":"x","path":"m.md"}`})
	wantText(t, "near miss: other prose after it", recoverText(t, `write_file(path="m.md", content="x") writes the note.`))
	wantText(t, "near miss: not opening the reply", recoverText(t, `Call it as write_file(path="m.md", content="x") I have seen that work.`))
}

func TestRuleRound18Corrects(t *testing.T) {
	// prose_body: a sentence is no command; a command is.
	checkRejected(t, "prose body", recoverCall(t, "bash", "not valid json"), false, "not valid JSON")
	checkCalls(t, "near miss: a command", recoverCall(t, "bash", "ls -la"), call{"bash", `{"command":"ls -la"}`})
	checkCalls(t, "near miss: a command of words", recoverCall(t, "bash", "make test"), call{"bash", `{"command":"make test"}`})

	// other_wrapper_empty.
	checkRejected(t, "MiniMax wrapper of words", recoverText(t, "<minimax:tool_call>\nno invoke block here\n</minimax:tool_call>"), false, "no tool name")
	checkRejected(t, "Seed wrapper, a stray closer", recoverText(t, "## Implementation\n<seed:tool_call>\n</function>\n</seed:tool_call>"), false, "no tool name")
	wantText(t, "near miss: the wrapper inside a sentence", recoverText(t, "MiniMax wraps calls in <minimax:tool_call>\nno invoke block here\n</minimax:tool_call>"))

	// interpreter_call.
	checkRejected(t, "python_tag code", recoverText(t, "I will compute it<|python_tag|>l=[0,1,2]\nl.remove(3.6)<|eom_id|>"), false, "code interpreter")
	checkRejected(t, "InternLM interpreter", recoverText(t, "<|action_start|><|interpreter|>\n```python\nprint(1)\n```<|action_end|>"), false, "code interpreter")
	wantText(t, "near miss: data after the tag", recoverText(t, `<|python_tag|>{"message": "Hello"}`))
	wantText(t, "near miss: the tag in inline code", recoverText(t, "Llama writes `<|python_tag|>print(1)` for code."))

	// stripped_name_attrs.
	checkRejected(t, "MiniCPM 5 stripped", recoverText(t, ` name="read_file"> name="path">a.md`), false, "path")
	wantText(t, "near miss: an undeclared name", recoverText(t, ` name="div"> name="x">y`))

	// self_closing_tool_tag.
	checkRejected(t, "self-closing", recoverText(t, "Getting the file now... <read_file/> Done!"), false, "path")
	wantText(t, "near miss: prose about the tag", recoverText(t, "The tag <read_file/> reads a file."))
	wantText(t, "near miss: two tags", recoverText(t, "Let me check. <read_file/> <bash/>"))

	// broken_object_in_arguments (rule_generic.go).
	checkRejected(t, "broken object in <arguments>", recoverText(t, "<tool>\n<name>bash</name>\n<arguments>\n{invalid json}\n</arguments>\n</tool>"), false, "command")
}

// wantNoCall: nothing runs (a correction may be given).
func wantNoCall(t *testing.T, label string, res Result) {
	t.Helper()
	if len(res.Calls) != 0 {
		t.Errorf("%s: ran %v", label, res.Calls)
	}
}

// Red team 18r's negatives, fixed, and the calls beside them.
func TestRuleRedTeam18r(t *testing.T) {
	wantText(t, "gptme after a shown reply's lead-in", recoverText(t, "Here is how a reply written in gptme's format would look:\n@read_file(abc): {\"path\": \"/etc/hosts\"}"))
	checkCalls(t, "gptme after the model's step", recoverText(t, "Let me read it.\n@read_file(abc): {\"path\": \"a.go\"}"), call{"read_file", `{"path":"a.go"}`})
	wantText(t, "a user's request with a missing comma", recoverText(t, "Your request fails because a comma is missing after \"ls\":\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\" \"timeout\": 5}}\nPut a comma after \"ls\"."))
	checkCalls(t, "a missing comma inside <tool_call>", recoverText(t, "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"main.go\" \"start\": 10}}\n</tool_call>"), call{"read_file", `{"path":"main.go","start":10}`})
	checkCalls(t, "ChatGLM3 opening the reply", recoverText(t, "<|assistant|>read_file\n```python\ntool_call(path=\"c.yaml\")\n```"), call{"read_file", `{"path":"c.yaml"}`})
	wantText(t, "a YAML snippet for docs", recoverText(t, "Sure, here is the snippet for your prompt docs:\n\n<bash>\ncommand: docker system prune -af\n</bash>"))
	wantText(t, "a remark after a shown call", recoverText(t, `bash(command="rm -rf build") I've seen this pattern in LangChain's docs.`))
	wantText(t, "the interpreter token named", recoverText(t, "Llama 3.1 emits <|python_tag|> before its code, then print(1)."))
	wantText(t, "an empty wrapper shown", recoverText(t, "Some servers still leave an empty wrapper, like:\n<tool_calls>\nno tool needed here\n</tool_calls>"))
	wantText(t, "a tag added to a file", recoverText(t, "I'll register the tool in plugins.xml by adding <bash/>"))
	wantText(t, "a fixture handed over", recoverText(t, "Here is the test fixture you asked for, for tests/fixtures/x.txt:\n\n<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>shutdown -h now</arg_value>\n</tool_call>"))
	wantText(t, "quoting docs", recoverText(t, "Quoting the MiniMax docs...\n<minimax:tool_call>\n<invoke name=\"bash\">\n<parameter name=\"command\">rm -rf ~/projects</parameter>\n</invoke>\n</minimax:tool_call>"))
	wantText(t, "the stripped remnant explained", recoverText(t, ` name="bash"> name="command">ls is what Ollama leaves of a MiniCPM 5 call.`))
}
