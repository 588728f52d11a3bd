package tui

// The answers' Markdown, drawn by a small renderer written for the window
// rather than a library such as glamour: glamour pulls in a Markdown
// parser, a style sheet system and chroma's lexers (megabytes, and work at
// start-up in a binary that starts in milliseconds), and it renders whole
// documents, when the window lays out a streamed answer one line at a time
// (block.streamed) and must keep a finished line as it was drawn.
//
// So every line is rendered from itself alone, plus one piece of state
// carried from the line before: whether it sits inside a fenced code
// block. Nothing that needs a later line (setext headings, tables' column
// widths, reference links) is rendered: those lines show as written.
//
// The line comes in sanitised (termsafe.Text): it holds no escape
// character, so every SGR sequence in what this file returns is one it
// wrote itself (a model can only reach the styles below, by Markdown).
// With NO_COLOR nothing is styled: the structure stays (indents, bullets,
// the code block's rule) and the inline marks (`code`, **bold**, # heading)
// are kept as written, the only way left to tell them apart.

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// mdState is what a line's rendering needs from the lines before it.
type mdState struct {
	fence  string // the open code block's fence ("```", "~~~~"), "" outside one
	indent int    // the opening fence's indentation, taken off the code's lines
}

// Styles, as bits: a style change writes the whole state again (one
// reset, then each bit), so any line can be started in the state the
// previous one ended in (carrySGR).
type mdStyle uint16

const (
	stBold mdStyle = 1 << iota
	stItalic
	stCode
	stStrike
	stDim
	stHeading
	stQuote
	stAdded   // a diff's added line (diff.go)
	stRemoved // a diff's removed line
	stHunk    // a diff's header and the gaps between its hunks
)

func (s mdStyle) sgr() string {
	if s == 0 {
		return "\x1b[0m"
	}
	b := []byte("\x1b[0")
	if s&(stBold|stHeading) != 0 {
		b = append(b, ";1"...)
	}
	if s&stDim != 0 {
		b = append(b, ";2"...)
	}
	if s&(stItalic|stQuote) != 0 {
		b = append(b, ";3"...)
	}
	if s&stStrike != 0 {
		b = append(b, ";9"...)
	}
	switch {
	case s&stAdded != 0:
		b = append(b, ";32"...) // green
	case s&stRemoved != 0:
		b = append(b, ";31"...) // red
	case s&stHunk != 0:
		b = append(b, ";36"...) // cyan
	case s&stCode != 0:
		b = append(b, ";36"...) // cyan
	case s&stHeading != 0:
		b = append(b, ";35"...) // magenta
	}
	return string(append(b, 'm'))
}

// The marks of the window's own drawing.
const (
	mdBullet    = "• "
	mdQuoteMark = "▎ "
	mdCodeOpen  = "┌─"
	mdCodeRule  = "│ "
	mdCodeMore  = "┆ " // a code line too long for the width goes on here
	mdCodeClose = "└─"
)

// mdLine lays out one line of an answer (sanitised, tabs expanded, no
// line break) for width columns: the screen rows, and the state for the
// line after it.
func mdLine(line string, st mdState, width int, noColor bool) ([]string, mdState) {
	if width < 10 {
		width = 10
	}
	ind, rest := leadingSpaces(line)
	if st.fence != "" {
		if closesFence(rest, st.fence) {
			pad := strings.Repeat(" ", min(ind, st.indent))
			return []string{pad + paint(mdCodeClose, stDim, noColor)}, mdState{}
		}
		return codeLine(line, st, width, noColor), st
	}
	if fence, lang, ok := opensFence(rest); ok {
		pad := strings.Repeat(" ", min(ind, width/2))
		head := paint(mdCodeOpen, stDim, noColor)
		if lang != "" {
			head += " " + paint(lang, stDim, noColor)
		}
		return []string{pad + head}, mdState{fence: fence, indent: ind}
	}
	if strings.TrimSpace(rest) == "" {
		return []string{""}, st
	}
	if ind < 4 && isRule(rest) {
		return []string{paint(strings.Repeat("─", min(width, 60)), stDim, noColor)}, st
	}
	if ind < 4 {
		if level, text, ok := heading(rest); ok {
			if noColor {
				return hang(strings.Repeat("#", level)+" "+inline(text, 0, true), "", "", width), st
			}
			return hang(inline(text, stHeading, false), "", "", width), st
		}
		if q, ok := strings.CutPrefix(rest, ">"); ok {
			// A quote, nested ones counted as one: its rows all marked.
			for {
				q = strings.TrimLeft(q, " ")
				next, more := strings.CutPrefix(q, ">")
				if !more {
					break
				}
				q = next
			}
			mark := paint(mdQuoteMark, stDim, noColor)
			return hang(inline(q, stQuote, noColor), mark, mark, width), st
		}
	}
	pad := strings.Repeat(" ", min(ind, width/2))
	if marker, text, ok := listItem(rest); ok {
		shown := marker
		if marker == "-" || marker == "*" || marker == "+" {
			shown = strings.TrimSuffix(mdBullet, " ")
		}
		first := pad + shown + " "
		return hang(inline(text, 0, noColor), first, pad+strings.Repeat(" ", utf8.RuneCountInString(shown)+1), width), st
	}
	// A paragraph's line; an indented one (a list item's next paragraph)
	// keeps its indent on every row.
	return hang(inline(rest, 0, noColor), pad, pad, width), st
}

// paint is s in style (nothing with NO_COLOR).
func paint(s string, style mdStyle, noColor bool) string {
	if noColor || style == 0 {
		return s
	}
	return style.sgr() + s + "\x1b[0m"
}

func leadingSpaces(s string) (int, string) {
	n := 0
	for n < len(s) && s[n] == ' ' {
		n++
	}
	return n, s[n:]
}

// opensFence is a line that opens a code block: three or more ` or ~,
// then the language (an info string with a backtick is not a fence).
func opensFence(s string) (fence, lang string, ok bool) {
	if len(s) < 3 || (s[0] != '`' && s[0] != '~') {
		return "", "", false
	}
	n := 0
	for n < len(s) && s[n] == s[0] {
		n++
	}
	if n < 3 {
		return "", "", false
	}
	info := strings.TrimSpace(s[n:])
	if s[0] == '`' && strings.Contains(info, "`") {
		return "", "", false
	}
	if f := strings.Fields(info); len(f) > 0 {
		lang = f[0]
	}
	return s[:n], lang, true
}

// closesFence is a line that closes the block fence opened: the same
// character, at least as many, nothing after but blanks.
func closesFence(s, fence string) bool {
	n := 0
	for n < len(s) && s[n] == fence[0] {
		n++
	}
	return n >= len(fence) && strings.TrimSpace(s[n:]) == ""
}

// codeLine is a line of a code block: never reflowed, its own indentation
// kept (less the fence's), and a line wider than the window cut into
// rows, the rows after the first marked.
func codeLine(line string, st mdState, width int, noColor bool) []string {
	ind, _ := leadingSpaces(line)
	line = line[min(ind, st.indent):]
	pad := strings.Repeat(" ", min(st.indent, width/2))
	room := max(4, width-len(pad)-utf8.RuneCountInString(mdCodeRule))
	rows := strings.Split(ansi.Hardwrap(line, room, true), "\n")
	for i, r := range rows {
		mark := mdCodeRule
		if i > 0 {
			mark = mdCodeMore
		}
		rows[i] = pad + paint(mark, stDim, noColor) + r
	}
	return rows
}

// isRule is a thematic break: three or more -, * or _, blanks between.
func isRule(s string) bool {
	s = strings.TrimRight(s, " ")
	if len(s) < 3 || (s[0] != '-' && s[0] != '*' && s[0] != '_') {
		return false
	}
	n := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case s[0]:
			n++
		case ' ':
		default:
			return false
		}
	}
	return n >= 3
}

// heading is an ATX heading: 1 to 6 #, a blank, the text (closing #s
// dropped).
func heading(s string) (int, string, bool) {
	n := 0
	for n < len(s) && n < 7 && s[n] == '#' {
		n++
	}
	if n == 0 || n > 6 || (n < len(s) && s[n] != ' ') {
		return 0, "", false
	}
	text := strings.TrimSpace(s[n:])
	if t := strings.TrimRight(text, "#"); t != text && (t == "" || strings.HasSuffix(t, " ")) {
		text = strings.TrimSpace(t)
	}
	return n, text, true
}

// listItem is a bullet (-, *, +) or a number (1. or 1)) then a blank.
func listItem(s string) (marker, text string, ok bool) {
	if len(s) >= 2 && (s[0] == '-' || s[0] == '*' || s[0] == '+') && s[1] == ' ' {
		return s[:1], strings.TrimLeft(s[2:], " "), true
	}
	n := 0
	for n < len(s) && n < 9 && s[n] >= '0' && s[n] <= '9' {
		n++
	}
	if n > 0 && n+1 < len(s) && (s[n] == '.' || s[n] == ')') && s[n+1] == ' ' {
		return s[:n+1], strings.TrimLeft(s[n+2:], " "), true
	}
	return "", "", false
}

// hang wraps text (styled by inline) to width: the first row after first,
// the others after next (a list item's text hangs under its text, not its
// marker). A style open at the end of a row is closed there and opened
// again on the next: the viewport may show a row without the one before.
func hang(text, first, next string, width int) []string {
	room := max(10, width-max(ansi.StringWidth(first), ansi.StringWidth(next)))
	rows := carrySGR(strings.Split(ansi.Wrap(text, room, ""), "\n"))
	for i := range rows {
		if i == 0 {
			rows[i] = first + rows[i]
		} else {
			rows[i] = next + rows[i]
		}
	}
	return rows
}

// carrySGR makes each row stand alone: it starts in the style the row
// before ended in, and ends reset. Every SGR in the rows is one of
// mdStyle's (the text itself holds no escape: termsafe), so the last one
// of a row is the style in force at its end.
func carrySGR(rows []string) []string {
	carry := ""
	for i, r := range rows {
		last := strings.LastIndex(r, "\x1b[")
		if carry != "" {
			r = carry + r
		}
		if last >= 0 {
			if end := strings.IndexByte(rows[i][last:], 'm'); end >= 0 {
				carry = rows[i][last : last+end+1]
			}
		}
		if carry == "\x1b[0m" {
			carry = ""
		}
		if carry != "" {
			r += "\x1b[0m"
		}
		rows[i] = r
	}
	return rows
}

// inlineMarks are the bytes that may start inline Markdown: a line with
// none of them is its own rendering.
const inlineMarks = "`*_~[<\\"

// inline renders the spans of one line: `code`, **bold** (__bold__),
// *italic* (_italic_), ~~struck~~, [text](url) as text (url), <url>, and
// backslash escapes. An opening mark without its closing one on the line
// is text. With NO_COLOR the marks stay as written (links still become
// text (url)). base is the style of the whole line (a heading, a quote).
func inline(s string, base mdStyle, noColor bool) string {
	if !strings.ContainsAny(s, inlineMarks) {
		return paintLine(s, base, noColor)
	}
	p := inlineParser{s: s, noColor: noColor, style: base, none: map[string]int{}}
	if base != 0 && !noColor {
		p.b.WriteString(base.sgr())
	}
	p.run()
	if p.style != 0 && !noColor {
		p.b.WriteString("\x1b[0m")
	}
	return p.b.String()
}

func paintLine(s string, style mdStyle, noColor bool) string {
	if noColor || style == 0 {
		return s
	}
	return style.sgr() + s + "\x1b[0m"
}

type inlineParser struct {
	s       string
	b       strings.Builder
	noColor bool
	style   mdStyle
	// none: for a closing mark, the position from which it is known not
	// to occur again on the line. A line of thousands of lone * stays
	// linear: each is looked for to the end of the line once.
	none map[string]int
}

// find is the next closing mark at or after from, or -1. A closer of
// emphasis must follow a non-blank.
func (p *inlineParser) find(mark string, from int) int {
	if at, ok := p.none[mark]; ok && from >= at {
		return -1
	}
	for i := from; ; {
		j := strings.Index(p.s[i:], mark)
		if j < 0 {
			p.none[mark] = from
			return -1
		}
		j += i
		if mark == "`" || mark == "](" || mark == ")" || mark == ">" || (j > 0 && p.s[j-1] != ' ') {
			return j
		}
		i = j + len(mark)
	}
}

func (p *inlineParser) set(st mdStyle) {
	p.style = st
	if !p.noColor {
		p.b.WriteString(st.sgr())
	}
}

func (p *inlineParser) run() {
	s := p.s
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\' && i+1 < len(s) && strings.IndexByte("\\`*_{}[]()#+-.!<>~|", s[i+1]) >= 0:
			p.b.WriteByte(s[i+1])
			i += 2
			continue
		case c == '`':
			n := 0
			for i+n < len(s) && s[i+n] == '`' {
				n++
			}
			run := s[i : i+n]
			if j := p.findRun(run, i+n); j >= 0 {
				code := s[i+n : j]
				if t := strings.TrimSpace(code); t != "" {
					code = t
				}
				if p.noColor {
					p.b.WriteString(run + code + run)
				} else {
					old := p.style
					p.set(old | stCode)
					p.b.WriteString(code)
					p.set(old)
				}
				i = j + n
				continue
			}
			p.b.WriteString(run)
			i += n
			continue
		case c == '*' || c == '_' || c == '~':
			n := 1
			if i+1 < len(s) && s[i+1] == c {
				n = 2
			}
			mark := s[i : i+n]
			bit := stItalic
			switch {
			case c == '~' && n == 1:
				p.b.WriteByte(c)
				i++
				continue
			case c == '~':
				bit = stStrike
			case n == 2:
				bit = stBold
			}
			if p.style&bit != 0 {
				// The closing mark (it was found when the span opened).
				if p.noColor {
					p.b.WriteString(mark)
				}
				p.set(p.style &^ bit)
				i += n
				continue
			}
			// An opener: followed by a non-blank; an _ not inside a word;
			// closed later on the line.
			opens := i+n < len(s) && s[i+n] != ' ' && !(c == '_' && i > 0 && isWordByte(s[i-1]))
			if opens {
				if j := p.find(mark, i+n+1); j >= 0 && !(c == '_' && j+n < len(s) && isWordByte(s[j+n])) {
					if p.noColor {
						p.b.WriteString(mark)
					}
					p.set(p.style | bit)
					i += n
					continue
				}
			}
			p.b.WriteString(mark)
			i += n
			continue
		case c == '[' || (c == '!' && i+1 < len(s) && s[i+1] == '['):
			start := i + 1
			if c == '!' {
				start++
			}
			if mid := p.find("](", start); mid >= 0 && !strings.Contains(s[start:mid], "[") {
				if end := p.find(")", mid+2); end >= 0 {
					text, url := s[start:mid], strings.TrimSpace(s[mid+2:end])
					p.link(text, url)
					i = end + 1
					continue
				}
			}
		case c == '<':
			if end := p.find(">", i+1); end >= 0 {
				if u := s[i+1 : end]; strings.HasPrefix(u, "http://") || strings.HasPrefix(u, "https://") {
					if !strings.ContainsAny(u, " <") {
						p.link("", u)
						i = end + 1
						continue
					}
				}
			}
		}
		// Up to the next mark, the text as it is.
		next := len(s)
		if j := strings.IndexAny(s[i+1:], inlineMarks+"!"); j >= 0 {
			next = i + 1 + j
		}
		p.b.WriteString(s[i:next])
		i = next
	}
}

// findRun is the closing run of exactly len(run) backticks.
func (p *inlineParser) findRun(run string, from int) int {
	for i := from; ; {
		j := p.find(run, i)
		if j < 0 {
			return -1
		}
		k := j + len(run)
		if (j == 0 || p.s[j-1] != '`') && (k >= len(p.s) || p.s[k] != '`') {
			return j
		}
		for k < len(p.s) && p.s[k] == '`' {
			k++
		}
		i = k
	}
}

// link is text (url), the url dimmed; the url alone when it is the text.
func (p *inlineParser) link(text, url string) {
	old := p.style
	if text != "" && text != url {
		p.b.WriteString(text)
		p.b.WriteString(" ")
	}
	if text != "" && text != url {
		p.b.WriteString("(")
	}
	if !p.noColor {
		p.set(old | stDim)
	}
	p.b.WriteString(url)
	if !p.noColor {
		p.set(old)
	}
	if text != "" && text != url {
		p.b.WriteString(")")
	}
}

func isWordByte(c byte) bool {
	return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}
