package toolcall

import (
	"strings"
)

// A call written in the text is not meant to run when the sentence around it
// says so: refused ("I won't run"), deferred to the user ("I have not run
// it. Reply yes and I will."), or reported as already done ("I ran …").
// Only the sentence that leads into the call and the first sentence after it
// are read, so that a plan or a past step elsewhere in the reply does not
// cancel a real call.

// A refusal or a past-tense report cancels a call only when it is about
// the call: its verb ends the lead-in right before the call ("I won't run
// {…}", "I already ran {…}"), or its object names the call ("I have not run
// it", "I can't run commands"). "I didn't run the tests, so let me read the
// config:" leads into a real call.
const (
	negation = `(will not|won't|wont|would not|wouldn't|am not going to|'m not going to|are not going to|'re not going to|did not|didn't|have not|haven't|do not|don't|cannot|can't|can not|shall not|should not|shouldn't|must not|never|refuse to|'m not able to|am not able to|'m unable to|am unable to|are unable to|'re unable to|'m not allowed to|am not allowed to)`
	object   = `(it|this|that|these|them|those|anything|commands?|code|tools?|tool calls?|shell commands?|the (command|call|tool call|tool|function|following)s?)`
	pastVerb = `((have|'ve)\s+)?(already\s+)?(ran|run|executed|called|invoked|used|made|sent)`
)

var (
	// "I won't run it", "I can't execute commands".
	notMadeRe = lazyRegexp(`(?i)\b(i|we)\s*` + negation + `\s+(\w+\s+)?(run|execute|call|invoke|perform|make|send|issue)\s+` + object + `\b`)
	// "I won't run " right before the call.
	notMadeEndRe = lazyRegexp(`(?i)\b(i|we)\s*` + negation + `\s+(\w+\s+)?(run|execute|call|invoke|perform|make|send|issue)(\s+the following)?\s*[:\-–—]?\s*$`)
	passiveNotRe = lazyRegexp(`(?i)\b(it|this|that|the (call|command|tool call))\s+(has|was|is|will|were)(\s*(not|n't)|\s+never)\s+(been\s+|be\s+)?(run|executed|called|invoked|made|sent)\b`)
	// "I have already run it", "the call I made", "it was executed".
	pastRe = lazyRegexp(`(?i)\b(i|we)\s+` + pastVerb + `\s+` + object + `\b|\b(call|command|tool call)s?\s+(that\s+)?(i|we|the (model|agent|assistant))\s+(made|ran|executed|used|sent|emitted)\b|\b(it|this|that|the (call|command|tool call))\s+(has been|was|were|have been)\s+(already\s+)?(run|executed|called|invoked)\b`)
	// "I already ran " right before the call.
	pastEndRe = lazyRegexp(`(?i)\b(i|we)\s+((have|'ve)\s+)?(already\s+)?(ran|executed|called|invoked|used|sent)(\s+the following)?\s*[:\-–—]?\s*$`)
	// The call given as an example of the format, not made.
	exampleRe       = lazyRegexp(`(?i)\b((an|for|as an) example (call|tool call|of a (tool )?call)|example (call|tool call|request|usage)|here is an example|(calls?|format|syntax|markup) (look|looks) like|would look like|looks like this|the (call|command|tool call) would be)\b`)
	parsedToRe      = lazyRegexp(`(?i)^(it |this |which )?(parses|is parsed|gets parsed|should parse|must parse|becomes|is converted|gets converted|is turned|is mapped|is rendered)\s+(to|into|as)\b`)
	examplesLabelRe = lazyRegexp(`(?im)^\s*examples\s*:(.*)$`)
	// A fence opened right before the call.
	fenceTailRe = lazyRegexp("(```|~~~)[A-Za-z0-9_]*\\s*$")
	// Deferred to the user: "Reply yes and I will", "Shall I run it?".
	deferRe = lazyRegexp(`(?i)\b(reply|answer|say|type)\s+["'“]?(yes|y|ok|confirm)\b|\b(shall|should|may)\s+i\s+(go ahead|proceed|run|execute)\b|\b(do you want|would you like|want)\s+me\s+to\s+(go ahead|proceed|run it|run this|run that|execute it|execute this|execute that)\b|\b(once|after|when|if)\s+you\s+(confirm|approve)\b|\bwith your (permission|approval|confirmation)\b|\bawaiting your (confirmation|approval|go-ahead)\b`)
)

// sentenceBefore returns the sentence that leads into position end, looking
// no further back than from.
func sentenceBefore(s string, from, end int) string {
	if from < end-300 {
		from = end - 300
	}
	if from < 0 {
		from = 0
	}
	w := s[from:end]
	// Cut after the last sentence end (., !, ? followed by a space).
	cut := -1
	for k := len(w) - 2; k >= 0; k-- {
		if (w[k] == '.' || w[k] == '!' || w[k] == '?') && (w[k+1] == ' ' || w[k+1] == '\n') {
			// A sentence end right before the call (with only spaces
			// between) ends the lead-in; keep looking before it.
			if strings.TrimSpace(w[k+1:]) == "" {
				continue
			}
			cut = k + 1
			break
		}
	}
	if cut >= 0 {
		w = w[cut:]
	}
	return w
}

// sentenceAfter returns the first sentence after position start.
func sentenceAfter(s string, start, to int) string {
	if to > start+300 {
		to = start + 300
	}
	if to > len(s) {
		to = len(s)
	}
	w := s[start:to]
	w = strings.TrimLeft(w, " \t\r\n`~")
	for k := 0; k < len(w); k++ {
		if w[k] == '.' || w[k] == '!' || w[k] == '?' {
			return w[:k+1]
		}
	}
	return w
}

// notIntended reports whether the prose around a call says it is not made.
func notIntended(before, after string) bool {
	if leadShownRedTeam10(before, after) || leadShownRedTeam18(before) { // rule_redteam10.go: reads the lead-in's lines; rule_round18.go
		return true
	}
	norm := func(w string) string {
		return strings.ReplaceAll(strings.Join(strings.Fields(w), " "), "’", "'")
	}
	before = strayWordLine(before) // rule_round10a.go
	raw := before
	before, after = norm(before), norm(after)
	// The lead-in ends at the call, not at the fence opened for it.
	before = strings.TrimSpace(fenceTailRe().ReplaceAllString(before, ""))
	if notMadeEndRe().MatchString(before) || pastEndRe().MatchString(before) || pastWithEndRe().MatchString(before) || comparedRe().MatchString(before) || callPatternRe().MatchString(before) { // comparedRe, callPatternRe: rule_round20.go
		return true
	}
	for _, w := range []string{before, after} {
		// A negated or past step that the model follows with the step it
		// takes now is not this call (rule_leadin.go).
		if matchUnlessActs(notMadeRe(), w) || passiveNotRe().MatchString(w) || matchUnlessActs(pastRe(), w) || deferRe().MatchString(w) || exampleRe().MatchString(w) {
			return true
		}
	}
	// Rule "parser_example" (round 13, negative_quoted-13h025): a call
	// the next words say a parser turns into something ("parses to",
	// "becomes") is a parser's input shown, and a line labelled
	// "Examples:" shows examples.
	if parsedToRe().MatchString(after) || parsedToTailRe().MatchString(before) || shownIntlRe().MatchString(after) || shownIntlRe().MatchString(before) || shownRound15r(before, after) || examplesLabel(before) || leadDescribesBlock(before) { // leadDescribesBlock: rule_redteam13.go
		return true
	}
	// rule_round7b.go; echoedText: rule_round7e.go; demonstrationLead:
	// rule_demonstration.go; rule_round8f.go; quotesReport: rule_round8g.go.
	return notIntendedWide(before, after) || notIntendedRound7b(before) || echoedText(before) || demonstrationLead(before) || notIntendedRound8f(before) || quotesReport(before) || namesMarkup(before, raw) // namesMarkup: rule_round10a.go
}

var (
	// <your file>, [your-path], {YOUR_URL}: a value the model left for the
	// user to fill in.
	yourRe = lazyRegexp(`(?i)[<\[{](your|insert|enter)[ _-][^<>\[\]{}\n]{0,40}[>\]}]`)
	// A short value that is nothing but one <placeholder>, {placeholder},
	// {{placeholder}} or [PLACEHOLDER].
	wholeRe = lazyRegexp(`^(<[A-Za-z][A-Za-z0-9 _-]{0,40}>|\{\{?\s*[A-Za-z][A-Za-z0-9 _-]{0,40}\s*\}?\}|\[[A-Z][A-Z0-9 _-]{0,40}\])$`)
)

// hasPlaceholder reports whether an argument that names something (a path,
// a command, a URL) is a placeholder. Free text (content, old, new) may
// legitimately hold a template with <your name> in it.
func hasPlaceholder(args map[string]any) bool {
	for k, v := range args {
		if !verbatimArgs[k] && placeholderIn(v) || verbatimArgs[k] && wholePlaceholder(v) { // rule_round4a.go
			return true
		}
	}
	return false
}

func placeholderIn(v any) bool {
	switch x := v.(type) {
	case string:
		if yourRe().MatchString(x) {
			return true
		}
		t := strings.TrimSpace(x)
		if schemaTypeName(t) {
			return true
		}
		if strings.HasPrefix(t, "YOUR_") || strings.HasPrefix(t, "your_") {
			return true
		}
		inner := strings.ToLower(strings.Trim(t, "<>{}[] "))
		return len(t) < 60 && wholeRe().MatchString(t) && (strings.ContainsAny(inner, " _-") || placeholderWords[inner])
	case []any:
		for _, e := range x {
			if placeholderIn(e) {
				return true
			}
		}
	}
	return false
}

var placeholderWords = map[string]bool{
	"file": true, "filename": true, "path": true, "filepath": true, "dir": true, "directory": true,
	"command": true, "cmd": true, "url": true, "query": true, "content": true, "value": true,
	"symbol": true, "name": true, "text": true,
}
