package toolcall

import (
	"sort"
	"strings"
)

// The content scanner finds calls written as text, in every format small
// models use. It walks the content once, stopping only at characters that
// can start call markup, and skips reasoning, code fenced as another
// language, and code quoted inline.

// group is the calls one piece of markup holds, with its span in the
// content.
type group struct {
	start, end int
	cands      []candidate
}

type scan struct {
	s         string
	ts        *toolset
	skip      []region // reasoning, code, harmony calls: no trigger inside
	reasoning []region
	// harmonyThought: analysis messages and the headers of the others, cut
	// from the text when a call is made (their tokens are noise).
	harmonyThought []region
	groups         []group
	junk           []region // a tool result the model wrote itself
	sawOpener      bool     // call markup seen (for a reply cut by the token limit)
	shownEnd       int      // end of the last group read as shown, when it is the last group (rule_redteam12.go)
	depth          int      // wrappers read inside wrappers
	pyImport       int      // 1 + where the first Python import line is, -1 none, 0 not looked yet (rule_round15.go)

	cands []candidate
	text  string

	// Facts of the whole text that rules read again for each call, found
	// once (asking them anew from each call was quadratic on a reply of
	// many call lines).
	toolCode     []toolCodeBlock // ```tool_code blocks, for inToolCode
	toolCodeRead bool
	pyBadLine    int // start of the last line pyEndsReply refuses, -1 for none
	pyBadRead    bool
	fenceLines   []int // starts of the ``` and ~~~ lines, for insideFence
	fencesRead   bool
	// strippedAfterFinal's stripped harmony headers: where each
	// "assistantfinal" starts, and where each later header starts.
	finals, headers []int
	headersRead     bool
}

// maxGroups is more calls than one reply of a sane model holds.
const maxGroups = 64

// maxWrapDepth is more wrappers around one call than any model writes.
const maxWrapDepth = 6

// mayHaveCalls is the quick check run on every reply: prose with none of
// these markers has no call.
func mayHaveCalls(s string, ts *toolset) bool {
	if s == "" {
		return false
	}
	if strings.ContainsAny(s, "{<") {
		return true
	}
	for _, m := range []string{"[TOOL_CALLS]", "[ARGS]", "[TOOL_REQUEST]", "THINK]", "to=", "functools", "functions.", "call:", ">>>", "Calling tool"} {
		if strings.Contains(s, m) {
			return true
		}
	}
	if templateMayHaveCalls(s) {
		return true
	}
	// name( … ): a pythonic call to a declared tool.
	for i := 0; i < len(s); {
		j := strings.IndexByte(s[i:], '(')
		if j < 0 {
			break
		}
		j += i
		k := j
		for k > 0 && (isIdent(s[k-1]) || s[k-1] == '.') {
			k--
		}
		if k < j && ts.resolve(strings.TrimSuffix(s[k:j], ".call")) != "" {
			return true
		}
		i = j + 1
	}
	return false
}

func scanContent(s string, ts *toolset) *scan {
	sc := &scan{s: s, ts: ts}
	sc.reasoning = kimiSectionEndsReasoning(s, reasoningRegions(s))
	skip := append([]region(nil), sc.reasoning...)

	// Code fenced as another language and here-documents are read first:
	// harmony written there (a Python string that builds a message) is code.
	code := codeRegions(s)
	code = append(code, heredocRegions(s)...)

	harm := harmonyMessages(harmonyQuotedTokens(s))
	var finals []string
	for _, m := range harm {
		if inRegions(sc.reasoning, m.start) || inRegions(code, m.start) {
			continue
		}
		if isToolRecipient(m.recipient) {
			sc.harmonyCall(m)
			skip = append(skip, region{m.start, m.end})
			continue
		}
		if strings.EqualFold(m.channel, "analysis") {
			sc.reasoning = append(sc.reasoning, region{m.start, m.end})
			sc.harmonyThought = append(sc.harmonyThought, region{m.start, m.end})
			skip = append(skip, region{m.start, m.end})
			continue
		}
		if strings.EqualFold(m.channel, "final") || m.channel == "" {
			finals = append(finals, strings.TrimSpace(s[m.bodyStart:m.bodyEnd]))
		}
		// The header and end token of a visible message are not text.
		sc.harmonyThought = append(sc.harmonyThought, region{m.start, m.bodyStart}, region{m.bodyEnd, m.end})
	}
	skip = append(skip, code...)
	skip = append(skip, inlineCodeRegions(blank(s, code))...)
	sc.skip = mergeRegions(skip)

	sc.walk()
	sc.finish(finals, len(harm) > 0)
	return sc
}

// walk visits every character that can start call markup.
func (sc *scan) walk() {
	s := sc.s
	ri := 0
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], "<[{(tfc>")
		if j < 0 {
			return
		}
		j += i
		for ri < len(sc.skip) && sc.skip[ri].end <= j {
			ri++
		}
		if ri < len(sc.skip) && sc.skip[ri].start <= j {
			i = sc.skip[ri].end
			continue
		}
		g, ok := sc.at(j)
		if !ok {
			i = j + 1
			continue
		}
		if len(g.cands) > 0 {
			sc.groups = append(sc.groups, g)
			if len(sc.groups) >= maxGroups {
				// A reply with this many calls is a model looping; what
				// follows is not read.
				return
			}
		}
		i = max(g.end, j+1)
	}
}

// at tries every format that can start at s[j].
func (sc *scan) at(j int) (group, bool) {
	s := sc.s
	switch s[j] {
	case '<':
		return sc.angle(j)
	case '[':
		return sc.bracket(j)
	case '{':
		if g, ok := sc.gemmaBareBodyAt(j); ok { // rule_round21.go
			return g, ok
		}
		if g, ok := sc.functionaryBare(j); ok {
			return g, ok
		}
		if g, ok := sc.markerlessNamedJSON(j); ok {
			return g, ok
		}
		return sc.jsonAt(j, j, false)
	case '>':
		return sc.functionaryRecipient(j)
	case '(':
		if g, ok := sc.gptmeCall(j); ok { // rule_round18.go
			return g, ok
		}
		return sc.pyOwnLine(j)
	}
	if j > 0 && (isIdent(s[j-1]) || s[j-1] == '.') && !(s[j-1] == '.' && strings.HasPrefix(s[j:], "to=functions.") && strippedHarmonyReply(s)) && !kimiGluedToSentence(sc, j) { // rule_round20.go
		// (A stripped harmony header glued to the end of the analysis
		// message before it, "…first.to=functions.NAME", is read:
		// strippedHeaderAt.)
		return group{}, false
	}
	switch {
	case strings.HasPrefix(s[j:], "to=functions."):
		return sc.strippedHarmony(j)
	case strings.HasPrefix(s[j:], "to=") && sc.declaredAt(j+len("to=")):
		// gpt-oss also addresses a tool without the functions. namespace
		// (to=read_file); the header words around it still decide.
		return sc.strippedHarmony(j)
	case strings.HasPrefix(s[j:], "functools"):
		p := skipSpace(s, j+len("functools"))
		if p < len(s) && (s[p] == '[' || s[p] == '{') {
			sc.sawOpener = true
			return sc.jsonAt(j, p, true)
		}
	case strings.HasPrefix(s[j:], "functions."):
		return sc.strippedKimi(j)
	case strings.HasPrefix(s[j:], "call:") && (gemmaStrippedAt(s, j) || gemmaNextCallAt(s, j)): // gemmaNextCallAt: rule_round21.go
		return sc.gemma(j, j, false)
	case strings.HasPrefix(s[j:], "tool_code"):
		return sc.toolCodeAssign(j)
	}
	return group{}, false
}

func (sc *scan) angle(j int) (group, bool) {
	s := sc.s
	if t, ok := readTag(s, j); ok && t.dsml {
		return sc.tag(j, t)
	}
	if strings.HasPrefix(s[j:], chatGLM3Header) { // rule_round18.go
		return sc.chatGLM3Call(j)
	}
	if name, end, gemma, ok := tokenAt(s, j); ok {
		switch classifyTok(normTok(name), gemma) {
		case tkWrapper:
			sc.sawOpener = true
			return sc.wrapped(j, end, false)
		case tkCallBegin:
			sc.sawOpener = true
			return sc.segment(j, end)
		case tkGemma:
			sc.sawOpener = true
			return sc.gemma(j, end, true)
		case tkApertus:
			sc.sawOpener = true
			return sc.apertus(j, end)
		case tkOutput:
			return sc.output(j, end, strings.Contains(normTok(name), "outputs")), true
		case tkSep:
			if kimiArgumentToken(name) {
				return sc.kimiBareID(j, end) // rule_round12q.go
			}
		}
		return group{}, false
	}
	if strings.HasPrefix(s[j:], "<arg_key>") {
		return sc.glmBare(j)
	}
	if strings.HasPrefix(s[j:], gorillaMarker) { // rule_round18.go
		sc.sawOpener = true
		return sc.wrapped(j, j+len(gorillaMarker), false)
	}
	if t, ok := readTag(s, j); ok {
		return sc.tag(j, t)
	}
	return group{}, false
}

func (sc *scan) tag(j int, t xtag) (group, bool) {
	if t.close {
		return group{}, false
	}
	switch t.name {
	case "function", "invoke":
		if inlineFunctionMention(sc.s, j, t) { // rule_round10a.go
			return group{}, false
		}
		if t.eq != "" || t.attrs["name"] != "" {
			sc.sawOpener = true
			return sc.xmlCall(j, j, t)
		}
	case "tool_response", "tool_result", "tool_output":
		return sc.outputTag(j, t), true
	case codeActBash:
		return sc.codeActCall(j, t) // rule_round18.go
	}
	if g, ok := sc.dsmlNamedCall(j, t); ok { // rule_round10a.go
		return g, true
	}
	if g, ok := sc.hy3Call(j, t); ok && !hy3InlineMention(sc.s, j, g.end) { // rule_round10a.go; hy3InlineMention: rule_redteam12.go
		return g, true
	}
	if g, ok := sc.namedWrapper(j, t); ok {
		return g, true
	}
	if g, ok := sc.cherryToolUse(j, t); ok { // rule_round9o.go
		return g, true
	}
	if g, ok := sc.longcatTag(j, t); ok { // rule_round12l.go
		return g, true
	}
	if wrapperTags[t.name] {
		sc.sawOpener = true
		return sc.wrapped(j, t.end, t.name == "tool_call")
	}
	return group{}, false
}

// output skips a tool result the model wrote after its call: it is not the
// answer, and nothing in it is a call. A block (outputs begin) ends at its
// block end; a single output at its own end, with the end tokens after it.
func (sc *scan) output(j, end int, block bool) group {
	s := sc.s
	e := len(s)
	for k := end; k < len(s); {
		x := strings.IndexByte(s[k:], '<')
		if x < 0 {
			break
		}
		x += k
		name, te, _, ok := tokenAt(s, x)
		if !ok {
			k = x + 1
			continue
		}
		n := normTok(name)
		isEnd := strings.Contains(n, "end") && (strings.Contains(n, "output") || strings.Contains(n, "response") || strings.Contains(n, "result"))
		if !isEnd || (block && !strings.Contains(n, "outputs")) {
			k = te
			continue
		}
		e = te
		for {
			q := skipSpace(s, e)
			nm, te2, _, ok := tokenAt(s, q)
			if !ok || !strings.Contains(normTok(nm), "end") {
				break
			}
			e = te2
		}
		break
	}
	sc.junk = append(sc.junk, region{j, e})
	return group{start: j, end: e}
}

func (sc *scan) outputTag(j int, t xtag) group {
	e := len(sc.s)
	if k := strings.Index(strings.ToLower(sc.s[t.end:]), "</"+t.name+">"); k >= 0 {
		e = t.end + k + len("</"+t.name+">")
	}
	sc.junk = append(sc.junk, region{j, e})
	return group{start: j, end: e}
}

// wrapped reads what follows a wrapper (<tool_call>, <tools>, [TOOL_CALLS],
// <|python_tag|>, <｜tool▁calls▁begin｜>…): JSON calls, another marker, or a
// tool name (GLM's <tool_call>NAME<arg_key>…, Llama's NAME.call(…)).
func (sc *scan) wrapped(start, p int, glm bool) (group, bool) {
	s := sc.s
	q := skipSpace(s, p)
	// A fence inside the wrapper: <tool_call>```json …```</tool_call>.
	if strings.HasPrefix(s[q:], "```") {
		// A Python fence: MiniCPM's <|tool_call_start|>```python NAME(…)```
		// (rule_round18.go: pythonFenceInWrapper).
		if nl := strings.IndexByte(s[q:], '\n'); nl >= 0 && (fenceLang(s[q+3:q+nl]) == "json" || pythonFenceInWrapper(s, q, nl)) || nl >= 0 && strings.TrimSpace(s[q+3:q+nl]) == "" {
			q = skipSpace(s, q+nl+1)
		}
	}
	if q >= len(s) {
		return group{}, false
	}
	switch c := s[q]; {
	case c == '"':
		return sc.braceElided(start, q) // rule_round19.go
	case c == '{':
		if g, ok := sc.qwenHybridFrame(start, q); ok {
			return g, true
		}
		return sc.jsonAt(start, q, true)
	case c == '[':
		if isPyListStart(s, q) {
			return sc.pyList(start, q, true)
		}
		if strings.HasPrefix(s[q:], "[TOOL_CALLS]") {
			break
		}
		return sc.jsonAt(start, q, true)
	case isLetter(c) || c == '_':
		e := q
		for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-' || s[e] == ':') {
			e++
		}
		r := skipSpace(s, e)
		if r < len(s) && s[r] == '(' {
			if g, ok := sc.olmoCallLines(start, p, q); ok { // rule_round10p.go
				return g, true
			}
			return sc.pyCall(start, q, e, true)
		}
		if glm && (strings.HasPrefix(s[r:], "<arg_key>") || strings.HasPrefix(s[r:], "<param_key>") || r >= len(s) || isCloserAt(s, r)) {
			return sc.glm(start, q, e)
		}
		if glm {
			if g, ok := sc.glmGluedKey(start, q, e); ok {
				return g, true
			}
			if g, ok := sc.glmKeyValueBody(start, q, e); ok { // rule_round12l.go
				return g, true
			}
		}
		if g, ok := sc.deepseekElided(start, q, e, r); ok {
			return g, true
		}
		if r < len(s) && s[r] == '{' && e > q {
			return sc.nameThenJSON(start, q, e, r, "name then JSON")
		}
		return group{}, false
	}
	if s[q] == '<' || s[q] == '[' {
		// Another marker: read it as part of this one. The depth is
		// bounded so that a looping marker stays linear.
		if sc.depth >= maxWrapDepth {
			return group{}, false
		}
		sc.depth++
		g, ok := sc.at(q)
		sc.depth--
		if ok && len(g.cands) > 0 {
			g.start = start
			return g, true
		}
		return g, ok
	}
	return group{}, false
}

// closers skips what ends a call: closing tags and tokens, a fence closer,
// a stray ], and a closer cut at the very end of the text.
func (sc *scan) closers(p int) int {
	s := sc.s
	for {
		q := skipSpace(s, p)
		if q >= len(s) {
			return q
		}
		if e, ok := closerEnd(s, q); ok {
			p = e
			continue
		}
		if s[q] == ']' {
			p = q + 1
			continue
		}
		if strings.HasPrefix(s[q:], "```") {
			nl := strings.IndexByte(s[q:], '\n')
			line := s[q:]
			if nl >= 0 {
				line = s[q : q+nl]
			}
			if strings.Trim(line, "`~ \t\r") == "" {
				p = q + len(line)
				continue
			}
		}
		if partialCloserAt(s, q) {
			return len(s)
		}
		return p
	}
}

// isCloserAt reports whether a closing tag or token starts at s[q].
func isCloserAt(s string, q int) bool {
	_, ok := closerEnd(s, q)
	return ok || partialCloserAt(s, q)
}

func closerEnd(s string, q int) (int, bool) {
	if s[q] == '<' {
		if strings.HasPrefix(s[q:], "<tool_call|>") {
			return q + len("<tool_call|>"), true
		}
		if t, ok := readTag(s, q); ok && t.close && (wrapperTags[t.name] || t.name == "function" || t.name == "invoke") {
			return t.end, true
		}
		if name, end, gemma, ok := tokenAt(s, q); ok && !gemma && classifyTok(normTok(name), false) == tkCloser {
			return end, true
		}
	}
	if s[q] == '[' {
		for _, m := range []string{"[END_TOOL_REQUEST]", "[/TOOL_REQUEST]", "[/TOOL_CALLS]", "[/TOOL_CALL]"} {
			if strings.HasPrefix(s[q:], m) {
				return q + len(m), true
			}
		}
	}
	return 0, false
}

var closerNames = []string{"</tool_call>", "</tool_calls>", "</function>", "</tools>", "</tool>", "</invoke>", "</function_call>", "<|/tool_call|>", "<|tool_call_end|>", "<tool_call|>", "<|call|>", "<|end|>", "<｜tool▁call▁end｜>", "<｜tool▁calls▁end｜>", "[END_TOOL_REQUEST]"}

// partialCloserAt: the text ends with the beginning of a closer
// (</tool_cal), cut after a complete call.
func partialCloserAt(s string, q int) bool {
	rest := strings.TrimSpace(s[q:])
	if len(rest) < 2 || strings.ContainsAny(rest, "\n") {
		return false
	}
	for _, c := range closerNames {
		if len(rest) < len(c) && strings.HasPrefix(c, rest) {
			return true
		}
	}
	return false
}

// finish applies the intent rules to the groups found, then builds the text
// the user sees.
func (sc *scan) finish(finals []string, harmony bool) {
	sort.SliceStable(sc.groups, func(a, b int) bool { return sc.groups[a].start < sc.groups[b].start })
	prose := blank(sc.s, sc.reasoning)
	var kept []group
	shown := false // a group was read as shown
	for k, g := range sc.groups {
		if k > 0 && g.start < sc.groups[k-1].end {
			continue // overlapping: already read as part of another call
		}
		// Back-to-back calls share the lead-in of the first and the
		// sentence after the last (rule_round5a.go).
		first, last := callRun(sc.s, sc.groups, k)
		prev := 0
		if first > 0 {
			prev = sc.groups[first-1].end
		}
		next := len(sc.s)
		if last+1 < len(sc.groups) {
			next = sc.groups[last+1].start
		}
		lastEnd := sc.groups[last].end
		before := sentenceBefore(prose, prev, sc.groups[first].start)
		after := sentenceAfter(prose, min(lastEnd, len(sc.s)), max(next, lastEnd))
		if notIntended(before, after) || leadDescribesBlock(sentenceBefore(prose, prev, markupRunStart(prose, prev, sc.groups[first].start))) || allPlaceholders(g) || quotedBlockLine(sc.s, g.start) || listedExample(sc.s, g.start, g.end) || consoleFence(sc.s, g.start) || shownRedTeam9(prose, sc.groups[first].start, before) || shownRedTeam10(prose, sc.groups[first].start, lastEnd) || shownRedTeam12(prose, sc.groups[first].start, before) || shownRound21(prose, prev, sc.groups[first].start, before, after) || jsonInSentence(sc.s, sc.groups[first], sc.groups[last]) { // shownRound21: rule_round21.go; jsonInSentence: rule_round22.go; shownRedTeam9: rule_redteam9.go; shownRedTeam10: rule_redteam10.go
			if last == len(sc.groups)-1 {
				sc.shownEnd = lastEnd
			}
			shown = true
			continue
		}
		kept = append(kept, g)
	}
	kept = fencedBesideBare(sc.s, kept, shown) // rule_round15.go
	for _, g := range kept {
		sc.cands = append(sc.cands, g.cands...)
	}
	if len(kept) == 0 {
		sc.text = sc.s
		if harmony && len(finals) > 0 {
			sc.text = strings.Join(finals, "\n\n")
		}
		return
	}
	var cut []region
	for k, g := range kept {
		start, end := fenceOpenerBefore(sc.s, g.start), g.end
		// Separators between calls (; or ,) go with them.
		if k+1 < len(kept) && strings.Trim(sc.s[min(end, kept[k+1].start):kept[k+1].start], " \t\r\n;,") == "" {
			end = max(end, kept[k+1].start)
		}
		cut = append(cut, region{start, end})
	}
	cut = append(cut, sc.junk...)
	cut = append(cut, sc.harmonyThought...)
	for _, r := range sc.reasoning {
		inner := thinkTagsRe().ReplaceAllString(sc.s[r.start:r.end], "")
		if holdsMarkup(inner) || strings.TrimSpace(inner) == "" {
			cut = append(cut, r)
		}
	}
	cut = mergeRegions(cut)
	var b strings.Builder
	last := 0
	for _, r := range cut {
		if r.start > last {
			b.WriteString(sc.s[last:r.start])
		}
		last = max(last, r.end)
	}
	if last < len(sc.s) {
		b.WriteString(sc.s[last:])
	}
	sc.text = tidy(b.String())
}

var thinkTagsRe = lazyRegexp(`(?i)</?(seed:)?(think|thinking|reasoning)>|\[/?THINK\]`)

// fenceOpenerBefore moves a call's start back over the fence line that
// opens it (```json), so that the fence goes with the call.
func fenceOpenerBefore(s string, start int) int {
	k := start
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t' || s[k-1] == '\n' || s[k-1] == '\r') {
		k--
	}
	if k == 0 {
		return start
	}
	ls := strings.LastIndexByte(s[:k], '\n') + 1
	line := strings.TrimLeft(s[ls:k], " \t")
	if f := fenceRun(line); f != "" && callFenceLangs[fenceLang(line[len(f):])] {
		return ls
	}
	return start
}

// allPlaceholders reports whether every call of a group has a placeholder
// value: a template for the user, not a call.
func allPlaceholders(g group) bool {
	for _, c := range g.cands {
		if templateName(c.name) {
			continue
		}
		m, ok := c.args.(map[string]any)
		if !ok || !hasPlaceholder(m) {
			return false
		}
	}
	return len(g.cands) > 0
}

// holdsMarkup reports whether reasoning holds call markup (a rehearsed
// call), which goes with the call.
func holdsMarkup(s string) bool {
	for _, m := range []string{"<tool_call", "<function", "[TOOL_", "<｜tool", "<|tool", `"arguments"`, `"parameters"`, "<invoke", "to=functions."} {
		if strings.Contains(s, m) {
			return true
		}
	}
	return false
}

var (
	leftoverTagRe = lazyRegexp(`(?i)</?(seed:tool_call|tool_call|tool_calls|tools|tool|function_call|functioncall|function_calls|response|json|xml)>|\[(TOOL_CALLS|TOOL_REQUEST|END_TOOL_REQUEST|/TOOL_CALLS)\]|<tool_call\|>|<\|tool_call>`)
	blankLinesRe  = lazyRegexp(`\n[ \t]*\n(\s*\n)+`)
)

// tidy removes the markers left around removed calls.
func tidy(t string) string {
	t = leftoverTagRe().ReplaceAllString(t, "")
	var b strings.Builder
	for i := 0; i < len(t); {
		if t[i] == '<' {
			if name, end, gemma, ok := tokenAt(t, i); ok && !gemma && name != `"` {
				k := classifyTok(normTok(name), false)
				n := normTok(name)
				if k != tkNone || n == "channel" || n == "message" || n == "start" || n == "constrain" {
					i = end
					continue
				}
			}
		}
		b.WriteByte(t[i])
		i++
	}
	t = blankLinesRe().ReplaceAllString(b.String(), "\n\n")
	return strings.TrimSpace(t)
}

// declaredAt reports whether the identifier at s[p] names a declared tool
// (a content type or channel glued to it cut off).
func (sc *scan) declaredAt(p int) bool {
	s := sc.s
	e := p
	for e < len(s) && (isIdent(s[e]) || s[e] == '-' || s[e] == '.') {
		e++
	}
	if e == p {
		return false
	}
	name := s[p:e]
	if cut := strippedTypeCut(sc.ts, name); cut > 0 {
		name = name[:len(name)-cut]
	}
	return sc.ts.resolve(name) != "" || harmonyNamespacedRecipient(sc.ts, name) != ""
}
