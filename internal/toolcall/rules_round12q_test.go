package toolcall

import "testing"

// kimi_bare_id: NAME:IDX<|tool_call_argument_begin|>{…} of a declared tool,
// the id starting its line, is that call.
func TestRuleKimiBareID(t *testing.T) {
	const arg = "<|tool_call_argument_begin|>"
	checkCalls(t, "one bare id", recoverText(t, "bash:0"+arg+`{"command": "ls"}`+"<|tool_calls_section_end|>"),
		call{"bash", `{"command":"ls"}`})
	checkCalls(t, "two bare ids on their lines",
		recoverText(t, "read_file:0"+arg+`{"path": "a.go"}`+"<|tool_calls_section_end|>\nread_file:1"+arg+`{"path": "b.go"}`+"<|tool_calls_section_end|>"),
		call{"read_file", `{"path":"a.go"}`}, call{"read_file", `{"path":"b.go"}`})
	checkCalls(t, "after prose, on its own line", recoverText(t, "I'll list the files.\nbash:0 "+arg+` {"command": "ls -la"}`),
		call{"bash", `{"command":"ls -la"}`})
	// Near misses.
	wantText(t, "near miss: an undeclared tool", recoverText(t, "channel_reply:0"+arg+`{"text": "hi"}`+"<|tool_calls_section_end|>"))
	wantText(t, "near miss: the id inside a sentence", recoverText(t, "Kimi writes bash:0"+arg+`{"command": "ls"} in its calls.`))
	wantText(t, "near miss: inline code in prose", recoverText(t, "A leaked call looks like `bash:0"+arg+`{"command": "ls"}`+"` in the reply."))
	wantText(t, "near miss: a fenced example", recoverText(t, "The format:\n```\nbash:0"+arg+`{"command": "ls"}`+"\n```\nThat is all."))
	wantText(t, "near miss: no index", recoverText(t, "bash:"+arg+`{"command": "ls"}`))
	wantText(t, "near miss: no arguments object", recoverText(t, "bash:0"+arg+"ls -la"))
	if r := recoverText(t, "bash:0"+arg+`{"command": "ls`); len(r.Calls) != 0 {
		t.Errorf("near miss: a cut object ran %v", r.Calls)
	}
	checkCalls(t, "near miss: a file being written that holds it",
		recoverCall(t, "write_file", `{"path": "notes.md", "content": "bash:0`+arg+`{\"command\": \"ls\"}\n"}`),
		call{"write_file", `{"path":"notes.md","content":"bash:0` + arg + `{\"command\": \"ls\"}\n"}`})
}

// tool_name_args_object: CAMEL's {"tool_name", "tool_args"} object as the
// whole reply is that call.
func TestRuleToolNameArgsObject(t *testing.T) {
	checkCalls(t, "with server_idx", recoverText(t, "{\n  \"server_idx\": 0,\n  \"tool_name\": \"read_file\",\n  \"tool_args\": {\"path\": \"main.py\"}\n}"),
		call{"read_file", `{"path":"main.py"}`})
	checkCalls(t, "fenced as json", recoverText(t, "```json\n{\"tool_name\": \"bash\", \"tool_args\": {\"command\": \"pwd\"}}\n```"),
		call{"bash", `{"command":"pwd"}`})
	// Near misses.
	wantText(t, "near miss: prose before the object", recoverText(t, "The agent expects this shape:\n{\"tool_name\": \"bash\", \"tool_args\": {\"command\": \"pwd\"}}"))
	wantText(t, "near miss: an undeclared tool", recoverText(t, `{"tool_name": "read_text_file", "tool_args": {"path": "main.py"}}`))
	wantText(t, "near miss: another key (a record about a tool)", recoverText(t, `{"tool_name": "bash", "tool_args": {"command": "pwd"}, "duration_ms": 12}`))
	wantText(t, "near miss: cut object", recoverText(t, `{"tool_name": "bash", "tool_args": {"command": "pw`))
	checkCalls(t, "near miss: a file being written that holds it",
		recoverCall(t, "write_file", `{"path": "call.json", "content": "{\"tool_name\": \"bash\", \"tool_args\": {\"command\": \"pwd\"}}"}`),
		call{"write_file", `{"path":"call.json","content":"{\"tool_name\": \"bash\", \"tool_args\": {\"command\": \"pwd\"}}"}`})
}

// cline_command_entities: the XML-escaped shell operators of a bash
// command in the XML tool format are decoded; nothing else is.
func TestRuleClineCommandEntities(t *testing.T) {
	checkCalls(t, "&gt; in a redirection", recoverText(t, "<bash>\n<command>ls missing 2&gt;/dev/null</command>\n</bash>"),
		call{"bash", `{"command":"ls missing 2>/dev/null"}`})
	checkCalls(t, "&amp;&amp; between commands", recoverText(t, "<bash>\n<command>go vet ./... &amp;&amp; go test ./...</command>\n</bash>"),
		call{"bash", `{"command":"go vet ./... && go test ./..."}`})
	checkCalls(t, "a plain command unchanged", recoverText(t, "<bash>\n<command>echo a && echo b</command>\n</bash>"),
		call{"bash", `{"command":"echo a && echo b"}`})
	// Near misses: other tools and other formats keep their entities.
	checkCalls(t, "near miss: HTML written to a file keeps its entities",
		recoverText(t, "<write_file>\n<path>index.html</path>\n<content>&lt;p&gt;Tom &amp; Jerry&lt;/p&gt;</content>\n</write_file>"),
		call{"write_file", `{"path":"index.html","content":"&lt;p&gt;Tom &amp; Jerry&lt;/p&gt;"}`})
	checkCalls(t, "near miss: a server call's command is as sent",
		recoverCall(t, "bash", `{"command": "echo '&gt;'"}`), call{"bash", `{"command":"echo '&gt;'"}`})
	checkCalls(t, "near miss: a Hermes call's command is as written",
		recoverText(t, "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"grep -c '&amp;' page.html\"}}\n</tool_call>"),
		call{"bash", `{"command":"grep -c '&amp;' page.html"}`})
	wantText(t, "near miss: a fenced example", recoverText(t, "Like this:\n```xml\n<bash>\n<command>ls 2&gt;/dev/null</command>\n</bash>\n```\nThat is the format."))
}

// harmony_stripped_no_recipient: the remnant of a harmony call whose
// tokens and recipient were stripped gets the no-name correction.
func TestRuleHarmonyStrippedNoRecipient(t *testing.T) {
	checkRejected(t, "assistantcode{…}", recoverText(t, `assistantcode{"path":"","pattern":"TextualDisplayView"}`), false, "no tool name")
	checkRejected(t, "assistantcommentaryjson{…}", recoverText(t, `assistantcommentaryjson{"command":"ls"}`), false, "no tool name")
	// Near misses.
	wantText(t, "near miss: prose about the assistant", recoverText(t, `assistant code: {"a": 1}`))
	wantText(t, "near miss: prose before the remnant", recoverText(t, "The server returned this:\nassistantcode{\"path\":\"\"}"))
	wantText(t, "near miss: no content type", recoverText(t, `assistant{"path": "a.go"}`))
	wantText(t, "near miss: text after the object", recoverText(t, `assistantcode{"path":"a"} and then it stopped`))
	wantText(t, "near miss: an empty object", recoverText(t, `assistantcode{}`))
	wantText(t, "near miss: a word that starts with assistant", recoverText(t, `assistantcodes{"x": 1}`))
}

// m3_leading_think_closers and minimax_wrapper_cut: M3's leading
// </mm:think> closers before its namespaced markup are dropped; a reply
// that ends right after the wrapper's opener gets the no-name correction.
func TestRuleM3LeadingThinkClosers(t *testing.T) {
	ns := "]<]minimax[>["
	checkRejected(t, "closers then a cut opener", recoverText(t, "</mm:think></mm:think>"+ns+"<tool_call>"), false, "no tool name")
	checkCalls(t, "closer then a whole M3 call",
		recoverText(t, "</mm:think>"+ns+"<tool_call>\n"+ns+"<invoke name=\"read_file\">\n"+ns+"<path>a.go"+ns+"</path>\n"+ns+"</invoke>\n"+ns+"</tool_call>"),
		call{"read_file", `{"path":"a.go"}`})
	checkRejected(t, "an M2 opener cut", recoverText(t, "Let me read it.\n<minimax:tool_call>"), false, "no tool name")
	// Near misses.
	wantText(t, "near miss: a closer before prose", recoverText(t, "</mm:think>Hello."))
	if r := recoverText(t, "</mm:think>Hello."); r.Text != "</mm:think>Hello." {
		t.Errorf("closer before prose: text %q, want it as received", r.Text)
	}
	wantText(t, "near miss: the opener named as a token", recoverText(t, "MiniMax's call token is\n<minimax:tool_call>"))
	wantText(t, "near miss: the opener inside a sentence", recoverText(t, "MiniMax opens calls with <minimax:tool_call>"))
	wantText(t, "near miss: a fenced opener", recoverText(t, "```\n<minimax:tool_call>\n```"))
	wantText(t, "near miss: a closer alone at the end", recoverText(t, "Done.]<]minimax[>[</tool_call>"))
}
