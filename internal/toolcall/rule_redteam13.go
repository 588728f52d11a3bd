package toolcall

import "strings"

// Round 13's red team (testdata/widened-adversarial-round13.jsonl) aimed at
// rule generic_markup and found, on the way, lead-ins that the older format
// readers took as the model's own step. Each says where the block comes
// from or what the user is to do with it, so the block is shown, not made.
// Rule "lead_describes_block":
//   - the block's provenance: "verbatim", "comes from the server log",
//     "introspection data", "training example";
//   - an instruction to the user about the block: "Add this block to your
//     settings.xml.", "Save this as testdata/…", "Wrap the call in
//     function_calls…";
//
// The model's own step ("OK, I'll run it verbatim as you wrote it:") is
// never one of these.
var (
	leadProvenanceRe  = lazyRegexp(`(?i)\b(verbatim|word for word)\b|\b(comes|came|is taken|was taken|is copied|was copied|copied|pasted)\s+(straight\s+|directly\s+)?from\b|\b(introspection|training)\s+(data|examples?)\b`)
	leadToUserRe      = lazyRegexp(`(?i)^\s*(add|save|put|paste|copy|place|insert|append|store|drop)\s+(this|these|that|the following|it|the (block|snippet|lines?|text|file|xml|json|markup))\b`)
	leadFormatImperRe = lazyRegexp(`(?i)^\s*(wrap|enclose|surround)\s+(the|each|every|a|your)\s+(call|tool call|function call|argument|parameter)s?\b`)
	// "MiniMax-M2 uses structured XML tag format:" (round 14t's
	// MiniMax-M2 guide): a lead-in that ends by naming a format, a syntax
	// or a template introduces it, not a call.
	leadFormatNounRe  = lazyRegexp(`(?i)\b(formats?|syntax|templates?|schemas?|notation|markup)\s*[:：]\s*$`)
	firstPersonStepRe = lazyRegexp(`(?i)\b(i'll|i will|i'm going to|i am going to|let me|let's|we'll|we will)\b`)
)

func leadDescribesBlock(before string) bool {
	b := strings.TrimSpace(fenceTailRe().ReplaceAllString(before, ""))
	if b == "" {
		return false
	}
	line := b
	if i := strings.LastIndexByte(b, '\n'); i >= 0 {
		line = b[i+1:] // a heading or an earlier paragraph above it
	}
	line = genericStripTokens(line) // a closed </think> before it
	if leadFormatNounRe().MatchString(line) && (modelActs(line) || gerundStepRe().MatchString(line)) {
		return false // "Converting it to the new format:" is the model's step
	}
	if firstPersonStepRe().MatchString(line) {
		return false
	}
	// An imperative is told to the user only when it says so ("Add this
	// block to your settings.xml."): a terse step of the model's own reads
	// the same ("Save it as notes.md then:", "Put this in the Makefile:",
	// red team 14r007–14r012). Wrapping is a format's instruction only
	// when it names markup ("Wrap the call in function_calls…"), not a
	// code change ("Wrap the call in a timeout:").
	if leadToUserRe().MatchString(line) && leadToYouRe().MatchString(line) {
		return true
	}
	if leadFormatImperRe().MatchString(line) && leadMarkupWordRe().MatchString(line) {
		return true
	}
	if leadFormatNounRe().MatchString(line) {
		return true
	}
	// Provenance in the model's own step is how it does the step
	// ("Restoring the original config verbatim from the backup:",
	// "Patch copied from upstream, applying it now:": 14r001–14r004).
	if firstPersonStepRe().MatchString(b) {
		return false
	}
	for _, l := range sentences(b) {
		if matchUnlessActs(leadProvenanceRe(), l) && !ownStepLine(genericStripTokens(l)) {
			return true
		}
	}
	return false
}

var (
	leadToYouRe      = lazyRegexp(`(?i)\b(you|your|yours|yourself)\b`)
	leadMarkupWordRe = lazyRegexp(`(?i)\b(tags?|elements?|markup|xml|json|function_calls|tool_calls?|parameters?|arguments?|tokens?)\b|<`)
	// ", applying it now:" closing a line: the model's step.
	ownStepTailRe = lazyRegexp(`(?i)[,;]\s*(and\s+)?(now\s+)?[a-z]+ing\s+(it|them|this|that|the \w+)(\s+now)?\s*[:.]?\s*$`)
	// Gerunds that show a text rather than act on it.
	showGerundRe = lazyRegexp(`(?i)^\s*(showing|quoting|printing|displaying|pasting|repeating|echoing|reproducing|citing|including|attaching|copying)\b`)
)

// ownStepLine: a line that tells the model's own step as a gerund
// ("Running your command word for word:") or ends on one.
func ownStepLine(line string) bool {
	line = strings.TrimSpace(line)
	if showGerundRe().MatchString(line) {
		return false
	}
	return gerundStepRe().MatchString(line) || ownStepTailRe().MatchString(line)
}

// markupRunStart walks back from a call's start over the tags and tokens
// right before it (<function_calls>, <|assistant|><|tool|>), so that the
// sentence before a wrapper is read as the call's lead-in (red team
// 13n021, 13n035).
func markupRunStart(s string, from, at int) int {
	for {
		p := at
		for p > from && (s[p-1] == ' ' || s[p-1] == '\t' || s[p-1] == '\n' || s[p-1] == '\r') {
			p--
		}
		if p <= from || s[p-1] != '>' {
			return at
		}
		o := strings.LastIndexByte(s[from:p-1], '<')
		if o < 0 {
			return at
		}
		o += from
		if _, e, _, ok := tokenAt(s, o); ok && e == p {
			at = o
			continue
		}
		if t, ok := readTag(s, o); ok && t.end == p {
			at = o
			continue
		}
		return at
	}
}

// xmlCallAttrs is rule "xml_call_attributes": the attributes of an
// <invoke>/<function> tag besides its name. One that is a parameter of the
// tool is an argument (<invoke name="read_file" path="a.go">: red team
// 13n115); any other (BPEL's partnerLink and operation, GObject
// Introspection's c:identifier: 13n016, 13n017) makes the tag another
// language's element, not a call.
func xmlCallAttrs(t xtag, o *objSchema) (map[string]any, bool) {
	args := map[string]any{}
	for k, v := range t.attrs {
		switch {
		case k == "name" || k == "string" || k == "id" || k == "type" || k == "call_id" || k == "index":
		case o != nil && o.has(k):
			args[k] = v
		default:
			return nil, false
		}
	}
	return args, true
}

// sentences splits s after each sentence end (., !, ?, : before a space or
// a line end; 。！？： anywhere) and at line ends; each piece keeps its
// punctuation.
func sentences(s string) []string {
	var out []string
	from := 0
	cut := func(to int) {
		if p := strings.TrimSpace(s[from:to]); p != "" {
			out = append(out, p)
		}
		from = to
	}
	for i, r := range s {
		switch {
		case r == '\n':
			cut(i)
		case strings.ContainsRune(".!?:", r) && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\n'):
			cut(i + 1)
		case strings.ContainsRune("。！？：", r):
			cut(i + len(string(r)))
		}
	}
	cut(len(s))
	return out
}
