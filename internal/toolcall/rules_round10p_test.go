package toolcall

import "testing"

// olmo3_call_lines: every line of an OLMo 3 <function_calls> block is a
// call; anything else in the block leaves the one-call reading.
func TestRuleOlmo3CallLines(t *testing.T) {
	two := []call{{"bash", `{"command":"go test ./..."}`}, {"read_file", `{"path":"go.mod"}`}}
	checkCalls(t, "two lines", recoverText(t, "<function_calls>bash(command='go test ./...')\nread_file(path='go.mod')</function_calls>"), two...)
	checkCalls(t, "two lines, tags on their own lines", recoverText(t, "<function_calls>\nbash(command='go test ./...')\nread_file(path='go.mod')\n</function_calls>"), two...)
	checkCalls(t, "prose before the block", recoverText(t, "Let me run the tests.<function_calls>bash(command='go test ./...')\nread_file(path='go.mod')</function_calls>"), two...)
	checkCalls(t, "three lines, no closing tag", recoverText(t, "<function_calls>bash(command='go test ./...')\nread_file(path='go.mod')\nread_file(path='go.sum')"),
		append(two, call{"read_file", `{"path":"go.sum"}`})...)
	res := recoverText(t, "<function_calls>bad(x=b'z')\nread_file(path='README.md')</function_calls>")
	checkCalls(t, "an unreadable sibling", res, call{"read_file", `{"path":"README.md"}`})
	if len(res.Rejections) != 1 {
		t.Errorf("an unreadable sibling: rejections %v, want one", res.Rejections)
	}
	res = recoverText(t, "<function_calls>read_file(path='README.md')\nweb_search(query='go')</function_calls>")
	checkCalls(t, "an undeclared sibling", res, call{"read_file", `{"path":"README.md"}`})
	if len(res.Rejections) != 1 {
		t.Errorf("an undeclared sibling: rejections %v, want one", res.Rejections)
	}
	// Near misses.
	checkCalls(t, "near miss: one call is read as before", recoverText(t, "<function_calls>read_file(path='go.mod')</function_calls>"), call{"read_file", `{"path":"go.mod"}`})
	wantText(t, "near miss: prose quoting the block", recoverText(t, "OLMo 3 writes `<function_calls>bash(command='ls')\nread_file(path='go.mod')</function_calls>` for two calls."))
	wantText(t, "near miss: a fenced example", recoverText(t, "Its calls look like this:\n\n```\n<function_calls>bash(command='ls')\nread_file(path='go.mod')</function_calls>\n```\n"))
	checkCalls(t, "near miss: a file being written that holds the block",
		recoverCall(t, "write_file", `{"path": "olmo.txt", "content": "<function_calls>bash(command='ls')\nread_file(path='go.mod')</function_calls>"}`),
		call{"write_file", `{"path":"olmo.txt","content":"<function_calls>bash(command='ls')\nread_file(path='go.mod')</function_calls>"}`})
	checkCalls(t, "near miss: prose on the next line stays text",
		recoverText(t, "<function_calls>bash(command='go test ./...')\nthen I will read go.mod</function_calls>"), call{"bash", `{"command":"go test ./..."}`})
	checkCalls(t, "near miss: another wrapper is not OLMo's",
		recoverText(t, "<tool_call>bash(command='go test ./...')\nnot a call here</tool_call>"), call{"bash", `{"command":"go test ./..."}`})
	res = recoverText(t, "<function_calls>bash(command='go test ./...')\nread_file(path='go.m")
	checkCalls(t, "near miss: a cut second call does not run", res, call{"bash", `{"command":"go test ./..."}`})
	if len(res.Rejections) != 1 {
		t.Errorf("a cut second call: rejections %v, want one", res.Rejections)
	}
}

// string_arguments_not_body: a plain string as "arguments" of a
// {"name", "arguments"} object in the text is corrected, not guessed into
// the tool's one argument.
func TestRuleStringArgumentsNotBody(t *testing.T) {
	checkRejected(t, "LongCat block", recoverText(t, `<longcat_tool_call>{"name": "read_file", "arguments": "not a dict"}</longcat_tool_call>`), false, "path")
	checkRejected(t, "Hermes block", recoverText(t, `<tool_call>{"name": "bash", "arguments": "ls -la"}</tool_call>`), false, "command")
	checkRejected(t, "bare object", recoverText(t, `{"name": "read_file", "arguments": "README.md"}`), false, "JSON object")
	checkRejected(t, "in a list", recoverText(t, `<tool_calls>[{"name": "bash", "arguments": "uname -a"}]</tool_calls>`), false, "command")
	// Near misses: the forms where a string is the argument by definition.
	checkCalls(t, "near miss: a server call's raw arguments text", recoverCall(t, "bash", `git status --short`), call{"bash", `{"command":"git status --short"}`})
	checkCalls(t, "near miss: JSON encoded in the string", recoverText(t, `<tool_call>{"name": "read_file", "arguments": "{\"path\": \"go.mod\"}"}</tool_call>`), call{"read_file", `{"path":"go.mod"}`})
	checkCalls(t, "near miss: LangChain's action_input", recoverText(t, `{"action": "bash", "action_input": "ls -la"}`), call{"bash", `{"command":"ls -la"}`})
	wantText(t, "near miss: prose quoting the object", recoverText(t, "A malformed call looks like `{\"name\": \"read_file\", \"arguments\": \"not a dict\"}`: the arguments are a string."))
	wantText(t, "near miss: a fenced example in another language", recoverText(t, "Bad:\n\n```python\nbad = {\"name\": \"read_file\", \"arguments\": \"not a dict\"}\n```\n"))
	// A ```json fence holding the object is a call attempt (fenced_json):
	// corrected now, never run.
	checkRejected(t, "near miss: a json fence", recoverText(t, "```json\n{\"name\": \"read_file\", \"arguments\": \"not a dict\"}\n```\n"), false, "path")
	// An undeclared name: nothing runs, as before.
	checkCalls(t, "near miss: an undeclared tool", recoverText(t, `{"name": "Tokyo", "arguments": "none"}`))
}

// unreadable_call_block: a whole reply that is one <tool_call> block of
// plain words is a call attempt that could not be read.
func TestRuleUnreadableCallBlock(t *testing.T) {
	checkRejected(t, "the Ollama test's block", recoverText(t, "<tool_call>not valid xml</tool_call>"), false, "tools are")
	checkRejected(t, "after a think block", recoverText(t, "<think>\nI should look.\n</think>\n\n<tool_call>read the file please</tool_call>"), false, "tools are")
	// Near misses.
	wantText(t, "near miss: after prose", recoverText(t, "Ollama returns the body of\n<tool_call>not valid xml</tool_call>"))
	wantText(t, "near miss: a placeholder", recoverText(t, "<tool_call>...</tool_call>"))
	wantText(t, "near miss: a placeholder in words", recoverText(t, "<tool_call>your call goes here …</tool_call>"))
	wantText(t, "near miss: a fenced example", recoverText(t, "```\n<tool_call>not valid xml</tool_call>\n```"))
	wantText(t, "near miss: inline code", recoverText(t, "`<tool_call>not valid xml</tool_call>`"))
	wantText(t, "near miss: an unclosed think block", recoverText(t, "<think>\n<tool_call>not valid xml</tool_call>"))
	checkCalls(t, "near miss: a file being written that holds it",
		recoverCall(t, "write_file", `{"path": "t.txt", "content": "<tool_call>not valid xml</tool_call>"}`),
		call{"write_file", `{"path":"t.txt","content":"<tool_call>not valid xml</tool_call>"}`})
}
