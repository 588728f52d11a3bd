package toolcall

import (
	"strings"
	"testing"
)

// Table tests of the rules of rule_threads.go, each with at least one near
// miss that must not become a call. The cases they come from are in
// testdata/widened-threads-deepseek-qwen-glm.jsonl.

type threadRuleCase struct {
	label, content string
	want           []call
	reject         bool // a correction, no run
}

func runThreadRule(t *testing.T, note string, cases []threadRuleCase) {
	t.Helper()
	for _, tc := range cases {
		res := recoverText(t, tc.content)
		checkCalls(t, tc.label, res, tc.want...)
		switch {
		case tc.reject && len(res.Rejections) == 0:
			t.Errorf("%s: no correction", tc.label)
		case !tc.reject && len(tc.want) == 0 && len(res.Rejections) > 0:
			t.Errorf("%s: prose answered with a correction: %v", tc.label, res.Rejections)
		case !tc.reject && len(tc.want) == 0 && strings.TrimSpace(res.Text) == "":
			t.Errorf("%s: the answer text is empty", tc.label)
		}
		if note != "" && len(tc.want) > 0 && len(res.Calls) > 0 && !strings.Contains(strings.Join(res.Calls[0].Repairs, "; "), note) {
			t.Errorf("%s: repairs %v do not name the rule (%q)", tc.label, res.Calls[0].Repairs, note)
		}
	}
}

func TestRuleNamedWrapper(t *testing.T) {
	runThreadRule(t, "", []threadRuleCase{
		{label: "JSON body", content: "<tool_call id=\"call_00_x\" name=\"read_file\">\n{\"path\":\"a.log\",\"end\":80}\n</tool_call>",
			want: []call{{"read_file", `{"path":"a.log","end":80}`}}},
		{label: "parameter body", content: "<tool_call name=\"bash\">\n<parameter=command>\nls\n</parameter>\n</tool_call>",
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: a name attribute inside inline code", content: "Write `<tool_call name=\"bash\">{\"command\": \"ls\"}</tool_call>` to call it."},
		{label: "near miss: a tool_call tag with another attribute", content: "<tool_call id=\"1\">\nnothing here\n</tool_call>\nDone."},
	})
}

func TestRuleKimiSectionEndsReasoning(t *testing.T) {
	sec := "<|tool_calls_section_begin|> <|tool_call_begin|> functions.bash:0 <|tool_call_argument_begin|> {\"command\": \"ls\"} <|tool_call_end|> <|tool_calls_section_end|>"
	runThreadRule(t, "", []threadRuleCase{
		{label: "section before </think>", content: "<think>Let me look. " + sec + "</think>",
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "section after </think>, the same call once", content: "<think>I will call it.</think>" + sec,
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: a Hermes call rehearsed in the reasoning stays reasoning",
			content: "<think>maybe <tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call></think>\nNo call needed."},
	})
}

func TestRuleGenericEnvelopeEndsReply(t *testing.T) {
	env := "{\n  \"tool_calls\": [\n    {\"name\": \"bash\", \"arguments\": {\"command\": \"lscpu\"}, \"id\": \"x1\"}\n  ],\n  \"content\": \"Checking the CPU.\"\n}"
	runThreadRule(t, "", []threadRuleCase{
		{label: "the whole reply after reasoning", content: "<think>Next the CPU.</think>\n" + env,
			want: []call{{"bash", `{"command":"lscpu"}`}}},
		{label: "tool_call singular", content: `{"tool_call": {"name": "read_file", "arguments": {"path": "go.mod"}}}`,
			want: []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "near miss: text after it (the wire format documented)",
			content: env + "\n\nThat is the shape the server returns; `arguments` is a string there."},
		{label: "near miss: another key beside it", content: `{"tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}], "usage": {"total_tokens": 12}}`},
	})
}

func TestRuleGLMValueOpenerMissing(t *testing.T) {
	runThreadRule(t, "", []threadRuleCase{
		{label: "value then </arg_value>", content: "<tool_call>bash<arg_key>command</arg_key>git status</arg_value></tool_call>",
			want: []call{{"bash", `{"command":"git status"}`}}},
		{label: "second pair well formed", content: "<tool_call>write_file<arg_key>path</arg_key>a.txt</arg_value><arg_key>content</arg_key><arg_value>hi</arg_value></tool_call>",
			want: []call{{"write_file", `{"path":"a.txt","content":"hi"}`}}},
	})
	// Near miss: a value closer after the next key is that key's, not the
	// first key's: no markup may end up inside a value.
	res := recoverText(t, "<tool_call>write_file<arg_key>path</arg_key><arg_key>content</arg_key><arg_value>hi</arg_value></tool_call>")
	for _, c := range res.Calls {
		if strings.Contains(string(c.Arguments), "arg_") {
			t.Errorf("markup read into a value: %s", c.Arguments)
		}
	}
}

func TestRuleMarkerlessNamedJSON(t *testing.T) {
	runThreadRule(t, "", []threadRuleCase{
		{label: "a paragraph after prose", content: "Sure.\n\nfetch_content\n{\"url\": \"https://wttr.in/Paris\"}",
			want: []call{{"fetch_content", `{"url":"https://wttr.in/Paris"}`}}},
		{label: "after reasoning", content: "<think>weather</think>\nbash\n{\"command\": \"date\"}",
			want: []call{{"bash", `{"command":"date"}`}}},
		{label: "near miss: the name continues a paragraph", content: "Here is the config.\nbash\n{\"command\": \"ls\"}"},
		{label: "near miss: not a declared tool", content: "Result:\n\nweather\n{\"city\": \"Paris\"}"},
		{label: "near miss: text after the object on its line", content: "Sure.\n\nbash\n{\"command\": \"ls\"} is what I would run."},
	})
}

func TestRuleDSMLSpaceAfterPrefix(t *testing.T) {
	runThreadRule(t, "", []threadRuleCase{
		{label: "space after the doubled-bar prefix", content: "Reading it.\n\n<｜｜DSML｜｜ calls>\n<｜｜DSML｜｜ invoke name=\"read_file\">\n<｜｜DSML｜｜ parameter name=\"path\" string=\"true\">SKILL.md</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>\n</｜｜DSML｜｜ calls>",
			want: []call{{"read_file", `{"path":"SKILL.md"}`}}},
		{label: "near miss: the same markup in a ```go block", content: "```go\nconst s = `<｜｜DSML｜｜ invoke name=\"bash\">\n<｜｜DSML｜｜ parameter name=\"command\" string=\"true\">ls</｜｜DSML｜｜ parameter>\n</｜｜DSML｜｜ invoke>`\n```"},
	})
}

func TestRuleMultilineServerBody(t *testing.T) {
	res := recoverCall(t, "fetch_content", "<malformed_json_arguments>{\"name\": \"fetch_content\", \"arguments\": 1}\n</parameter>\n</function>")
	if len(res.Calls) != 0 || len(res.Rejections) == 0 {
		t.Errorf("multi-line garbage body: calls %v rejections %v, want a correction", res.Calls, res.Rejections)
	}
	// Near miss: a one-line body is still the single argument's value.
	checkCalls(t, "one-line body", recoverCall(t, "bash", "ls -la"), call{"bash", `{"command":"ls -la"}`})
}

func TestRuleValueAtMessageEnd(t *testing.T) {
	runThreadRule(t, "", []threadRuleCase{
		{label: "unclosed value then blank lines", content: "<function=write_file>\n<parameter=path> t.txt\n<parameter=content> hello\n\n",
			want: []call{{"write_file", `{"path":"t.txt","content":"hello"}`}}},
		{label: "near miss: a closed value keeps its inner line breaks", content: "<function=write_file>\n<parameter=path>\nt.txt\n</parameter>\n<parameter=content>\na\n\nb\n\n</parameter>\n</function>",
			want: []call{{"write_file", `{"path":"t.txt","content":"a\n\nb\n"}`}}},
	})
}
