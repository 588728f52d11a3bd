package toolcall

import "strings"

// Round 11's red team (testdata/widened-adversarial-round11.jsonl) aimed the
// other way: real calls of an agent loop whose lead-in the newest quoting
// rules (rule_redteam10.go, rule_redteam9.go, rule_round10a.go,
// rule_demonstration.go) read as quoted, described or shown. Each narrowing
// below gives back one reading of the model's own step and names the near
// miss that stays shown (rules_redteam11_test.go). None of them makes a call
// out of text that no rule read as a call; each only stops one quoting rule
// from cancelling it.

// pointsBackRe: a clause that points back at the call as the other party's
// ("so this is what it sends", "the call it made", "that's what it ran"):
// what follows is theirs, quoted.
var pointsBackRe = lazyRegexp(`(?i)\b(?:this|that|here|these)\s*(?:is|'s|are|was|were)\s+(?:exactly\s+)?(?:what|how)\b` +
	`|\b(?:it|they|he|she)\s+(?:made|makes|ran|runs|sent|sends|did|does|wrote|writes|printed|prints|emits|emitted|produced|produces|posted|posts|typed|called|used|tried|tries|answered|replied|said|says)\b` +
	`|\b(?:this|these|the following|as follows|like this|like so|below)\b`)

// purposeNotPointing narrows quotes_other_party's exemption for a purpose
// ("To see what Go outputs:" asks what the call will show): a "what" that is
// the clause pointing back ("so this is what it sends:") is no purpose, and
// the line stays a quote.
func purposeNotPointing(l string) bool {
	return !pointsBackRe().MatchString(l)
}

// behaviourVerbRe: another party (the project's own agent, bot or model) and
// a present-tense verb of what it does, with the word after the verb. Not
// a verb whose object is itself an action (runs, sends, calls, writes):
// "The agent runs git push --force after each commit; the hook:" may show
// that very command.
var behaviourVerbRe = lazyRegexp(`(?i)\b(?:sub-?agents?|agents?|assistants?|bots?|models?|llms?|servers?|clients?)\s+(?:(?:also|still|now|sometimes|always|never|just|only)\s+)?(?:prints|produces|posts|answers|outputs|emits|generates|returns|replies|loops|keeps|drops|ignores|hangs|crashes|stops)\s+(\S+)`)

// clauseBreakRe: a break after which a new clause with its own subject
// begins (so, because, since, a semicolon, a dash between spaces).
var clauseBreakRe = lazyRegexp(`(?i),?\s+(?:so|because|since|which is why|and so)\s+|;\s*|\s[—–]\s+`)

// demonstrativeRe: the object of the verb is the call itself.
var demonstrativeRe = lazyRegexp(`(?i)^(?:this|that|these|those|it|them|the\s+following|following|something|like|as|exactly|such)\b`)

// behaviourThenStep is rule "behaviour_then_step": a lead-in line whose
// subject is an agent, bot or model with a present-tense verb of what it
// does to something named ("The model produces NaN losses after step 3,
// so the training script is next:", "The agent posts the review comment
// twice; the webhook handler:", "The bot answers every message twice — the
// dispatcher is the suspect:") describes a bug of the program the model
// works on, and the clause after the break (so, because, a semicolon, a
// dash) is the model's next step, which the colon leads into. It is not
// the quote quotes_other_party reads ("The subagent then did this:"): the
// verb's object is not the call (this, that, the following…), the verb is
// not a past report (did, wrote, ran), and the clause after the break does
// not point back at the call as the other party's ("so this is what it
// sends:", "so the call it made:").
func behaviourThenStep(l string) bool {
	m := behaviourVerbRe().FindStringSubmatchIndex(l)
	if m == nil {
		return false
	}
	if demonstrativeRe().MatchString(l[m[2]:]) {
		return false
	}
	return stepAfterBreak(l[m[2]:])
}

// stepAfterBreak: rest holds a clause break, and the clause after the last
// one neither points back at the call nor quotes.
func stepAfterBreak(rest string) bool {
	bs := clauseBreakRe().FindAllStringIndex(rest, -1)
	if len(bs) == 0 {
		return false
	}
	head, tail := rest[:bs[0][0]], rest[bs[len(bs)-1][1]:]
	if strings.TrimSpace(strings.TrimRight(strings.TrimSpace(tail), ":：")) == "" {
		return false
	}
	return !pointsBackRe().MatchString(head) && !pointsBackRe().MatchString(tail) && !quotingWordRe().MatchString(tail)
}

// quotingWordRe: words that make the clause itself a quote's lead-in.
var quotingWordRe = lazyRegexp(`(?i)\b(?:output|reply|replies|answers?|response|completion|transcript|log|says|said|reads|wrote|printed|shows|showed|example|format|calls?|commands?|exact|raw|verbatim|same|one|lines?|snippet|hook|text|string|json|payload|request|message|step|attempt|turn|results?)\b`)

// userLogThenStep narrows quotes_other_party's userLogRe the same way: "The
// screenshot you sent shows port 8080 in use, so the process holding it:"
// describes what the user's log shows, and the clause after the break is
// the model's step. "The chat log you sent ends like this:" and "In the log
// you pasted, line 14 is the problem:" (no break, or a comma only) stay
// quotes, as does "…, so the call it made:".
func userLogThenStep(l string) bool {
	m := userSentRe().FindStringIndex(l)
	if m == nil {
		return false
	}
	return stepAfterBreak(l[m[1]:])
}

var userSentRe = lazyRegexp(`(?i)\b(?:you|the user)\s+(?:just\s+)?(?:sent|pasted|shared|posted|attached|uploaded|gave|forwarded|provided)\b`)

// callMarkupObjectRe narrows describes_a_call: a call "wrapped in" (enclosed
// by, marked with…) markup — tags, tokens, brackets, JSON, a <tag> — or
// nothing named; not code ("every call is wrapped in withRetry", "each call
// is wrapped in a second retry loop", "each tool call is marked with a
// span"), which the model is reading about in the program it works on.
var callMarkupObjectRe = lazyRegexp("(?i)^(?:\\s*(?:[,.;:：]|$)|\\s+(?:in|with|by|between|inside|within|into)\\s+(?:(?:a|an|the|its|their|own|special|xml|json|angle|square|curly|matching|paired|two|one|[`\"']<?/?[\\w:|=-]{1,40}>?[`\"']|</?[\\w:|=-]{1,40}>)\\s+){0,3}?(?:tags?|markup|markers?|tokens?|delimiters?|brackets?|braces|blocks?|json|xml|sentinels?|fences?|quotes|<[^>\\n]{1,40}>)(?:\\W|$))")

// callDescribedNarrow is describes_a_call's call phrase followed by markup
// (rule "describes_a_call_markup").
func callDescribedNarrow(l string) bool {
	for _, m := range callDescribedRe().FindAllStringIndex(l, -1) {
		if callMarkupObjectRe().MatchString(l[m[1]:]) {
			return true
		}
	}
	return false
}

// softwareVersionRe: "the installed version", "the new version": a version
// in a state (installed, latest, pinned…), with no name of a format and no
// possessive in the phrase.
var softwareVersionRe = lazyRegexp(`(?:^|\s)(?i:the)\s+(?i:installed|current|new|newer|latest|old|older|pinned|running|local|system|minimum|required|default|stable)\s+(?i:version|release)\s*[:：]\s*$`)

// softwareVersion is rule "software_version": formatNamedRe's "version"
// read as a format's version ("Qwen's version:", "The new Hermes version:")
// is the version of a tool when the phrase is the installed, new, latest…
// version with no format named ("The go.mod asks for 1.22; the installed
// version:", "upgrading to the new version:"): the call shows or installs
// it. A possessive or a name in the phrase keeps the format reading.
func softwareVersion(l string) bool {
	return softwareVersionRe().MatchString(l)
}

// ownGerundStep is rule "own_gerund_step": a lead-in that opens with a
// gerund of a step (Updating, Regenerating, Checking, Clearing…) is the
// model's own step, as leadingGerundRe reads for rule_redteam10.go, even
// when it ends on "this output:", "the following text:" (quotes_exact_output)
// or "this way:" (a demonstration lead). Not a gerund of showing (Quoting,
// Showing, Pasting, Explaining…: those show), not a gerund that is the
// subject of a clause ("Running it would wipe the disk") nor in a sentence
// that negates ("…, so not this way:"), and not one
// whose object is a call, a format or an example ("Writing a tool call
// like this:" teaches the form).
func ownGerundStep(before string) bool {
	t := strings.TrimSpace(fullWidthPunct.Replace(before))
	// The lead-in's last sentence or the clause after a label ("Step 2:"):
	// the sentence that leads into the call.
	if bs := sentenceStartRe().FindAllStringIndex(strings.TrimRight(t, ":： "), -1); len(bs) > 0 {
		t = t[bs[len(bs)-1][1]:]
	}
	m := ownGerundRe().FindStringSubmatchIndex(t)
	if m == nil {
		return false
	}
	if showGerund(strings.ToLower(t[m[2]:m[3]])) {
		return false
	}
	rest := t[m[1]:]
	if gerundClauseRe().MatchString(rest) || gerundObjectShownRe().MatchString(rest) || gerundNegatedRe().MatchString(rest) {
		return false
	}
	return true
}

var (
	sentenceStartRe = lazyRegexp(`[.!?:：]\s+`)
	// "Reinstalling ruins the setup, so not this way:": a step refused.
	gerundNegatedRe     = lazyRegexp(`(?i)\b(?:not|never|no|without|instead|rather|n't)\b|n't\b`)
	ownGerundRe         = lazyRegexp(`(?i)^(?:(?:now|then|so|ok|okay|next|first|right),?\s+)?([a-z]{3,}ing)\b`)
	gerundObjectShownRe = lazyRegexp(`(?i)^\s+(?:(?:a|an|the|this|that|one|each|every|your|its|my)\s+)?(?:[\w-]+\s+)?(?:tool\s+)?(?:calls?|format|syntax|markup|example|examples|schema|template|form|shape|usage|invocation)\b`)
	showGerundExtra     = map[string]bool{"showing": true, "quoting": true, "pasting": true, "citing": true, "copying": true, "echoing": true,
		"displaying": true, "printing": true, "repeating": true, "sketching": true, "drafting": true, "imagining": true, "pretending": true,
		// A usage shown ("Using the tool like this:", "Following the format:").
		"using": true, "calling": true, "invoking": true, "wrapping": true, "passing": true, "naming": true, "following": true, "structuring": true,
		// Words in -ing that are no gerund.
		"nothing": true, "something": true, "anything": true, "everything": true, "thing": true, "string": true, "during": true,
		"morning": true, "evening": true, "ceiling": true, "spring": true, "bring": true, "king": true, "ring": true, "sing": true, "wing": true, "sibling": true}
)

// showGerund: the gerund of a verb of showing (showVerbs, rule_demonstration.go)
// or of quoting.
func showGerund(g string) bool {
	if showGerundExtra[g] {
		return true
	}
	base := strings.TrimSuffix(g, "ing")
	for _, b := range []string{base, base + "e", strings.TrimSuffix(base, base[len(base)-1:])} {
		if showVerbs[b] || discourseVerbs[b] {
			return true
		}
	}
	return false
}

// stepAfterPaste is rule "step_after_paste": quotes_user_paste ("You pasted
// this from the chat window:") is not read when, after a semicolon or a
// dash, the lead-in goes on to the model's own step in a gerund ("You
// pasted the panic; opening cache.go, where it starts:", "You sent the CI
// link; fetching the failing job's log:"), as ownStepAfterReport reads
// for quoted reports; the first person already was. The gerund must not be
// one of showing nor the subject of a clause ("…; running it would wipe
// the disk:").
func stepAfterPaste(before string) bool {
	for _, m := range pasteBreakRe().FindAllStringIndex(before, -1) {
		if ownGerundStep(before[m[1]:]) {
			return true
		}
	}
	return false
}

var pasteBreakRe = lazyRegexp(`[;—–]\s*|\s-\s+`)

// ownRetryMarkup is rule "own_markup_retry": a lead-in that names the call
// markup (lead_in_names_markup) only to say the model's own previous block
// failed, and sends it again ("The previous <tool_call> block was cut off,
// so again with the full content:", "My tool_call tags were unbalanced.
// Again:"), leads into the model's retry, as small models write after a
// correction. The markup must be named as the previous, last, earlier or
// my block, a word of retrying must follow (again, once more, corrected,
// fixed, retrying, resending), and nothing may place it in documentation, an
// example, a log or another party's output ("The tool_call block in the
// README example was wrong; corrected:", "The model's previous tool_call
// block was cut off in the log, so the full one:").
func ownRetryMarkup(before string) bool {
	m := ownMarkupRe().FindStringIndex(before)
	if m == nil || !retryWordRe().MatchString(before[m[1]:]) {
		return false
	}
	// The sentence that names the block, from its start.
	from := 0
	if bs := sentenceStartRe().FindAllStringIndex(before[:m[0]], -1); len(bs) > 0 {
		from = bs[len(bs)-1][1]
	}
	// Its line (a line above is another sentence of the reply: "The
	// README says to run make; here it is:" says nothing of the block).
	line := strings.LastIndexByte(before[:m[0]], '\n') + 1
	return !markupElsewhereRe().MatchString(before[from:]) && !markupQuotedRe().MatchString(before[line:])
}

var (
	ownMarkupRe       = lazyRegexp("(?i)\\b(?:my\\s+(?:(?:previous|last|earlier|first)\\s+)?|(?:the|that)\\s+(?:previous|last|earlier)\\s+)[`\"']?<?/?(?:tool_call|tool_calls|function_calls|invoke)>?[`\"']?\\s+(?:block|blocks|tag|tags|call|wrapper|markup)\\b")
	retryWordRe       = lazyRegexp(`(?i)\b(?:again|once more|corrected|fixed|retrying|resending|retry|one more time)\b`)
	markupElsewhereRe = lazyRegexp(`(?i)\b(?:readme|docs?|documentation|example|examples|log|logs|transcript|prompt|template|spec|fixture|tests?|parser|format|syntax)\b|\b(?:model|agent|assistant|bot|server|llm|subagent)'s\b|\b(?:your|their|its|his|her)\b`)
	// Anywhere on the block's line: the block is in a document, a log or
	// another party's output.
	markupQuotedRe = lazyRegexp(`(?i)\b(?:readme|docs|documentation|example|log|logs|transcript|quoted?|pasted|sent)\b|\b(?:model|agent|assistant|bot|server|llm|subagent)'s\b|\b(?:your|their)\b`)
)
