package toolcall

import "testing"

func TestRuleQwenAgentFncall(t *testing.T) {
	checkCalls(t, "one call", recoverText(t, "✿FUNCTION✿: read_file\n✿ARGS✿: {\"path\": \"go.mod\"}"),
		call{"read_file", `{"path":"go.mod"}`})
	checkCalls(t, "text glued before it, a made-up result after",
		recoverText(t, "I need the file✿FUNCTION✿: read_file\n✿ARGS✿: {\"path\": \"a.go\"}\n✿RESULT✿: package a"),
		call{"read_file", `{"path":"a.go"}`})
	checkCalls(t, "two calls", recoverText(t, "✿FUNCTION✿: read_file\n✿ARGS✿: {\"path\": \"a.go\"}\n✿FUNCTION✿: bash\n✿ARGS✿: {\"command\": \"ls\"}"),
		call{"read_file", `{"path":"a.go"}`}, call{"bash", `{"command":"ls"}`})
	checkRejected(t, "no arguments", recoverText(t, "✿FUNCTION✿: bash"), false, "command")
	wantText(t, "near miss: fenced", recoverText(t, "```\n✿FUNCTION✿: bash\n✿ARGS✿: {\"command\": \"ls\"}\n```"))
	wantText(t, "near miss: shown as the format", recoverText(t, "Qwen-Agent's format looks like this:\n✿FUNCTION✿: bash\n✿ARGS✿: {\"command\": \"ls\"}"))
	wantText(t, "near miss: prose after the arguments", recoverText(t, "✿FUNCTION✿: bash\n✿ARGS✿: {\"command\": \"ls\"}\nis how Qwen-Agent writes a call."))
}

func TestRuleMistralArgsWithoutBrace(t *testing.T) {
	checkRejected(t, "the object's brace lost", recoverText(t, `[TOOL_CALLS]bash[ARGS]"command": "ls"}`), false, "opening")
	wantText(t, "near miss: prose after [ARGS]", recoverText(t, `[TOOL_CALLS]bash[ARGS] is the marker order`))
}

func TestRuleCutCallObject(t *testing.T) {
	in := Input{Content: `{"function": {"_name": "write_file", "path": "a.md", "content": "long text`, FinishReason: "length", Tools: toolsFor(t)}
	checkRejected(t, "a call object cut by the token limit", Recover(in), true, "")
	in.Content = `{"title": "Report", "body": "long text`
	if r := Recover(in); len(r.Rejections) != 0 || len(r.Calls) != 0 {
		t.Errorf("near miss: a cut JSON answer got %v %v", r.Calls, r.Rejections)
	}
}

func TestRuleClosedByCallCloser(t *testing.T) {
	checkCalls(t, "a list's ] missing before the closer",
		recoverText(t, `<TOOLCALL>[{"name": "read_file", "arguments": {"path": "a.go"}}</TOOLCALL>`),
		call{"read_file", `{"path":"a.go"}`})
	checkRejected(t, "near miss: cut by the turn's end, not the call's",
		recoverText(t, `<tool_call>{"name": "read_file", "arguments": {"path": "a.go"<|im_end|>`), true, "")
	if r := recoverText(t, `<tool_call>{"name": "read_file", "arguments": {"path":</tool_call><｜tool▁output▁begin｜>{"output": "ok"}<｜tool▁output▁end｜>`); len(r.Calls) != 0 || len(r.Rejections) == 0 {
		t.Errorf("near miss: a made-up result's end closes nothing: calls %v, rejections %v", r.Calls, r.Rejections)
	}
}

func TestRuleXMLCDATAValue(t *testing.T) {
	checkCalls(t, "a CDATA value", recoverText(t, "<write_file>\n<path>a.ts</path>\n<content><![CDATA[if (a < b) {}]]></content>\n</write_file>"),
		call{"write_file", `{"path":"a.ts","content":"if (a < b) {}"}`})
	checkCalls(t, "near miss: CDATA inside a longer value is kept", recoverText(t, "<write_file>\n<path>a.xml</path>\n<content><x><![CDATA[1]]></x></content>\n</write_file>"),
		call{"write_file", `{"path":"a.xml","content":"<x><![CDATA[1]]></x>"}`})
}

func TestRuleClineXMLBlocks(t *testing.T) {
	two := "I'll read both.\n\n<read_file>\n<path>a.ts</path>\n</read_file>\n\nNow let me check the other file.\n\n<read_file>\n<path>b.ts</path>\n</read_file>"
	r := recoverText(t, two)
	checkCalls(t, "two blocks, a step between", r, call{"read_file", `{"path":"a.ts"}`}, call{"read_file", `{"path":"b.ts"}`})
	if r.Text != "I'll read both.\n\nNow let me check the other file." {
		t.Errorf("text %q, want the prose without the blocks", r.Text)
	}
	checkCalls(t, "near miss: a description after the first block",
		recoverText(t, "Roo reads a file so:\n\n<read_file>\n<path>a.ts</path>\n</read_file>\n\nThe first file was empty.\n\n<read_file>\n<path>b.ts</path>\n</read_file>"),
		call{"read_file", `{"path":"b.ts"}`})
}

func TestRuleParserExample(t *testing.T) {
	c := "<|tool_call_start|>[read_file(path='a.go')]<|tool_call_end|>"
	wantText(t, "an Examples: label", recoverText(t, "Examples: raw model output\n\n"+c))
	wantText(t, "parses to", recoverText(t, "Raw output:\n\n```\n"+c+"\n```\n\nparses to\n\n```\n{}\n```"))
	checkCalls(t, "near miss: a step after the call", recoverText(t, "Let me read it.\n"+c), call{"read_file", `{"path":"a.go"}`})
}

func TestRuleCommandNameOnly(t *testing.T) {
	checkRejected(t, "an action with no parameters", recoverText(t, `<|START_ACTION|>{"tool_name": "bash"}<|END_ACTION|>`), false, "command")
}
