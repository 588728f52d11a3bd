package toolcall

import (
	"strings"
	"testing"
)

// Table tests of the rules for gpt-oss harmony, Qwen3-Coder, Seed-OSS and
// Hermes (rule_harmony.go, rule_qwen3coder.go, rule_seed.go,
// rule_hermes.go), each with a near miss that must not become a call.

func TestHarmonyRoleRecipientRule(t *testing.T) {
	checkCalls(t, "recipient before the first token",
		recoverText(t, ` to=functions.read_file<|channel|>analysis <|constrain|>json<|message|>{"path": "Makefile"}`),
		call{"read_file", `{"path":"Makefile"}`})
	checkCalls(t, "role and recipient before the first token",
		recoverText(t, `assistant to=functions.bash<|channel|>commentary<|message|>{"command": "ls"}<|call|>`),
		call{"bash", `{"command":"ls"}`})
	// Near miss: prose that ends with a recipient mention is not a header.
	res := recoverText(t, `Send it with to=functions.read_file<|channel|>analysis<|message|>The user wants a summary.<|end|>`)
	checkCalls(t, "prose before the token", res)
}

func TestHarmonyGluedContentTypeRule(t *testing.T) {
	checkCalls(t, "NAMEjson",
		recoverText(t, `<|channel|>commentary to=functions.bashjson<|message|>{"command":"ls"}<|call|>`),
		call{"bash", `{"command":"ls"}`})
	checkCalls(t, "stripped NAMEjson",
		recoverText(t, `analysisList.assistantcommentary to=functions.bashjson{"command":"ls"}`),
		call{"bash", `{"command":"ls"}`})
	// Near miss: a tool whose name ends in json is not cut; an unknown
	// name is still rejected by its own name.
	res := recoverText(t, `<|channel|>commentary to=functions.parsejson<|message|>{"text":"{}"}<|call|>`)
	checkRejected(t, "unknown NAMEjson", res, false, "parsejson")
}

func TestStrippedHarmonyContentTypeRule(t *testing.T) {
	checkCalls(t, "code content type",
		recoverText(t, `analysisRun them.assistantanalysis to=functions.bash code{"command":"pytest -q"}`),
		call{"bash", `{"command":"pytest -q"}`})
	checkCalls(t, "constrain token kept",
		recoverText(t, `assistantcommentary to=functions.bash <|constrain|>json{"command":"id"}`),
		call{"bash", `{"command":"id"}`})
}

func TestStrippedHarmonyHeaderRule(t *testing.T) {
	checkCalls(t, "after the channel word",
		recoverText(t, `analysisok.assistantcommentary to=functions.bash json{"command":"id"}`),
		call{"bash", `{"command":"id"}`})
	// Near miss: the same text in the middle of a sentence of the answer.
	res := recoverText(t, `assistantfinalA call is addressed with to=functions.read_file json{"path": "README.md"} in the header.`)
	checkCalls(t, "recipient in prose", res)
	if len(res.Rejections) != 0 || !strings.Contains(res.Text, "to=functions.read_file") {
		t.Errorf("the answer lost its text or got a correction: %q %v", res.Text, res.Rejections)
	}
}

func TestHarmonyQuotedTokensRule(t *testing.T) {
	res := recoverText(t, "<|channel|>final<|message|>The model writes `<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{\"command\":\"ls\"}<|call|>` and the server parses it.<|return|>")
	checkCalls(t, "call quoted in the final answer", res)
	if !strings.Contains(res.Text, "the server parses it") {
		t.Errorf("text %q", res.Text)
	}
	// Near miss: backquotes inside the analysis do not hide the call that
	// follows in its own message.
	checkCalls(t, "code span in the analysis",
		recoverText(t, "<|channel|>analysis<|message|>Run `ls` first.<|end|><|start|>assistant<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{\"command\":\"ls\"}<|call|>"),
		call{"bash", `{"command":"ls"}`})
	// Near miss: a lone backquote in the analysis pairs with one in the
	// final answer; the span crosses <|start|>, so it is not a quotation.
	checkCalls(t, "span across messages",
		recoverText(t, "<|channel|>analysis<|message|>Use ` to quote.<|end|><|start|>assistant<|channel|>commentary to=functions.bash<|message|>{\"command\":\"ls\"}<|call|><|start|>assistant<|channel|>final<|message|>Done ` ok<|return|>"),
		call{"bash", `{"command":"ls"}`})
}

func TestDriftedCloserRule(t *testing.T) {
	for _, m := range []string{"</parameter1>", "</parameter_function>"} {
		checkCalls(t, m,
			recoverText(t, "<tool_call>\n<function=read_file>\n<parameter=path>\na.md\n"+m+"\n<parameter=start>\n3\n</parameter>\n</function>\n</tool_call>"),
			call{"read_file", `{"path":"a.md","start":3}`})
	}
	// Near miss: another closing tag inside a value stays text.
	checkCalls(t, "</parameters> in a value",
		recoverText(t, "<tool_call>\n<function=write_file>\n<parameter=path>\na.xml\n</parameter>\n<parameter=content>\n<parameters></parameters>\n</parameter>\n</function>\n</tool_call>"),
		call{"write_file", `{"path":"a.xml","content":"<parameters></parameters>"}`})
}

func TestNestedMarkupInValueRule(t *testing.T) {
	inner := "<tool_call>\n<function=bash>\n<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>"
	checkCalls(t, "call markup inside content",
		recoverText(t, "<tool_call>\n<function=write_file>\n<parameter=path>\nd.md\n</parameter>\n<parameter=content>\nExample:\n"+inner+"\n</parameter>\n</function>\n</tool_call>"),
		call{"write_file", `{"path":"d.md","content":"Example:\n` + strings.ReplaceAll(inner, "\n", `\n`) + `"}`})
	two := inner + "\nthen\n" + strings.ReplaceAll(inner, "ls", "pwd")
	checkCalls(t, "two blocks inside content",
		recoverText(t, "<function=write_file>\n<parameter=path>\nd.md\n</parameter>\n<parameter=content>\n"+two+"\n</parameter>\n</function>"),
		call{"write_file", `{"path":"d.md","content":"` + strings.ReplaceAll(two, "\n", `\n`) + `"}`})
	// Near miss: a value whose closer is missing, followed by the next
	// call: two calls, as before (identical calls would be merged).
	next := strings.ReplaceAll(inner, "ls", "pwd")
	checkCalls(t, "missing closer before the next call",
		recoverText(t, "<tool_call>\n<function=bash>\n<parameter=command>\nls\n</function>\n</tool_call>\n"+next),
		call{"bash", `{"command":"ls"}`}, call{"bash", `{"command":"pwd"}`})
	// Near miss: markup that opens inside a value with no closer for the
	// value after it still ends the value.
	checkCalls(t, "nested block without the value's closer",
		recoverText(t, "<function=bash>\n<parameter=command>\nls\n"+next),
		call{"bash", `{"command":"ls"}`}, call{"bash", `{"command":"pwd"}`})
}

func TestSeedThinkRule(t *testing.T) {
	call1 := "<seed:tool_call>\n<function=bash>\n<parameter=command>\nmake\n</parameter>\n</function>\n</seed:tool_call>"
	checkCalls(t, "rehearsed in seed:think, made after",
		recoverText(t, "<seed:think>The format is "+call1+".</seed:think>"+call1),
		call{"bash", `{"command":"make"}`})
	res := recoverText(t, "<seed:think>It would be "+call1+" but no.</seed:think>Run make yourself.")
	checkCalls(t, "only in seed:think", res)
	if len(res.Rejections) != 0 {
		t.Errorf("corrections %v", res.Rejections)
	}
	// Near miss: a call after an unrelated tag is still a call.
	checkCalls(t, "seed:cot_budget_reflect is not reasoning",
		recoverText(t, "<seed:cot_budget_reflect>used 10 tokens</seed:cot_budget_reflect>"+call1),
		call{"bash", `{"command":"make"}`})
}

func TestTemplateNameRule(t *testing.T) {
	res := recoverText(t, "Hermes answers with:\n<tool_call>\n{\"name\": <function-name>, \"arguments\": <args-dict>}\n</tool_call>")
	checkCalls(t, "template", res)
	if len(res.Rejections) != 0 || !strings.Contains(res.Text, "<function-name>") {
		t.Errorf("the template was not left as the answer: %q %v", res.Text, res.Rejections)
	}
	// Near miss: an unknown tool with a real name is rejected.
	checkRejected(t, "unknown tool", recoverText(t, "<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {}}\n</tool_call>"), false, "get_weather")
}
