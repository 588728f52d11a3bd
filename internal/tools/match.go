package tools

// This file finds where an edit's old text sits in a file, in three passes
// from the strictest to the most tolerant — the first pass that finds
// anything wins — and builds the text that replaces it, re-indented to the
// file's indentation. It works on normalized text (see normalize): "\n"
// line breaks, no byte-order mark.

import (
	"strings"
)

// matchPass says how old was found.
type matchPass int

const (
	passNone   matchPass = iota
	passExact            // byte for byte
	passEdges            // ignoring whitespace around old
	passIndent           // ignoring leading and trailing whitespace of each line
)

// maxListedLines bounds the line numbers an ambiguity message lists.
const maxListedLines = 10

// oldMatch is the outcome of looking for one old text.
type oldMatch struct {
	pass  matchPass
	count int   // matches found by the winning pass; 0 = not found
	lines []int // 1-based lines of the first maxListedLines matches
	// The region of the first match, replaced when it is the only one.
	start, end int
	// lineStart: the region starts at the start of its line, indentation
	// included, so the first line of the replacement is re-indented too.
	lineStart bool
}

// isBlank reports whether c is ASCII whitespace: what "whitespace" means
// for the tolerant passes.
func isBlank(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

func trimBlank(s string) string {
	i, j := 0, len(s)
	for i < j && isBlank(s[i]) {
		i++
	}
	for j > i && isBlank(s[j-1]) {
		j--
	}
	return s[i:j]
}

// splitPadding cuts s into leading whitespace, core and trailing
// whitespace.
func splitPadding(s string) (lead, core, trail string) {
	i, j := 0, len(s)
	for i < j && isBlank(s[i]) {
		i++
	}
	for j > i && isBlank(s[j-1]) {
		j--
	}
	return s[:i], s[i:j], s[j:]
}

// indentOf is the leading spaces and tabs of a line.
func indentOf(line string) string {
	i := 0
	for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
		i++
	}
	return line[:i]
}

// lineStartBefore returns where the line holding position s starts when
// only spaces and tabs lie between that start and s, else -1.
func lineStartBefore(text string, s int) int {
	p := s
	for p > 0 && (text[p-1] == ' ' || text[p-1] == '\t') {
		p--
	}
	if p == 0 || text[p-1] == '\n' {
		return p
	}
	return -1
}

// restOfLineBlank reports whether only whitespace lies between e and the
// end of its line.
func restOfLineBlank(text string, e int) bool {
	for ; e < len(text) && text[e] != '\n'; e++ {
		if !isBlank(text[e]) {
			return false
		}
	}
	return true
}

// lineEndAt is the index of the "\n" ending the line holding p, or
// len(text).
func lineEndAt(text string, p int) int {
	if i := strings.IndexByte(text[p:], '\n'); i >= 0 {
		return p + i
	}
	return len(text)
}

// collector counts matches and the line numbers of the first few. Matches
// arrive in increasing order, so lines are counted incrementally: one pass
// over the text whatever the number of matches.
type collector struct {
	text   string
	m      oldMatch
	at     int // newlines are counted up to here
	lineNo int // 1-based line of position at
}

func newCollector(text string, pass matchPass) *collector {
	return &collector{text: text, m: oldMatch{pass: pass}, lineNo: 1}
}

func (c *collector) add(start, end, anchor int, lineStart bool) {
	c.m.count++
	if c.m.count == 1 {
		c.m.start, c.m.end, c.m.lineStart = start, end, lineStart
	}
	if len(c.m.lines) < maxListedLines {
		c.lineNo += strings.Count(c.text[c.at:anchor], "\n")
		c.at = anchor
		c.m.lines = append(c.m.lines, c.lineNo)
	}
}

// findOld looks for old in text, pass after pass.
func findOld(text, old string) oldMatch {
	if old == "" {
		return oldMatch{}
	}
	if m := findExact(text, old); m.count > 0 {
		return m
	}
	lead, core, trail := splitPadding(old)
	if core == "" {
		return oldMatch{}
	}
	if lead != "" || trail != "" {
		if m := findEdges(text, lead, core, trail); m.count > 0 {
			return m
		}
	}
	if strings.Contains(core, "\n") {
		if m := findIndent(text, core); m.count > 0 {
			return m
		}
	}
	return oldMatch{}
}

// findExact: pass 1. Overlapping occurrences count ("aa" is twice in
// "aaa"): each is a place the model may have meant.
func findExact(text, old string) oldMatch {
	c := newCollector(text, passExact)
	// The line reported for a match is that of its first character that is
	// not a line break: for "\nfoo" it is foo's line.
	skip := len(old) - len(strings.TrimLeft(old, "\r\n"))
	if skip == len(old) {
		skip = 0
	}
	for i := 0; i <= len(text); {
		j := strings.Index(text[i:], old)
		if j < 0 {
			break
		}
		s := i + j
		c.add(s, s+len(old), s+skip, s == 0 || text[s-1] == '\n')
		i = s + 1
	}
	return c.m
}

// findEdges: pass 2. The core of old (old without its surrounding
// whitespace) found exactly, where the file has whitespace of the same kind
// around it: a line break where old had one, some whitespace where old had
// spaces. "x := 1" inside "max := 1" is thus not a match for "  x := 1".
func findEdges(text, lead, core, trail string) oldMatch {
	c := newCollector(text, passEdges)
	leadNL := strings.Contains(lead, "\n")
	trailNL := strings.Contains(trail, "\n")
	for i := 0; i <= len(text); {
		j := strings.Index(text[i:], core)
		if j < 0 {
			break
		}
		s := i + j
		e := s + len(core)
		i = s + 1
		ls := lineStartBefore(text, s)
		if lead != "" {
			if leadNL && ls < 0 {
				continue
			}
			if !leadNL && s > 0 && !isBlank(text[s-1]) {
				continue
			}
		}
		if trail != "" {
			if trailNL && !restOfLineBlank(text, e) {
				continue
			}
			if !trailNL && e < len(text) && !isBlank(text[e]) {
				continue
			}
		}
		// When old had leading whitespace and the core starts its line, the
		// region takes the line's indentation: the replacement's first
		// line is then re-indented like the others.
		if lead != "" && ls >= 0 {
			c.add(ls, e, s, true)
		} else {
			c.add(s, e, s, false)
		}
	}
	return c.m
}

// findIndent: pass 3. Whole lines of the file whose trimmed text equals the
// trimmed lines of core, in sequence. The region runs from the start of the
// first line to the end of the last (its "\r" and "\n" excluded).
func findIndent(text, core string) oldMatch {
	c := newCollector(text, passIndent)
	lines := strings.Split(core, "\n")
	want := make([]string, len(lines))
	for k, l := range lines {
		want[k] = trimBlank(l)
	}
	anchor := want[0] // not empty: core starts with a non-blank byte
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], anchor)
		if j < 0 {
			break
		}
		s := i + j
		le := lineEndAt(text, s)
		// A line matches only when its whole trimmed text is the anchor, so
		// one candidate per line is enough: go on from the next line.
		i = le + 1
		ls := lineStartBefore(text, s)
		if ls < 0 || !restOfLineBlank(text, s+len(anchor)) {
			continue
		}
		p, ok := le, true
		for k := 1; k < len(want) && ok; k++ {
			if p >= len(text) {
				ok = false
				break
			}
			qe := lineEndAt(text, p+1)
			ok = trimBlank(text[p+1:qe]) == want[k]
			p = qe
		}
		if !ok {
			continue
		}
		end := p
		if end > ls && text[end-1] == '\r' {
			end--
		}
		c.add(ls, end, ls, true)
	}
	return c.m
}

// replacement is the text that replaces m's region, and the region itself,
// which grows only to take a deleted line's line break.
//
// Exact match: new as written, except that an indentation of the other
// kind (spaces in a tab-indented file, tabs in a space-indented one) is
// converted, so a tab-indented file never gets a block of spaces.
//
// Tolerant match: new without the padding old carried around its core,
// as far as new carries the same (so a new that deliberately adds a blank
// line still adds it), then re-indented from the model's indentation to
// the file's: each line keeps its depth relative to the lines old matched,
// in the file's base indentation and unit. A blank line becomes empty.
func replacement(text, old, newText string, m oldMatch, style indentStyle) (start, end int, repl string) {
	start, end = m.start, m.end
	from := strings.LastIndexByte(text[:start], '\n') + 1
	style = localStyle(style, text[from:end])
	if m.pass == passExact {
		return start, end, convertIndentKind(newText, m.lineStart, style)
	}
	lead, core, trail := splitPadding(old)
	leadBreaks, trailBreaks := strings.Count(lead, "\n"), strings.Count(trail, "\n")
	newText = stripPadding(newText, leadBreaks, trailBreaks, trail != "")
	leadIndent := lead[strings.LastIndexByte(lead, '\n')+1:]
	if !m.lineStart && strings.HasPrefix(newText, leadIndent) {
		// Mid-line match: the first line keeps the file's own spacing.
		newText = newText[len(leadIndent):]
	}
	if ls := lineStartBefore(text, start); newText == "" && ls >= 0 && leadBreaks+trailBreaks > 0 && restOfLineBlank(text, end) {
		// old was whole lines with their line break, and new deletes
		// them: the lines go, as they would with an exact match, instead
		// of leaving an empty or blank line behind.
		start = ls
		e := lineEndAt(text, end)
		switch {
		case e < len(text):
			return start, e + 1, ""
		case start > 0:
			return start - 1, e, ""
		}
		return start, e, ""
	}

	// Pair the indentation of each line of old, as the model wrote it, with
	// that of the file line it matched.
	modelOld := strings.Split(leadIndent+core, "\n")
	var pairs []indentPair
	p := start
	for k, ol := range modelOld {
		if k > 0 {
			p = lineEndAt(text, p) + 1
			if p > len(text) {
				break
			}
		}
		if k == 0 && !m.lineStart {
			continue // the region starts mid-line: no indentation to pair
		}
		if trimBlank(ol) == "" {
			continue
		}
		fl := text[p:lineEndAt(text, p)]
		pairs = append(pairs, indentPair{model: indentOf(ol), file: indentOf(fl), text: trimBlank(ol)})
	}
	return start, end, reindent(newText, m.lineStart, pairs, modelOld, style)
}

// stripPadding removes from new the padding old had around its core, as
// far as new has the same: up to leadBreaks line breaks at its start, up to
// trailBreaks at its end (with the spaces beside them). Line breaks beyond
// those are new's own — a blank line it adds. What is left at the start
// after the last removed break is the first line's indentation, kept for
// re-indenting.
func stripPadding(newText string, leadBreaks, trailBreaks int, trailing bool) string {
	lead, core, trail := splitPadding(newText)
	if core == "" {
		// Only whitespace: its line breaks beyond old's padding remain.
		extra := strings.Count(newText, "\n") - leadBreaks - trailBreaks
		return strings.Repeat("\n", max(extra, 0))
	}
	for k := 0; k < leadBreaks; k++ {
		i := strings.IndexByte(lead, '\n')
		if i < 0 {
			break
		}
		lead = lead[i+1:]
	}
	if trailing {
		for k := 0; k < trailBreaks; k++ {
			i := strings.IndexByte(trail, '\n')
			if i < 0 {
				break
			}
			trail = trail[i+1:]
		}
		if !strings.Contains(trail, "\n") {
			// Spaces left at the end of the last line (or the next
			// line's indentation old had copied): the file keeps its own.
			trail = ""
		}
	}
	return lead + core + trail
}

// indentPair is one line of old: its indentation as the model wrote it,
// that of the file line it matched, and its trimmed text.
type indentPair struct {
	model, file, text string
}

// indentStyle is how a file indents: with tabs, or with unit spaces.
type indentStyle struct {
	tabs  bool
	unit  int  // spaces per level in a space-indented file
	known bool // false when the file has no indented line
}

// detectIndentStyle looks at the indented lines of text (the first
// indentSample of them): more lines led by a tab than by a space means
// tabs; else the unit is the most frequent increase of indentation from
// one line to the next.
func detectIndentStyle(text string) indentStyle {
	const indentSample = 20000
	tabs, spaces := 0, 0
	deltas := map[int]int{}
	prev := -1
	seen := 0
	for p := 0; p < len(text) && seen < indentSample; {
		e := lineEndAt(text, p)
		line := text[p:e]
		p = e + 1
		ind := indentOf(line)
		if len(ind) == len(line) || strings.TrimRight(line[len(ind):], "\r") == "" {
			continue // blank lines say nothing
		}
		seen++
		switch {
		case ind == "":
			prev = 0
			continue
		case ind[0] == '\t':
			tabs++
			prev = -1
			continue
		}
		spaces++
		w := len(ind) - len(strings.TrimLeft(ind, " "))
		if prev >= 0 && w > prev {
			deltas[w-prev]++
		}
		prev = w
	}
	switch {
	case tabs == 0 && spaces == 0:
		return indentStyle{}
	case tabs >= spaces:
		return indentStyle{tabs: true, unit: 4, known: true}
	}
	return indentStyle{unit: modeDelta(deltas, 4), known: true}
}

// localStyle is the file's style, unless the matched lines say otherwise:
// a space-indented block inside a tab-indented file (a YAML string in Go,
// a Markdown code sample) keeps spaces.
func localStyle(style indentStyle, region string) indentStyle {
	local := detectIndentStyle(region)
	if !local.known || local.tabs == style.tabs && style.known {
		return style
	}
	if !local.tabs && !style.tabs && style.known {
		local.unit = style.unit
	}
	return local
}

// modeDelta is the most frequent delta between 1 and 8 (the smaller on a
// tie), or def.
func modeDelta(deltas map[int]int, def int) int {
	best, n := def, 0
	for d := 1; d <= 8; d++ {
		if deltas[d] > n {
			best, n = d, deltas[d]
		}
	}
	return best
}

// convertIndentKind rewrites, in new as the model wrote it, each
// indentation of the other kind than the file's. The first line is left
// alone when it does not start a line of the file.
func convertIndentKind(newText string, firstIsLine bool, style indentStyle) string {
	if !style.known {
		return newText
	}
	lines := strings.Split(newText, "\n")
	unit := style.unit
	if style.tabs {
		unit = modelSpaceUnit(lines, nil)
	}
	changed := false
	for k, l := range lines {
		if k == 0 && !firstIsLine {
			continue
		}
		ind := indentOf(l)
		if ind == "" || len(ind) == len(l) {
			continue // nothing to convert, or a blank line: left as written
		}
		if style.tabs == (ind[0] == '\t') && (style.tabs || !strings.Contains(ind, "\t")) {
			continue
		}
		lines[k] = renderIndent(columns(ind, unit), style, unit) + l[len(ind):]
		changed = true
	}
	if !changed {
		return newText
	}
	return strings.Join(lines, "\n")
}

// modelSpaceUnit guesses how many spaces make one level in the model's
// text, for a tab-indented file: first from the lines of old, comparing
// how much deeper the model went in spaces with how much deeper the file
// went in tabs; then from the most frequent increase between the model's
// space-indented lines; then its smallest indentation; 4 when nothing
// tells.
func modelSpaceUnit(lines []string, pairs []indentPair) int {
	ratios := map[int]int{}
	for k := 1; k < len(pairs); k++ {
		a, b := pairs[k-1], pairs[k]
		if strings.Trim(a.model+b.model, " ") != "" || strings.Trim(a.file+b.file, "\t") != "" {
			continue
		}
		ds, dt := len(b.model)-len(a.model), len(b.file)-len(a.file)
		if dt != 0 && ds%dt == 0 && ds/dt > 0 {
			ratios[ds/dt]++
		}
	}
	if len(ratios) > 0 {
		return modeDelta(ratios, 4)
	}
	deltas := map[int]int{}
	prev, smallest := -1, 0
	for _, l := range lines {
		ind := indentOf(l)
		if len(ind) == len(l) {
			continue
		}
		if strings.Contains(ind, "\t") {
			prev = -1
			continue
		}
		w := len(ind)
		if w > 0 && (smallest == 0 || w < smallest) {
			smallest = w
		}
		if prev >= 0 && w > prev {
			deltas[w-prev]++
		}
		prev = w
	}
	if len(deltas) > 0 {
		return modeDelta(deltas, 4)
	}
	if smallest > 0 && smallest <= 8 {
		return smallest
	}
	return 4
}

// columns is the width of an indentation, a tab counting unit columns.
func columns(ind string, unit int) int {
	w := 0
	for i := 0; i < len(ind); i++ {
		if ind[i] == '\t' {
			w += unit
		} else {
			w++
		}
	}
	return w
}

// renderIndent writes w columns of indentation in the file's kind: tabs
// (one per unit, the rest as alignment spaces) or spaces.
func renderIndent(w int, style indentStyle, unit int) string {
	if w <= 0 {
		return ""
	}
	if style.tabs {
		return strings.Repeat("\t", w/unit) + strings.Repeat(" ", w%unit)
	}
	return strings.Repeat(" ", w)
}

// reindent moves each line of new from the model's indentation to the
// file's. An indentation old also had maps to what the file had there; any
// other keeps its depth relative to the closest shallower line of old.
// When the model flattened old (one indentation of its matching several of
// the file's), lines are placed by their text instead: a line old also had
// goes where the file has it, another follows the line before it.
func reindent(newText string, firstIsLine bool, pairs []indentPair, modelOld []string, style indentStyle) string {
	lines := strings.Split(newText, "\n")
	if len(pairs) == 0 {
		// Nothing to anchor on: only blank lines are cleaned.
		for k, l := range lines {
			if (k > 0 || firstIsLine) && trimBlank(l) == "" {
				lines[k] = ""
			}
		}
		return strings.Join(lines, "\n")
	}
	if !style.known {
		// A file without indentation: its kind is whatever the model used
		// where they met.
		style.tabs = strings.HasPrefix(pairs[0].file, "\t") || pairs[0].file == "" && strings.HasPrefix(pairs[0].model, "\t")
		style.unit = 4
	}
	unit := style.unit
	if style.tabs {
		unit = modelSpaceUnit(append(append([]string(nil), modelOld...), lines...), pairs)
	}
	// The file side of the pairs is measured with the same unit, so a
	// tab and unit spaces are one level on both sides.
	exact := map[string]string{}
	flattened := false
	for _, p := range pairs {
		if f, seen := exact[p.model]; !seen {
			exact[p.model] = p.file
		} else if f != p.file {
			flattened = true
		}
	}
	byText := map[string]indentPair{}
	for _, p := range pairs {
		if _, seen := byText[p.text]; !seen {
			byText[p.text] = p
		}
	}

	prevFile := pairs[0].file
	for k, l := range lines {
		if k == 0 && !firstIsLine {
			continue
		}
		body := trimBlank(l)
		if body == "" {
			lines[k] = "" // an empty line stays empty
			continue
		}
		ind := indentOf(l)
		rest := l[len(ind):]
		var out string
		switch {
		case flattened:
			if p, ok := byText[body]; ok {
				out = shift(p.file, columns(ind, unit)-columns(p.model, unit), style, unit)
			} else {
				out = prevFile
			}
		default:
			if f, ok := exact[ind]; ok {
				out = f
			} else {
				ref := closestPair(pairs, columns(ind, unit), unit)
				out = shift(ref.file, columns(ind, unit)-columns(ref.model, unit), style, unit)
			}
		}
		prevFile = out
		lines[k] = out + rest
	}
	return strings.Join(lines, "\n")
}

// closestPair is the pair whose model indentation is the deepest not
// deeper than w columns, else the shallowest.
func closestPair(pairs []indentPair, w, unit int) indentPair {
	best, bestW := -1, -1
	low, lowW := 0, -1
	for i, p := range pairs {
		pw := columns(p.model, unit)
		if pw <= w && pw > bestW {
			best, bestW = i, pw
		}
		if lowW < 0 || pw < lowW {
			low, lowW = i, pw
		}
	}
	if best < 0 {
		return pairs[low]
	}
	return pairs[best]
}

// shift is the file indentation base moved by delta columns, written in
// the file's kind. A zero delta keeps base byte for byte.
func shift(base string, delta int, style indentStyle, unit int) string {
	if delta == 0 {
		return base
	}
	if delta > 0 && (style.tabs && delta%unit == 0 || !style.tabs && !strings.Contains(base, "\t")) {
		return base + renderIndent(delta, style, unit)
	}
	return renderIndent(columns(base, unit)+delta, style, unit)
}
