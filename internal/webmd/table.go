package webmd

import (
	"bytes"
	"strconv"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Bounds on merged cells, so a hostile colspan="100000" cannot make the
// flattened grid explode.
const (
	maxSpan      = 64
	maxGridCells = 1 << 16
)

// tableRows returns a table's rows in display order (header rows, body
// rows, footer rows) and its caption, leaving out nested tables' rows.
func tableRows(t *html.Node) (rows []*html.Node, caption *html.Node) {
	var head, body, foot []*html.Node
	for ch := t.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode {
			continue
		}
		switch ch.DataAtom {
		case atom.Caption:
			if caption == nil {
				caption = ch
			}
		case atom.Tr:
			body = append(body, ch)
		case atom.Thead, atom.Tbody, atom.Tfoot:
			for tr := ch.FirstChild; tr != nil; tr = tr.NextSibling {
				if tr.Type == html.ElementNode && tr.DataAtom == atom.Tr {
					switch ch.DataAtom {
					case atom.Thead:
						head = append(head, tr)
					case atom.Tfoot:
						foot = append(foot, tr)
					default:
						body = append(body, tr)
					}
				}
			}
		}
	}
	rows = append(head, body...)
	return append(rows, foot...), caption
}

func isCell(n *html.Node) bool {
	return n.Type == html.ElementNode && (n.DataAtom == atom.Td || n.DataAtom == atom.Th)
}

// span reads colspan or rowspan: 1 unless a number above 1 (bounded).
func span(n *html.Node, key string) int {
	v, ok := attr(n, key)
	if !ok {
		return 1
	}
	s, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || s < 1 {
		return 1
	}
	return min(s, maxSpan)
}

// hasElement reports whether n's subtree holds an element a.
func hasElement(n *html.Node, a atom.Atom) bool {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.ElementNode && (ch.DataAtom == a || hasElement(ch, a)) {
			return true
		}
	}
	return false
}

// complexTable reports a table GFM cannot hold as it is: a merged cell or
// a table inside.
func (c *conv) complexTable(rows []*html.Node) bool {
	for _, tr := range rows {
		for td := tr.FirstChild; td != nil; td = td.NextSibling {
			if !isCell(td) {
				continue
			}
			if span(td, "colspan") > 1 || span(td, "rowspan") > 1 || hasElement(td, atom.Table) {
				return true
			}
		}
	}
	return false
}

// isLayoutTable reports a table used to lay out a page rather than to hold
// data, whose content is then written as blocks, as a reader sees it: a
// presentation role, a single row (cells side by side), a single column
// without header cells (blocks stacked), or a heading in a cell. Old sites
// nest such tables to build the whole page; without this, the reference's
// rule for nested tables would hand the model the page as raw HTML.
func isLayoutTable(t *html.Node, rows []*html.Node) bool {
	if r, ok := attr(t, "role"); ok {
		switch strings.ToLower(strings.TrimSpace(r)) {
		case "presentation", "none":
			return true
		}
	}
	if len(rows) <= 1 {
		return true
	}
	cols, th := 0, false
	for _, tr := range rows {
		n := 0
		for td := tr.FirstChild; td != nil; td = td.NextSibling {
			if !isCell(td) {
				continue
			}
			n += span(td, "colspan")
			if td.DataAtom == atom.Th {
				th = true
			}
			if hasHeading(td) {
				return true
			}
		}
		cols = max(cols, n)
	}
	return cols <= 1 && !th
}

// hasHeading reports a heading in n, outside nested tables.
func hasHeading(n *html.Node) bool {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode || ch.DataAtom == atom.Table {
			continue
		}
		switch ch.DataAtom {
		case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
			return true
		}
		if hasHeading(ch) {
			return true
		}
	}
	return false
}

func (c *conv) table(t *html.Node) {
	rows, caption := tableRows(t)
	if isLayoutTable(t, rows) {
		c.w.block(2)
		if caption != nil {
			c.blockContainer(caption)
		}
		for _, tr := range rows {
			if c.dropped(tr) {
				continue
			}
			for td := tr.FirstChild; td != nil; td = td.NextSibling {
				if isCell(td) && !c.dropped(td) {
					c.blockContainer(td)
				}
			}
		}
		c.w.block(2)
		return
	}
	if c.w.inline != "" {
		// A table inside a cell or a link (flatten mode): its rows as
		// lines, its cells side by side.
		for _, tr := range rows {
			c.w.block(1)
			for td := tr.FirstChild; td != nil; td = td.NextSibling {
				if isCell(td) && !c.dropped(td) {
					c.children(td)
					c.w.space = c.w.para
				}
			}
		}
		c.w.block(1)
		return
	}
	if c.opt.Tables != TablesFlatten && c.complexTable(rows) {
		c.htmlTable(t)
		return
	}
	grid := c.grid(rows)
	if len(grid) == 0 {
		return
	}
	if caption != nil {
		c.blockContainer(caption)
	}
	c.writeGrid(grid)
}

// grid renders every cell as inline Markdown and lays the cells out,
// copying a merged cell into every slot it covers.
func (c *conv) grid(rows []*html.Node) [][]string {
	var grid [][]string
	// pending[col] is a cell spanning down into the rows below.
	type carry struct {
		text string
		left int
	}
	var pending []carry
	total := 0
	for _, tr := range rows {
		if c.dropped(tr) {
			continue
		}
		var row []string
		col := 0
		fill := func() {
			for col < len(pending) && pending[col].left > 0 {
				row = append(row, pending[col].text)
				pending[col].left--
				col++
			}
		}
		fill()
		for td := tr.FirstChild; td != nil; td = td.NextSibling {
			if !isCell(td) {
				continue
			}
			text := ""
			if !c.dropped(td) {
				text = c.cellText(td)
			}
			cs, rs := span(td, "colspan"), span(td, "rowspan")
			for k := 0; k < cs && total < maxGridCells; k++ {
				row = append(row, text)
				total++
				for len(pending) <= col {
					pending = append(pending, carry{})
				}
				pending[col] = carry{text: text, left: rs - 1}
				col++
				fill()
			}
		}
		fill()
		// Spans that end below the last cell of this row.
		for col < len(pending) {
			if pending[col].left > 0 {
				row = append(row, pending[col].text)
				pending[col].left--
			} else {
				row = append(row, "")
			}
			col++
		}
		grid = append(grid, row)
	}
	// Trailing empty rows and a table with no text at all say nothing.
	for len(grid) > 0 && allEmpty(grid[len(grid)-1]) {
		grid = grid[:len(grid)-1]
	}
	return grid
}

func allEmpty(row []string) bool {
	for _, s := range row {
		if s != "" {
			return false
		}
	}
	return true
}

// cellText renders a cell's content as one line of inline Markdown:
// block boundaries and <br> become <br>, `|` is escaped.
func (c *conv) cellText(td *html.Node) string {
	saved := c.w
	c.cellW.reset()
	c.w = c.cellW
	c.w.inline = "<br>"
	c.w.cell = true
	c.children(td)
	text := string(c.w.buf)
	c.cellW = c.w
	c.w = saved
	return text
}

// writeGrid writes a GFM table: the first row as header, every row padded
// to the widest.
func (c *conv) writeGrid(grid [][]string) {
	cols := 0
	for _, r := range grid {
		cols = max(cols, len(r))
	}
	if cols == 0 {
		return
	}
	w := &c.w
	w.block(2)
	line := func(r []string) {
		if w.needPrefix || len(w.buf) == 0 || w.sep > 0 {
			w.begin()
		} else {
			w.newline()
			w.writePrefix()
		}
		for i := 0; i < cols; i++ {
			s := ""
			if i < len(r) {
				s = r[i]
			}
			if s == "" {
				w.buf = append(w.buf, "| "...)
			} else {
				w.buf = append(w.buf, "| "...)
				w.buf = append(w.buf, s...)
				w.buf = append(w.buf, ' ')
			}
		}
		w.buf = append(w.buf, '|')
		w.lineStart = false
	}
	line(grid[0])
	w.newline()
	w.writePrefix()
	for i := 0; i < cols; i++ {
		w.buf = append(w.buf, "| --- "...)
	}
	w.buf = append(w.buf, '|')
	for _, r := range grid[1:] {
		line(r)
	}
	w.block(2)
}

// htmlTable writes a table as raw HTML, cleaned like the rest of the page:
// removed elements left out, only the reference's attributes kept, one
// line per row and no blank line, so Markdown takes it as one HTML block.
func (c *conv) htmlTable(t *html.Node) {
	h := htmlWriter{c: c}
	h.node(t)
	out := bytes.TrimSpace(h.buf)
	if len(out) == 0 {
		return
	}
	w := &c.w
	w.block(2)
	w.reserve(len(out) + len(out)/8)
	first := true
	for line := range bytes.SplitSeq(out, []byte("\n")) {
		if first {
			w.begin()
			first = false
		} else {
			w.newline()
			w.writePrefix()
		}
		w.buf = append(w.buf, line...)
	}
	w.lineStart = false
	w.block(2)
}

// htmlWriter serializes cleaned HTML.
type htmlWriter struct {
	c        *conv
	buf      []byte
	space    bool // whitespace pending
	lineOpen bool // just after an opening block tag: no space needed
	pre      int  // inside <pre>
}

// keptTags are written as tags; other elements keep only their content.
func keptTag(a atom.Atom) bool {
	switch a {
	case atom.Table, atom.Caption, atom.Tr, atom.Td, atom.Th, atom.P, atom.Br,
		atom.B, atom.Strong, atom.I, atom.Em, atom.Code, atom.Kbd, atom.Samp,
		atom.Pre, atom.A, atom.Img, atom.Ul, atom.Ol, atom.Li, atom.Dl, atom.Dt,
		atom.Dd, atom.Del, atom.S, atom.Sub, atom.Sup, atom.Blockquote, atom.H1,
		atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Input, atom.Hr:
		return true
	}
	return false
}

// lineTag starts a line of its own.
func lineTag(a atom.Atom) bool {
	return a == atom.Tr || a == atom.Caption || a == atom.Table
}

func (h *htmlWriter) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		h.text(n.Data)
		return
	case html.ElementNode:
	default:
		return
	}
	if h.c.dropped(n) {
		return
	}
	if n.DataAtom == atom.A && isPermalink(n) {
		if raw, _ := attr(n, "href"); strings.HasPrefix(strings.TrimSpace(raw), "#") {
			return
		}
	}
	if !keptTag(n.DataAtom) {
		if isBlock(n.DataAtom) {
			h.space = true
		}
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			h.node(ch)
		}
		return
	}
	blockish := isBlock(n.DataAtom) || n.DataAtom == atom.Br
	if lineTag(n.DataAtom) && len(h.buf) > 0 {
		h.buf = append(h.buf, '\n')
	} else if h.space && !h.lineOpen && !blockish && len(h.buf) > 0 {
		h.buf = append(h.buf, ' ')
	}
	h.space = false
	h.buf = append(h.buf, '<')
	h.buf = append(h.buf, n.Data...)
	h.attrs(n)
	h.buf = append(h.buf, '>')
	h.lineOpen = blockish
	switch n.DataAtom {
	case atom.Br, atom.Img, atom.Input, atom.Hr:
		return
	case atom.Pre:
		h.pre++
	}
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		h.node(ch)
	}
	if n.DataAtom == atom.Pre {
		h.pre--
	}
	if n.DataAtom == atom.Table {
		h.buf = append(h.buf, '\n')
	}
	h.space = false
	h.lineOpen = false
	h.buf = append(h.buf, "</"...)
	h.buf = append(h.buf, n.Data...)
	h.buf = append(h.buf, '>')
}

// attrs writes the attributes the reference keeps: a[href], img[src,alt],
// td/th[colspan,rowspan], ol[start], input[type,checked], and the
// language-*/lang-* words of a pre/code class.
func (h *htmlWriter) attrs(n *html.Node) {
	keep := func(key, val string) {
		h.buf = append(h.buf, ' ')
		h.buf = append(h.buf, key...)
		h.buf = append(h.buf, '=', '"')
		h.buf = appendEscapedHTML(h.buf, val)
		h.buf = append(h.buf, '"')
	}
	switch n.DataAtom {
	case atom.A:
		if v, ok := attr(n, "href"); ok && !hasScheme(strings.TrimSpace(v), "javascript") {
			keep("href", h.c.resolve(strings.TrimSpace(v)))
		}
	case atom.Img:
		if v, ok := attr(n, "src"); ok {
			keep("src", h.c.resolve(strings.TrimSpace(v)))
		}
		if v, ok := attr(n, "alt"); ok {
			keep("alt", v)
		}
	case atom.Td, atom.Th:
		for _, k := range []string{"colspan", "rowspan"} {
			if s := span(n, k); s > 1 {
				keep(k, strconv.Itoa(s))
			}
		}
	case atom.Ol:
		if v, ok := attr(n, "start"); ok {
			keep("start", v)
		}
	case atom.Input:
		keep("type", "checkbox")
		if checked(n) {
			h.buf = append(h.buf, " checked"...)
		}
	case atom.Pre, atom.Code:
		if v, ok := attr(n, "class"); ok {
			var words []string
			for _, tok := range strings.Fields(v) {
				low := strings.ToLower(tok)
				if strings.HasPrefix(low, "language-") || strings.HasPrefix(low, "lang-") {
					words = append(words, tok)
				}
			}
			if len(words) > 0 {
				keep("class", strings.Join(words, " "))
			}
		}
	}
}

func (h *htmlWriter) text(s string) {
	if cap(h.buf)-len(h.buf) < len(s)+16 {
		b := make([]byte, len(h.buf), max(2*cap(h.buf), len(h.buf)+len(s)+16, 1024))
		copy(b, h.buf)
		h.buf = b
	}
	if h.pre > 0 {
		// A blank line would end the HTML block: line breaks in code
		// become <br>.
		for len(s) > 0 {
			i := strings.IndexByte(s, '\n')
			if i < 0 {
				h.buf = appendEscapedHTML(h.buf, s)
				break
			}
			h.buf = appendEscapedHTML(h.buf, s[:i])
			h.buf = append(h.buf, "<br>"...)
			s = s[i+1:]
		}
		h.lineOpen = false
		return
	}
	for len(s) > 0 {
		i := 0
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
		if i > 0 {
			h.space = true
			s = s[i:]
			continue
		}
		j := 0
		for j < len(s) && !isSpaceByte(s[j]) {
			j++
		}
		if h.space && !h.lineOpen && len(h.buf) > 0 {
			h.buf = append(h.buf, ' ')
		}
		h.space, h.lineOpen = false, false
		h.buf = appendEscapedHTML(h.buf, s[:j])
		s = s[j:]
	}
}

// appendEscapedHTML appends s escaped as html.EscapeString does, without
// a string per word.
func appendEscapedHTML(b []byte, s string) []byte {
	last := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '&':
			esc = "&amp;"
		case '\'':
			esc = "&#39;"
		case '<':
			esc = "&lt;"
		case '>':
			esc = "&gt;"
		case '"':
			esc = "&#34;"
		case '\r':
			esc = "&#13;"
		default:
			continue
		}
		b = append(b, s[last:i]...)
		b = append(b, esc...)
		last = i + 1
	}
	return append(b, s[last:]...)
}
