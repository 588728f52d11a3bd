package toolcall

import "testing"

// One table per rule of round 5b (rule_round5b.go and the rules it extends):
// what the format's parser reads, and near misses that must stay as they are.

func TestRuleGLMValueNoKey(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "values without <arg_key>, declared tool", reject: "command",
			content: "<tool_call>bash\n<arg_value>ls -la</arg_value></tool_call>"},
		{label: "two values without keys, on the reply's last lines", reject: "path",
			content: "I'll write it.\n<tool_call>write_file\n<arg_value>a.txt</arg_value>\n<arg_value>hi</arg_value>\n</tool_call>"},
		{label: "near miss: keys present, a real call",
			content: "<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>",
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: the markup in a sentence", answer: true,
			content: "GLM writes <tool_call>bash <arg_value>ls</arg_value></tool_call> when it forgets the key, which vLLM drops."},
	})
	ts := newToolset(toolsFor(t, "bash", "read_file"))
	if _, ok := glmValueNoKey("<tool_call>grep\n<arg_value>x</arg_value></tool_call>", ts); ok {
		t.Errorf("an undeclared name must not be read by this rule")
	}
}

func TestRuleHarmonyHeaderNoMessage(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "words after <|constrain|>, no message", reject: "path",
			content: "<|channel|>commentary to=functions.write_file <|constrain|>write: edit file with content.<|end|>"},
		{label: "after an analysis message, recipient in the role", reject: "command",
			content: "<|channel|>analysis<|message|>Run the tests.<|end|><|start|>assistant to=functions.bash<|channel|>commentary <|constrain|>json<|end|>"},
		{label: "near miss: the complete call runs",
			content: "<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{\"command\":\"ls\"}<|call|>",
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: the header described in prose", answer: true,
			content: "The header reads to=functions.bash and is followed by the message token."},
	})
	ts := newToolset(toolsFor(t, "bash"))
	for _, s := range []string{
		"<|channel|>commentary to=functions.grep <|constrain|>json<|end|>",                                                          // no such tool
		"<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{}<|end|>",                                             // a message follows
		"<|channel|>final<|message|>Done.<|end|><|start|>assistant<|channel|>commentary to=functions.bash <|constrain|>json<|end|>", // a final message before it
	} {
		if _, ok := harmonyHeaderNoMessage(s, ts); ok {
			t.Errorf("near miss %q read as a header", s)
		}
	}
}

func TestRuleQwen3CoderParamsInWrapper(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "parameters in <tool_call> without <function=>", reject: "no tool name",
			content: "<tool_call>\n<parameter=command>\nnpm test\n</parameter>\n</tool_call>"},
		{label: "near miss: the function block is there",
			content: "<tool_call>\n<function=bash>\n<parameter=command>\nnpm test\n</parameter>\n</function>\n</tool_call>",
			want:    []call{{"bash", `{"command":"npm test"}`}}},
		{label: "near miss: a parameter tag named in a sentence", answer: true,
			content: "Wrap each value as <parameter=command>…</parameter> inside the call, then close it with </tool_call>"},
	})
}

func TestRuleProseInCallWrapper(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "narration inside the wrapper", reject: "no tool name",
			content: "<tool_call>\nI'll run the test suite to see which tests fail.\n</tool_call>"},
		{label: "near miss: the wrapper in a sentence", answer: true,
			content: "Put the call between <tool_call> and </tool_call>"},
		{label: "near miss: inline wrapper with words, not on its own lines", answer: true,
			content: "The tags look like <tool_call>your call here</tool_call>"},
		{label: "near miss: a Hermes call inside runs",
			content: "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>",
			want:    []call{{"bash", `{"command":"ls"}`}}},
	})
}

func TestRuleQwenTemplateExample(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "the template's example call is shown, not made", answer: true,
			content: "<tool_call>\n<function=example_function_name>\n<parameter=example_parameter_1>\nvalue_1\n</parameter>\n</function>\n</tool_call>"},
		{label: "near miss: an unknown tool is still corrected", reject: "example_function",
			content: "<tool_call>\n<function=example_function>\n<parameter=x>\n1\n</parameter>\n</function>\n</tool_call>"},
	})
}

func TestRuleShownLikeThis(t *testing.T) {
	dsml := "```text\n<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"bash\">\n<｜DSML｜parameter name=\"command\" string=\"true\">ls</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>\n```"
	runTemplateCases(t, []templateCase{
		{label: "what the UI shows", answer: true,
			content: "If your UI shows something like this, the provider did not parse it:\n\n" + dsml},
		{label: "a lead-in ending in 'as in:'", answer: true,
			content: "The parser assumes every call has arguments, as in:\n\n```\n<tool_call>bash\n<arg_key>command</arg_key>\n<arg_value>ls</arg_value>\n</tool_call>\n```"},
		{label: "near miss: let me try something like this (a call)",
			content: "Let me try something like this:\n\n" + dsml,
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: 'as in' inside the sentence (a call)",
			content: "I'll list the files, as in the last step, to check the build:\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>",
			want:    []call{{"bash", `{"command":"ls"}`}}},
	})
}
