package toolcall

import "testing"

// Tests for rule "the model acts" (rule_leadin.go): the lead-ins that
// TestLeadInSweep found suppressed, each with the answers the phrase was
// written for, which must still stay text.

const hermesRF = "<tool_call>\n" + jsonRF + "\n</tool_call>"

func TestRuleLeadInModelActs(t *testing.T) {
	runs := func(name, before, after string) {
		t.Helper()
		s := before + "\n\n" + hermesRF
		if after != "" {
			s += "\n\n" + after
		}
		checkCalls(t, name, recoverText(t, s), call{"read_file", `{"path":"main.go"}`})
	}
	text := func(name, before, after string) {
		t.Helper()
		s := before + "\n\n" + hermesRF
		if after != "" {
			s += "\n\n" + after
		}
		wantText(t, name, recoverText(t, s))
	}
	// failedCallRe: a failed call run again.
	runs("failed, again", "Now, let me run the command that failed again:", "")
	runs("timed out, rerun", "I'll rerun the command that timed out:", "")
	runs("failed, after", "Reading it now:", "I'll rerun the call that failed after this.")
	text("failed, quoted", "The last line of the agent log you pasted is the call that failed:", "")
	text("failed, shown", "Let me show you the call that failed:", "")
	// notMadeRe, pastRe: the step now taken follows the negated or past one.
	runs("haven't run, so let me", "I haven't run these tests yet, so let me run them now:", "")
	runs("didn't run; running", "I didn't run them before; running them now:", "")
	runs("have made, so let me", "I have made this change, so let me verify it:", "")
	runs("command I ran, rerun", "Let me rerun the command I ran earlier with -v:", "")
	text("won't run", "I won't run these commands:", "")
	text("haven't run it", "I haven't run it, but here it is:", "")
	text("haven't run, once you confirm", "I haven't run it yet; I'll run it once you confirm:", "")
	text("command I ran", "Here's the command I ran:", "")
	text("command I ran, shown", "Let me show you the command I ran:", "")
	text("can't run, you run", "I can't run commands, so you will need to run this:", "")
	// exampleWideRe, quotedReplyRe, formatDescRe, specAsksRe: what the call
	// will show.
	runs("see what it looks like", "Let me see what the directory looks like:", "")
	runs("check how it looks", "Let me check how it looks:", "")
	runs("run this example", "Let me run this example:", "")
	runs("see what it printed", "Let me see what it printed:", "")
	runs("see what it output", "I'll rerun the build to see what it output:", "")
	runs("output starts with", "Let me check why the output starts with an error:", "")
	runs("checking what the parser expects", "Checking what the parser expects now:", "")
	runs("after: how it looks", "Reading it now:", "Let's see how it looks.")
	text("looks like", "A call looks like this:", "")
	text("what a call looks like", "Here's what a call looks like:", "")
	text("how a call looks", "Let me show how a call looks:", "")
	text("this example", "Here is this example:", "")
	text("it printed", "It printed:", "")
	text("the model output starts with", "The model's reply starts with", "")
	text("parser expects", "The parser expects calls in this form:", "")
	// quotesOutputRe: the model saying what its own call will do.
	runs("now I will write", "Now I will write the file:", "")
	runs("this will write", "This will write the new config:", "")
	runs("that should return", "That should return the list:", "")
	text("Command R returns", "Command R returns plans like:", "")
	text("template emits", "The DeepSeek R1 template emits:", "")
	text("Qwen would output", "Qwen would output:", "")
	// refusalWideRe: a new first-person clause after the negation.
	runs("je ne trouve pas donc je lance", "Je ne trouve pas l'erreur donc je lance les tests :", "")
	text("je ne vais pas exécuter", "Je ne vais pas exécuter cette commande :", "")
	text("je ne l'exécuterai pas", "Je ne l'exécuterai pas :", "")
}
