package toolcall

import (
	"regexp"
	"strings"
)

// Round 10's red team (testdata/widened-adversarial-round10.jsonl): answers
// that quote, describe or draft a call in wordings the earlier lead-in rules
// did not read. Each rule reads one line of the lead-in (the sentence that
// leads into the call, as notIntended gets it) and never fires when that
// line is the model's own step (selfStep: first person, a clause going on to
// the model's step, a leading gerund). A line that quotes another party and
// ends with a colon opens a quote that runs down to the call, unless a later
// line of the lead-in is the model's own step ending with a colon: the
// quoted answer's "I'll list the files." is the quoted agent's, not this
// model's.

// shownRedTeam10 holds the round's rule for finish (content.go) that needs
// the call's place: prose is the content with reasoning blanked, start/end
// the call run's span.
func shownRedTeam10(prose string, start, end int) bool {
	return quotedInline(prose, start, end)
}

// leadShownRedTeam10 holds the round's lead-in rules; notIntended (intent.go)
// reads them first, on the lead-in's own lines, for every format that asks
// it (call markup, ReAct steps, Continue's blocks, Cline's XML, …).
func leadShownRedTeam10(before, after string) bool {
	before = strings.TrimRight(fenceTailRe().ReplaceAllString(strings.TrimRight(before, " \t\r\n"), ""), " \t\r\n")
	lines := strings.Split(before, "\n")
	last := -1
	for k := len(lines) - 1; k >= 0; k-- {
		if strings.TrimSpace(lines[k]) != "" {
			last = k
			break
		}
	}
	if last < 0 {
		return false
	}
	if teachingPair(lines[:last], lines[last]) || labelThenData(lines[last], after) {
		return true
	}
	for k := last; k >= 0; k-- {
		l := strings.ReplaceAll(strings.Join(strings.Fields(lines[k]), " "), "’", "'")
		if l == "" {
			continue
		}
		colon := strings.HasSuffix(l, ":") || strings.HasSuffix(l, "：")
		if selfStep(l) {
			if colon {
				return false // the model's own lead-in, nearest the call
			}
			if k == last && !quoteOpensAbove(lines[:k]) {
				return false
			}
			continue
		}
		if k == last && describesCall(l) {
			return true
		}
		if colon && quotesOtherParty(l) {
			return true
		}
	}
	return false
}

// quoteOpensAbove: a line above ends with a colon after another party's
// quoting words, and the lines between are the quote (no own lead-in).
func quoteOpensAbove(lines []string) bool {
	for k := len(lines) - 1; k >= 0; k-- {
		l := strings.ReplaceAll(strings.Join(strings.Fields(lines[k]), " "), "’", "'")
		if l == "" {
			continue
		}
		if (strings.HasSuffix(l, ":") || strings.HasSuffix(l, "：")) && !selfStep(l) && quotesOtherParty(l) {
			return true
		}
	}
	return false
}

// selfStep: the line is the model's own step (first person, a clause going
// on to its step, a leading gerund: "Reading it:", "Rebuilding:").
func selfStep(l string) bool {
	return firstPersonRe().MatchString(l) || ownStepAfterReport(l) || announcesAct(l) || actsIn(l) || leadingGerundRe().MatchString(l) && !reviewGerundLead(l) // reviewGerundLead: rule_redteam12.go
}

var leadingGerundRe = lazyRegexp(`^\s*(?:(?i:now|then|so|ok|okay|next|first|right),?\s+)?[A-Za-z]+ing\b`)

// quotesOtherParty is rule "quotes_other_party": a lead-in line ending in a
// colon that introduces another party's output, step or text — another agent's
// or a model's answer ("Another agent's answer, which you asked me to
// review:", "The subagent then did this:", "The issue author shows the raw
// completion:", "Bad output from qwen:"), a log the user sent ("The chat log
// you sent ends like this:", "In the log you pasted, line 14 is the
// problem:"), a format described in the present tense or translated ("GLM
// writes the call without JSON:", "Step 1 — the model emits:", "Here's the
// MiniMax format:", "…, translated to Hermes, would be:"), a text quoted
// ("The docstring says:", "The prompt's few-shot turn reads:", "The fixture
// file contains one line:"), the JSON the user asked for, something the
// user is to paste, and a plan "not yet executed". It follows the reading
// of reported_return (rule_round8f.go) and quotes_user_paste
// (rule_redteam9.go): the subject is not the model, so what follows is
// quoted, not made.
func quotesOtherParty(l string) bool {
	if pronounArtefact(l) || otherAuthorWrote(l) || reportOwner(l) {
		return true // rule_redteam12.go: "…, its last turn before the hang:"
	}
	if behaviourThenStep(l) || userLogThenStep(l) {
		return behaviourTailQuotes(l) // rule_redteam12.go: the clause after the break quotes
	}
	if softwareVersion(l) && !versionOfFormat(l) {
		return false // rule_redteam11.go: a tool's version, no format named (rule_redteam12.go)
	}
	if (otherPartyRe().MatchString(l) || modelWritesRe().MatchString(l)) && (purposeRe().MatchString(l) && purposeNotPointing(l) || relayedRe().MatchString(l)) { // purposeNotPointing: rule_redteam11.go
		return false // "To see what Go outputs:" asks what the call will show (rule_intent_wide.go)
	}
	for _, re := range []func() *regexp.Regexp{otherPartyRe, otherPartyLabelRe, userLogRe, formatNamedRe, modelWritesRe, translatedRe, quotedTextRe, askedJSONRe, pasteThisRe, notYetRunRe} {
		if re().MatchString(l) {
			return true
		}
	}
	return false
}

var (
	otherPartyRe = lazyRegexp(`(?i)^(?:.*?[,;—–]\s*)?(?:the|a|an|another|other|this|that|your|their|its|one|the other)\s+(?:[\w.-]+\s+){0,2}?(?:sub-?agents?|agents?|assistants?|bots?|models?|llms?|authors?|reporters?|maintainers?|posters?|op)` +
		`(?:(?:'s)\s+(?:[\w-]+\s+){0,2}?(?:answer|reply|output|response|completion|trace|turn|step|attempt|message|transcript|log|call)s?(?:\s*,[^:.!?\n]{0,80}|\s+(?:was|is|reads|read|looked like|looks like|went|goes|ended|ends)(?:\s+like)?(?:\s+this)?)?` +
		`|\s+(?:then\s+|also\s+|just\s+|first\s+|instead\s+)?(?:did|does|wrote|writes|printed|prints|answered|answers|replied|said|says|shows|showed|posted|posts|tried|tries|emits|emitted|outputs|produced|produces|generated|generates|ran|runs|typed|sent|pasted|quoted)\b[^.:：!?\n]{0,80})\s*[:：]\s*$`)
	otherPartyLabelRe = lazyRegexp(`(?i)^(?:bad|broken|wrong|raw|failing|failed|original|garbled|malformed|actual)\s+(?:output|reply|completion|response|call|answer|generation)s?\s+(?:from|of|by)\s+[^:：\n]{1,40}[:：]\s*$`)
	userLogRe         = lazyRegexp(`(?i)\b(?:log|transcript|history|conversation|session|chat|trace|output|screenshot|paste)\s+(?:that\s+)?(?:you|the user)\s+(?:just\s+)?(?:sent|pasted|shared|posted|attached|uploaded|gave|forwarded|provided)\b[^.!?\n]{0,80}[:：]\s*$`)
	formatNamedRe     = lazyRegexp(`(?i)(?:^|\s)(?:[\w.-]+'s|the|its|their)\s+(?:[\w.-]+\s+){0,3}?(?:format|syntax|markup|version|variant|equivalent|counterpart|dialect)(?:\s+(?:is|looks like|reads))?\s*[:：]\s*$`)
	modelWritesRe     = lazyRegexp(`(?:\b(?i:the|a|each|every|your|this)\s+(?i:model|server|template|prompt|parser|agent|assistant|client|llm)s?|(?:^|\s)[A-Z][\w.-]*)\s+(?i:writes|emits|prints|outputs|produces|generates|renders)(?:\s+(?i:it|this|that|them|the following|something like this))?(?:\b[^.:：!?\n]{0,60}\b(?i:calls?|tool|json|format|markup|tags?|form|like this|as follows))?\s*[:：]\s*$`)
	translatedRe      = lazyRegexp(`(?i)\b(?:translated|converted|rewritten|mapped|ported)\s+(?:to|into|as)\s+[\w.-]+[^.:!?\n]{0,40}\bwould\s+(?:be|read|look like|become)\s*[:：]\s*$`)
	quotedTextRe      = lazyRegexp(`(?i)^(?:the|this|that|its|your|their)\s+(?:[\w'.-]+\s+){0,3}?(?:docstring|comment|prompt|few-shot|fixture|readme|docs?|documentation|changelog|spec|manual|turn|snippet)(?:'s)?(?:\s+[\w'.-]+){0,3}?\s+(?:says|reads|contains|states|includes)(?:\s+(?:this|the following|as follows|one line|this line|these lines|in full|verbatim))?\s*[:：]\s*$`)
	askedJSONRe       = lazyRegexp(`(?i)\b(?:the|this)\s+(?:json|object|payload|body|snippet|request|example)\s+(?:that\s+)?(?:you|the user)\s+(?:asked for|wanted|requested|were after)\s*[:：]\s*$`)
	pasteThisRe       = lazyRegexp(`(?i)\b(?:paste|type|send|enter|copy|put|drop)\s+(?:this|the following|it|that|these lines)\s+(?:in|into|to)\s+(?:the\s+|your\s+)?(?:chat|prompt|terminal|box|window|console|repl|input|message)\b[^.!?\n]{0,40}[:：]\s*$`)
	notYetRunRe       = lazyRegexp(`(?i)\b(?:plan|steps?|calls?|commands?|draft|sketch|proposal|outline)s?,?\s+(?:still\s+)?not\s+yet\s+(?:executed|run|made|sent|performed|applied|called)\s*[:：]\s*$`)
	// "The agent said to run the migration:" relays an instruction.
	relayedRe = lazyRegexp(`(?i)\b(?:sub-?agents?|agents?|assistants?|bots?|models?|llms?|authors?|reporters?|maintainers?|posters?|op)\s+(?:then\s+|also\s+|just\s+)?(?:said|says|told|tells|asked|asks|suggested|suggests|wants)\s+(?:to|that|me|us|you)\b`)
)

// describesCall is rule "describes_a_call": the lead-in line right before
// the call states what a call is, generically — "Each call is wrapped in
// tags, one JSON object per call.", "A valid call is" — as documentation
// of a format does: an indefinite or distributive subject (a, each, every)
// is any call, not the one the model makes now.
func describesCall(l string) bool {
	return callDescribedNarrow(l) || callDescribedWide(l) || validCallRe().MatchString(l) // callDescribedNarrow: rule_redteam11.go; callDescribedWide: rule_redteam12.go
}

var (
	callDescribedRe = lazyRegexp(`(?i)\b(?:a|each|every|one)\s+(?:tool\s+|function\s+)?calls?\s+(?:is|are|gets|get)\s+(?:wrapped|enclosed|delimited|surrounded|placed|put|framed|marked)\b`)
	validCallRe     = lazyRegexp(`(?i)\b(?:a|an|one)\s+(?:valid|correct|proper|well-formed|minimal|typical|complete|good)\s+(?:tool\s+|function\s+)?call\s+(?:is|looks like|would be|reads)\s*[:：]?\s*$`)
)

// teachingPair is rule "wrong_right_pair": a lead-in whose last line is a
// bare "Right:" (Correct:, Good:, Better:) under a line that opens with
// "Wrong:" (Incorrect:, Bad:) contrasts two forms for the reader, as style
// guides and parser docs do; the right form is shown, not made.
func teachingPair(prev []string, last string) bool {
	if !rightLabelRe().MatchString(last) {
		return false
	}
	for _, l := range prev {
		if wrongLabelRe().MatchString(l) {
			return true
		}
	}
	return false
}

var (
	rightLabelRe = lazyRegexp(`(?i)^\s*(?:right|correct|good|better|valid|do)\s*[:：]\s*$`)
	wrongLabelRe = lazyRegexp(`(?i)^\s*(?:wrong|incorrect|bad|invalid|don't|do not)\s*[:：]`)
)

// labelThenData is rule "answer_label_then_object": a bare "Answer:" (or
// Result:, Solution:, JSON:) right before the call and, after it, a
// sentence that names it as the object, form or payload ("This is the
// object your client should send."): the reply answers with the object,
// a JSON answer, and does not call with it.
func labelThenData(last, after string) bool {
	return answerLabelRe().MatchString(last) && afterDataRe().MatchString(strings.TrimSpace(after))
}

var (
	answerLabelRe = lazyRegexp(`(?i)^\s*(?:answer|result|solution|json|response)\s*[:：]\s*$`)
	afterDataRe   = lazyRegexp(`(?i)^(?:this|that|the above)\s+is\s+(?:the|an?|exactly the)\s+(?:[\w-]+\s+){0,2}?(?:object|json|payload|body|request|form|format|shape|markup)\b`)
)

// quotedInline is rule "call_in_quotation_marks": call markup opened right
// after a quotation mark and closed right before its closing mark, on one
// line, is a quoted string of the answer (a string to translate, a literal
// the user asked about), as markdown's inline code is (the scanner skips
// backticks already).
func quotedInline(prose string, start, end int) bool {
	if start <= 0 || end >= len(prose) || end <= start {
		return false
	}
	open, close := prose[:start], prose[end:]
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}, {"«", "»"}, {"„", "“"}} {
		if strings.HasSuffix(open, q[0]) && strings.HasPrefix(close, q[1]) && !strings.Contains(prose[start:end], "\n\n") {
			return true
		}
	}
	return false
}
