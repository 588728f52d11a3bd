package toolcall

import "testing"

// One table per rule of rule_round8g.go: what the format's parser reads,
// and near misses that must stay as they are.

func TestRuleSeedToolCallWrapper(t *testing.T) {
	const seedCall = "<seed:tool_call>\n<function=bash>\n<parameter=command>\nls -la\n</parameter>\n</function>\n</seed:tool_call>"
	runTemplateCases(t, []templateCase{
		{label: "a Seed-OSS call", content: seedCall, want: []call{{"bash", `{"command":"ls -la"}`}}},
		{label: "a Seed-OSS call after its reasoning",
			content: "<seed:think>List the files.</seed:think>" + seedCall,
			want:    []call{{"bash", `{"command":"ls -la"}`}}},
		{label: "a lead-in of the model's own before the call",
			content: "I'll list the directory.\n" + seedCall,
			want:    []call{{"bash", `{"command":"ls -la"}`}}},
		{label: "near miss: the format described, the model as a third party", answer: true,
			content: "The model writes:\n\n```xml\n" + seedCall + "\n```\n\nso the parser only swaps the wrapper."},
		{label: "near miss: the same without a fence", answer: true,
			content: "The model writes:\n\n" + seedCall + "\n\nso the parser only swaps the wrapper."},
		{label: "near miss: a call rehearsed in reasoning", answer: true,
			content: "<seed:think>The format would be " + seedCall + " but the user only asked about ls.</seed:think>ls lists files."},
	})
}

func TestRuleEncodedArgumentsObject(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "Kimi arguments as a JSON string",
			content: `<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>"{\"path\": \"a.go\"}"<|tool_call_end|><|tool_calls_section_end|>`,
			want:    []call{{"read_file", `{"path":"a.go"}`}}},
		{label: "Hermes arguments as a JSON string",
			content: `<tool_call>{"name":"bash","arguments":"{\"command\":\"ls\"}"}</tool_call>`,
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: a JSON string that is no object",
			content: `<|tool_calls_section_begin|><|tool_call_begin|>functions.write_file:0<|tool_call_argument_begin|>"[\"a\", \"b\"]"<|tool_call_end|><|tool_calls_section_end|>`,
			reject:  "must be a JSON object"},
		{label: "near miss: the encoded object cut", reject: "not valid JSON",
			content: `<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>"{\"path\": \"a.go\""<|tool_call_end|><|tool_calls_section_end|>`},
		{label: "near miss: the same markup shown in an explanation", answer: true,
			content: "Kimi sometimes double-encodes, for example:\n\n```\n<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>\"{\\\"path\\\": \\\"a.go\\\"}\"<|tool_call_end|><|tool_calls_section_end|>\n```\n\nThe client has to decode it twice."},
	})
	for _, s := range []string{`"ls -la"`, `"{"`, `{"path":"a"}`, `"{\"a\":1} extra"`, `"{\"a\":1}`} {
		if _, ok := encodedObject(s); ok {
			t.Errorf("%s decoded as an encoded object", s)
		}
	}
}

func TestRuleXMLJSONStringValue(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "Qwen3-Coder value as a JSON literal",
			content: "<tool_call>\n<function=read_file>\n<parameter=path>\n\"docs/a.md\"\n</parameter>\n</function>\n</tool_call>",
			want:    []call{{"read_file", `{"path":"docs/a.md"}`}}},
		{label: "GLM value as a JSON literal",
			content: "<tool_call>bash<arg_key>command</arg_key><arg_value>\"git status\"</arg_value></tool_call>",
			want:    []call{{"bash", `{"command":"git status"}`}}},
		{label: "near miss: a file's text keeps its quotes",
			content: "<tool_call>\n<function=write_file>\n<parameter=path>\nq.txt\n</parameter>\n<parameter=content>\n\"hello\"\n</parameter>\n</function>\n</tool_call>",
			want:    []call{{"write_file", `{"path":"q.txt","content":"\"hello\""}`}}},
		{label: "near miss: a command with two quoted words is shell, not JSON",
			content: "<tool_call>bash<arg_key>command</arg_key><arg_value>\"a\" \"b\"</arg_value></tool_call>",
			want:    []call{{"bash", `{"command":"\"a\" \"b\""}`}}},
		{label: "near miss: a Windows path that is no JSON string",
			content: "<tool_call>bash<arg_key>command</arg_key><arg_value>\"C:\\Program Files\\x.exe\"</arg_value></tool_call>",
			want:    []call{{"bash", `{"command":"\"C:\\Program Files\\x.exe\""}`}}},
	})
}

func TestRuleM3ElementsOpenerLost(t *testing.T) {
	const ns = minimaxNS
	runTemplateCases(t, []templateCase{
		{label: "M3 elements and the closer, the opener lost",
			content: ns + ns + "<initial_wait>10" + ns + "</initial_wait>" + ns + "\n" + ns + "</tool_call>",
			reject:  "no tool name"},
		{label: "without the tokens, with </invoke>",
			content: "<path>a.go</path>\n</invoke>\n</minimax:tool_call>",
			reject:  "no tool name"},
		{label: "M3 fragment after the model's prose",
			content: "Waiting first.\n" + ns + ns + "<initial_wait>10" + ns + "</initial_wait>" + ns + "\n" + ns + "</tool_call>",
			reject:  "no tool name"},
		{label: "near miss: M3 tokens inside a JSON call's file text",
			content: "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"m.md\", \"content\": \"" + ns + "<path>a</path>" + ns + "</tool_call>\"}}\n</tool_call>",
			want:    []call{{"write_file", `{"path":"m.md","content":"` + ns + `<path>a</path>` + ns + `</tool_call>"}`}}},
		{label: "near miss: prose before the closer", answer: true,
			content: "The block ends with <path>a.go</path> and then </tool_call>"},
		{label: "near miss: elements without a closer (an XML answer)", answer: true,
			content: "<path>a.go</path>\n<line>3</line>"},
		{label: "near miss: an element holding markup", answer: true,
			content: "<note><b>x</b></note>\n</tool_call>"},
	})
}

func TestRuleQuotesReport(t *testing.T) {
	const dsml = "<function_calls>\n<invoke name=\"bash\">\n<parameter name=\"command\" string=\"true\">ls</parameter>\n</invoke>\n</function_calls>"
	runTemplateCases(t, []templateCase{
		{label: "a bug report quoted", answer: true,
			content: "The bug report says the message body renders this as plain text:\n\n```\n" + dsml + "\n```\n\nThe client never runs it."},
		{label: "an issue quoted, no fence", answer: true,
			content: "The issue shows:\n\n" + dsml},
		{label: "near miss: the model's own step after a report", want: []call{{"bash", `{"command":"ls"}`}},
			content: "The log says I should list the files first:\n\n" + dsml},
		{label: "near miss: the model's call with no quoting lead-in", want: []call{{"bash", `{"command":"ls"}`}},
			content: "Listing the files:\n\n" + dsml},
	})
}

func TestRuleHalfQuotedBare(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "a value that lost its opening quote",
			content: "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": src/a.go\"}}\n</tool_call>",
			reject:  "lost its opening quote"},
		{label: "near miss: an unquoted value without quotes is still read",
			content: "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": src/a.go}}\n</tool_call>",
			want:    []call{{"read_file", `{"path":"src/a.go"}`}}},
		{label: "near miss: quotes paired inside an unquoted command",
			content: "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": grep \"x\" a.go}}\n</tool_call>",
			want:    []call{{"bash", `{"command":"grep \"x\" a.go"}`}}},
	})
}
