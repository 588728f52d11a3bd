package webmd

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// pre writes a fenced code block: the fence longer than any backquote run
// in the code, the language taken from the classes of the block, its
// <code> or the wrappers documentation generators put around it.
func (c *conv) pre(n *html.Node) {
	var code string
	if ch := n.FirstChild; ch != nil && ch.NextSibling == nil && ch.Type == html.TextNode {
		// One text node (a code block the builder gathered as text): no
		// copy needed.
		code = trimBlankLines(ch.Data)
	} else {
		c.scratch = appendPreText(c.scratch[:0], n)
		code = trimBlankLines(string(c.scratch))
	}
	if code == "" {
		return
	}
	w := &c.w
	if w.inline != "" {
		// A table cell or a link: one code span per line.
		w.block(1)
		for line := range strings.SplitSeq(code, "\n") {
			if strings.TrimSpace(line) != "" {
				w.codeSpan(line)
				w.hardBreak()
			}
		}
		w.block(1)
		return
	}
	lang := codeLanguage(n)
	fence := 3
	if r := longestRun(code, '`') + 1; r > fence {
		fence = r
	}
	w.block(2)
	w.begin()
	w.reserve(len(code) + (strings.Count(code, "\n")+1)*w.prefixWidth() + 2*fence + len(lang) + 8)
	for i := 0; i < fence; i++ {
		w.buf = append(w.buf, '`')
	}
	w.buf = append(w.buf, lang...)
	w.newline()
	for line := range strings.SplitSeq(code, "\n") {
		if line == "" {
			w.writeBlankPrefix()
		} else {
			w.writePrefix()
			w.buf = append(w.buf, line...)
		}
		w.newline()
	}
	w.writePrefix()
	for i := 0; i < fence; i++ {
		w.buf = append(w.buf, '`')
	}
	w.lineStart = false
	w.block(2)
}

// trimBlankLines drops the blank lines around code, and the spaces that
// end it.
func trimBlankLines(s string) string {
	s = strings.TrimRight(s, " \t\n\r\f")
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 || strings.TrimLeft(s[:i], " \t\r\f") != "" {
			break
		}
		s = s[i+1:]
	}
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return s
}

// appendPreText appends the text of a code block: <br> and the end of a
// block element (highlighters that put each line in a <div>) make line
// breaks; line-number gutters and copy buttons are left out.
func appendPreText(b []byte, n *html.Node) []byte {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch ch.Type {
		case html.TextNode:
			b = append(b, ch.Data...)
		case html.ElementNode:
			if ch.DataAtom == atom.Br {
				b = append(b, '\n')
				continue
			}
			if droppedNode(ch, true) || isGutter(ch) {
				continue
			}
			b = appendPreText(b, ch)
			if isBlock(ch.DataAtom) && len(b) > 0 && b[len(b)-1] != '\n' {
				b = append(b, '\n')
			}
		}
	}
	return b
}

// isGutter reports the line numbers highlighters write beside the code
// (Pygments, Rouge, Prism, highlight.js).
func isGutter(n *html.Node) bool {
	cl, ok := attr(n, "class")
	if !ok {
		return false
	}
	for tok := range fields(cl) {
		if isGutterWord(tok) {
			return true
		}
	}
	return false
}

func isGutterWord(tok string) bool {
	switch tok {
	case "linenos", "lineno", "linenodiv", "gutter", "rouge-gutter", "line-numbers-rows", "hljs-ln-numbers", "line-number", "line-numbers":
		return true
	}
	return false
}

// codeLanguage finds the language of a code block: on the <pre>, on the
// <code> it wraps, then on up to three enclosing elements.
func codeLanguage(pre *html.Node) string {
	if l := langOf(pre); l != "" {
		return l
	}
	for ch := pre.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.ElementNode && ch.DataAtom == atom.Code {
			if l := langOf(ch); l != "" {
				return l
			}
		}
	}
	p := pre.Parent
	for i := 0; i < 3 && p != nil && p.Type == html.ElementNode; i++ {
		if l := langOf(p); l != "" {
			return l
		}
		p = p.Parent
	}
	return ""
}

// langOf reads the language hints of one element: `language-x` and
// `lang-x` (the reference), Sphinx's `highlight-x`, GitHub's
// `highlight-source-x`, Pandoc's `sourceCode x`, SyntaxHighlighter's
// `brush: x`, highlight.js's `hljs x`, and `data-lang`.
func langOf(n *html.Node) string {
	if v, ok := attr(n, "data-lang"); ok {
		if l := cleanLang(v); l != "" {
			return l
		}
	}
	cl, ok := attr(n, "class")
	if !ok || cl == "" {
		return ""
	}
	toks := strings.Fields(cl)
	for i, tok := range toks {
		low := strings.ToLower(tok)
		switch {
		case strings.HasPrefix(low, "language-"):
			return cleanLang(low[len("language-"):])
		case strings.HasPrefix(low, "lang-"):
			return cleanLang(low[len("lang-"):])
		case strings.HasPrefix(low, "highlight-"):
			l := low[len("highlight-"):]
			for _, p := range []string{"source-", "text-"} {
				if strings.HasPrefix(l, p) {
					l = l[len(p):]
					if j := strings.IndexByte(l, '-'); j > 0 {
						l = l[:j]
					}
				}
			}
			if l := cleanLang(l); l != "" {
				return l
			}
		case low == "brush:" && i+1 < len(toks):
			return cleanLang(strings.TrimSuffix(toks[i+1], ";"))
		case strings.HasPrefix(low, "brush:"):
			return cleanLang(strings.TrimSuffix(low[len("brush:"):], ";"))
		case (low == "sourcecode" || low == "hljs") && i+1 < len(toks):
			return cleanLang(toks[i+1])
		}
	}
	return ""
}

// cleanLang keeps a language name that is safe in a fence's info string
// and says something: not "default", "none", "text".
func cleanLang(l string) string {
	l = strings.ToLower(strings.TrimSpace(l))
	if l == "" || len(l) > 32 {
		return ""
	}
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '+' || c == '#' || c == '.') {
			return ""
		}
	}
	switch l {
	case "default", "none", "text", "plain", "plaintext", "nohighlight", "no-highlight", "notranslate", "txt", "highlight":
		return ""
	case "python3", "py3":
		return "python"
	case "pycon3":
		return "pycon"
	}
	return l
}
