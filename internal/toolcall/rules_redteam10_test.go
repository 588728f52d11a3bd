package toolcall

import "testing"

// Round 10's red team: the cases of widened-adversarial-round10.jsonl; each
// negative must run nothing and get no correction, each call must run,
// each reject must be corrected (knownMisses aside).
func TestRedTeam10(t *testing.T) {
	checkCorpusFile(t, "testdata/widened-adversarial-round10.jsonl")
}

var rfWant = call{"read_file", `{"path":"main.go"}`}

// quotes_other_party: another party's output, a log the user sent, a
// format described or translated, a quoted text, the JSON the user asked
// for, a paste for the user, a plan not yet executed.
func TestRuleRedTeam10QuotesOtherParty(t *testing.T) {
	text := func(before string) {
		t.Helper()
		wantText(t, before, recoverText(t, before+"\n\n"+hermesRF+"\n\nThat is the whole story."))
	}
	runs := func(before string) {
		t.Helper()
		checkCalls(t, before, recoverText(t, before+"\n\n"+hermesRF), rfWant)
	}
	text("The subagent then did this:")
	text("The other model's reply was:")
	text("Another agent's answer, which you asked me to review:\n\nI'll read the file.")
	text("The issue author shows the raw completion:")
	text("Bad output from qwen2.5-coder:")
	text("The chat log you sent ends like this:\n\nUser: read it\n<|im_end|>\n<|im_start|>assistant")
	text("In the transcript you pasted, turn 3 is the culprit:")
	text("Here's the MiniMax format:")
	text("GLM writes the call without JSON:")
	text("Step 2 — the model emits:")
	text("The tool_use block, converted to Hermes, would be:")
	text("The docstring says:")
	text("The prompt's few-shot turn reads:\n\nassistant:")
	text("The JSON you asked for:")
	text("To try the proxy, paste this into the chat:")
	text("Here is my plan, not yet executed:")
	// A fenced quote is read the same way.
	wantText(t, "fenced", recoverText(t, "The subagent then did this:\n\n```xml\n"+hermesRF+"\n```"))

	// Near misses: the model's own step after the quoting words, on the
	// last line, or as a clause of the same line.
	runs("The subagent stopped halfway, so I'll rerun its last step myself:")
	runs("Another agent's answer was wrong.\n\nLet me read the file myself:")
	runs("Another agent's answer, which you asked me to review:\n\nit needs the file.\n\nReading it first:")
	runs("The issue author's fix touches main.go; opening it:")
	runs("In the log you pasted, the push was rejected. Let me check main.go first:")
	runs("GLM's output broke the build. Reading the entry point:")
	runs("To see what the model prints:")
	runs("To see what Go outputs:")
	runs("The docstring says the path is relative to the repo root, so:")
	runs("The JSON you asked for needs main.go, so I'll read it:")
	runs("Per the docs, the MiniMax format is this, and I'm calling it now:")
	runs("Here is my plan: read main.go, then fix it.")
	// A write_file whose content holds a quoting lead-in and a call runs.
	doc := "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {\"path\": \"docs/x.md\", \"content\": \"The subagent then did this:\\n\\n<tool_call>{}</tool_call>\\n\"}}\n</tool_call>"
	checkCalls(t, "a docs file holding the form", recoverText(t, "Writing the page:\n\n"+doc), call{"write_file", `{"path":"docs/x.md","content":"The subagent then did this:\n\n<tool_call>{}</tool_call>\n"}`})
	// An undeclared tool after a quoting lead-in is still not run, and
	// a cut call after the model's own lead-in is still corrected.
	wantText(t, "undeclared tool quoted", recoverText(t, "The subagent then did this:\n\n<tool_call>\n{\"name\": \"deploy\", \"arguments\": {}}\n</tool_call>\n\nThat is all."))
	res := Recover(Input{Content: "Let me read it:\n\n<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"ma", FinishReason: "length", Tools: toolsFor(t)})
	if len(res.Calls) != 0 || len(res.Rejections) == 0 {
		t.Errorf("cut call: calls %v rejections %v, want a correction", res.Calls, res.Rejections)
	}
}

// describes_a_call: a generic statement of what a call is.
func TestRuleRedTeam10DescribesCall(t *testing.T) {
	wantText(t, "each call is wrapped", recoverText(t, "## Calling tools\n\nEach call is wrapped in tags, one JSON object per call.\n\n"+hermesRF+"\n\nThe server strips the tags."))
	wantText(t, "a valid call is", recoverText(t, "A valid call is\n\n"+hermesRF+"\n\nbecause it names a declared tool."))
	wantText(t, "a minimal call looks like", recoverText(t, "A minimal call looks like:\n\n"+hermesRF))
	checkCalls(t, "near miss: the model's call described", recoverText(t, "My call is wrapped in tags as the template asks; reading the file:\n\n"+hermesRF), rfWant)
	checkCalls(t, "near miss: a heading over the model's step", recoverText(t, "## Step 1\n\nReading the entry point.\n\n"+hermesRF), rfWant)
	checkCalls(t, "near miss: the valid call is the model's", recoverText(t, "The earlier call was invalid; here is a valid one, I'll send it now:\n\n"+hermesRF), rfWant)
}

// wrong_right_pair: a "Right:" under a "Wrong:" line.
func TestRuleRedTeam10WrongRight(t *testing.T) {
	wantText(t, "pair", recoverText(t, "Wrong: `read_file main.go`\nRight:\n\n"+hermesRF))
	wantText(t, "pair with Incorrect/Correct", recoverText(t, "Incorrect: read_file(main.go)\n\nCorrect:\n\n"+hermesRF))
	checkCalls(t, "near miss: Right, as a discourse word", recoverText(t, "Right, the bug is in main.go. Reading it:\n\n"+hermesRF), rfWant)
	checkCalls(t, "near miss: the right one after the model's own mistake", recoverText(t, "Wrong path earlier; the right one is:\n\n"+hermesRF), rfWant)
	checkCalls(t, "near miss: Right: with no Wrong line", recoverText(t, "Right:\n\n"+hermesRF), rfWant)
}

// answer_label_then_object: "Answer:", the object, then "This is the
// object …".
func TestRuleRedTeam10AnswerLabel(t *testing.T) {
	wantText(t, "answer label and a description after", recoverText(t, "Answer:\n\n```json\n"+jsonRF+"\n```\n\nThis is the object your client should send."))
	wantText(t, "result label", recoverText(t, "Result:\n\n"+hermesRF+"\n\nThat is the exact payload the proxy expects."))
	checkCalls(t, "near miss: Answer: with the model's need", recoverText(t, "Answer: I need the file first.\n\n"+hermesRF), rfWant)
	checkCalls(t, "near miss: a label, nothing after", recoverText(t, "Answer:\n\n"+hermesRF), rfWant)
	checkCalls(t, "near miss: a sentence after that is not about the object", recoverText(t, "Answer:\n\n"+hermesRF+"\n\nThis is the first step."), rfWant)
}

// call_in_quotation_marks: markup between quotation marks on one line.
func TestRuleRedTeam10Quoted(t *testing.T) {
	one := "<tool_call>" + jsonRF + "</tool_call>"
	wantText(t, "straight quotes", recoverText(t, "Translate: \""+one+"\" stays as is."))
	wantText(t, "curly quotes", recoverText(t, "The string “"+one+"” is what the test feeds the parser."))
	wantText(t, "guillemets", recoverText(t, "La chaîne «"+one+"» reste telle quelle."))
	checkCalls(t, "near miss: a quote mark only before", recoverText(t, "Reading \"main.go\":\n"+one), rfWant)
	checkCalls(t, "near miss: a quoted word after the call", recoverText(t, "Reading it:\n"+one+"\n\"done\""), rfWant)
}

// Lead-ins of the model's own step that read like the quoting words of
// quotes_other_party: they still run.
func TestRuleRedTeam10OwnStepsRun(t *testing.T) {
	for _, before := range []string{
		"The server writes its logs to main.go, oddly:",
		"The README says to read main.go first:",
		"The agent said to read main.go:",
		"The migration has not yet run, so:",
		"The model's output was cut off; rerunning:",
		"Opening the file the other agent wrote:",
		"Reading the log you sent:",
		"Converting it to the new format:",
	} {
		checkCalls(t, before, recoverText(t, before+"\n\n"+hermesRF), rfWant)
	}
}

// The lead-in rules hold for every format whose reader asks notIntended:
// call markup, bare JSON, Mistral's, Qwen3-Coder's, pythonic, GLM's,
// Cline's XML, Continue's tool block, and a ReAct step (corrected, not run,
// when it is the model's own).
func TestRuleRedTeam10AcrossFormats(t *testing.T) {
	forms := map[string]string{
		"cline":      "<read_file>\n<path>main.go</path>\n</read_file>",
		"bare json":  jsonRF,
		"mistral":    `[TOOL_CALLS]read_file[ARGS]{"path": "main.go"}`,
		"qwen3coder": "<function=read_file>\n<parameter=path>\nmain.go\n</parameter>\n</function>",
		"continue":   "```tool\nTOOL_NAME: read_file\nBEGIN_ARG: path\nmain.go\nEND_ARG\n```",
		"pythonic":   `[read_file(path="main.go")]`,
		"glm":        "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>main.go</arg_value>\n</tool_call>",
	}
	const react = "Action: read_file\nAction Input: {\"path\": \"main.go\"}"
	for _, lead := range []string{"The subagent then did this:", "Here's the MiniMax format:", "The docstring says:", "Bad output from qwen:", "GLM writes the call without JSON:"} {
		for name, f := range forms {
			wantText(t, lead+" "+name, recoverText(t, lead+"\n\n"+f+"\n\nThat is all there is to it."))
		}
		wantText(t, lead+" react", recoverText(t, lead+"\n\n"+react+"\n\nThat is all there is to it."))
	}
	for name, f := range forms {
		checkCalls(t, "near miss: own step, "+name, recoverText(t, "The subagent stopped, so I'll do it myself:\n\n"+f), rfWant)
	}
	checkRejected(t, "near miss: own step, react", recoverText(t, "The subagent stopped, so I'll do it myself:\n\n"+react), false, "ReAct")
}
