package toolcall

import "testing"

// Continue's tool code block (rule_continue.go), beside near misses.
func TestRuleContinueToolBlock(t *testing.T) {
	block := "```tool\nTOOL_NAME: read_file\nBEGIN_ARG: filepath\nsrc/main.go\nEND_ARG\n```"
	runTemplateCases(t, []templateCase{
		{label: "the block alone", content: block, want: []call{{"read_file", `{"path":"src/main.go"}`}}},
		{label: "after a lead-in", content: "I'll read the entry point first.\n\n" + block, want: []call{{"read_file", `{"path":"src/main.go"}`}}},
		{label: "two arguments, a multi-line value", content: "```tool\nTOOL_NAME: write_file\nBEGIN_ARG: filepath\nnotes.md\nEND_ARG\nBEGIN_ARG: content\n# Notes\n\n- one\nEND_ARG\n```",
			want: []call{{"write_file", `{"path":"notes.md","content":"# Notes\n\n- one"}`}}},
		{label: "two blocks", content: block + "\n\n```tool\nTOOL_NAME: bash\nBEGIN_ARG: command\ngo vet ./...\nEND_ARG\n```",
			want: []call{{"read_file", `{"path":"src/main.go"}`}, {"bash", `{"command":"go vet ./..."}`}}},
		{label: "an undeclared tool", content: "```tool\nTOOL_NAME: create_new_file\nBEGIN_ARG: filepath\na.txt\nEND_ARG\n```", reject: "create_new_file"},
		// Near misses.
		{label: "near miss: the syntax explained", answer: true, content: "Continue's tools are written like this:\n\n" + block + "\n\nThat is only the syntax; I haven't read anything."},
		{label: "near miss: the keywords named in the lead-in", answer: true, content: "The tool is called with TOOL_NAME: read_file, then the argument block:\n\n" + block},
		{label: "near miss: a pair left open", answer: true, content: "```tool\nTOOL_NAME: read_file\nBEGIN_ARG: filepath\nsrc/main.go\n```"},
		{label: "near miss: other text in the block", answer: true, content: "```tool\nTOOL_NAME: read_file\nthe file to read is src/main.go\n```"},
		{label: "near miss: inside a sentence", answer: true, content: "Write ```tool\nTOOL_NAME: read_file\nBEGIN_ARG: filepath\nsrc/main.go\nEND_ARG\n``` to call it."},
	})
}
