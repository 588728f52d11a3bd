package toolcall

import "testing"

// generic_markup: formats no rule knows, read from the declared schemas.
// The formats below are made up on purpose (no rule names them): the
// reader must read what any call needs, not one spelling.
func TestRuleGenericMarkup(t *testing.T) {
	checkCalls(t, "a namespaced invoke with namespaced parameters",
		recoverText(t, `<acme:invoke name="read_file"><acme:parameter name="path">go.mod</acme:parameter></acme:invoke>`),
		call{"read_file", `{"path":"go.mod"}`})
	checkCalls(t, "a tag named after the tool in a prefixed namespace, after a sentence",
		recoverText(t, "Checking the module.\n<x:read_file>\n<x:path>go.mod</x:path>\n</x:read_file>"),
		call{"read_file", `{"path":"go.mod"}`})
	checkCalls(t, "the word after an unknown call token, JSON arguments",
		recoverText(t, `<|acme_tool_call|>bash<|acme_args|>{"command": "ls -la"}<|acme_tool_call_end|>`),
		call{"bash", `{"command":"ls -la"}`})
	checkCalls(t, "a name glued before a call token",
		recoverText(t, `Running them now.<|message|>bash<|invoke_tool_json|>{"name": "bash", "args": {"command": "go test ./..."}}<|end|>`),
		call{"bash", `{"command":"go test ./..."}`})
	checkCalls(t, "prefixed key and value tags",
		recoverText(t, "<acme_call>write_file<acme_arg_key>path</acme_arg_key><acme_arg_value>a.txt</acme_arg_value><acme_arg_key>content</acme_arg_key><acme_arg_value>hi\n</acme_arg_value></acme_call>"),
		call{"write_file", `{"path":"a.txt","content":"hi"}`})
	checkCalls(t, "key=value pairs after the name",
		recoverText(t, `<acme_call>bash command="grep -rn 'x y' ."</acme_call>`),
		call{"bash", `{"command":"grep -rn 'x y' ."}`})
	checkCalls(t, "two calls in one block",
		recoverText(t, `<acme:calls><acme:invoke name="read_file"><acme:parameter name="path">a.go</acme:parameter></acme:invoke><acme:invoke name="read_file"><acme:parameter name="path">b.go</acme:parameter></acme:invoke></acme:calls>`),
		call{"read_file", `{"path":"a.go"}`}, call{"read_file", `{"path":"b.go"}`})
	checkCalls(t, "the name and the arguments in their own elements",
		recoverText(t, "<acme_call>\n<name>bash</name>\n<arguments>{\"command\": \"ls\"}</arguments>\n</acme_call>"),
		call{"bash", `{"command":"ls"}`})
	checkCalls(t, "the name in a tag, the arguments after its closer",
		recoverText(t, "<tool_call>\n<function>bash</function>\n{\"command\": \"ls\"}\n</tool_call>"),
		call{"bash", `{"command":"ls"}`})
	checkRejected(t, "a call with no value for its required argument is corrected",
		recoverText(t, `<acme:invoke name="bash"></acme:invoke>`), false, "command")
	checkRejected(t, "a value cut: corrected, not run",
		recoverText(t, `<acme:invoke name="bash"><acme:parameter name="command">rm -rf buil`), true, "")
	checkRejected(t, "tokens only: the call has no name",
		recoverText(t, "<|acme_tool_calls_begin|> <|acme_tool_call_end|> <|acme_tool_calls_end|>"), false, "no tool name")
	checkRejected(t, "the arguments of one tool alone in call markup: no name",
		recoverText(t, `<|acme_tool_call|>{"url": "https://example.com"}<|acme_tool_call_end|>`), false, "no tool name")

	// Near misses: nothing runs, no correction.
	for _, c := range []struct{ label, text string }{
		{"a format shown after a lead-in", "An Acme call looks like this:\n<acme:invoke name=\"bash\"><acme:parameter name=\"command\">ls</acme:parameter></acme:invoke>"},
		{"inside a sentence", "Acme writes <acme:invoke name=\"bash\"><acme:parameter name=\"command\">ls</acme:parameter></acme:invoke> for its calls."},
		{"prose after the markup", "<acme:invoke name=\"bash\"><acme:parameter name=\"command\">ls</acme:parameter></acme:invoke>\n\nThat is what Acme emits."},
		{"in a fence", "```\n<acme:invoke name=\"bash\"><acme:parameter name=\"command\">ls</acme:parameter></acme:invoke>\n```"},
		{"in inline code", "`<acme:invoke name=\"bash\"><acme:parameter name=\"command\">ls</acme:parameter></acme:invoke>`"},
		{"inside reasoning", "<think><acme:invoke name=\"bash\"><acme:parameter name=\"command\">ls</acme:parameter></acme:invoke></think>Nothing to do."},
		{"an undeclared tool", "<acme:invoke name=\"get_weather\"><acme:parameter name=\"city\">Paris</acme:parameter></acme:invoke>"},
		{"a key of no parameter", "<acme_call>read_file file=go.mod</acme_call>"},
		{"text between the values", "<acme_call>read_file<acme_arg_key>path</acme_arg_key><acme_arg_value>a.go</acme_arg_value> and then more</acme_call>"},
		{"an XML answer whose tags are no tools", "<config>\n<path>/etc/app</path>\n<command>start</command>\n</config>"},
		{"prose in a call marker", "<|acme_tool_call|>I can't browse the web.<|acme_tool_call_end|>"},
		{"an empty call list", "<|acme_tool_call|>[]<|acme_tool_call_end|>"},
		{"an opener alone after a sentence that names it", "The opener Acme writes before its calls is:\n<|acme_tool_calls_begin|>"},
	} {
		wantText(t, "near miss: "+c.label, recoverText(t, c.text))
	}
	checkCalls(t, "near miss: a file being written that holds the markup",
		recoverCall(t, "write_file", `{"path": "f.xml", "content": "<acme:invoke name=\"bash\"><acme:parameter name=\"command\">ls</acme:parameter></acme:invoke>"}`),
		call{"write_file", `{"path":"f.xml","content":"<acme:invoke name=\"bash\"><acme:parameter name=\"command\">ls</acme:parameter></acme:invoke>"}`})
}
