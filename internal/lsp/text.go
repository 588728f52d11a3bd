package lsp

// Text as both sides count it: the tool speaks 1-based lines and columns in
// characters, the protocol 0-based lines and UTF-16 code units. A line of
// Go with `é` or an emoji in a string is where the two part ways.

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// lines is a text cut into lines, terminators kept out.
type lines struct {
	text   string
	starts []int // byte offset of each line's first byte
}

func splitLines(text string) *lines {
	l := &lines{text: text, starts: []int{0}}
	for i := 0; i < len(text); i++ {
		if text[i] == '\n' {
			l.starts = append(l.starts, i+1)
		}
	}
	return l
}

// count is the number of protocol lines: a text ending with a line break
// has an empty last line after it.
func (l *lines) count() int { return len(l.starts) }

// editorCount is the number of lines an editor shows: the empty line after
// a final line break does not count.
func (l *lines) editorCount() int {
	if l.text == "" {
		return 0
	}
	if strings.HasSuffix(l.text, "\n") {
		return len(l.starts) - 1
	}
	return len(l.starts)
}

// line is line i (0-based) without its "\n" or "\r\n".
func (l *lines) line(i int) string {
	if i < 0 || i >= len(l.starts) {
		return ""
	}
	end := len(l.text)
	if i+1 < len(l.starts) {
		end = l.starts[i+1] - 1
	}
	return strings.TrimSuffix(l.text[l.starts[i]:end], "\r")
}

// offset is the byte offset of a protocol position. A character past the
// end of its line means the end of the line, and a line past the end of
// the text the end of the text, as the protocol says.
func (l *lines) offset(p position) int {
	if p.Line < 0 {
		return 0
	}
	if p.Line >= len(l.starts) {
		return len(l.text)
	}
	line := l.line(p.Line)
	return l.starts[p.Line] + utf16ToByte(line, p.Character)
}

// utf16Len is the length of s in UTF-16 code units.
func utf16Len(s string) int {
	n := 0
	for _, r := range s {
		n += utf16.RuneLen(r) // range never yields a surrogate: always 1 or 2
	}
	return n
}

// utf16ToByte is the byte index in line of UTF-16 column u, clamped to the
// end of the line. A column that falls inside a surrogate pair points at
// the character.
func utf16ToByte(line string, u int) int {
	n := 0
	for i, r := range line {
		if n >= u {
			return i
		}
		n += utf16.RuneLen(r)
		if n > u {
			return i
		}
	}
	return len(line)
}

// runesToUTF16 converts a 0-based column in characters to UTF-16 units.
func runesToUTF16(line string, col int) int {
	n := 0
	for _, r := range line {
		if col <= 0 {
			break
		}
		n += utf16.RuneLen(r)
		col--
	}
	return n + max(col, 0)
}

// utf16ToRunes converts a UTF-16 column to a 0-based column in characters.
func utf16ToRunes(line string, u int) int {
	return utf8.RuneCountInString(line[:utf16ToByte(line, u)])
}

// isIdentRune is a character an identifier can hold in the languages mm
// meets: letters, digits, `_`, and `$` for JavaScript.
func isIdentRune(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r) || unicode.IsDigit(r)
}

// identStart is a character an identifier can start with.
func identStart(r rune) bool {
	return r == '_' || r == '$' || unicode.IsLetter(r)
}

// cleanSymbol reduces what a model wrote as a symbol to the identifier:
// quotes and stray punctuation go (`Greet', `), and so does a receiver or
// package prefix (`person.Greet`, `fmt.Println`, `std::mem::swap`). A call
// or a type argument is cut at its bracket (`greet(name)` is `greet`).
func cleanSymbol(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return !isIdentRune(r) })
	if i := strings.IndexAny(s, "(<["); i > 0 {
		s = strings.TrimFunc(s[:i], func(r rune) bool { return !isIdentRune(r) })
	}
	if i := strings.LastIndexFunc(s, func(r rune) bool { return !isIdentRune(r) }); i >= 0 {
		_, w := utf8.DecodeRuneInString(s[i:])
		s = s[i+w:]
	}
	return s
}

// identifiers are the identifier-like words of a multi-word symbol, cleaned
// and in order; numbers are left out.
func identifiers(s string) []string {
	var ids []string
	for _, w := range strings.Fields(s) {
		c := cleanSymbol(w)
		if r, _ := utf8.DecodeRuneInString(c); c != "" && identStart(r) {
			ids = append(ids, c)
		}
	}
	return ids
}

// keywords are words a model puts before a name ("func greet", "class
// Greeter"); as a symbol they are never what it means.
var keywords = map[string]bool{
	"func": true, "function": true, "def": true, "fn": true, "class": true, "type": true,
	"struct": true, "interface": true, "var": true, "let": true, "const": true, "method": true,
	"enum": true, "trait": true, "impl": true, "package": true, "module": true, "the": true,
	"symbol": true, "variable": true, "field": true, "constant": true,
}

// qualifier is what cleanSymbol drops before the identifier: `person` in
// `person.Greet`, "" when there is none.
func qualifier(s string) string {
	s = strings.TrimFunc(s, func(r rune) bool { return !isIdentRune(r) })
	if i := strings.IndexAny(s, "(<["); i > 0 {
		s = s[:i]
	}
	sym := cleanSymbol(s)
	if !strings.HasSuffix(s, sym) {
		return ""
	}
	q := strings.TrimRight(s[:len(s)-len(sym)], ".:->#")
	if i := strings.LastIndexFunc(q, func(r rune) bool { return !isIdentRune(r) }); i >= 0 {
		_, w := utf8.DecodeRuneInString(q[i:])
		q = q[i+w:]
	}
	return q
}

// Where an occurrence sits, in the order they are tried: code, then
// string literals (`"./greet"` names a module, not the symbol), then
// comments.
const (
	inCode = iota
	inStringLit
	inCommentText
)

// occurrence is one whole-word occurrence of a symbol in a file.
type occurrence struct {
	line    int // 0-based
	byteCol int // byte offset in the line
	where   int // inCode, inStringLit or inCommentText
	comment bool
}

// findOccurrences lists the whole-word occurrences of sym in the text:
// code first, then string literals, then comments, each in file order.
// onLine >= 0 keeps only that line (0-based).
func findOccurrences(l *lines, sym string, onLine int) []occurrence {
	if sym == "" {
		return nil
	}
	var byPlace [3][]occurrence
	for i := 0; i < l.count(); i++ {
		if onLine >= 0 && i != onLine {
			continue
		}
		line := l.line(i)
		from := 0
		for {
			j := strings.Index(line[from:], sym)
			if j < 0 {
				break
			}
			at := from + j
			from = at + len(sym)
			before, _ := utf8.DecodeLastRuneInString(line[:at])
			after, _ := utf8.DecodeRuneInString(line[at+len(sym):])
			if (at > 0 && isIdentRune(before)) || (at+len(sym) < len(line) && isIdentRune(after)) {
				continue
			}
			o := occurrence{line: i, byteCol: at}
			switch {
			case inComment(line, at):
				o.where, o.comment = inCommentText, true
			case inString(line, at):
				o.where = inStringLit
			}
			byPlace[o.where] = append(byPlace[o.where], o)
		}
	}
	return append(append(byPlace[inCode], byPlace[inStringLit]...), byPlace[inCommentText]...)
}

// inString guesses whether byte at of line is inside a quoted string: the
// quotes before it on the line, escapes skipped, are not all closed.
func inString(line string, at int) bool {
	var quote byte
	for i := 0; i < at; i++ {
		c := line[i]
		switch {
		case quote != 0 && c == '\\':
			i++
		case quote != 0 && c == quote:
			quote = 0
		case quote == 0 && (c == '"' || c == '\'' || c == '`'):
			quote = c
		}
	}
	return quote != 0
}

// inComment guesses whether byte at of line is in a comment: a line that
// starts like a comment in the usual languages, or a `//` or ` #` earlier
// on the line. A guess only decides the order occurrences are tried in.
func inComment(line string, at int) bool {
	t := strings.TrimSpace(line)
	for _, p := range []string{"//", "/*", "*", "--", "# ", "#!", ";;"} {
		if strings.HasPrefix(t, p) {
			return true
		}
	}
	if t == "#" {
		return true
	}
	before := line[:at]
	if i := strings.Index(before, "//"); i >= 0 && (i == 0 || before[i-1] != ':') {
		return true // not "http://"
	}
	return strings.Contains(before, " # ") || strings.Contains(before, "\t# ")
}

// linesOf lists the 1-based line numbers of occurrences, sorted, once each.
func linesOf(occ []occurrence) []int {
	seen := map[int]bool{}
	var out []int
	for _, o := range occ {
		if !seen[o.line] {
			seen[o.line] = true
			out = append(out, o.line+1)
		}
	}
	sort.Ints(out)
	return out
}
