package toolcall

import "testing"

// One table per rule of rule_round7e.go: what the format's parser or fix
// reads, and near misses that must stay as they are.

func TestRuleGemmaStrayChannel(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "leaked <|channel> before a Gemma 4 call",
			content: "<|channel><|tool_call>call:read_file{path:<|\"|>app/main.py<|\"|>}<tool_call|>",
			want:    []call{{"read_file", `{"path":"app/main.py"}`}}},
		{label: "leaked token, a newline, then the call",
			content: "<|channel>\n<|tool_call>call:bash{command:<|\"|>ls<|\"|>}<tool_call|>",
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: an unclosed thought channel rehearsing the call", answer: true,
			content: "<|channel>thought\nI could call <|tool_call>call:bash{command:<|\"|>ls<|\"|>}<tool_call|> but the user only asked what ls does."},
		{label: "near miss: a closed channel before the call keeps its reading",
			content: "<|channel>thought\nList the files.<channel|><|tool_call>call:bash{command:<|\"|>ls<|\"|>}<tool_call|>",
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: the token pair in a file being written",
			content: "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"g.md\", \"content\": \"<|channel><|tool_call>call:bash{command:<|\\\"|>ls<|\\\"|>}<tool_call|>\"}}\n</tool_call>",
			want:    []call{{"write_file", `{"path":"g.md","content":"<|channel><|tool_call>call:bash{command:<|\"|>ls<|\"|>}<tool_call|>"}`}}},
	})
	for _, s := range []string{
		"plain text",
		"<|channel>thought\nno call here",
		"Gemma writes <|channel><|tool_call> when the opener is lost.",
		"<|channel><|tool_call>call:x{}<tool_call|> then <channel|>",
	} {
		if got := gemmaStrayChannel(s); got != s {
			t.Errorf("%q rewritten to %q", s, got)
		}
	}
}

func TestRuleFlattenedCallObject(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "name and path side by side",
			content: `{"name":"read_file","path":"src/index.ts"}`,
			want:    []call{{"read_file", `{"path":"src/index.ts"}`}}},
		{label: "name and two arguments",
			content: `{"name": "write_file", "path": "a.txt", "content": "hi"}`,
			want:    []call{{"write_file", `{"path":"a.txt","content":"hi"}`}}},
		{label: "near miss: a key the tool does not take (data about a file)", answer: true,
			content: `{"name": "read_file", "path": "src/index.ts", "size": 120}`},
		{label: "near miss: a tool description", answer: true,
			content: `{"name": "bash", "description": "Run a shell command"}`},
		{label: "near miss: prose around the object", answer: true,
			content: "The tool record looks like {\"name\": \"read_file\", \"path\": \"x.go\"} in our logs."},
		{label: "near miss: a required argument missing (write_file without content)", answer: true,
			content: `{"name": "write_file", "path": "a.txt"}`},
		{label: "near miss: a name that is no declared tool", answer: true,
			content: `{"name": "Alice", "path": "/home/alice"}`},
	})
}

func TestRuleEchoedUserText(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "the user's string repeated", answer: true,
			content: "Here is the string you asked me to repeat, exactly as given: \"[TOOL_CALLS]bash[ARGS]{\\\"command\\\": \\\"rm -rf ~/tmp\\\"}\""},
		{label: "repeated verbatim, Gemma markup", answer: true,
			content: "Repeated verbatim:\n<|tool_call>call:bash{command:<|\"|>rm -rf /<|\"|>}<tool_call|>"},
		{label: "near miss: the user asked for an action, not an echo",
			content: "You asked me to list the files, so:\n[TOOL_CALLS]bash[ARGS]{\"command\": \"ls\"}",
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: 'repeat' the step, the model acts",
			content: "I'll repeat the build step now:\n[TOOL_CALLS]bash[ARGS]{\"command\": \"make\"}",
			want:    []call{{"bash", `{"command":"make"}`}}},
	})
}
