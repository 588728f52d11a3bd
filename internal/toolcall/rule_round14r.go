package toolcall

import "strings"

// Round 14's red team for lost calls (testdata/widened-adversarial-round14.jsonl)
// found round 13's narrowings refusing the model's own terse steps. The
// rules here tell the two apart by what the call does, not by the words
// alone.

// Rule "lead_saves_elsewhere": "Save this as testdata/call.txt for the
// parser test:" before a write_file to out.txt tells the user where the
// block goes; "Save it as notes.md then:" before a write_file to notes.md
// is the model's step (14r008, 14r039, 13n011). An imperative line of the
// shown text that names a file none of the calls touches leaves the reply
// an answer.
func leadSavesElsewhere(text string, calls []Call) bool {
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if !leadToUserRe().MatchString(line) {
			continue
		}
		for _, f := range namedFileRe().FindAllString(line, -1) {
			f = strings.TrimRight(f, ".,;:)")
			if f == "" || callsMention(calls, f) {
				continue
			}
			return true
		}
	}
	return false
}

// namedFileRe: a path or a file name with an extension (testdata/call.txt,
// ~/.bashrc, notes.md, .gitignore), or a well-known extensionless file.
var namedFileRe = lazyRegexp(`(?:~?[\w.-]*/)+[\w.-]+|\.?[\w-]+\.[A-Za-z][\w]{0,7}\b|\b(?:Makefile|Dockerfile|Justfile|Rakefile|Gemfile|Procfile|Jenkinsfile|Vagrantfile)\b`)

func callsMention(calls []Call, f string) bool {
	name := f
	if i := strings.LastIndexByte(f, '/'); i >= 0 {
		name = f[i+1:]
	}
	for _, c := range calls {
		a := string(c.Arguments)
		if strings.Contains(a, f) || (name != "" && strings.Contains(a, name)) {
			return true
		}
	}
	return false
}

// examplesLabel: a line labelled "Examples:" shows examples (rule
// "parser_example"), unless the label says there are none and the model
// goes on with its step ("Examples: none needed, running the suite
// directly:", 14r017).
func examplesLabel(before string) bool {
	for _, m := range examplesLabelRe().FindAllStringSubmatch(before, -1) {
		rest := strings.TrimSpace(m[1])
		if !noExamplesRe().MatchString(rest) {
			return true
		}
	}
	return false
}

var noExamplesRe = lazyRegexp(`(?i)^(none|no\b|not needed|n/a|nothing|skipped)`)

// nextStepLead: a lead-in that names the model's next step without a verb
// of doing it ("Next, the config file.", "I'd better look at the logs
// first.", "Time to install the dependency.": 14r026–14r028). With no
// format to vouch for the markup, genericLeadActs wants the model acting;
// these are how models say it too.
func nextStepLead(line string) bool {
	line = strings.TrimSpace(line)
	return nextStepRe().MatchString(line) && !leadToYouRe().MatchString(line)
}

var nextStepRe = lazyRegexp(`(?i)^(next|now|then|first|finally|after that|and now|and then|ok|okay|alright|right)\b[,:]?\s+\S|^(and\s+)?(now\s+)?the\s+(second|next|other|last|third|remaining)\b|\b(i'd better|i had better|i should|i need to|i must|i want to|i'll need to|i have to|i still need to|time to)\b`)

// genericCallAttr: an attribute a model's call tag may carry besides its
// name and the tool's parameters: an id, a sequence number, a
// description (tool_call_id, callId, seq: red team 14r019–14r022). Any
// other is another language's element (BPEL's partnerLink and operation,
// 14r036), so generic_markup reads no call.
func genericCallAttr(k string) bool {
	return callAttrRe().MatchString(k)
}

var callAttrRe = lazyRegexp(`(?i)^(name|type|tool|tool_name|function|seq|sequence|index|idx|order|step|description|desc|title|reason|summary|[a-z_-]*id)$`)

// parsedToTailRe: a call object right after "parses to" is the parser's
// output shown, the call before it its input (rule "parser_example",
// 14r034).
var parsedToTailRe = lazyRegexp(`(?i)\b(parses|is parsed|gets parsed|should parse|must parse|becomes|is converted|gets converted|is turned|is mapped|is rendered|maps|translates|renders)\s+(to|into|as)\s*[:\-–—]?\s*$`)
