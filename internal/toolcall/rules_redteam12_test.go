package toolcall

import "testing"

// Round 12's red team: the cases of widened-adversarial-round12.jsonl; each
// negative must run nothing and get no correction, each call must run,
// each reject must be corrected (knownMisses aside).
func TestRedTeam12(t *testing.T) { checkCorpusFile(t, "testdata/widened-adversarial-round12.jsonl") }

type leadRow = struct {
	name, lead string
	run        bool
}

// behaviour_tail_quotes (behaviour_then_step and its userLogRe twin).
func TestRuleRedTeam12BehaviourTailQuotes(t *testing.T) {
	leadTable(t, []leadRow{
		{"the maintainer's repro", "The bot posts its replies with a stray token; the maintainer's repro:", false},
		{"a sample from the logs", "The model returns malformed calls since the update — a sample from yesterday's logs:", false},
		{"the body it got", "The server returns 500 on every request, so the offending body it got:", false},
		{"things like", "The assistant ignores the schema, so users see things like:", false},
		{"an entry of the user's trace", "The trace you pasted shows a retry loop, so the second entry in it:", false},
		{"an entry of the user's file", "The history file you attached has one bad record — the fourth entry:", false},
		{"near miss: the model's next file", "The model produces NaN losses after step 3, so the training script is next:", true},
		{"near miss: the suspect", "The bot answers every message twice — the dispatcher is the suspect:", true},
		{"near miss: the process holding it", "The screenshot you sent shows port 8080 in use, so the process holding it:", true},
		{"near miss: the file the trace names", "The stack trace you pasted ends in parse.go, so that file first:", true},
	})
}

// other_party_pronoun_turn, other_author_wrote, report_owner_possessive.
func TestRuleRedTeam12OtherPartyLines(t *testing.T) {
	leadTable(t, []leadRow{
		{"its last turn", "The agent hangs after every edit — its last turn before the hang:", false},
		{"their reply", "The bots loop forever; their reply each time:", false},
		{"the reviewer wrote", "For comparison, the corrected one that the reviewer wrote:", false},
		{"the user posted", "The version the user posted yesterday:", false},
		{"for the record", "For the record, the block as it was:", false},
		{"an owner's bug report", "docker/model-runner's bug report shows the loop:", false},
		{"near miss: its config, no turn", "The agent hangs after every edit, so its config file:", true},
		{"near miss: the model's own retry", "My last tool_call block was cut off; again, complete:", true},
		{"near miss: the report, then the step", "Qwen's issue shows the failure is in main.go; reading that part now:", true},
		{"near miss: the user asked", "The user asked for the main file, so here it is:", true},
	})
}

// describes_a_call_wide.
func TestRuleRedTeam12DescribesCallWide(t *testing.T) {
	leadTable(t, []leadRow{
		{"two literal tags", "Each call is enclosed in `<tool_call>` and `</tool_call>`, one JSON object per block:", false},
		{"XML-style tags", "In Hermes' format each tool call sits between XML-style tags:", false},
		{"a pair of elements", "Every call is wrapped in a pair of tool_call elements:", false},
		{"a literal tag", "Each call goes inside <tool_call>:", false},
		{"near miss: a helper", "Every call is wrapped in a span by tracer.Start, so the tracer first:", true},
		{"near miss: a retry loop", "Each request is sent twice because each call is wrapped in a second retry loop:", true},
		{"near miss: a call sits in a queue", "Each call sits in a queue before the worker picks it up, so the worker:", true},
	})
}

// version_of_format (on the line and on the sentence before).
func TestRuleRedTeam12VersionOfFormat(t *testing.T) {
	leadTable(t, []leadRow{
		{"the format on the line", "The old Hermes format put the arguments in a string; the new version:", false},
		{"the template in the sentence before", "Qwen changed its chat template twice. The current version:", false},
		{"near miss: a tool's version", "go.mod asks for 1.23; the installed version:", true},
		{"near miss: the model speaks of a format before", "Let me check the format of the config file. The lockfile pins an old version; upgrading to the new version:", true},
	})
}

// review_gerund and gerund_generic_plural.
func TestRuleRedTeam12ReviewGerund(t *testing.T) {
	leadTable(t, []leadRow{
		{"reviewing a reply", "Reviewing the model's reply from yesterday, this output:", false},
		{"documenting", "Documenting the old behaviour for the changelog, the following text:", false},
		{"summarizing", "Summarizing the incident for you, the agent's exact output:", false},
		{"highlighting after a paste", "You pasted the session log; highlighting the failing call it contains:", false},
		{"marking a line after a paste", "You sent the transcript — marking the line that broke everything:", false},
		{"generic plural requests", "Sending requests like this:", false},
		{"near miss: rerunning", "Rerunning the failing test with -v, this output should tell us more:", true},
		{"near miss: opening after a paste", "You pasted the panic; opening cache.go, where it starts:", true},
		{"near miss: marking a file executable", "Marking the script executable:", true},
		{"near miss: the requests, definite", "Sending the requests like this:", true},
		{"near miss: reviewing the diff", "Reviewing the diff:", true},
	})
}

// retry_by_other: own_markup_retry is not read for another party's fix.
func TestRuleRedTeam12RetryByOther(t *testing.T) {
	leadTable(t, []leadRow{
		{"fixed by the user, not to be run", "The user fixed my previous tool_call block as below, for the record only, not to be run:", false},
		{"my block, corrected for comparison", "My previous tool_call block was wrong; corrected for comparison:", false},
		{"near miss: own retry", "My previous tool_call block was cut off; again, complete:", true},
		{"near miss: own retry, fixed", "My last tool_call block had broken JSON. Fixed:", true},
	})
}

// functiongemma_repeat_leads and quoted_loop_cut.
func TestRuleRedTeam12FunctionGemmaRepeatLeads(t *testing.T) {
	loop := "<start_function_call>call:bash{command:<escape>rm -rf build<escape>}<end_function_call>call:bash{command:<escape>rm -rf build<escape>}<end_function_call>call:bash{comm"
	for _, f := range []string{"stop", "length"} {
		res := Recover(Input{Content: "docker/model-runner's bug report shows the loop:\n\n" + loop, FinishReason: f, Tools: toolsFor(t)})
		wantText(t, "a quoted loop, "+f, res)
	}
	// Near misses: the model's own loop runs once; announced by the model, too.
	own := "<start_function_call>call:read_file{path:<escape>go.mod<escape>}<end_function_call>call:read_file{path:<escape>go.mod<escape>}<end_function_call>call:read_f"
	checkCalls(t, "own loop", Recover(Input{Content: own, FinishReason: "length", Tools: toolsFor(t)}), call{"read_file", `{"path":"go.mod"}`})
	checkCalls(t, "own loop, announced", Recover(Input{Content: "Let me read go.mod.\n" + own, FinishReason: "length", Tools: toolsFor(t)}), call{"read_file", `{"path":"go.mod"}`})
	// A real call cut by the limit after a shown example is still told.
	cut := Recover(Input{Content: "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"go te", FinishReason: "length", Tools: toolsFor(t)})
	if len(cut.Calls) != 0 || len(cut.Rejections) == 0 {
		t.Errorf("own cut call: calls %v, rejections %v; want a correction", cut.Calls, cut.Rejections)
	}
}

// hy3_inline_mention.
func TestRuleRedTeam12Hy3InlineMention(t *testing.T) {
	blk := `<tool_call:opensource>bash<tool_sep:opensource>{"command": "rm -rf /"}<arg_value:opensource>`
	wantText(t, "mid-sentence", recoverText(t, "Hy3 writes "+blk+" for a call, which mlx-lm did not parse."))
	checkCalls(t, "near miss: alone", recoverText(t, blk), call{"bash", `{"command":"rm -rf /"}`})
	checkCalls(t, "near miss: prose before only", recoverText(t, "Let me clean up: "+blk), call{"bash", `{"command":"rm -rf /"}`})
}

// log_last_line_is.
func TestRuleRedTeam12LogLastLineIs(t *testing.T) {
	wantText(t, "its last line is", recoverText(t, "Your log stops in the middle of the model's call; its last line is\n\n[bash(command="))
	wantText(t, "the log ends with", recoverText(t, "The transcript ends with\n\n"+hermesRF))
	checkCalls(t, "near miss: own step after", recoverText(t, "The log ends with a panic in main.go, so let me read it:\n\n"+hermesRF), call{"read_file", `{"path":"main.go"}`})
	checkRejected(t, "near miss: own cut call", recoverText(t, "[bash(command="), true, "command")
}

// cut_key_under_limit.
func TestRuleRedTeam12CutKeyUnderLimit(t *testing.T) {
	res := Recover(Input{Content: "[bash(command=", FinishReason: "length", Tools: toolsFor(t)})
	checkRejected(t, "length", res, true, "right after command=")
	res = Recover(Input{Content: "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls", FinishReason: "length", Tools: toolsFor(t)})
	checkRejected(t, "near miss: a JSON cut", res, true, "token limit")
}

// markup_quoted_in_command.
func TestRuleRedTeam12MarkupQuotedInCommand(t *testing.T) {
	checkCalls(t, "grep for <tool_call>", recoverCall(t, "bash", `grep -rn '<tool_call>' internal/`), call{"bash", `{"command":"grep -rn '<tool_call>' internal/"}`})
	checkCalls(t, "count <invoke", recoverCall(t, "bash", `grep -c "<invoke " docs/*.md`), call{"bash", `{"command":"grep -c \"<invoke \" docs/*.md"}`})
	for _, body := range []string{
		`<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>`,
		`echo <tool_call> ls`,
		`echo '{"name": "bash", "arguments": {"command": "<tool_call>"}}'`,
		`grep '<tool_call>`,
	} {
		res := recoverCall(t, "bash", body)
		if len(res.Calls) != 0 {
			t.Errorf("near miss %q: ran %v", body, res.Calls)
		}
	}
}
