package toolcall

import "strings"

// demonstrationLead is rule "a lead-in that demonstrates": a lead-in ending
// in a word of manner or instance ("…like this:", "…as follows:", "…such
// as:", "…for instance:", "…of this form:") introduces the call as an
// illustration of how something is written: the format a prompt asks for,
// what a template expects, how the user may run it. Unless the model says in
// the same lead-in that it acts (modelActs: "Let me run it like this:",
// "Running it as follows:"), the call is shown, not made. The phrase lists
// of intent.go each name one such wording; this reads the construction.
func demonstrationLead(before string) bool {
	t := strings.ToLower(strings.TrimSpace(before))
	t = strings.TrimRight(t, ":.-–— \t")
	for _, tail := range demonstrationTails {
		if strings.HasSuffix(t, tail) {
			if anyCallRe().MatchString(t) {
				return !announcesAct(before)
			}
			return !actsIn(before) && !announcesAct(before) && !ownGerundStep12(before) // actsIn: rule_redteam7.go; ownGerundStep12: rule_redteam11.go narrowed by rule_redteam12.go
		}
	}
	return false
}

// anyCallRe is rule "a_call_like_this": the thing shown is "a call" —
// "Writing a tool call like this:", "Sending a request as follows:" —
// any call of the kind, not the one the model makes: a gerund of acting
// does not make it the model's step (only its first person does: "Let me
// make a call like this:").
var anyCallRe = lazyRegexp(`\b(?:a|an|any)\s+(?:[\w-]+\s+)?(?:tool call|function call|call|invocation|request|tool use)\s+(?:looks\s+|would look\s+|goes\s+)?(?:like this|like so|like the following|as follows|of this form|of the form|in this form|in this format|this way)$`)

// announceRe: the model's first person announcing a step, with its verb.
var announceRe = lazyRegexp(`(?i)\b(let me|let's|let us|i'll|i will|i'm going to|i am going to|we'll|we will|i need to|i want to|i'm now|now i)\s+(?:\w+ly\s+)?(\w+)`)

// showVerbs are the verbs of showing: "I'll show you how to call it like
// this:" still only shows.
var showVerbs = map[string]bool{"show": true, "give": true, "explain": true, "demonstrate": true, "illustrate": true,
	"describe": true, "paste": true, "quote": true, "present": true, "format": true, "walk": true, "teach": true}

// announcesAct: the lead-in announces the model's own step ("I'll use the
// tool like this:", "Let me do it this way:"), with a verb that is not one
// of showing.
func announcesAct(before string) bool {
	before = quotedSpanRe().ReplaceAllString(before, `""`)
	before = toVerbRe().ReplaceAllString(before, "") // rule_redteam7.go: "I'll need to run" announces run
	for _, m := range announceRe().FindAllStringSubmatch(before, -1) {
		if v := strings.ToLower(m[2]); !showVerbs[v] && !discourseVerbs[v] { // discourseVerbs: rule_redteam7.go
			return true
		}
	}
	return false
}

// demonstrationTails end a lead-in that shows how a thing is written.
var demonstrationTails = []string{
	"like this", "like so", "like this one", "like the following", "something like",
	"as follows", "such as", "e.g", "e.g.,", "for instance", "i.e",
	"of this form", "of the form", "in this form", "in this format", "in this shape",
	"this way", "in the following form", "in the following format",
}
