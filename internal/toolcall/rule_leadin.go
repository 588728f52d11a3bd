package toolcall

import "strings"

// Rule "the model acts" (leadin_sweep_test.go measures it): the phrase
// lists of intent.go and rule_intent_wide.go read words that also open an
// ordinary lead-in to a real call. A call reported as failed is run again
// ("Now, let me run the command that failed again:"), a past or negated
// step comes before the step now taken ("I haven't run these tests yet, so
// let me run them now:"), and a lead-in asks what the call will show ("Let
// me see what the directory looks like:", "Checking what the parser expects
// now:"). What tells these from the answers the lists were written for
// (which show, quote or describe a call) is the model itself announcing
// that it does something a tool does: actRe. It is read only as an
// exemption of the lists below, never as a reason to run a call.
var (
	// "let me run", "I'll quickly check", "I need to read", or a gerund
	// opening a clause ("Checking what…", "; running them now"). Verbs of
	// showing (show, give, paste, explain) are not acting.
	actRe = lazyRegexp(`(?i)\b(let me|let's|let us|i'll|i will|i'm going to|i am going to|we'll|we will|i need to|i want to)\s+(\w+\s+){0,2}?(run|rerun|re-run|retry|try|execute|call|read|reread|check|fetch|list|write|edit|open|look|search|see|verify|test|inspect|grep|view)\b` +
		`|(^\s*|[,;:]\s*|\b(so|now|and)\s+)(running|rerunning|re-running|reading|checking|fetching|listing|writing|retrying|searching|opening|looking|inspecting|verifying)\b`)
	// A call named as made before, announced to be made again.
	retryRe = lazyRegexp(`(?i)\b(rerun|re-run|retry|re-try|re-execute|again|once more)\b`)
	// A conjunction that opens a new clause with its own first-person
	// subject ("je ne trouve pas l'erreur donc je lance…"): read as a
	// clause break by the gap-bounded phrases of rule_intent_wide.go.
	newClauseRe = lazyRegexp(`(?i)\s+(donc|alors|mais|puis|so|but|then|aber|also|deshalb|pero|así que|entonces)\s+(je|j'|nous|on|i|we|let|ich|wir|yo|voy|vamos)\b`)
)

// actsAfter: the text after a phrase's match says the model acts now, or
// the lead-in announces a call made before as made again.
func actsAfter(w string, loc []int) bool {
	if loc == nil {
		return false
	}
	return actRe().MatchString(w[loc[1]:]) || retryRe().MatchString(w) && actRe().MatchString(w)
}

// matchUnlessActs is re's match on w, unless the model acts after it.
func matchUnlessActs(re interface {
	MatchString(string) bool
	FindStringIndex(string) []int
}, w string) bool {
	if !re.MatchString(w) {
		return false
	}
	loc := re.FindStringIndex(w)
	return loc != nil && !actsAfter(w, loc)
}

// clauses puts a clause break (;) before a conjunction that opens a new
// first-person clause.
func clauses(w string) string {
	if !newClauseRe().MatchString(w) {
		return w
	}
	return newClauseRe().ReplaceAllString(w, "; $1 $2")
}

// futureDemonstrative: quotesOutputRe's subject is a proper name (Command
// R returns…) or a noun (the template emits…); "This will write the new
// config:", "That should return the list:", "Now I will write the file:"
// are the model saying what its own call does.
func futureDemonstrative(before string) bool {
	f := strings.Fields(before)
	if len(f) < 2 {
		return false
	}
	switch strings.ToLower(f[0]) {
	case "this", "that", "these", "those", "it", "now", "then", "next", "so", "first", "here":
		l := strings.ToLower(before)
		return strings.Contains(l, " will ") || strings.Contains(l, " should ")
	}
	return firstPersonRe().MatchString(before)
}
