package toolcall

import "testing"

// Round 11's red team: the cases of widened-adversarial-round11.jsonl; each
// negative must run nothing and get no correction, each call must run,
// each reject must be corrected (knownMisses aside).
func TestRedTeam11(t *testing.T) {
	checkCorpusFile(t, "testdata/widened-adversarial-round11.jsonl")
}

// leadTable runs each lead-in before a Hermes read_file call: run says
// whether the call must run or the text stay the answer.
func leadTable(t *testing.T, rows []struct {
	name, lead string
	run        bool
}) {
	t.Helper()
	for _, r := range rows {
		res := recoverText(t, r.lead+"\n\n"+hermesRF)
		if r.run {
			checkCalls(t, r.name, res, call{"read_file", `{"path":"main.go"}`})
		} else {
			wantText(t, r.name, res)
		}
	}
}

// behaviour_then_step (and the pointing-back narrowing of the purpose
// exemption).
func TestRuleRedTeam11BehaviourThenStep(t *testing.T) {
	leadTable(t, []struct {
		name, lead string
		run        bool
	}{
		{"a model's behaviour, so the next file", "The model produces NaN losses after step 3, so the training script is next:", true},
		{"an agent's bug, because …", "Found it — the agent prints the tool output twice because render is called in two places:", true},
		{"a bot's bug, then a semicolon", "The agent posts the review comment twice; the webhook handler:", true},
		{"a dash between clauses", "The bot answers every message twice — the dispatcher is the suspect:", true},
		{"near miss: another agent's step, 'did this'", "The subagent then did this:", false},
		{"near miss: 'ran this because'", "The agent ran this because you told it to:", false},
		{"near miss: present tense, 'prints this, so'", "The agent prints this, so the loop never ends:", false},
		{"near miss: 'prints the following; …'", "The agent prints the following; the loop never ends:", false},
		{"near miss: the clause points back", "The agent runs git push --force on every commit, so this is what it sends:", false},
		{"near miss: the clause names its call", "The model writes JSON on every turn, so the call it made:", false},
		{"near miss: the clause quotes", "The agent prints twice, so its output:", false},
		{"near miss: a past report with a break", "The subagent then wrote this, so the file is wrong now:", false},
		{"near miss: no break", "The model emits:", false},
		{"near miss: the clause names the exact call", "The agent emits `git push --force` on every turn; the exact call:", false},
		{"near miss: a verb of acting, the command shown", "The agent runs git push --force after each commit; the hook:", false},
	})
}

// behaviour_then_step on userLogRe's line.
func TestRuleRedTeam11UserLogThenStep(t *testing.T) {
	leadTable(t, []struct {
		name, lead string
		run        bool
	}{
		{"the screenshot described, so the step", "The screenshot you sent shows port 8080 in use, so the process holding it:", true},
		{"near miss: the log ends like this", "The chat log you sent ends like this:", false},
		{"near miss: a comma only", "In the log you pasted, line 14 is the problem:", false},
		{"near miss: so the call it made", "The trace you pasted ends like this, so the call it made:", false},
		{"near miss: the clause quotes the log", "The session you shared has a stale lock; its log:", false},
	})
}

// describes_a_call_markup.
func TestRuleRedTeam11DescribesCallMarkup(t *testing.T) {
	leadTable(t, []struct {
		name, lead string
		run        bool
	}{
		{"calls wrapped in a helper", "Every call is wrapped in withRetry, which is defined in retry.go:", true},
		{"calls wrapped in a loop", "Each request is sent twice because each call is wrapped in a second retry loop.", true},
		{"calls marked with a span", "Each tool call is marked with a span in tracing.go, so the missing span must be there:", true},
		{"near miss: wrapped in tags", "Every call is wrapped in tags:", false},
		{"near miss: wrapped in a tag named", "Each call is wrapped in <tool_call> tags, one JSON object per call.", false},
		{"calls wrapped in a retry block", "Each call is wrapped in a retry block, which swallows the error:", true},
		{"near miss: wrapped, nothing named", "Each call is wrapped.", false},
		{"near miss: enclosed in special tokens", "A call is enclosed in special tokens:", false},
		{"near miss: wrapped in a code-named tag", "Every call is wrapped in `<tool_call>` markers:", false},
	})
}

// software_version.
func TestRuleRedTeam11SoftwareVersion(t *testing.T) {
	runs := func(name, lead, cmd string) {
		t.Helper()
		checkCalls(t, name, recoverText(t, lead+"\n\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \""+cmd+"\"}}\n</tool_call>"), call{"bash", `{"command":"` + cmd + `"}`})
	}
	runs("the installed version", "The go.mod asks for 1.22; the installed version:", "go version")
	runs("the new version", "The lockfile pins an old version; upgrading to the new version:", "npm install lodash@4.17.21")
	runs("the latest release", "The linter is stale; the latest release:", "go install golang.org/x/lint@latest")
	leadTable(t, []struct {
		name, lead string
		run        bool
	}{
		{"near miss: a format's new version", "The new Hermes version:", false},
		{"near miss: a possessive", "Qwen's version:", false},
		{"near miss: a format's name", "The MiniMax variant:", false},
	})
}

// own_gerund_step, on quotes_exact_output and on a demonstration lead.
func TestRuleRedTeam11OwnGerundStep(t *testing.T) {
	leadTable(t, []struct {
		name, lead string
		run        bool
	}{
		{"the following text", "Updating the golden file to the following text:", true},
		{"this output", "Regenerating the fixture from this output:", true},
		{"this input", "Checking the endpoint with this input:", true},
		{"this way", "Clearing the module cache this way:", true},
		{"now, then a gerund", "Now restoring the backup this way:", true},
		{"near miss: quoting", "Quoting the server's reply, this exact output:", false},
		{"near miss: showing", "Showing the format like this:", false},
		{"near miss: explaining", "Explaining it with this input:", false},
		{"near miss: a gerund as a clause's subject", "Running it this way would wipe the disk, so not like this:", false},
		{"near miss: the object is a call", "Building a tool call like this:", false},
		{"near miss: the object is the format", "Formatting the call this way:", false},
		{"near miss: no gerund", "The parser test feeds it this exact output:", false},
		{"near miss: a word in -ing that is no gerund", "Something like this:", false},
		{"near miss: a step refused", "Reinstalling ruins the setup, so not this way:", false},
		{"near miss: a usage shown", "Using the tool like this:", false},
		{"near miss: a format followed", "Following the format, like this:", false},
	})
}

// step_after_paste.
func TestRuleRedTeam11StepAfterPaste(t *testing.T) {
	leadTable(t, []struct {
		name, lead string
		run        bool
	}{
		{"a gerund step after a semicolon", "You pasted the panic; opening main.go, where it starts:", true},
		{"a gerund step after a dash", "You sent the CI log — reading main.go first:", true},
		{"near miss: the paste alone", "You pasted this from the chat window:", false},
		{"near miss: a gerund as a subject", "You pasted this from the chat window; running it would wipe the disk:", false},
		{"near miss: a gerund of quoting", "You sent this; quoting it in full:", false},
		{"near miss: a comma, not a break", "You pasted this, reading from the top:", false},
	})
}

// own_markup_retry.
func TestRuleRedTeam11OwnMarkupRetry(t *testing.T) {
	leadTable(t, []struct {
		name, lead string
		run        bool
	}{
		{"the previous block, again", "The previous <tool_call> block was cut off, so again with the full content:", true},
		{"my last tags, retrying", "My last tool_call tags were unbalanced, so retrying:", true},
		{"near miss: a README example corrected", "The tool_call block in the README example was wrong; corrected:", false},
		{"near miss: another model's block", "The model's previous tool_call block was cut off in the log, so the full one:", false},
		{"near miss: no retry word", "The previous <tool_call> block was cut off, so the full one:", false},
		{"near miss: the format taught", "A tool_call block is written like this, again:", false},
		{"near miss: a log named before a colon", "In the log: the previous tool_call block was cut off, so again:", false},
		{"near miss: your block", "Your previous tool_call block was malformed; corrected:", false},
		{"a README named on the line above", "The README says to run make; here it is:\nThe previous <tool_call> block was cut off, so again with the full content:", true},
		{"near miss: a log opened on the line above", "The log you sent ends like this:\nThe previous <tool_call> block was cut off, so again:", false},
	})
	checkRejected(t, "the retry with no command is corrected", recoverText(t, "The previous <tool_call> block was cut off, so again:\n\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {}}\n</tool_call>"), false, "command")
}
