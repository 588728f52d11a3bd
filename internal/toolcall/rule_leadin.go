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
		`|(^\s*|[,;:]\s*|\b(so|now)\s+)(running|rerunning|re-running|reading|checking|fetching|listing|writing|retrying|searching|opening|looking|inspecting|verifying)\b`)
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
	return modelActs(w[loc[1]:]) || retryRe().MatchString(w) && modelActs(w)
}

// Round 6's red team (testdata/widened-adversarial-round6.jsonl): actRe's
// words that are not the model acting. Words in quotation marks are
// someone else's ("the model replied with \"Let me run the tests:\""); a
// gerund followed by a modal or a copula is the subject of a clause, not
// an announcement ("running it would wipe your home directory"); "try to"
// before a verb that is not a tool's action is not trying a call ("I'll
// try to walk you through it"); checking with the user is asking them.
var (
	quotedSpanRe   = lazyRegexp(`"[^"\n]*"|“[^”\n]*”|«[^»\n]*»`)
	gerundClauseRe = lazyRegexp(`(?i)^(\s+[\w'-]+){0,3}?\s+(would|could|might|may|will|can|is|was|would've|'d)\b`)
	tryToRe        = lazyRegexp(`(?i)^\s+to\s+(\w+)`)
	withUserRe     = lazyRegexp(`(?i)^\s+(in\s+)?(with|by)\s+(you|the user)\b`)
	actVerbRe      = lazyRegexp(`(?i)^(run|rerun|re-run|retry|execute|call|read|reread|check|fetch|list|write|edit|open|look|search|see|verify|test|inspect|grep|view)$`)
)

// modelActs is actRe's reading of w, without the words above.
func modelActs(w string) bool {
	if !actRe().MatchString(w) {
		return false
	}
	w = quotedSpanRe().ReplaceAllString(w, `""`)
	for _, m := range actRe().FindAllStringSubmatchIndex(w, -1) {
		rest := w[m[1]:]
		if m[12] >= 0 { // the gerund alternative
			if gerundClauseRe().MatchString(rest) {
				continue
			}
			return true
		}
		verb := strings.ToLower(w[m[6]:m[7]])
		if withUserRe().MatchString(rest) {
			continue
		}
		if verb == "try" {
			if t := tryToRe().FindStringSubmatch(rest); t != nil && !actVerbRe().MatchString(t[1]) {
				continue
			}
		}
		return true
	}
	return false
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
	// The demonstrative is the subject, right before its modal ("This
	// will…", "Now this will…"); "This model will output", "Then the model
	// will emit" have a noun for subject, as quotesOutputRe reads (round 6).
	modal := func(w string) bool {
		w = strings.ToLower(w)
		return w == "will" || w == "should"
	}
	demo := func(w string) bool {
		switch strings.ToLower(w) {
		case "this", "that", "these", "those", "it":
			return true
		}
		return false
	}
	switch strings.ToLower(f[0]) {
	case "this", "that", "these", "those", "it":
		return modal(f[1])
	case "now", "then", "next", "so", "first", "here":
		return len(f) > 2 && demo(f[1]) && modal(f[2]) || firstPersonRe().MatchString(f[1])
	}
	return firstPersonRe().MatchString(before)
}
