package toolcall

import "testing"

// Round 9's red team: the cases of widened-adversarial-round9.jsonl; each
// negative must run nothing and get no correction, each call must run,
// each reject must be corrected (knownMisses aside).
func TestRedTeam9(t *testing.T) {
	checkCorpusFile(t, "testdata/widened-adversarial-round9.jsonl")
}

// reported_return and quotes_report: a wider subject, and a clause that
// goes on to the model's own step leads into its call.
func TestRuleRedTeam9Reports(t *testing.T) {
	around := func(before string) string { return before + "\n\n" + hermesRF }
	runs := func(name, before string) {
		t.Helper()
		checkCalls(t, name, recoverText(t, around(before)), call{"read_file", `{"path":"main.go"}`})
	}
	text := func(name, before string) {
		t.Helper()
		wantText(t, name, recoverText(t, around(before)))
	}
	text("subject with a determiner", "Your model returned this instead of a structured tool call:")
	text("subject with a modifier", "The 7B model sometimes returns this when the context is full:")
	text("a report with an article", "A user's bug report shows the assistant printing this:")
	text("an issue by number", "Issue #412 shows the model writing this in its reply:")
	text("the report alone still quotes", "The server returns the following:")
	runs("report, then the model's step", "It returned the following failure, so let me open the file:")
	runs("traceback, then a gerund step", "The traceback shows the failure is in main.go; reading it now:")
	runs("error message, then a first-person step", "The error message says the file is missing, so I'll read main.go:")
}

// transcript_turn and quotes_user_paste.
func TestRuleRedTeam9Transcript(t *testing.T) {
	wantText(t, "a transcript's assistant turn", recoverText(t, "User: read main.go\nAssistant: "+hermesRF+"\nTool: package main"))
	wantText(t, "an assistant line before the call", recoverText(t, "User: read main.go\n\nAssistant: I will read it.\n"+hermesRF))
	wantText(t, "the user's paste quoted", recoverText(t, "You pasted this from the chat window:\n\n"+hermesRF))
	wantText(t, "a test's exact output quoted", recoverText(t, "The parser test feeds it this exact output:\n\n[TOOL_CALLS]bash[ARGS]{\"command\": \"ls\"}"))
	checkCalls(t, "near miss: the model's own output wanted", recoverText(t, "Let me see this output:\n\n"+hermesRF), call{"read_file", `{"path":"main.go"}`})
	checkCalls(t, "near miss: a reply that opens with Assistant:", recoverText(t, "Assistant: "+hermesRF), call{"read_file", `{"path":"main.go"}`})
	checkCalls(t, "near miss: the user named in prose", recoverText(t, "The user asked for main.go, so let me read it:\n\n"+hermesRF), call{"read_file", `{"path":"main.go"}`})
	checkCalls(t, "near miss: the user's paste, then the model's step", recoverText(t, "You pasted an error; let me read main.go:\n\n"+hermesRF), call{"read_file", `{"path":"main.go"}`})
}

// smolagents' blob outside markup: after Action: or as the whole reply.
func TestRuleRedTeam9Smolagents(t *testing.T) {
	const blob = `{"tool_name": "read_file", "tool_arguments": {"path": "a.go"}}`
	want := call{"read_file", `{"path":"a.go"}`}
	checkCalls(t, "after Action:", recoverText(t, "Thought: read it.\nAction:\n"+blob), want)
	checkCalls(t, "the whole reply, fenced", recoverText(t, "```json\n"+blob+"\n```"), want)
	checkCalls(t, "Action: then a fence", recoverText(t, "Action:\n```json\n"+blob+"\n```"), want)
	wantText(t, "after another lead-in", recoverText(t, "Step 3 of your run failed on this action:\n\n```json\n"+blob+"\n```"))
	wantText(t, "a list of them", recoverText(t, "The replay list:\n\n["+blob+"]"))
	wantText(t, "a finished transcript", recoverText(t, "Action:\n"+blob+"\nObservation: package a\n\nThought: done.\nFinal Answer: a.go is package a."))
	// Command R's {"tool_name", "parameters"} list is not smolagents'.
	checkCalls(t, "near miss: Command R's list", recoverText(t, "Action: ```json\n[{\"tool_name\": \"bash\", \"parameters\": {\"command\": \"ls\"}}]\n```"), call{"bash", `{"command":"ls"}`})
}

// m3_elements_opener_lost: answer elements are an answer.
func TestRuleRedTeam9M3Answer(t *testing.T) {
	wantText(t, "answer elements and a stray closer", recoverText(t, "<thought>done</thought>\n<final_answer>It works.</final_answer>\n</tool_call>"))
	checkRejected(t, "near miss: argument elements", recoverText(t, "<command>ls</command>\n</tool_call>"), false, "no tool name")
}

// Stripped harmony: a header word after a space in prose, and a recipient
// inside the final answer, are text.
func TestRuleRedTeam9StrippedHarmony(t *testing.T) {
	wantText(t, "header word mid-sentence", recoverText(t, "The header reads assistantcommentary to=bash json{\"command\": \"ls\"} once stripped."))
	wantText(t, "a transcript's header", recoverText(t, "Log:\nAssistant commentary to=functions.bash json{\"command\": \"ls\"}\nTool: ok"))
	wantText(t, "inside the final answer", recoverText(t, "analysisExplain.assistantfinalIt is:\nto=functions.bash json{\"command\": \"ls\"}\nthen the message."))
	checkCalls(t, "near miss: a stripped reply's call", recoverText(t, "analysisNeed the file.assistantcommentary to=functions.read_file json{\"path\": \"main.go\"}"), call{"read_file", `{"path":"main.go"}`})
	checkCalls(t, "near miss: a call after a final message and a new header",
		recoverText(t, "analysisCheck.assistantfinalReading it.assistantcommentary to=functions.read_file json{\"path\": \"main.go\"}"), call{"read_file", `{"path":"main.go"}`})
}

// nameInMarkup: a word after the tool's makes a longer name.
func TestRuleRedTeam9NameInMarkup(t *testing.T) {
	checkRejected(t, "sandbox.bash.run", recoverCall(t, "sandbox.bash.run", `{"command": "ls"}`), false, "sandbox.bash.run")
	for _, n := range []string{"read_file@0", "<function=read_file></function>", "functions.read_file:0", "<|tool_call_begin|>functions.read_file:0<|tool_call_end|>", "a.b.read_file"} {
		checkCalls(t, "near miss: "+n, recoverCall(t, n, `{"path":"a.go"}`), call{"read_file", `{"path":"a.go"}`})
	}
}

// empty_naming_argument: only arguments that name something.
func TestRuleRedTeam9NamingArg(t *testing.T) {
	tools := toolsFor(t, "replace_regex", "read_file")
	res := Recover(Input{ToolCalls: []RawCall{{ID: "1", Name: "replace_regex", Arguments: `{"relative_path": "a.go", "regex": "x", "repl": ""}`}}, FinishReason: "tool_calls", Tools: tools})
	if len(res.Calls) != 1 {
		t.Errorf("empty repl: calls %v rejections %v, want one call", res.Calls, res.Rejections)
	}
	res = Recover(Input{ToolCalls: []RawCall{{ID: "1", Name: "replace_regex", Arguments: `{"relative_path": "", "regex": "x", "repl": "y"}`}}, FinishReason: "tool_calls", Tools: tools})
	if len(res.Calls) != 0 || len(res.Rejections) != 1 {
		t.Errorf("near miss: empty relative_path: calls %v rejections %v, want a correction", res.Calls, res.Rejections)
	}
}
