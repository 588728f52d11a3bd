package toolcall

import "testing"

// One table per rule of rule_round7b.go: what the parser or the source
// reads, and near misses that must stay as they are.

func TestRuleResentPrefixArgs(t *testing.T) {
	for _, tt := range []struct {
		label, args string
		want        []call
		reject      string // when set: nothing runs, a rejection says this
	}{
		{label: "the streamed { then the whole object (xLAM flush)", args: `{{"path": "src/app.py", "start": 1}`,
			want: []call{{"read_file", `{"path":"src/app.py","start":1}`}}},
		{label: "a longer streamed prefix, then the whole object", args: `{"pa{"path": "src/app.py"}`,
			want: []call{{"read_file", `{"path":"src/app.py"}`}}},
		{label: "the object twice", args: `{"path": "a.go"}{"path": "a.go"}`,
			want: []call{{"read_file", `{"path":"a.go"}`}}},
		{label: "near miss: the object after the prefix never closes", args: `{{"path": "src/app.py"`,
			reject: "read_file"},
		{label: "near miss: a prefix that is not the object's beginning", args: `{"path": "secret.txt"{"path": "README.md"}`,
			reject: "read_file"},
	} {
		res := recoverCall(t, "read_file", tt.args)
		if tt.reject != "" {
			checkRejected(t, tt.label, res, false, tt.reject)
			continue
		}
		checkCalls(t, tt.label, res, tt.want...)
	}
	// Two different objects are left to the glued-objects rules: two calls.
	checkCalls(t, "two different objects", recoverCall(t, "read_file", `{"path": "a.go"}{"path": "b.go"}`),
		call{"read_file", `{"path":"a.go"}`}, call{"read_file", `{"path":"b.go"}`})
	for _, s := range []string{`{`, `{{`, `{"a": 1}`, `{"a": {"b": 1}}`, `{{"a": 1}}}`} {
		if m, ok := resentPrefixArgs(s); ok {
			t.Errorf("%s read as resent %v", s, m)
		}
	}
}

func TestRuleShellToolNames(t *testing.T) {
	ts := newToolset(toolsFor(t))
	for _, tt := range []struct{ raw, want string }{
		{"terminal", "bash"},
		{"Terminal", "bash"},
		{"execute_bash", "bash"},
		{"run_terminal_cmd", "bash"},
		{"execute_terminal", "bash"},
		{"tool:execute_terminal", "bash"},
		{"tool:read_file", "read_file"},
		{"functions:Bash", "bash"},
		// Near misses: a bare shell word, two tools in one name, a
		// language's scope, a verb before a name that is no tool.
		{"shell", ""},
		{"google:tool:shell:index:0", ""},
		{"bash:read_file", ""},
		{"std::terminal", ""},
		{"execute_python", ""},
		{"terminal_output", ""},
		{"tool:", ""},
	} {
		if got := ts.resolve(tt.raw); got != tt.want {
			t.Errorf("resolve(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
	// Never a tool that is not declared.
	only := newToolset(toolsFor(t, "read_file"))
	for _, raw := range []string{"terminal", "tool:execute_terminal"} {
		if got := only.resolve(raw); got != "" {
			t.Errorf("without bash, resolve(%q) = %q", raw, got)
		}
	}
}

func TestRuleAbsolutePathAlias(t *testing.T) {
	checkCalls(t, "absolute_path", recoverCall(t, "read_file", `{"absolute_path": "/src/main.go"}`),
		call{"read_file", `{"path":"/src/main.go"}`})
	checkCalls(t, "absolutePath", recoverCall(t, "write_file", `{"absolutePath": "H:/f.c", "content": "x"}`),
		call{"write_file", `{"path":"H:/f.c","content":"x"}`})
	// Near miss: a tool with no path argument takes no path alias.
	checkRejected(t, "bash with absolute_path", recoverCall(t, "bash", `{"absolute_path": "/src"}`), false, "command")
}

func TestRuleCallingToolBracket(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "the whole reply",
			content: `[Calling tool: read_file({"path": "pricing.md"})]`,
			want:    []call{{"read_file", `{"path":"pricing.md"}`}}},
		{label: "two lines",
			content: "[Calling tool: read_file({\"path\": \"a.txt\"})]\n[Calling tool: bash({\"command\": \"ls\"})]",
			want:    []call{{"read_file", `{"path":"a.txt"}`}, {"bash", `{"command":"ls"}`}}},
		{label: "after a lead-in that acts",
			content: "Let me read the file first.\n[Calling tool: read_file({\"path\": \"go.mod\"})]",
			want:    []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "unknown tool", reject: "search_web",
			content: `[Calling tool: search_web({"query": "x"})]`},
		{label: "near miss: inside a sentence", answer: true,
			content: "The server log shows [Calling tool: read_file({\"path\": \"a.txt\"})] before the error."},
		{label: "near miss: prose after it on its line", answer: true,
			content: "[Calling tool: bash({\"command\": \"make\"})] is how MLX renders an earlier call."},
		{label: "near miss: a past-tense report", answer: true,
			content: "I already ran this one:\n[Calling tool: bash({\"command\": \"make test\"})]\nIt passed."},
		{label: "near miss: arguments that are not an object", answer: true,
			content: `[Calling tool: bash("ls")]`},
	})
	runTemplateCases(t, []templateCase{
		{label: "near miss: the line inside a file being written",
			content: "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"log.md\", \"content\": \"[Calling tool: bash({\\\"command\\\": \\\"ls\\\"})]\\n\"}}\n</tool_call>",
			want:    []call{{"write_file", `{"path":"log.md","content":"[Calling tool: bash({\"command\": \"ls\"})]\n"}`}}},
	})
}

func TestRuleUsageExampleLead(t *testing.T) {
	fenced := "\n```json\n{\"name\": \"fetch_content\", \"arguments\": {\"url\": \"https://example.com\"}}\n```"
	runTemplateCases(t, []templateCase{
		{label: "the tool's usage example", answer: true,
			content: "The tool's description shows this usage example:" + fenced},
		{label: "a Usage Example label", answer: true,
			content: "Usage Example:" + fenced},
		{label: "a sample request", answer: true,
			content: "Here is a sample request:" + fenced},
		// Near misses: the model running it, and a lead-in about its own step.
		{label: "near miss: the model runs the usage example",
			content: "Let me run the usage example from the README:" + fenced,
			want:    []call{{"fetch_content", `{"url":"https://example.com"}`}}},
		{label: "near miss: fetching the example page",
			content: "I'll fetch the example page now:" + fenced,
			want:    []call{{"fetch_content", `{"url":"https://example.com"}`}}},
	})
}
