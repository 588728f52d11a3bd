package toolcall

import "testing"

// One table per rule of rule_round5c.go (and the Mistral opener added to
// rule_round4b.go's openerWithoutCall): what the format's parser reads, and
// near misses that must stay as they are.

func TestRuleFunctionGemmaMarkup(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "text then one call",
			content: "Let me check.<start_function_call>call:fetch_content{url:<escape>Paris<escape>}<end_function_call>",
			want:    []call{{"fetch_content", `{"url":"Paris"}`}}},
		{label: "multi-line string, typed number",
			content: "<start_function_call>call:write_file{path:<escape>n.txt<escape>,content:<escape>first line\nsecond line<escape>}<end_function_call>",
			want:    []call{{"write_file", `{"path":"n.txt","content":"first line\nsecond line"}`}}},
		{label: "two calls, and a number",
			content: "<start_function_call>call:read_file{path:<escape>a.go<escape>,start:3}<end_function_call><start_function_call>call:bash{command:<escape>ls<escape>}<end_function_call>",
			want:    []call{{"read_file", `{"path":"a.go","start":3}`}, {"bash", `{"command":"ls"}`}}},
		{label: "unknown tool", reject: "get_weather",
			content: "<start_function_call>call:get_weather{city:<escape>Paris<escape>}<end_function_call>"},
		{label: "near miss: markers named in a sentence", answer: true,
			content: "FunctionGemma wraps its calls in <start_function_call> and <end_function_call> tokens."},
	})
	// Markup shown inside another call's value keeps its <escape> tokens.
	runTemplateCases(t, []templateCase{
		{label: "near miss: markup inside a file being written",
			content: "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"fg.md\", \"content\": \"<start_function_call>call:bash{command:<escape>ls<escape>}<end_function_call>\"}}\n</tool_call>",
			want:    []call{{"write_file", `{"path":"fg.md","content":"<start_function_call>call:bash{command:<escape>ls<escape>}<end_function_call>"}`}}},
	})
	for _, s := range []string{
		"plain text",
		"A note: <start_function_call> alone, no call after it.",
	} {
		if got := functionGemma(s); got != s {
			t.Errorf("%q rewritten to %q", s, got)
		}
	}
}

func TestRuleGemmaMissingComma(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "no comma after a <|\"|> string",
			content: "<|tool_call>call:read_file{path:<|\"|>main.go<|\"|>start:10}<tool_call|>",
			want:    []call{{"read_file", `{"path":"main.go","start":10}`}}},
		{label: "two strings, no comma",
			content: "<|tool_call>call:write_file{path:<|\"|>a.txt<|\"|>content:<|\"|>hi<|\"|>}<tool_call|>",
			want:    []call{{"write_file", `{"path":"a.txt","content":"hi"}`}}},
	})
	// Only a <|"|>-closed value implies the comma: after a bare value the
	// next word is the value's own text or a syntax error, never a key.
	for _, s := range []string{`{a:1 b:2}`, `{a:"x" b:2}`, `{a:<|"|>x<|"|> 2}`} {
		if r := readValue(s, 0, false); r.fail == failNone {
			t.Errorf("%s read as %v, want a failure", s, r.v)
		}
	}
}

func TestRuleToolCallEndsThink(t *testing.T) {
	qc := "<tool_call>\n<function=bash>\n<parameter=command>\nls src\n</parameter>\n</function>\n</tool_call>"
	runTemplateCases(t, []templateCase{
		{label: "think never closed, the call ends the reply",
			content: "<think>\nThe user wants the files. I'll use bash.\n\n" + qc,
			want:    []call{{"bash", `{"command":"ls src"}`}}},
		{label: "Hermes JSON call in a think never closed",
			content: "<think>\nReading it.\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}\n</tool_call>\n",
			want:    []call{{"read_file", `{"path":"a.go"}`}}},
		{label: "near miss: reasoning goes on after the call", answer: true,
			content: "<think>\nMaybe:\n" + qc + "\nNo, I should ask the user first."},
		{label: "near miss: call mentioned mid-line in the reasoning", answer: true,
			content: "<think>\nThe format is <tool_call> with a function inside, I think"},
		{label: "near miss: a closed think keeps its rehearsed call", answer: true,
			content: "<think>\n" + qc + "\n</think>\nThe src folder holds the sources."},
	})
}

func TestRuleMistralOpenerWithoutCall(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "the bare marker", content: "[TOOL_CALLS]", reject: "no tool name"},
		{label: "prose then the marker", content: "I'll look at the file.[TOOL_CALLS]\n", reject: "no tool name"},
		{label: "a Chinese sentence then the marker", content: "我来看看这个文件。[TOOL_CALLS]", reject: "no tool name"},
		{label: "near miss: the marker named mid-sentence", answer: true,
			content: "Mistral models start their calls with [TOOL_CALLS] and then the name."},
	})
}
