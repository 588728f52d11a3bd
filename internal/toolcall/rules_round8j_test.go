package toolcall

import "testing"

// One table per rule of rule_round8j.go: what the format's parser reads,
// and near misses that must stay as they are.

func TestRuleHarmonyNamespacedRecipient(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "two namespaces before the tool",
			content: "<|channel|>commentary to=api.fs.read_file<|constrain|>json<|message|>{\"path\": \"go.mod\"}<|call|>",
			want:    []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "three namespaces, no constrain",
			content: "<|start|>assistant<|channel|>commentary to=tools.shell.v1.bash<|message|>{\"command\": \"ls\"}<|call|>",
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: a built-in's namespace path that names no tool",
			content: "<|channel|>commentary to=browser.page.open<|constrain|>json<|message|>{\"path\": \"x\"}<|call|>",
			reject:  "open"},
		{label: "near miss: the header quoted in a sentence", answer: true,
			content: "A nested recipient looks like `<|channel|>commentary to=api.fs.read_file<|message|>{\"path\": \"go.mod\"}<|call|>` in the logs."},
		{label: "near miss: the recipient in a file being written",
			content: "<|channel|>commentary to=functions.write_file<|constrain|>json<|message|>{\"path\": \"h.md\", \"content\": \"to=api.fs.read_file<|message|>{}\"}<|call|>",
			want:    []call{{"write_file", `{"path":"h.md","content":"to=api.fs.read_file<|message|>{}"}`}}},
	})
	ts := newToolset(toolsFor(t, "bash", "read_file"))
	for _, r := range []string{"functions.read_file", "read_file", "api.read_file", "api.fs.open", "api.fs.Read_File", "api..read_file", "a-b.c.read_file"} {
		if got := harmonyNamespacedRecipient(ts, r); got != "" {
			t.Errorf("%q read as %q, want no rewrite", r, got)
		}
	}
}

func TestRuleDevstralSpacedArgs(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "spaces around the name",
			content: "Reasoning before tool call [TOOL_CALLS] read_file [ARGS]{\"path\":\"a.txt\"}",
			want:    []call{{"read_file", `{"path":"a.txt"}`}}},
		{label: "a tab before [CALL_ID]",
			content: "[TOOL_CALLS]bash\t[CALL_ID]abc123XYZ[ARGS]{\"command\": \"ls\"}",
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: words between the name and [ARGS]", answer: true,
			content: "[TOOL_CALLS] read_file is the tool; its [ARGS] marker takes {\"path\": \"a.txt\"} in the docs."},
		{label: "near miss: a line break between the name and [ARGS]",
			content: "[TOOL_CALLS] read_file\n[ARGS]{\"path\":\"a.txt\"}",
			want:    nil},
		{label: "near miss: the spaced call shown in backticks", answer: true,
			content: "Devstral sometimes writes `[TOOL_CALLS] read_file [ARGS]{\"path\":\"a.txt\"}` with spaces; the server still parses it."},
	})
	for _, s := range []string{"read_file[ARGS]", "read_file  x [ARGS]", "read_file\n[ARGS]", "read_file"} {
		q := len("read_file")
		if got := devstralSpacedArgs(s, q); got != q {
			t.Errorf("%q: marker read at %d, want %d", s, got, q)
		}
	}
}

func TestRuleDevstralEmptyArgs(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "[ARGS] then </s>: no arguments, the missing one named",
			content: "Reasoning before tool call [TOOL_CALLS]read_file[ARGS]</s>",
			reject:  "path"},
		{label: "[ARGS] then a space and </s>",
			content: "[TOOL_CALLS]bash[ARGS] </s>\n",
			reject:  "command"},
	})
	for _, s := range []string{
		"[TOOL_CALLS]read_file[ARGS]",                      // cut by the limit: no </s>
		"[TOOL_CALLS]read_file[ARGS]{\"path\": \"a\"}</s>", // arguments present
		"The marker [ARGS] ends here.</s>",                 // </s> after prose, not after [ARGS]
		"[ARGS]</s> is what an empty call looks like",      // </s> not at the end
		"plain text</s>",
	} {
		if got := devstralEmptyArgs(s); got != s {
			t.Errorf("%q rewritten to %q", s, got)
		}
	}
}
