package toolcall

import "testing"

// One table per rule of rule_round7c.go: what the format's parser reads,
// and near misses that must stay as they are.

func TestRuleThinkCallIsReply(t *testing.T) {
	qc := "<tool_call>\n<function=read_file>\n<parameter=path>\n/tmp/probe.txt\n</parameter>\n</function>\n</tool_call>"
	glued := "<tool_call><function=write_file><parameter=path>a.html</parameter><parameter=content>}});</parameter></function></tool_call>"
	runTemplateCases(t, []templateCase{
		{label: "call glued to the reasoning's last sentence, think never closed",
			content: "<think>I need to fix the extra brace. It should read `}});`." + glued,
			want:    []call{{"write_file", `{"path":"a.html","content":"}});"}`}}},
		{label: "call on its own lines, then </think> ends the reply",
			content: "<think>\nThe user wants me to read /tmp/probe.txt.\n" + qc + "\n</think>",
			want:    []call{{"read_file", `{"path":"/tmp/probe.txt"}`}}},
		{label: "the same after a sentence and blank lines",
			content: "Sure.\n\n<think>\nReading it.\n" + qc + "\n</think>\n\n",
			want:    []call{{"read_file", `{"path":"/tmp/probe.txt"}`}}},
		{label: "near miss: a closed think followed by an answer keeps its rehearsed call", answer: true,
			content: "<think>\nMaybe:\n" + qc + "\n</think>\nThe file is empty, nothing to read."},
		{label: "near miss: the call glued after a colon is an example", answer: true,
			content: "<think>The format looks like this:" + glued + " and I should explain it"},
		{label: "near miss: glued after a colon, think never closed", answer: true,
			content: "<think>The call would look like this:" + glued},
		{label: "near miss: glued after a word, in the middle of a sentence", answer: true,
			content: "<think>I could send" + glued},
		{label: "near miss: the reasoning refuses the call before </think>", answer: true,
			content: "<think>\nI must not run this.\n" + qc + "\n</think>"},
		{label: "near miss: a past-tense report before the glued call", answer: true,
			content: "<think>Earlier I already ran this.<tool_call><function=bash><parameter=command>ls</parameter></function></tool_call>"},
		{label: "near miss: two calls rehearsed in a closed think", answer: true,
			content: "<think>\nEither\n" + qc + "\nor\n" + qc + "\n</think>"},
		{label: "near miss: reasoning goes on after the glued call", answer: true,
			content: "<think>Let me check it." + glued + " No, ask the user first."},
	})
	// A file being written whose content shows the Qwen3.5 shape keeps it.
	runTemplateCases(t, []templateCase{
		{label: "near miss: the shape inside a file being written",
			content: "<tool_call>\n<function=write_file>\n<parameter=path>\nnotes.md\n</parameter>\n<parameter=content>\n<think>Done.<tool_call><function=bash><parameter=command>ls</parameter></function></tool_call>\n</parameter>\n</function>\n</tool_call>",
			want:    []call{{"write_file", `{"path":"notes.md","content":"<think>Done.<tool_call><function=bash><parameter=command>ls</parameter></function></tool_call>"}`}}},
	})
}

func TestRuleXMLParamNull(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "MiniMax explicit null for the required argument", reject: "command",
			content: "<minimax:tool_call><invoke name=\"bash\"><parameter name=\"command\">null</parameter></invoke></minimax:tool_call>"},
		{label: "Qwen3-Coder explicit null for the required argument", reject: "command",
			content: "<tool_call>\n<function=bash>\n<parameter=command>\nnull\n</parameter>\n</function>\n</tool_call>"},
		{label: "near miss: a value that contains the word runs",
			content: "<minimax:tool_call><invoke name=\"bash\"><parameter name=\"command\">echo null</parameter></invoke></minimax:tool_call>",
			want:    []call{{"bash", `{"command":"echo null"}`}}},
		{label: "near miss: a capitalised Null is text",
			content: "<tool_call>\n<function=write_file>\n<parameter=path>\nn.txt\n</parameter>\n<parameter=content>\nNull\n</parameter>\n</function>\n</tool_call>",
			want:    []call{{"write_file", `{"path":"n.txt","content":"Null"}`}}},
		{label: "near miss: DSML string=\"true\" keeps null as text",
			content: "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"write_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">n.txt</｜DSML｜parameter>\n<｜DSML｜parameter name=\"content\" string=\"true\">null</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>",
			want:    []call{{"write_file", `{"path":"n.txt","content":"null"}`}}},
		{label: "near miss: the JSON string \"null\" is text",
			content: "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"n.txt\", \"content\": \"null\"}}\n</tool_call>",
			want:    []call{{"write_file", `{"path":"n.txt","content":"null"}`}}},
	})
}
