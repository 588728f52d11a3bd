package toolcall

import "testing"

// hermes_call_after_arguments: whole Hermes blocks after a server call's
// complete arguments object are the model's next calls; anything else after
// the object stays junk, and a block inside a JSON string is data.
func TestRuleHermesCallAfterArguments(t *testing.T) {
	block := "\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"go build ./...\"}}\n</tool_call>"
	first := call{"read_file", `{"path":"go.mod"}`}
	checkCalls(t, "a Hermes block after the object", recoverCall(t, "read_file", `{"path": "go.mod"}`+block),
		first, call{"bash", `{"command":"go build ./..."}`})
	checkCalls(t, "two blocks after the object",
		recoverCall(t, "read_file", `{"path": "go.mod"}`+block+"\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"go.sum\"}}\n</tool_call>"),
		first, call{"bash", `{"command":"go build ./..."}`}, call{"read_file", `{"path":"go.sum"}`})
	// Near misses.
	checkCalls(t, "near miss: prose after the block", recoverCall(t, "read_file", `{"path": "go.mod"}`+block+"\nThen I will report the result."), first)
	checkCalls(t, "near miss: the block names no declared tool",
		recoverCall(t, "read_file", `{"path": "go.mod"}`+"\n<tool_call>\n{\"name\": \"web_search\", \"arguments\": {\"query\": \"go build\"}}\n</tool_call>"), first)
	checkCalls(t, "near miss: a cut block", recoverCall(t, "read_file", `{"path": "go.mod"}`+"\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"go b"), first)
	checkCalls(t, "near miss: a fenced example after the object",
		recoverCall(t, "read_file", `{"path": "go.mod"}`+"\n```\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>\n```"), first)
	checkCalls(t, "near miss: a file whose content documents the block",
		recoverCall(t, "write_file", `{"path": "docs/format.md", "content": "A call:\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>\n"}`),
		call{"write_file", `{"path":"docs/format.md","content":"A call:\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>\n"}`})
}

// empty_naming_argument: a required argument that names something, sent
// empty, is missing; free text may be empty.
func TestRuleEmptyNamingArgument(t *testing.T) {
	checkRejected(t, "empty path (Path)", recoverCall(t, "read_file", `{"Path": ""}`), false, "path")
	checkRejected(t, "blank command", recoverCall(t, "bash", `{"command": "   "}`), false, "command")
	checkRejected(t, "empty url in a text call", recoverText(t, "<tool_call>\n{\"name\": \"fetch_content\", \"arguments\": {\"url\": \"\"}}\n</tool_call>"), false, "url")
	// Near misses: free text may be empty, and a real value runs.
	checkCalls(t, "near miss: an empty file written", recoverCall(t, "write_file", `{"path": "empty.txt", "content": ""}`),
		call{"write_file", `{"path":"empty.txt","content":""}`})
	checkCalls(t, "near miss: text deleted by an edit", recoverCall(t, "edit_file", `{"path": "a.go", "edits": [{"old": "x := 1\n", "new": ""}]}`),
		call{"edit_file", `{"path":"a.go","edits":[{"old":"x := 1\n","new":""}]}`})
	checkCalls(t, "near miss: the current directory", recoverCall(t, "bash", `{"command": "ls ."}`), call{"bash", `{"command":"ls ."}`})
}
