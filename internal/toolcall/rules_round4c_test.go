package toolcall

import "testing"

// Tables for the rules written for widened-threads-round4c.jsonl: what the
// format's parser reads, and near misses that must stay text.

func TestRuleQwenHybridFrame(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "function=NAME key, Hermes arguments", content: "<tool_call>\n{\"function=fetch_content\",\"arguments\":{\"url\":\"https://go.dev\"}}\n</tool_call>",
			want: []call{{"fetch_content", `{"url":"https://go.dev"}`}}},
		{label: "function=NAME key with spaces, prose before", content: "Let me read it.\n<tool_call>\n{ \"function=read_file\", \"arguments\": {\"path\": \"go.mod\"} }\n</tool_call>",
			want: []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "quote moved: name known, arguments unreadable", content: "<tool_call>\n{\"function=\"bash\", \"arguments=\"cmd=\"ls\"}}\n</tool_call>",
			reject: "bash"},
		{label: "name= head, arguments cut", content: "<tool_call>\n{\"name=\"edit_file\", \"arguments\": {\"path\": \"a.go\", ...}}\n</tool_call>",
			reject: "edit_file"},
		{label: "unknown tool", content: "<tool_call>\n{\"function=webfetch\",\"arguments\":{\"url\":\"https://go.dev\"}}\n</tool_call>",
			reject: "webfetch"},
		{label: "near miss: the head outside call markup", answer: true,
			content: `Qwen sometimes writes {"function=bash","arguments":{"command":"ls"}} instead of a call.`},
		{label: "near miss: a function= value, not a key", content: "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"echo function=main\"}}\n</tool_call>",
			want: []call{{"bash", `{"command":"echo function=main"}`}}},
	})
}

func TestRuleMinimaxToolCallBlock(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "JSON body, tool and args", content: `[TOOL_CALL] { "tool": "write_file", "args": { "path": "a.txt", "content": "<b>hi</b>" } } [/TOOL_CALL]`,
			want: []call{{"write_file", `{"content":"<b>hi</b>","path":"a.txt"}`}}},
		{label: "Ruby-hash body", content: "[TOOL_CALL]\n{tool => \"bash\", args => {\n  --command \"ls -la\"\n}}\n[/TOOL_CALL]",
			want: []call{{"bash", `{"command":"ls -la"}`}}},
		{label: "Ruby-hash body, two keys", content: "[TOOL_CALL]\n{tool => \"read_file\", args => {\n  --path \"go.mod\"\n  --start \"3\"\n}}\n[/TOOL_CALL]",
			want: []call{{"read_file", `{"path":"go.mod","start":3}`}}},
		{label: "unknown tool", content: "[TOOL_CALL]\n{tool => \"skills_list\", args => {\n  --category \"research\"\n}}\n[/TOOL_CALL]",
			reject: "skills_list"},
		{label: "near miss: no closer", answer: true,
			content: "[TOOL_CALL]\n{tool => \"bash\", args => {\n  --command \"ls\"\n}}"},
		{label: "near miss: an unquoted value", answer: true,
			content: "[TOOL_CALL]\n{tool => \"bash\", args => {\n  --command ls\n}}\n[/TOOL_CALL]"},
		{label: "near miss: JSON with other keys", answer: true,
			content: `[TOOL_CALL] {"tool": "bash", "args": {"command": "ls"}, "note": "example"} [/TOOL_CALL]`},
	})
}

func TestRuleMinimaxNamespaceKeyElements(t *testing.T) {
	ns := "]<]minimax[>["
	runTemplateCases(t, []templateCase{
		{label: "namespace token before every tag, key elements", content: "Reading it." + ns + "<tool_call>\n" + ns + "<invoke name=\"read_file\">\n" + ns + "<path>go.mod" + ns + "</path>\n" + ns + "<end>5" + ns + "</end>\n" + ns + "</invoke>\n" + ns + "</tool_call>",
			want: []call{{"read_file", `{"end":5,"path":"go.mod"}`}}},
		{label: "key elements, no namespace token, case kept", content: "<tool_call>\n<invoke name=\"read_file\">\n<filePath>a.go</filePath>\n</invoke>\n</tool_call>",
			want: []call{{"read_file", `{"path":"a.go"}`}}},
		{label: "parameter tags still read first", content: "<minimax:tool_call>\n<invoke name=\"bash\">\n<parameter name=\"command\">ls</parameter>\n</invoke>\n</minimax:tool_call>",
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: an element holding markup is no key", content: "<tool_call>\n<invoke name=\"bash\">\n<command><b>ls</b></command>\n</invoke>\n</tool_call>",
			reject: "bash"},
		{label: "near miss: the token in prose, no markup", answer: true,
			content: "MiniMax-M3 writes " + ns + " before its tags."},
	})
}
