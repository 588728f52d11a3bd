package webmd

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// maxFrames bounds the nesting of quotes and list items that shows in the
// output. Deeper levels are written at this depth: a pathological page
// (ten thousand nested lists) would otherwise produce output quadratic in
// its depth.
const maxFrames = 32

// frame is one level of block nesting: a blockquote ("> ") or a list item
// (its marker on the first line, spaces of the same width after).
type frame struct {
	cont    string // prefix of the item's continuation lines
	marker  string // first-line marker still to write; "" once written
	started bool   // a line of this frame is written: blank lines get its prefix
}

// writer is the Markdown output: a byte buffer plus the state that makes
// every separator and delimiter lazy. Nothing is written until content
// arrives, so empty elements leave no trace, whitespace never sits inside
// `**…**`, and a trailing <br> or blank line never reaches the output.
type writer struct {
	buf []byte

	frames []frame
	deep   int // frames not pushed because of maxFrames

	sep        int  // pending block separation: 0, 1 (line break) or 2 (blank line)
	fresh      bool // a frame was just opened: block requests wait for its first content
	needPrefix bool // at the start of a line whose prefix is not written yet
	lineStart  bool // nothing but the prefix written on this line: line-start escapes apply
	para       bool // the current block has inline content
	space      bool // collapsed whitespace pending
	brk        int  // <br> pending: 1 hard break, 2+ paragraph break

	open  []string // opening delimiters not written yet (lazy)
	depth int      // emphasis, links and headings open (written or not)
	// linkText is where the text of the link being written starts, once
	// its "[" is written.
	linkText int

	// inline is non-empty while rendering a table cell (`<br>`) or a link
	// whose content has blocks (" "): block boundaries become this text.
	inline string
	cell   bool // escape `|` too

	// expect, when set, estimates the final size of the output from the
	// size written so far.
	expect func(written int) int
}

// reserve makes room for n more bytes, doubling the buffer (or to the
// size expected): append alone grows a large buffer by a quarter at a
// time, and every step leaves a copy behind.
func (w *writer) reserve(n int) {
	if cap(w.buf)-len(w.buf) >= n {
		return
	}
	size := max(2*cap(w.buf), len(w.buf)+n, 256)
	if w.expect != nil {
		// Converting while parsing: the output so far, scaled to the
		// whole page, says how much more is coming.
		size = max(w.expect(len(w.buf))+n, len(w.buf)+len(w.buf)/4+n)
	}
	b := make([]byte, len(w.buf), size)
	copy(b, w.buf)
	w.buf = b
}

// reset empties the writer for a new region (a table cell), keeping the
// buffer's capacity.
func (w *writer) reset() {
	*w = writer{buf: w.buf[:0], open: w.open[:0], needPrefix: true}
}

// block asks for a separation of at least n line breaks before the next
// content. Pending whitespace and breaks are dropped: they never end a
// block. In an inline region the boundary becomes the region's separator.
func (w *writer) block(n int) {
	w.space = false
	w.brk = 0
	if w.inline != "" {
		if w.para {
			w.sep = 1
		}
		return
	}
	w.para = false
	if w.fresh {
		return
	}
	if n > w.sep {
		w.sep = n
	}
}

// enterInline starts an inline region inside the current block: block
// boundaries and <br> become sep. It returns the previous mode for
// leaveInline.
func (w *writer) enterInline(sep string) string {
	prev := w.inline
	if prev == "" {
		w.inline = sep
	}
	return prev
}

// leaveInline ends an inline region; a boundary pending at its end
// becomes a plain space.
func (w *writer) leaveInline(prev string) {
	if prev == "" && w.inline != "" {
		w.inline = ""
		if w.sep > 0 || w.brk > 0 {
			w.sep, w.brk = 0, 0
			w.space = w.para
		}
	}
}

// push opens a blockquote or list item. Its separation from what precedes
// is requested by the caller first.
func (w *writer) push(f frame) {
	if len(w.frames) >= maxFrames {
		w.deep++
		return
	}
	w.frames = append(w.frames, f)
	w.fresh = true
}

// pop closes the innermost frame.
func (w *writer) pop() {
	if w.deep > 0 {
		w.deep--
		return
	}
	w.frames = w.frames[:len(w.frames)-1]
	w.fresh = false
}

// writePrefix writes the line prefix: each frame's pending marker, or its
// continuation indent.
// prefixWidth is the width of a continuation line's prefix.
func (w *writer) prefixWidth() int {
	n := 0
	for i := range w.frames {
		n += len(w.frames[i].cont)
	}
	return n
}

func (w *writer) writePrefix() {
	for i := range w.frames {
		f := &w.frames[i]
		f.started = true
		if f.marker != "" {
			w.buf = append(w.buf, f.marker...)
			f.marker = ""
		} else {
			w.buf = append(w.buf, f.cont...)
		}
	}
	w.needPrefix = false
	w.lineStart = true
}

// blankPrefix is the prefix of an empty line: the continuation indents
// without their trailing spaces, so a quote stays a quote (">") and a list
// item's blank line stays empty.
func (w *writer) writeBlankPrefix() {
	start := len(w.buf)
	for _, f := range w.frames {
		if f.started {
			w.buf = append(w.buf, f.cont...)
		}
	}
	end := len(w.buf)
	for end > start && w.buf[end-1] == ' ' {
		end--
	}
	w.buf = w.buf[:end]
}

// newline ends the current line inside a block (code, hard break, table).
func (w *writer) newline() {
	w.buf = append(w.buf, '\n')
	w.needPrefix = true
	w.lineStart = false
}

// begin is called before any content: it writes the pending separation,
// the line prefix, a pending break or space, and the pending opening
// delimiters.
func (w *writer) begin() {
	if w.inline != "" && w.para {
		// Inside an inline region that has content already: a block
		// boundary or a <br> is the region's separator.
		if w.sep > 0 || w.brk > 0 {
			w.buf = append(w.buf, w.inline...)
		} else if w.space {
			w.buf = append(w.buf, ' ')
		}
		w.sep, w.brk, w.space = 0, 0, false
		w.lineStart = false
		w.flushOpen()
		return
	}
	if w.sep > 0 {
		if len(w.buf) > 0 {
			for i := 0; i < w.sep; i++ {
				if w.needPrefix {
					w.writeBlankPrefix()
				}
				w.buf = append(w.buf, '\n')
				w.needPrefix = true
			}
		}
		w.sep = 0
		w.para = false
	}
	w.fresh = false
	if w.needPrefix {
		w.writePrefix()
	}
	if w.para {
		if w.brk > 0 {
			w.buf = append(w.buf, '\\')
			w.newline()
			w.writePrefix()
		} else if w.space {
			w.buf = append(w.buf, ' ')
			w.lineStart = false
		}
	}
	w.brk = 0
	w.space = false
	w.para = true
	w.flushOpen()
}

func (w *writer) flushOpen() {
	for _, d := range w.open {
		w.buf = append(w.buf, d...)
		if d == "[" {
			w.linkText = len(w.buf)
		}
		w.lineStart = false
	}
	w.open = w.open[:0]
}

// hardBreak records a <br>; it is written only if content follows in the
// same block. Two or more in a row make a paragraph break, as they look on
// the page, unless an emphasis or a link is open across them.
func (w *writer) hardBreak() {
	if !w.para {
		return
	}
	w.brk++
	w.space = false
	if w.brk >= 2 && w.inline == "" && w.depth == 0 {
		w.block(2)
	}
}

// openDelim opens an emphasis, a link or a heading marker lazily: it is
// written just before the first content inside, after any pending space.
// It returns a mark for closeDelim.
func (w *writer) openDelim(d string) int {
	w.open = append(w.open, d)
	return len(w.buf)
}

// closeDelim closes what openDelim opened. It reports false when nothing
// was written inside, the opener then being dropped unwritten. A pending
// space stays pending, so it lands after the closing delimiter.
func (w *writer) closeDelim(opener, closer string) bool {
	if n := len(w.open); n > 0 && w.open[n-1] == opener {
		w.open = w.open[:n-1]
		return false
	}
	w.buf = append(w.buf, closer...)
	w.lineStart = false
	return true
}

// raw writes s as is, after begin.
func (w *writer) raw(s string) {
	w.begin()
	w.buf = append(w.buf, s...)
	w.lineStart = false
}

// text writes HTML text: whitespace collapsed, Markdown escaped.
func (w *writer) text(s string) {
	for len(s) > 0 {
		// Whitespace run; a no-break space counts, so runs of &nbsp;
		// used for layout collapse too.
		i := 0
		for i < len(s) {
			if isSpaceByte(s[i]) {
				i++
			} else if s[i] == 0xc2 && i+1 < len(s) && s[i+1] == 0xa0 {
				i += 2
			} else {
				break
			}
		}
		if i > 0 {
			if w.para {
				w.space = true
			}
			s = s[i:]
			continue
		}
		// Non-space run, up to the next whitespace. Invisible characters
		// and no-break spaces are handled by escapeText.
		j := 0
		for j < len(s) && !isSpaceByte(s[j]) && (s[j] != 0xc2 || j+1 == len(s) || s[j+1] != 0xa0) {
			j++
		}
		w.word(s[:j], j < len(s))
		s = s[j:]
	}
}

// word writes one run of non-whitespace text.
func (w *writer) word(s string, spaceAfter bool) {
	if visibleLen(s) == 0 {
		return
	}
	w.begin()
	w.escapeText(s, spaceAfter)
}

// visibleLen reports whether s has anything but no-break spaces and
// invisible characters (0 or 1).
func visibleLen(s string) int {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c >= 0x20 && c != 0x7f {
				return 1
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !invisible(r) && r != '\u00a0' {
			return 1
		}
		i += size
	}
	return 0
}

func isSpaceByte(c byte) bool {
	return c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f'
}

// invisible reports characters dropped from text: they only confuse a
// reader that sees bytes (soft hyphens split words, zero-width spaces
// and byte-order marks show as nothing).
func invisible(r rune) bool {
	switch r {
	case '\u00ad', '\u200b', '\u200c', '\u200d', '\u2060', '\ufeff':
		return true
	}
	return false
}

// special marks the bytes escapeText looks at twice.
var special = func() (t [256]bool) {
	for _, c := range []byte("\\*`[]<_&|") {
		t[c] = true
	}
	for c := 0; c < 0x20; c++ {
		t[c] = true
	}
	t[0x7f] = true
	for c := 0x80; c < 0x100; c++ {
		t[c] = true
	}
	return
}()

// escapeText writes s with the reference's escapes: `\`, `*`, a backquote,
// `[`, `]`, `<` and a `_` outside a word (not after a letter or a digit)
// get a backslash, and so does a line-starting `#`, `>`, `-`, `+`, `=`,
// `|` or `N.`. Nothing else is escaped: `snake_case` stays as is.
func (w *writer) escapeText(s string, spaceAfter bool) {
	if w.lineStart && w.inline == "" {
		s = w.escapeLineStart(s)
	}
	w.lineStart = false
	w.reserve(len(s) + 8)
	b := w.buf
	last := 0
	for i := 0; i < len(s); {
		c := s[i]
		if !special[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == '\u00a0' {
				b = append(b, s[last:i]...)
				b = append(b, ' ')
				i += size
				last = i
				continue
			}
			if invisible(r) || (r == utf8.RuneError && size == 1) {
				b = append(b, s[last:i]...)
				if r == utf8.RuneError {
					b = append(b, "\uFFFD"...)
				}
				i += size
				last = i
				continue
			}
			i += size
			continue
		}
		if c < 0x20 || c == 0x7f {
			b = append(b, s[last:i]...)
			i++
			last = i
			continue
		}
		esc := true
		switch c {
		case '_':
			// Only an underscore that could open emphasis needs a
			// backslash: one after a letter or a digit cannot (CommonMark
			// flanking rules), and so can close nothing either once every
			// opener is escaped. snake_case and trailing_ stay as is; a
			// run is escaped whole (\_\_init__).
			j := i
			for j < len(s) && s[j] == '_' {
				j++
			}
			b = append(b, s[last:i]...)
			if wordBefore(b) {
				b = append(b, s[i:j]...)
			} else {
				for k := i; k < j; k++ {
					b = append(b, '\\', '_')
				}
			}
			i = j
			last = i
			continue
		case '&':
			esc = looksLikeEntity(s[i+1:])
		case '|':
			esc = w.cell
		}
		b = append(b, s[last:i]...)
		if esc {
			b = append(b, '\\')
		}
		b = append(b, c)
		i++
		last = i
	}
	w.buf = append(b, s[last:]...)
}

// wordBefore reports whether what is written last is a letter or a
// digit.
func wordBefore(buf []byte) bool {
	r, _ := utf8.DecodeLastRune(buf)
	return isWordRune(r)
}

func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

// looksLikeEntity reports whether the text after an `&` would be read as
// a character reference (`&amp;`, `&#42;`): only then does the `&` need a
// backslash.
func looksLikeEntity(s string) bool {
	i := 0
	if i < len(s) && s[i] == '#' {
		i++
	}
	start := i
	for i < len(s) && i-start < 32 && (isWordRune(rune(s[i])) && s[i] < utf8.RuneSelf) {
		i++
	}
	return i > start && i < len(s) && s[i] == ';'
}

// escapeLineStart writes the backslash a line-starting block marker needs
// and returns the rest of s for escapeText.
func (w *writer) escapeLineStart(s string) string {
	switch s[0] {
	case '#', '>', '-', '+', '=', '|':
		w.buf = append(w.buf, '\\', s[0])
		return s[1:]
	}
	if s[0] >= '0' && s[0] <= '9' {
		i := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i++
		}
		if i < len(s) && (s[i] == '.' || s[i] == ')') {
			w.buf = append(w.buf, s[:i]...)
			w.buf = append(w.buf, '\\', s[i])
			return s[i+1:]
		}
	}
	return s
}

// codeSpan writes s as inline code: a backquote fence longer than any run
// in s, with a space of padding when s starts or ends with a backquote.
func (w *writer) codeSpan(s string) {
	s = collapseSpace(s)
	if s == "" {
		return
	}
	w.begin()
	n := longestRun(s, '`') + 1
	for i := 0; i < n; i++ {
		w.buf = append(w.buf, '`')
	}
	// collapseSpace trimmed the ends, so only a backquote needs padding.
	pad := s[0] == '`' || s[len(s)-1] == '`'
	if pad {
		w.buf = append(w.buf, ' ')
	}
	if w.cell {
		w.buf = append(w.buf, strings.ReplaceAll(s, "|", `\|`)...)
	} else {
		w.buf = append(w.buf, s...)
	}
	if pad {
		w.buf = append(w.buf, ' ')
	}
	for i := 0; i < n; i++ {
		w.buf = append(w.buf, '`')
	}
	w.lineStart = false
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, cur := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			cur++
			if cur > best {
				best = cur
			}
		} else {
			cur = 0
		}
	}
	return best
}

// collapseSpace turns every run of HTML whitespace into one space, drops
// invisible characters, and trims the ends.
func collapseSpace(s string) string {
	clean := true
	prevSpace := true
	for i := 0; i < len(s); i++ {
		c := s[i]
		if isSpaceByte(c) {
			if prevSpace || c != ' ' {
				clean = false
				break
			}
			prevSpace = true
			continue
		}
		if c < 0x20 || c == 0x7f || c >= utf8.RuneSelf {
			clean = false
			break
		}
		prevSpace = false
	}
	if clean && !prevSpace {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch {
		case r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == '\f' || r == '\u00a0':
			space = b.Len() > 0
		case r < 0x20 || r == 0x7f || invisible(r):
		default:
			if space {
				b.WriteByte(' ')
				space = false
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}
