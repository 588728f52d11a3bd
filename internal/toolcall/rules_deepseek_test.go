package toolcall

import (
	"strings"
	"testing"
)

// Table tests of the DeepSeek, Kimi, GLM and MiniMax rules
// (rule_deepseek.go, rule_xmlvalue.go), each with a near miss that must
// not become a call. The widened corpus holds the cases they come from.

const (
	dsB   = "<｜tool▁calls▁begin｜>"
	dsCB  = "<｜tool▁call▁begin｜>"
	dsSep = "<｜tool▁sep｜>"
	dsCE  = "<｜tool▁call▁end｜>"
	dsBE  = "<｜tool▁calls▁end｜>"
)

func TestRuleDeepSeekElidedCallBegin(t *testing.T) {
	for _, tc := range []struct {
		label, content string
		want           []call
	}{
		{"R1 function<sep>NAME after the opener",
			dsB + "function" + dsSep + "read_file\n```json\n{\"path\": \"go.mod\"}\n```" + dsBE,
			[]call{{"read_file", `{"path":"go.mod"}`}}},
		{"V3.1 NAME<sep> after the opener",
			dsB + "read_file" + dsSep + `{"path": "go.sum"}` + dsBE,
			[]call{{"read_file", `{"path":"go.sum"}`}}},
		{"near miss: opener then a word, no separator",
			"Write " + dsB + "function and then the name.", nil},
		{"near miss: a separator with nothing before it in prose",
			"The separator " + dsSep + " sits between name and arguments.", nil},
	} {
		res := recoverText(t, tc.content)
		checkCalls(t, tc.label, res, tc.want...)
		if len(tc.want) > 0 && len(res.Calls) > 0 && !strings.Contains(strings.Join(res.Calls[0].Repairs, "; "), "call-begin") {
			t.Errorf("%s: repairs %v do not name the rule", tc.label, res.Calls[0].Repairs)
		}
		if len(tc.want) == 0 && len(res.Rejections) > 0 {
			t.Errorf("%s: prose answered with a correction: %v", tc.label, res.Rejections)
		}
	}
}

func TestRuleJSONArgsHoldMarkers(t *testing.T) {
	inner := dsB + dsCB + "function" + dsSep + "bash\n```json\n{\"command\": \"rm -rf /\"}\n```" + dsCE + dsBE
	kimi := "<|tool_calls_section_begin|><|tool_call_begin|>functions.write_file:0<|tool_call_argument_begin|>" +
		`{"path": "fixture.txt", "content": ` + quoteJSON(inner) + `}` +
		"<|tool_call_end|><|tool_calls_section_end|>"
	res := recoverText(t, kimi)
	checkCalls(t, "Kimi write_file holding DeepSeek markup", res, call{"write_file", `{"path":"fixture.txt","content":` + quoteJSON(inner) + `}`})

	r1 := dsB + dsCB + "function" + dsSep + "write_file\n```json\n{\"path\": \"doc.md\", \"content\": \"see <|tool_call_begin|> and " + strings.ReplaceAll(dsCE, "", "") + "\"}\n```" + dsCE + dsBE
	checkCalls(t, "R1 write_file holding markers", recoverText(t, r1), call{"write_file", `{"path":"doc.md","content":"see <|tool_call_begin|> and ` + dsCE + `"}`})

	// Near miss: the object never closes; nothing inside it may run.
	cut := "<|tool_calls_section_begin|><|tool_call_begin|>functions.write_file:0<|tool_call_argument_begin|>" +
		`{"path": "fixture.txt", "content": ` + strings.TrimSuffix(quoteJSON(inner), `"`) + "<|tool_call_end|><|tool_calls_section_end|>"
	res = recoverText(t, cut)
	for _, c := range res.Calls {
		if c.Name == "bash" {
			t.Fatalf("the markup inside a broken argument ran: %v", res.Calls)
		}
	}
}

func quoteJSON(s string) string { return string(marshal(s)) }

func TestRuleArgsFenceHeader(t *testing.T) {
	for _, tc := range []struct {
		label, args string
		want        call
	}{
		{"json header", "json\n{\"url\":\"https://example.com\"}", call{"fetch_content", `{"url":"https://example.com"}`}},
		{"whole fence", "```json\n{\"url\":\"https://example.com\"}\n```", call{"fetch_content", `{"url":"https://example.com"}`}},
		{"near miss: a word starting with json", "jsonnet {x}", call{"bash", `{"command":"jsonnet {x}"}`}},
	} {
		checkCalls(t, tc.label, recoverCall(t, tc.want.name, tc.args), tc.want)
	}
	if got, ok := argsFenceHeader("json_pp < data.json"); ok {
		t.Errorf("json_pp read as a fence header: %q", got)
	}
}

func TestRuleDSMLSpellings(t *testing.T) {
	mk := func(d string) string {
		return "<" + d + "tool_calls>\n<" + d + `invoke name="bash">` + "\n<" + d + `parameter name="command" string="true">git status</` + d + "parameter>\n</" + d + "invoke>\n</" + d + "tool_calls>"
	}
	for _, d := range []string{"｜DSML｜", "‖DSML‖", "｜｜DSML｜｜", "|DSML|"} {
		checkCalls(t, d, recoverText(t, mk(d)), call{"bash", `{"command":"git status"}`})
	}
	// Near miss: not the DSML prefix.
	res := recoverText(t, mk("‖DSM‖"))
	if len(res.Calls) != 0 {
		t.Errorf("‖DSM‖ read as DSML: %v", res.Calls)
	}
}

func TestRuleTemplateValueEnd(t *testing.T) {
	for _, tc := range []struct {
		label, content string
		want           []call
	}{
		{"MiniMax content holding </parameter>",
			"<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\">t.xml</parameter>\n<parameter name=\"content\"><parameter>\n  <a></a>\n</parameter></parameter>\n</invoke>\n</minimax:tool_call>",
			[]call{{"write_file", `{"path":"t.xml","content":"<parameter>\n  <a></a>\n</parameter>"}`}}},
		{"GLM value holding <tool_call>",
			"<tool_call>write_file\n<arg_key>path</arg_key>\n<arg_value>T.md</arg_value>\n<arg_key>content</arg_key>\n<arg_value>use <tool_call> here</arg_value>\n</tool_call>",
			[]call{{"write_file", `{"path":"T.md","content":"use <tool_call> here"}`}}},
		{"GLM repeated </arg_key>",
			"<tool_call>read_file\n<arg_key>path</arg_key></arg_key><arg_value>/tmp/x</arg_value>\n</tool_call>",
			[]call{{"read_file", `{"path":"/tmp/x"}`}}},
		{"near miss: a missing closer still ends at the next parameter",
			"<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"content\">hello\n<parameter name=\"path\">a.txt</parameter>\n</invoke>\n</minimax:tool_call>",
			[]call{{"write_file", `{"path":"a.txt","content":"hello"}`}}},
		{"near miss: a GLM value without closer ends at the next call",
			"<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>a.txt\n<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>b.txt</arg_value>\n</tool_call>",
			[]call{{"read_file", `{"path":"a.txt"}`}, {"read_file", `{"path":"b.txt"}`}}},
	} {
		checkCalls(t, tc.label, recoverText(t, tc.content), tc.want...)
	}
}

// The rejects of these families name the missing argument.
func TestRuleMissingArgumentNamed(t *testing.T) {
	for _, tc := range []struct{ content, arg string }{
		{dsB + dsCB + "function" + dsSep + "write_file\n```json\n{\"path\": \"notes.md\"}\n```" + dsCE + dsBE, "content"},
		{"<｜DSML｜tool_calls>\n<｜DSML｜invoke name=\"write_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">a.md</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜tool_calls>", "content"},
		{"<minimax:tool_call>\n<invoke name=\"write_file\">\n<parameter name=\"path\">a.md</parameter>\n</invoke>\n</minimax:tool_call>", "content"},
		{"Checking.<tool_call>bash</tool_call>", "command"},
	} {
		res := recoverText(t, tc.content)
		if len(res.Calls) != 0 || len(res.Rejections) != 1 || !strings.Contains(res.Rejections[0].Reason, tc.arg) {
			t.Errorf("%q: calls %v, rejections %v; want one correction naming %s", tc.content, res.Calls, res.Rejections, tc.arg)
		}
	}
}

func TestRuleDanglingOpener(t *testing.T) {
	structured := func(content string) Result {
		return Recover(Input{Content: content, ToolCalls: []RawCall{{ID: "c0", Name: "read_file", Arguments: `{"path":"a.toml"}`}}, FinishReason: "tool_calls", Tools: toolsFor(t)})
	}
	for _, tc := range []struct{ content, text string }{
		{"I'll read the configuration first.\n\n<｜DSML｜function_calls", "I'll read the configuration first."},
		{"Reading it.<｜tool▁calls▁begin｜>", "Reading it."},
		// Near misses: a tag that is not a call opener, and a whole tag.
		{"Use a <div", "Use a <div"},
		{"Reading it: <｜DSML｜invoke", "Reading it: <｜DSML｜invoke"},
	} {
		res := structured(tc.content)
		checkCalls(t, tc.content, res, call{"read_file", `{"path":"a.toml"}`})
		if res.Text != tc.text {
			t.Errorf("%q: text %q, want %q", tc.content, res.Text, tc.text)
		}
	}
	// No call: the text is the answer as written.
	if res := recoverText(t, "The marker is <｜DSML｜function_calls"); res.Text != "The marker is <｜DSML｜function_calls" {
		t.Errorf("text without a call changed: %q", res.Text)
	}
}

func TestRuleMangledDSMLCloser(t *testing.T) {
	in := "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"read_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">a.md</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls｜>"
	res := recoverText(t, in)
	checkCalls(t, "closer with a stray bar", res, call{"read_file", `{"path":"a.md"}`})
	if res.Text != "" {
		t.Errorf("text %q, want the closer gone", res.Text)
	}
	// Near miss: a plain tag with a bar is not a DSML tag.
	if _, ok := readTag("<div｜>", 0); ok {
		t.Error("<div｜> read as a tag")
	}
}
