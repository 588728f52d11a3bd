package toolcall

import "testing"

// One table per rule of rule_round3a.go: what the format's parser or
// template reads, and near misses that must stay text.

func TestRuleGemmaColonArgs(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "key: value in the paren form", content: `<|tool_call>call:bash(command: "ls -la")<tool_call|>`,
			want: []call{{"bash", `{"command":"ls -la"}`}}},
		{label: "two keys, mixed quotes, no closer", content: `<|tool_call>call:read_file(path: 'a.go', start: 3)`,
			want: []call{{"read_file", `{"path":"a.go","start":3}`}}},
		{label: "unknown tool", content: `<|tool_call>call:search(query: "go")<tool_call|>`,
			reject: "search"},
		{label: "near miss: in a sentence", answer: true,
			content: `Gemma writes call:bash(command: "ls") when it forgets the braces.`},
	})
}

func TestRuleNamedCallWrapper(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "name attribute, JSON body", content: "<tool_call id=\"call_00_x\" name=\"read_file\">\n{\"path\":\"go.mod\",\"end\":80}\n</tool_call>",
			want: []call{{"read_file", `{"path":"go.mod","end":80}`}}},
		{label: "name attribute, parameter tags", content: "<tool_call name=\"bash\">\n<parameter name=\"command\">ls</parameter>\n</tool_call>",
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "unknown tool", content: "<tool_call name=\"wechat_send\">\n{\"to\":\"me\"}\n</tool_call>",
			reject: "wechat_send"},
		{label: "near miss: in inline code", answer: true,
			content: "The tag `<tool_call name=\"bash\">{\"command\":\"ls\"}</tool_call>` is what DeepSeek V4 sometimes writes."},
		{label: "near miss: name attribute around prose", answer: true,
			content: "<tool_call name=\"bash\">I would list the files here.</tool_call>"},
	})
}

func TestRuleParamOpenerMissing(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "body then </parameter></function>", content: "<tool_call><function=bash>ls -la\n</parameter></function></tool_call>",
			want: []call{{"bash", `{"command":"ls -la"}`}}},
		{label: "near miss: two parameter closers, no names", content: "<function=write_file>a</parameter>b</parameter></function>",
			reject: "write_file"},
	})
}

func TestRuleFunctionKeyCall(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "function names the tool inside the envelope", content: `{"tool_calls": [{"function": "bash", "args": {"command": "ls"}}]}`,
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "unknown tool inside the envelope", content: "{\n\"tool_calls\": [\n{\n\"function\": \"tool_code\",\n\"args\": {\n\"code\": \"print(1)\"\n}\n}\n]\n}",
			reject: "tool_code"},
		{label: "near miss: the same object outside the envelope", answer: true,
			content: `The job is {"function": "bash", "args": {"command": "ls"}} in the queue.`},
	})
}

func TestRuleMinimaxOpenerLost(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "parameters and closers, no invoke", content: "[Calling tool: search_files]\n<parameter name=\"path\">/tmp</parameter>\n<parameter name=\"pattern\">x</parameter>\n</invoke>\n</minimax:tool_call>",
			reject: "no tool name"},
		{label: "near miss: the closers named in a sentence", answer: true,
			content: "MiniMax ends each call with </invoke> and then </minimax:tool_call>."},
		{label: "near miss: closers not at the end", answer: true,
			content: "<parameter name=\"path\">/tmp</parameter>\n</invoke>\nThat is how the block ends."},
	})
}

func TestRuleValueToMessageEnd(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "unclosed last value before blank lines", content: "<function=write_file>\n<parameter=path> a.txt\n<parameter=content> hello\n\n",
			want: []call{{"write_file", `{"path":"a.txt","content":"hello"}`}}},
	})
}
