package toolcall

import (
	"encoding/json"
	"testing"
)

// One table per rule of rule_round9l.go: what the format's parser reads,
// and near misses that must stay as they are.

func TestRuleMiniCPM5ParamElement(t *testing.T) {
	const mc = `<function name="read_file"><param name="path">"README.md"</param><param name="end">3</param></function>`
	runTemplateCases(t, []templateCase{
		{label: "a MiniCPM5 call, JSON values decoded", content: mc,
			want: []call{{"read_file", `{"path":"README.md","end":3}`}}},
		{label: "a MiniCPM5 call with single-quoted attributes and a raw value",
			content: `<function name='bash'><param name='command'>go test ./...</param></function>`,
			want:    []call{{"bash", `{"command":"go test ./..."}`}}},
		{label: "a CDATA value keeps the format's own closers",
			content: `<function name="write_file"><param name="path">a.md</param><param name="content"><![CDATA[x </param> y </function> z]]></param></function>`,
			want:    []call{{"write_file", `{"path":"a.md","content":"x </param> y </function> z"}`}}},
		{label: "near miss: the markup in inline code in a sentence", answer: true,
			content: "MiniCPM5 writes `" + mc + "`; the server turns it into a tool call."},
		{label: "near miss: the markup shown after an example lead-in", answer: true,
			content: "The MiniCPM5 template asks the model to answer like this:\n\n```xml\n" + mc + "\n```\n\nXinference parses it."},
		{label: "near miss: a file being written that documents the format",
			content: "<tool_call>\n<function=write_file>\n<parameter=path>\ndocs/minicpm.md\n</parameter>\n<parameter=content>\nMiniCPM5 calls look like " + mc + " in the raw output.\n</parameter>\n</function>\n</tool_call>",
			want:    []call{{"write_file", `{"path":"docs/minicpm.md","content":"MiniCPM5 calls look like ` + jsonEsc9l(mc) + ` in the raw output."}`}}},
		{label: "near miss: a past-tense report of the call", answer: true,
			content: "I already ran " + mc + " and the file has three lines."},
	})
	for _, s := range []string{
		`<param name="path">a.go`,                         // never closes
		`<param>a.go</param>`,                             // no name
		`<param name="content"><![CDATA[never closed`,     // CDATA never closes
		`<param name="path">a<param name="end">1</param>`, // the next element before a closer
		`<parameter name="path">a.go</parameter>`,         // MiniMax's element, not MiniCPM's
	} {
		if k, _, _, ok := readMiniCPMParam(s, 0); ok {
			t.Errorf("%s read as a MiniCPM5 param %q", s, k)
		}
	}
}

func TestRuleQuotedArgumentsObject(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "arguments wrapped in quotes, bare", content: `{"name":"bash","arguments":"{"command":"ls -la"}"}`,
			want: []call{{"bash", `{"command":"ls -la"}`}}},
		{label: "arguments wrapped in quotes, in a Hermes block, spaced",
			content: "<tool_call>\n{\"name\": \"read_file\", \"arguments\": \"{\"path\": \"go.mod\"}\"}\n</tool_call>",
			want:    []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "Llama's parameters wrapped in quotes",
			content: `{"name": "bash", "parameters": "{"command": "pwd"}"}`,
			want:    []call{{"bash", `{"command":"pwd"}`}}},
		{label: "a properly encoded string is left to the other rules",
			content: `<tool_call>{"name":"bash","arguments":"{\"command\":\"ls\"}"}</tool_call>`,
			want:    []call{{"bash", `{"command":"ls"}`}}},
		{label: "near miss: the broken object inside an echo command",
			content: `<tool_call>{"name":"bash","arguments":{"command":"echo '{\"name\":\"bash\",\"arguments\":\"{\"command\":\"ls\"}\"}' > bug.json"}}</tool_call>`,
			want:    []call{{"bash", `{"command":"echo '{\"name\":\"bash\",\"arguments\":\"{\"command\":\"ls\"}\"}' > bug.json"}`}}},
		{label: "near miss: the broken object shown in a fence after an example lead-in", answer: true,
			content: "mistral.rs repairs output such as this, for example:\n\n```json\n{\"name\":\"bash\",\"arguments\":\"{\"command\":\"ls -la\"}\"}\n```\n\nby dropping the two quotes."},
		{label: "near miss: reported as already run", answer: true,
			content: "I already ran {\"name\":\"bash\",\"arguments\":\"{\"command\":\"ls -la\"}\"} and it listed four files."},
	})
	for _, s := range []string{
		`{"name":"bash","arguments":"{\"command\":\"ls\"}"}`, // encoded properly: not this rule's
		`{"name":"bash","arguments":"{"command":"ls"}`,       // the closing quote and brace lost
		`{"title":"x","body":"{"a":1}"}`,                     // no call keys
		`{"arguments":"{"command":"ls"}"}`,                   // no name
	} {
		if _, ok := quotedArgumentsObject(s, 0); ok {
			t.Errorf("%s repaired as a quoted arguments object", s)
		}
	}
}

// jsonEsc9l is s as it reads inside a JSON string, without the quotes.
func jsonEsc9l(s string) string {
	b, _ := json.Marshal(s)
	return string(b[1 : len(b)-1])
}
