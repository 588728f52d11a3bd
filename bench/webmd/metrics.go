package webmdbench

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Quality is what one converter's Markdown of one page shows.
type Quality struct {
	InvalidUTF8   bool
	EmptyLinks    int // [](url): a link with no text
	Pilcrows      int // ¶ left over from permalink anchors
	NeedlessEsc   int // backslash escapes of characters that mean nothing there
	FencesWithLng int // code fences with a language
	Fences        int // code fences
	GFMTables     int // GFM table delimiter rows
	Boilerplate   int // navigation and cookie phrases left in
	Bytes         int
}

// Add sums q into the total.
func (t *Quality) Add(q Quality) {
	if q.InvalidUTF8 {
		t.InvalidUTF8 = true
	}
	t.EmptyLinks += q.EmptyLinks
	t.Pilcrows += q.Pilcrows
	t.NeedlessEsc += q.NeedlessEsc
	t.FencesWithLng += q.FencesWithLng
	t.Fences += q.Fences
	t.GFMTables += q.GFMTables
	t.Boilerplate += q.Boilerplate
	t.Bytes += q.Bytes
}

var (
	numberStart = regexp.MustCompile(`^\d+\\[.)]`)
	listMarker  = regexp.MustCompile(`^(?:(?:[-+*]|\d{1,9}[.)])(?: \[[ x]\])? +)+`)
	emptyLink   = regexp.MustCompile(`(^|[^!\\])\[\s*\]\(`)
	fenceOpen   = regexp.MustCompile("^\\s*(?:>\\s*)*(?:[-*+]\\s+|\\d+[.)]\\s+)*(```+|~~~+)\\s*(\\S*)")
	gfmDelimit  = regexp.MustCompile(`^\s*(?:>\s*)*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)+\|?\s*$|^\s*(?:>\s*)*\|\s*:?-{3,}:?\s*\|\s*$`)
)

// BoilerplatePhrases are navigation, cookie and sharing texts a reader of
// the content does not need; each occurrence in the Markdown counts.
var BoilerplatePhrases = []string{
	"skip to content", "skip to main content", "skip navigation", "toggle navigation",
	"main menu", "open menu", "close menu",
	"accept all cookies", "accept cookies", "we use cookies", "this site uses cookies",
	"cookie policy", "cookie settings", "manage cookies", "cookie preferences",
	"privacy preferences", "manage consent", "consent preferences",
	"subscribe to our newsletter", "sign up for our newsletter", "newsletter signup",
	"share on facebook", "share on twitter", "share this article", "follow us on",
	"previous topic", "next topic", "table of contents",
}

// Measure reads the quality figures of a Markdown text.
func Measure(md string) Quality {
	q := Quality{Bytes: len(md), InvalidUTF8: !utf8.ValidString(md)}
	low := strings.ToLower(md)
	for _, p := range BoilerplatePhrases {
		q.Boilerplate += strings.Count(low, p)
	}
	inFence := ""
	for _, line := range strings.Split(md, "\n") {
		if inFence != "" {
			if t := strings.TrimLeft(line, " >"); strings.HasPrefix(t, inFence) && strings.Trim(t, inFence[:1]) == "" {
				inFence = ""
			}
			continue
		}
		if m := fenceOpen.FindStringSubmatch(line); m != nil {
			inFence = m[1]
			q.Fences++
			if m[2] != "" {
				q.FencesWithLng++
			}
			continue
		}
		if gfmDelimit.MatchString(line) {
			q.GFMTables++
		}
		text := stripCode(line, false)
		q.EmptyLinks += len(emptyLink.FindAllStringIndex(text, -1))
		text = stripCode(line, true)
		q.Pilcrows += strings.Count(text, "¶")
		q.NeedlessEsc += needlessEscapes(text)
	}
	return q
}

// stripCode blanks inline code, and link destinations if dest, where a
// backslash is not an escape.
func stripCode(line string, dest bool) string {
	var b strings.Builder
	for i := 0; i < len(line); {
		if line[i] == '\\' && i+1 < len(line) {
			b.WriteString(line[i : i+2])
			i += 2
			continue
		}
		if line[i] == '`' {
			n := 0
			for i+n < len(line) && line[i+n] == '`' {
				n++
			}
			fence := line[i : i+n]
			if end := strings.Index(line[i+n:], fence); end >= 0 {
				// A placeholder, not nothing: [`f()`](url) has text.
				b.WriteString("code")
				i += n + end + n
				continue
			}
			b.WriteString(fence)
			i += n
			continue
		}
		if dest && strings.HasPrefix(line[i:], "](") {
			if end := strings.IndexByte(line[i:], ')'); end >= 0 {
				b.WriteString("]")
				i += end + 1
				continue
			}
		}
		b.WriteByte(line[i])
		i++
	}
	return b.String()
}

// needlessEscapes counts backslash escapes that change nothing: an `_`
// inside a word (snake\_case), a punctuation character that is never
// special where it stands (`\.` `\-` `\#` `\+` `\=` `\!` `\(` `\)`… after
// the start of the line), an `&` that starts no entity.
func needlessEscapes(line string) int {
	n := 0
	// The line starts after the quote and list markers: the reference
	// escapes a block marker there, and it may be needed.
	start := len(line) - len(strings.TrimLeft(line, " >"))
	if m := listMarker.FindStringIndex(line[start:]); m != nil {
		start += m[1]
	}
	if strings.HasPrefix(line[start:], "<") {
		return 0 // raw HTML: no Markdown escapes in it
	}
	// "N\." at the line start keeps a number from becoming a list.
	if m := numberStart.FindStringIndex(line[start:]); m != nil {
		start += m[1] - 2
	}
	for i := 0; i+1 < len(line); i++ {
		if line[i] != '\\' {
			continue
		}
		c := line[i+1]
		switch {
		case c == '_':
			if wordAt(line, i, -1) && wordAt(line, i+2, +1) {
				n++
			}
		case c == '&':
			if !entityAt(line[i+2:]) {
				n++
			}
		case strings.IndexByte(".-#+=!()>{}~:;,?'\"/%@$^|", c) >= 0:
			switch {
			case i <= start+1:
				// Line start: may be needed (a list marker, a heading).
			case c == '.' || c == ')':
				// "1\." after digits at a line start is handled above.
				n++
			case c == '!' && i+2 < len(line) && line[i+2] == '[':
			case c == '|':
				// Needed in table rows.
				if !strings.HasPrefix(strings.TrimSpace(line), "|") {
					n++
				}
			case c == '~' && i+2 < len(line) && line[i+2] == '~':
			default:
				n++
			}
		}
		i++
	}
	return n
}

func wordAt(s string, i, dir int) bool {
	var r rune
	if dir < 0 {
		if i <= 0 {
			return false
		}
		r, _ = utf8.DecodeLastRuneInString(s[:i])
	} else {
		if i >= len(s) {
			return false
		}
		r, _ = utf8.DecodeRuneInString(s[i:])
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r)
}

func entityAt(s string) bool {
	i := 0
	if i < len(s) && s[i] == '#' {
		i++
	}
	j := i
	for j < len(s) && j-i < 32 && (s[j] < utf8.RuneSelf && (unicode.IsLetter(rune(s[j])) || unicode.IsDigit(rune(s[j])))) {
		j++
	}
	return j > i && j < len(s) && s[j] == ';'
}

// SourceHints counts the code blocks of a page whose HTML names their
// language, the way common generators do (language-x, lang-x,
// highlight-x, brush: x, sourceCode x, data-lang) on the <pre>, its
// <code>, or up to three enclosing elements. Written here again, apart
// from webmd's own detection, so the count does not grade itself.
func SourceHints(page []byte) (pres, hinted int) {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		return 0, 0
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.DataAtom == atom.Pre {
			pres++
			if hinted1(n) {
				hinted++
			}
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return pres, hinted
}

func hinted1(pre *html.Node) bool {
	if hint(pre) {
		return true
	}
	for c := pre.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.DataAtom == atom.Code && hint(c) {
			return true
		}
	}
	p := pre.Parent
	for i := 0; i < 3 && p != nil; i++ {
		if hint(p) {
			return true
		}
		p = p.Parent
	}
	return false
}

var hintRe = regexp.MustCompile(`(?i)(^|\s)(language-|lang-|highlight-(source-)?|brush:\s*|sourcecode\s+)([a-z0-9+#_-]+)`)

func hint(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "data-lang":
			switch strings.ToLower(strings.TrimSpace(a.Val)) {
			case "", "default", "none", "text", "plain", "plaintext", "nohighlight":
			default:
				return true
			}
		case "class":
			for _, m := range hintRe.FindAllStringSubmatch(a.Val, -1) {
				switch strings.ToLower(m[4]) {
				case "default", "none", "text", "plain", "plaintext", "nohighlight", "notranslate":
				default:
					return true
				}
			}
		}
	}
	return false
}
