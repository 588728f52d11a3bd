package toolcall

import "testing"

// Round 6's red team: the cases of widened-adversarial-round6.jsonl, each
// negative must run nothing and get no correction; each call must run.
func TestRedTeam6(t *testing.T) {
	checkCorpusFile(t, "testdata/widened-adversarial-round6.jsonl")
}

// Round 6's narrowings one by one: what stopped counting as the model
// acting (modelActs), the demonstratives of futureDemonstrative and the
// first person of describesFormat, each beside a near miss that must
// still run.
func TestRuleRedTeam6ModelActs(t *testing.T) {
	around := func(before string) string { return before + "\n\n" + hermesRF }
	runs := func(name, before string) {
		t.Helper()
		checkCalls(t, name, recoverText(t, around(before)), call{"read_file", `{"path":"main.go"}`})
	}
	text := func(name, before string) {
		t.Helper()
		wantText(t, name, recoverText(t, around(before)))
	}
	// A gerund that is the subject of a modal is a reason, not an act.
	text("gerund subject of would", "I'm not going to run this; running it would wipe the build folder:")
	runs("gerund that acts", "I didn't run them before; running them now:")
	// Act words inside quotes are someone else's.
	text("quoted act words", `The model replied with "let me read main.go" and then wrote:`)
	runs("unquoted act words", "The file is missing, so let me read main.go:")
	// "try to" + a verb that is no tool's action, "check with you".
	text("try to walk through", "I won't run anything yet; I'll try to walk you through it:")
	text("check with you", "I won't run it, I want to check with you first:")
	runs("try to read", "I won't guess; I'll try to read the file instead:")
	// futureDemonstrative: "This will" / "Now I will" only.
	text("the model will emit", "Then the model will emit:")
	runs("now I will", "Now I will read the file:")
	// describesFormat: the first person alone does not lift it.
	text("first person describing", "If I remember right, the Hermes template writes:")
	runs("describing, then acting", "The template expects a path, so let me read it:")
}
