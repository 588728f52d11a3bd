package toolcall

import "testing"

// One table per rule of rule_round4b.go: what the format's parser reads, and
// near misses that must stay as they are.

const ns = "]<]minimax[>["

func TestRuleMinimaxNamespace(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "M3 call after prose, parameters as elements",
			content: "Let me read it." + ns + "<tool_call>\n" + ns + "<invoke name=\"read_file\">" + ns + "<path>a.go" + ns + "</path>" + ns + "<start>3" + ns + "</start>" + ns + "</invoke>\n" + ns + "</tool_call>",
			want:    []call{{"read_file", `{"path":"a.go","start":3}`}}},
		{label: "M3 call without its outer opener",
			content: ns + "<invoke name=\"bash\">\n" + ns + "<command>ls" + ns + "</command>\n" + ns + "</invoke>\n" + ns + "</tool_call>",
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "unknown tool", reject: "grep",
			content: ns + "<tool_call>\n" + ns + "<invoke name=\"grep\">\n" + ns + "<pattern>x" + ns + "</pattern>\n" + ns + "</invoke>\n" + ns + "</tool_call>"},
		{label: "near miss: the token named in a sentence", answer: true,
			content: "MiniMax-M3 puts the token " + ns + " before each tag of its calls."},
	})
	// A file whose content shows M3 markup, inside a JSON call, keeps its tokens.
	body := ns + "<tool_call>\\n" + ns + "<invoke name=\\\"bash\\\">" + ns + "<command>rm -rf x" + ns + "</command>" + ns + "</invoke>"
	runTemplateCases(t, []templateCase{
		{label: "near miss: M3 markup inside a file being written",
			content: "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"f.txt\", \"content\": \"" + body + "\"}}\n</tool_call>",
			want:    []call{{"write_file", `{"content":"` + ns + `<tool_call>\n` + ns + `<invoke name=\"bash\">` + ns + `<command>rm -rf x` + ns + `</command>` + ns + `</invoke>","path":"f.txt"}`}}},
	})
}

func TestRuleGLMSecondOpener(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "second <tool_call> where <arg_key> belongs",
			content: "<tool_call>bash<tool_call>command</arg_key><arg_value>git status</arg_value></tool_call>",
			want:    []call{{"bash", `{"command":"git status"}`}}},
		{label: "near miss: the name is no tool, not rewritten (nothing runs)", answer: true,
			content: "<tool_call>run_command<tool_call>command</arg_key><arg_value>ls</arg_value></tool_call>"},
	})
	ts := newToolset(toolsFor(t, "bash", "read_file"))
	if got := glmSecondOpener(`bash<tool_call>command</arg_key><arg_value>ls</arg_value>`, ts); got != `bash<arg_key>command</arg_key><arg_value>ls</arg_value>` {
		t.Errorf("server name: got %q", got)
	}
	for _, s := range []string{
		"bash<tool_call>{\"command\": \"ls\"}</tool_call>",  // no </arg_key>: a Hermes body
		"see bash <tool_call>command</arg_key> in the docs", // a space: no name glued to it
	} {
		if got := glmSecondOpener(s, ts); got != s {
			t.Errorf("near miss %q rewritten to %q", s, got)
		}
	}
}

func TestRuleQuotesEmittedOutput(t *testing.T) {
	block := "```\n<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"bash\">\n<｜DSML｜parameter name=\"command\" string=\"true\">ls</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>\n```"
	runTemplateCases(t, []templateCase{
		{label: "the raw content the model emitted", answer: true,
			content: "This is the raw content the model emitted in the failing run:\n\n" + block},
		{label: "what the server returned", answer: true,
			content: "Here is what the server returned:\n\n" + block},
		{label: "near miss: I am the subject", content: "Here is the command that I wrote for you:\n\n" + block,
			want: []call{{"bash", `{"command":"ls"}`}}},
	})
}

func TestRuleGLMBareName(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "bare unknown name", content: "<tool_call>list_mailboxes</tool_call>", reject: "list_mailboxes"},
		{label: "bare declared name lacks its argument", content: "<tool_call>bash</tool_call>", reject: "command"},
		{label: "near miss: in a sentence", answer: true,
			content: "GLM writes <tool_call>list_mailboxes</tool_call> for a tool without parameters."},
	})
}

func TestRuleOpenerWithoutCall(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "DSML opener without '>' at the end", content: "Now let me read the files.\n\n  <｜DSML｜tool_calls", reject: "no tool name"},
		{label: "R1 opener then '<' garbage", content: "<｜tool▁calls▁begin｜><<<<<<<<", reject: "no tool name"},
		{label: "near miss: the opener named mid-sentence", answer: true,
			content: "DeepSeek opens its block with <｜tool▁calls▁begin｜> and closes it with <｜tool▁calls▁end｜>."},
	})
}

func TestRuleHarmonyArgsWithoutRecipient(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "commentary JSON body, no recipient", reject: "no tool name",
			content: "<|channel|>commentary<|message|>{\n  \"path\": \"/\",\n  \"name_pattern\": \"*x*\"\n}<|end|>"},
		{label: "after an analysis message", reject: "no tool name",
			content: "<|channel|>analysis<|message|>Search the files.<|end|><|start|>assistant<|channel|>commentary<|message|>{\"pattern\": \"x\"}<|call|>"},
		{label: "near miss: a commentary preamble in words", answer: true,
			content: "<|channel|>commentary<|message|>I will look through the files next.<|end|>"},
	})
}
