package toolcall

import (
	"regexp"
	"strings"
)

// Round 12's red team (testdata/widened-adversarial-round12.jsonl) aimed at
// the exemptions of round 11 (rule_redteam11.go), which let a call run that
// an older quoting rule stopped, and at the newest format readers of rounds
// 10–11. Each rule below narrows one of them back: it takes a reading of
// the model's own step away where the lead-in quotes, or a call away where
// the markup is only mentioned, so that none of them can make a call run.
// The one rule that gives a call back (markup_quoted_in_command) only keeps
// a raw shell command that searches for markup from being read as a call
// written inside another.

// behaviourTailQuotesRe: the clause after the break, in behaviour_then_step
// and its userLogRe twin, picks out another party's artefact rather than
// naming the model's next step: a possessive of another party ("the
// maintainer's repro:"), the party receiving or seeing it ("the offending
// body it got:", "users see things like:"), a word of sample or part
// ("a sample from yesterday's logs:", "the second entry in it:"), or an
// open example ("…things like:", "…such as:").
var behaviourTailQuotesRe = lazyRegexp(`(?i)\b(?:sub-?agents?|agents?|assistants?|bots?|models?|llms?|servers?|clients?|users?|maintainers?|authors?|reporters?|reviewers?|customers?|op|yesterday|someone|somebody)(?:'s|s')(?:\s|$)` +
	`|\b(?:it|they|he|she|users?|customers?|people|you)\s+(?:got|gets|received|receives|see|sees|saw|get|gave|logged|hit|hits)\b` +
	`|\b(?:samples?|repros?|reproductions?|excerpts?|extracts?|dumps?|captures?|logs|outputs|entry|entries|records?|instances?|examples?)\b` +
	`|\b(?:in|from|of)\s+(?:it|them|there)\s*[:：]?\s*$|\blike\s*[:：]?\s*$|\bsuch\s+as\b`)

// behaviourTailQuotes is rule "behaviour_tail_quotes": behaviour_then_step
// (and userLogThenStep) read the clause after a break as the model's next
// step ("…, so the training script is next:"); where that clause picks out
// another party's artefact (behaviourTailQuotesRe) it is the quote the
// older rule quotes_other_party read, and stays shown. It only takes the
// exemption away.
func behaviourTailQuotes(rest string) bool {
	bs := clauseBreakRe().FindAllStringIndex(rest, -1)
	if len(bs) == 0 {
		return false
	}
	return behaviourTailQuotesRe().MatchString(rest[bs[len(bs)-1][1]:])
}

// pronounArtefactRe is rule "other_party_pronoun_turn": a line whose subject
// is another agent, bot, model or server and that goes on, after a clause
// break, to "its last turn", "their reply", "its output before the hang"
// and a colon quotes that party's turn, as otherPartyRe's "the agent's
// last turn:" does; the pronoun stands for the party named before the break.
var pronounArtefactRe = lazyRegexp(`(?i)^(?:[\w.-]+\s+){0,3}?(?:sub-?agents?|agents?|assistants?|bots?|models?|llms?|servers?)\b[^:：\n]*?(?:[,;]|\s[—–-])\s*(?:and\s+)?(?:its|their)\s+(?:[\w-]+\s+){0,2}?(?:answer|reply|output|response|completion|trace|turn|step|attempt|message|transcript|log|call|request|payload)s?\b[^:：.!?\n]{0,60}[:：]\s*$`)

func pronounArtefact(l string) bool { return pronounArtefactRe().MatchString(l) }

// callSitsRe: "each call sits/goes/lives between …": a call's place stated
// generically, as callDescribedRe's "is wrapped in" is.
var callSitsRe = lazyRegexp(`(?i)\b(?:a|each|every|one)\s+(?:tool\s+|function\s+)?calls?\s+(?:sits?|goes|go|lives?|appears?|comes?|stands?)\b`)

// callMarkupWideRe: the markup after the preposition, wider than
// callMarkupObjectRe: a literal tag right after it ("in `<tool_call>` and
// `</tool_call>`"), or markup words after up to six words of a markup
// phrase ("a pair of tool_call elements", "XML-style tags").
var callMarkupWideRe = lazyRegexp("(?i)^\\s+(?:in|with|by|between|inside|within|into)\\s+(?:[`\"']?</?[\\w:|=｜-]{1,40}>" +
	"|(?:(?:a|an|the|its|their|own|special|xml|json|angle|square|curly|matching|paired|two|one|pair|set|of|and|or|opening|closing|literal|[a-z]+-(?:style|like|ish)|[`\"']?</?[\\w:|=-]{1,40}>?[`\"']?|tool_calls?|function_calls?),?\\s+){0,6}?(?:tags?|markup|markers?|tokens?|delimiters?|brackets?|braces|blocks?|json|xml|sentinels?|fences?|quotes|elements?)(?:\\W|$))")

// callDescribedWide is rule "describes_a_call_wide": describes_a_call_markup
// reads "each call is wrapped in …" as format documentation only when
// markup follows; it missed markup named by two literal tags ("enclosed in
// `<tool_call>` and `</tool_call>`") and hyphenated or counted markup
// ("between XML-style tags", "in a pair of tool_call elements"), and the
// verbs of place ("each tool call sits between …"). Code ("wrapped in
// withRetry", "in a second retry loop", "marked with a span") still does
// not match: no markup word, no tag.
func callDescribedWide(l string) bool {
	for _, re := range []func() *regexp.Regexp{callDescribedRe, callSitsRe} {
		for _, m := range re().FindAllStringIndex(l, -1) {
			if callMarkupWideRe().MatchString(l[m[1]:]) {
				return true
			}
		}
	}
	return false
}

// formatWordRe: the lead-in names a format, template or call form.
var formatWordRe = lazyRegexp(`(?i)\b(?:format|formats|template|templates|syntax|markup|dialect|schema|tool[- ]?calls?|function[- ]?calls?|call\s+form)\b`)

// versionOfFormat is rule "version_of_format": software_version reads "the
// new version:" as a tool's version (the call installs or shows it); where
// the same line names a format or a template ("The old Hermes format put
// the arguments in a string; the new version:", "Qwen changed its chat
// template twice. The current version:") it is the format's version,
// shown, as formatNamedRe reads it.
func versionOfFormat(l string) bool { return formatWordRe().MatchString(l) }

// reviewGerunds are gerunds of going over what was, not of acting.
var reviewGerunds = map[string]bool{"reviewing": true, "documenting": true, "summarizing": true, "summarising": true,
	"recapping": true, "recounting": true, "reporting": true, "transcribing": true, "critiquing": true, "annotating": true}

// markGerundRe: a gerund of pointing at a part of a text ("highlighting the
// failing call it contains", "marking the line that broke it").
var markGerundRe = lazyRegexp(`(?i)^(?:(?:now|then|so|ok|okay|next|first),?\s+)?(?:highlighting|underlining|circling|flagging|marking|pointing\s+(?:out|at|to))\s+(?:(?:the|this|that|which|its|their|one)\s+)?(?:[\w-]+\s+)?(?:lines?|calls?|entry|entries|parts?|steps?|commands?|blocks?|bits?|turns?|records?)\b`)

// reviewGerundLead is rule "review_gerund": own_gerund_step (and the leading
// gerund of selfStep) read a lead-in opening with a gerund as the model's
// step; a gerund of reviewing, documenting or summarizing ("Reviewing the
// model's reply from yesterday, this output:", "Summarizing the incident
// for you, the agent's exact output:") or of pointing at a part of a text
// ("…; highlighting the failing call it contains:") goes over a text that
// is there, and what follows is quoted from it.
func reviewGerundLead(before string) bool {
	t := strings.TrimSpace(fullWidthPunct.Replace(before))
	if bs := sentenceStartRe().FindAllStringIndex(strings.TrimRight(t, ":： "), -1); len(bs) > 0 {
		t = t[bs[len(bs)-1][1]:]
	}
	if markGerundRe().MatchString(t) {
		return true
	}
	m := ownGerundRe().FindStringSubmatch(t)
	return m != nil && reviewGerunds[strings.ToLower(m[1])]
}

// ownGerundStep12 is own_gerund_step narrowed by review_gerund.
func ownGerundStep12(before string) bool {
	return ownGerundStep(before) && !reviewGerundLead(before) && !gerundGenericPlural(before)
}

// stepAfterPaste12 is step_after_paste narrowed by review_gerund: the
// gerund after the break must not be one of reviewing or pointing.
func stepAfterPaste12(before string) bool {
	for _, m := range pasteBreakRe().FindAllStringIndex(before, -1) {
		if ownGerundStep12(before[m[1]:]) {
			return true
		}
	}
	return false
}

// genericPluralRe: a gerund whose object is a bare plural of calls —
// "Sending requests like this:", "Making tool calls of this form:".
var genericPluralRe = lazyRegexp(`(?i)^(?:(?:now|then|so|ok|okay|next|first),?\s+)?[a-z]{3,}ing\s+(?:([\w-]+)\s+)?(?:requests|calls|commands|queries|invocations|payloads|messages)\b`)

// gerundGenericPlural is rule "gerund_generic_plural": own_gerund_step
// takes the demonstration of "…like this:" away for the model's own step;
// a gerund whose object is a bare plural of calls, with no determiner
// ("Sending requests like this:"), names calls of a kind, as
// a_call_like_this's "a call like this" does: shown, not made. "Sending
// the requests like this:" keeps its reading.
func gerundGenericPlural(before string) bool {
	t := strings.TrimSpace(fullWidthPunct.Replace(before))
	if bs := sentenceStartRe().FindAllStringIndex(strings.TrimRight(t, ":： "), -1); len(bs) > 0 {
		t = t[bs[len(bs)-1][1]:]
	}
	m := genericPluralRe().FindStringSubmatch(t)
	if m == nil {
		return false
	}
	switch strings.ToLower(m[1]) {
	case "the", "these", "those", "my", "our", "both", "all", "two", "three", "this", "that", "its", "their", "your":
		return false
	}
	return true
}

// retryByOtherRe: the corrected block is another party's, or kept only to
// be looked at.
var retryByOtherRe = lazyRegexp(`(?i)\b(?:by|from)\s+(?:the\s+)?(?:user|reviewer|maintainer|author|you|them|ci)\b` +
	`|\b(?:the\s+)?(?:user|reviewer|maintainer|author|you|they|someone)\s+(?:wrote|writes|fixed|fixes|corrected|sent|suggested|proposed|gave|posted)\b` +
	`|\bfor\s+(?:comparison|reference|the\s+record|context)\b|\bnot\s+to\s+be\s+run\b|\b(?:do\s+not|don't|never)\s+run\b`)

// retryByOther is rule "retry_by_other": own_markup_retry reads "my
// previous tool_call block …; corrected:" as the model's own retry; where
// the lead-in gives the corrected block to someone else ("the corrected one
// that the reviewer wrote:") or keeps it only to compare ("For comparison",
// "for the record, not to be run") it stays the example lead_in_names_markup
// reads.
func retryByOther(raw string) bool { return retryByOtherRe().MatchString(raw) }

// functionGemmaOwnLead is the narrowing of functiongemma_unstopped_repeat
// (rule "functiongemma_repeat_leads"): the repeats after a FunctionGemma
// call are removed only where the call begins the reply (after any
// reasoning) or the model's first person announces it; a call and its
// repeats after other prose ("docker/model-runner's bug report shows the
// loop:") are a quote of the loop, left as they came.
func functionGemmaOwnLead(pre string) bool {
	if r := strings.LastIndex(pre, "</think>"); r >= 0 {
		pre = pre[r+len("</think>"):]
	}
	return strings.TrimSpace(pre) == "" || announcesAct(pre)
}

// hy3InlineMention is rule "hy3_inline_mention": a Hy3 block with prose
// before it and after it on the same line ("Hy3 writes
// <tool_call:opensource>bash<tool_sep:opensource>{…}<arg_value:opensource>
// for a call, which …") is a mention of the form inside a sentence, as
// inline_function_mention reads a <function=NAME> tag; a call the model
// makes ends its line (or the reply).
func hy3InlineMention(s string, start, end int) bool {
	ls := strings.LastIndexByte(s[:start], '\n') + 1
	le := strings.IndexByte(s[end:], '\n')
	if le < 0 {
		le = len(s)
	} else {
		le += end
	}
	return hasLetter(s[ls:start]) && hasLetter(s[end:le])
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; c >= 'a' && c <= 'z' {
			return true
		}
	}
	return false
}

// markupQuotedInCommand is rule "markup_quoted_in_command": body_holds_call_markup
// (argsHoldCall) reads a raw body holding another format's markup as a call
// written inside another; a raw shell command ("grep -rn '<tool_call>'
// internal/") whose every such marker stands inside a shell quote searches
// for the markup and holds no call. The body must begin with a command word
// (a letter, not <, { or [) and hold no "name"/"arguments" pair.
func markupQuotedInCommand(body string) bool {
	b := strings.TrimSpace(body)
	if b == "" || !isLetter(b[0]) || argsKeyRe().MatchString(b) || nameKeyRe().MatchString(b) {
		return false
	}
	// Blank out the quoted spans; no marker may be left outside them.
	var out strings.Builder
	var q byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case q != 0:
			if c == q {
				q = 0
			}
			out.WriteByte(' ')
		case c == '\'' || c == '"':
			q = c
			out.WriteByte(' ')
		default:
			out.WriteByte(c)
		}
	}
	if q != 0 {
		return false
	}
	rest := out.String()
	for _, m := range callMarkupInBody {
		if strings.Contains(rest, m) {
			return false
		}
	}
	return !strings.Contains(rest, "<parameter=") && !strings.Contains(rest, "</parameter>") && !strings.Contains(rest, "</function>")
}

// otherAuthorRe is rule "other_author_wrote": a lead-in line that gives what
// follows to a named other author — a reviewer, the user, a maintainer, a
// colleague — as what they wrote, sent or proposed ("For comparison, the
// corrected one that the reviewer wrote:", "The version the user posted:")
// quotes it, as otherPartyRe does for another agent or model. A line that
// keeps a block only for comparison or for the record does the same.
var otherAuthorRe = lazyRegexp(`(?i)\b(?:the|a|our|your|their|my)\s+(?:[\w-]+\s+)?(?:reviewers?|users?|maintainers?|authors?|reporters?|colleagues?|teammates?|coworkers?|co-workers?|contributors?|customers?)\s+(?:had\s+|has\s+|have\s+|just\s+|then\s+)?(?:wrote|written|posted|sent|suggested|proposed|pasted|gave|typed|submitted|shared)\b[^.:：!?\n]{0,60}[:：]\s*$` +
	`|^(?:for\s+(?:comparison|reference|the\s+record|context))\b[^:：\n]{0,80}[:：]\s*$`)

func otherAuthorWrote(l string) bool { return otherAuthorRe().MatchString(l) }

// shownRedTeam12 holds the round's rule that reads past the lead-in's last
// sentence (finish, content.go): version_of_format on the sentences before
// "The current version:" ("Qwen changed its chat template twice. The
// current version:"): the format named there is the thing versioned.
//
// It also holds log_last_line_is, which reads the lead-in without a colon.
func shownRedTeam12(prose string, start int, before string) bool {
	l := strings.Join(strings.Fields(before), " ")
	if lastLineIs(l) {
		return true
	}
	if !softwareVersion(l) {
		return false
	}
	// The sentence before the lead-in's last one, where it names a format
	// and the model does not speak of its own step in it.
	from := max(0, start-300)
	prev := strings.TrimSuffix(prose[from:min(start, len(prose))], before)
	if k := strings.LastIndexAny(strings.TrimRight(prev, " \n\t.!?"), ".!?\n"); k >= 0 {
		prev = prev[k+1:]
	}
	return versionOfFormat(prev) && !firstPersonRe().MatchString(prev) && !announcesAct(prev)
}

// reportOwnerRe is rule "report_owner_possessive": quotes_report
// (rule_round8g.go) reads "The issue shows:" and "the user's log says:";
// a report named by its owner's possessive with no article
// ("docker/model-runner's bug report shows the loop:", "Qwen's issue
// says:") is the same quote.
var reportOwnerRe = lazyRegexp(`(?i)^\s*[\w./-]+'s\s+(?:[\w-]+\s+)?(?:bug\s+report|report|issue|ticket|bug|log|logs|trace|traceback|stack\s+trace|error\s+message|screenshot|thread|readme)\s+(?:says|said|shows|showed|reads|quotes|quoted|contains|states|has)\b[^:：\n]{0,120}[:：]\s*$`)

func reportOwner(l string) bool { return reportOwnerRe().MatchString(l) }

// lastLineIsRe is rule "log_last_line_is": a lead-in that ends on "its
// last line is", "the final entry was", "the log ends with" (with or
// without a colon) puts a line of a log or of another party's text after
// it: quoted, as quotes_report's "the log says:" is.
var lastLineIsRe = lazyRegexp(`(?i)\b(?:its|the|that|this|your|their)\s+(?:very\s+)?(?:last|final|first|only|closing)\s+(?:line|lines|entry|record|call|message|turn|output)\s+(?:is|was|were|are|reads|read|says|said)\s*[:：]?\s*$` +
	`|\b(?:log|logs|transcript|trace|output|stream|history)\s+(?:ends|ended|stops|stopped|breaks\s+off)\s+(?:with|in|on|at)\s*[:：]?\s*$`)

func lastLineIs(before string) bool {
	return lastLineIsRe().MatchString(strings.TrimSpace(before)) && !announcesAct(before)
}

// Rule "cut_key_under_limit" (emit, toolcall.go): a pythonic call cut right
// after KEY= by the token limit (finish_reason "length") gets the words of
// pythonic_cut_before_value, naming the argument whose value never came,
// not only the general "cut off by the token limit": it changes the words
// of a rejection, nothing runs.

// quotedLoopCut is rule "quoted_loop_cut": a reply cut by the token limit
// whose call markup was all read as shown gets the notice that the model
// was cut "while writing a tool call" and is told to send the call again;
// where the last group read was shown and nothing follows it but
// FunctionGemma's bare copies glued to its end marker (a quoted loop of
// functiongemma_unstopped_repeat, the last copy cut) or nothing at all, the
// cut fell inside the quote: no call was being written, and the model is
// not asked to send the quoted one.
func quotedLoopCut(sc *scan) bool {
	if sc.shownEnd <= 0 || sc.shownEnd > len(sc.s) {
		return false
	}
	rest := sc.s[sc.shownEnd:]
	return strings.TrimSpace(rest) == "" || gluedBareCalls(rest)
}
