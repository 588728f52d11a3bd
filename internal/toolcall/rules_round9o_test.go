package toolcall

import "testing"

// cherry_tool_use: Cherry Studio's <tool_use><name>…</name><arguments>{…}
// </arguments></tool_use> is a call; the format explained with its
// placeholders, shown after an example lead-in, or written inside a file's
// content is not.
func TestRuleCherryToolUse(t *testing.T) {
	block := "<tool_use>\n  <name>read_file</name>\n  <arguments>{\"path\": \"README.md\"}</arguments>\n</tool_use>"
	want := []call{{"read_file", `{"path":"README.md"}`}}
	runTemplateCases(t, []templateCase{
		{label: "the block alone", content: block, want: want},
		{label: "after a sentence of intent", content: "I will read the README.\n" + block, want: want},
		{label: "no spaces, no closer line", content: "<tool_use><name>bash</name><arguments>{\"command\": \"ls\"}</arguments></tool_use>",
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "undeclared tool", content: "<tool_use>\n  <name>python_interpreter</name>\n  <arguments>{\"code\": \"1+1\"}</arguments>\n</tool_use>",
			reject: "python_interpreter"},
		{label: "missing required argument", content: "<tool_use>\n  <name>write_file</name>\n  <arguments>{\"path\": \"a.txt\"}</arguments>\n</tool_use>",
			reject: "content"},
		// Near misses.
		{label: "near miss: the format's placeholders", answer: true,
			content: "Cherry Studio's prompt asks for this:\n\n<tool_use>\n  <name>{tool_name}</name>\n  <arguments>{json_arguments}</arguments>\n</tool_use>\n\nThe name is the exact tool name."},
		{label: "near miss: shown as an example", answer: true,
			content: "A call in that format looks like this, for example:\n\n" + block + "\n\nThat is all the prompt asks for."},
		{label: "near miss: a past-tense report", answer: true,
			content: "I already ran this earlier:\n\n" + block + "\n\nThe README says the project is a terminal agent."},
		{label: "near miss: arguments that are not JSON", answer: true,
			content: "<tool_use>\n  <name>read_file</name>\n  <arguments>README.md</arguments>\n</tool_use> is how it would look."},
	})
	// A file whose content documents the format: the outer call runs once,
	// with the block kept as text.
	res := recoverText(t, "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"docs/cherry.md\", \"content\": \""+
		"<tool_use>\\n  <name>read_file</name>\\n  <arguments>{\\\"path\\\": \\\"a\\\"}</arguments>\\n</tool_use>\\n\"}}\n</tool_call>")
	if len(res.Calls) != 1 || res.Calls[0].Name != "write_file" {
		t.Fatalf("file documenting <tool_use>: got %v %v, want one write_file", res.Calls, res.Rejections)
	}
}

// smolagents_json_action: {"tool_name", "tool_arguments"} after Action: is a
// call of a declared tool; the same object holding a result, naming no
// declared tool outside markup, or shown in an example, is not.
func TestRuleSmolagentsJSONAction(t *testing.T) {
	want := []call{{"read_file", `{"path":"a.go"}`}}
	runTemplateCases(t, []templateCase{
		{label: "Action: blob", content: "Action:\n{\n  \"tool_name\": \"read_file\",\n  \"tool_arguments\": {\"path\": \"a.go\"}\n}", want: want},
		{label: "tool_args", content: "{\"tool_name\": \"read_file\", \"tool_args\": {\"path\": \"a.go\"}}", want: want},
		{label: "prose after, the model's next step", content: "Action:\n{\"tool_name\": \"read_file\", \"tool_arguments\": {\"path\": \"a.go\"}}\n\nThis action will read the file.", want: want},
		// Near misses.
		{label: "near miss: a record with its result", answer: true,
			content: "{\"tool_name\": \"read_file\", \"tool_arguments\": {\"path\": \"a.go\"}, \"result\": \"package main\"}"},
		{label: "near miss: undeclared tool outside markup", answer: true,
			content: "Action:\n{\"tool_name\": \"final_answer\", \"tool_arguments\": {\"answer\": \"42\"}}"},
		{label: "near miss: shown as an example", answer: true,
			content: "smolagents expects a blob like this, for example:\n\n{\"tool_name\": \"read_file\", \"tool_arguments\": {\"path\": \"a.go\"}}\n\nand parses it itself."},
	})
}

// litellm_format_placeholder: LiteLLM's template call object is not a call;
// a real call in the same format still runs.
func TestRuleLiteLLMFormatPlaceholder(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "the template alone", answer: true,
			content: "Adhere to this format:\n{\"name\": \"function_name\", \"arguments\":{\"argument_name\": \"argument_value\"}}\nThat is the prompt."},
		{label: "near miss: a real call in the format", content: "{\"name\": \"bash\", \"arguments\":{\"command\": \"date\"}}",
			want: []call{{"bash", `{"command":"date"}`}}},
	})
}
