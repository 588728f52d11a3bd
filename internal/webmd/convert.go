package webmd

import (
	"bytes"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Tables says what becomes of a table that GFM cannot hold (merged cells,
// a table in a table).
type Tables string

// The two table modes of the reference.
const (
	// TablesHTML keeps such a table as raw HTML (the default).
	TablesHTML Tables = "html"
	// TablesFlatten makes a GFM table of it, a merged cell copied into
	// every slot it covers.
	TablesFlatten Tables = "flatten"
)

// ParseTables reads a `tables` value: "" is the default, html.
func ParseTables(s string) (Tables, bool) {
	switch Tables(strings.ToLower(strings.TrimSpace(s))) {
	case "", TablesHTML:
		return TablesHTML, true
	case TablesFlatten:
		return TablesFlatten, true
	}
	return "", false
}

// Options configures a conversion. The zero value is the reference's
// defaults, with links and images left as the page wrote them.
type Options struct {
	// BaseURL resolves relative links and images; nil leaves them as
	// written.
	BaseURL *url.URL
	// Tables is TablesHTML (or "") or TablesFlatten.
	Tables Tables
	// Strikethrough writes <del>, <s>, <strike> as ~~text~~; else the text
	// alone.
	Strikethrough bool
	// TaskList writes a list item that starts with a checkbox as
	// `- [ ] …` / `- [x] …`; else the checkbox is dropped.
	TaskList bool
}

// Convert returns the Markdown of an HTML document given in UTF-8: the
// page's content without its chrome, ending with a single newline, or ""
// when nothing is left. The output is always valid UTF-8.
//
// The page is converted while it is parsed: each block is written as soon
// as it is complete and then freed, so the tree never holds the whole
// page (see tree.go).
func Convert(page []byte, o Options) string {
	// A quarter of the page: the Markdown of half the pages fits, and
	// the rest grows once or twice by what the page's progress predicts.
	c := newConv(o, len(page)/4+64, true)
	c.recycle = true
	b := newBuilder(page)
	b.stream(c)
	b.run()
	if b.discard {
		return ""
	}
	return c.result()
}

// ConvertNode converts a parsed document, which it leaves as it is;
// sizeHint (the page's size, or 0) presizes the output buffer.
func ConvertNode(doc *html.Node, o Options, sizeHint int) string {
	return convert(doc, o, sizeHint, false)
}

// convert walks doc. With consume, each subtree is unlinked once written,
// so the collector can free the tree while the Markdown grows.
func convert(doc *html.Node, o Options, sizeHint int, consume bool) string {
	// Markdown is about 45% of a page's HTML; a third, grown if need
	// be, wastes little on script-heavy pages.
	c := newConv(o, sizeHint/3+64, consume)
	c.node(doc)
	return c.result()
}

// newConv makes a converter whose output starts with room for capacity
// bytes.
func newConv(o Options, capacity int, consume bool) *conv {
	c := &conv{opt: o, consume: consume}
	c.setBase(o.BaseURL)
	c.w.buf = make([]byte, 0, capacity)
	c.w.needPrefix = true
	return c
}

// result is the Markdown written.
func (c *conv) result() string {
	out := finish(c.w.buf)
	if len(out) == 0 {
		return ""
	}
	// The buffer is never written again: share it rather than copy it,
	// as strings.Builder does.
	return unsafe.String(&out[0], len(out))
}

// maxFree bounds the written nodes kept for reuse: a large subtree
// written at once (a layout table around the page) would otherwise stay
// in memory as spare nodes.
const maxFree = 1024

func (c *conv) recycleNode(n *html.Node) {
	if c.recycle && len(c.free) < maxFree {
		c.free = append(c.free, n)
	}
}

// recycleTree offers n and what is left under it (what the writing did
// not unlink: a table's rows and cells, a code block's text).
func (c *conv) recycleTree(n *html.Node) {
	if !c.recycle || len(c.free) >= maxFree {
		return
	}
	for ch := n.FirstChild; ch != nil; {
		next := ch.NextSibling
		c.recycleTree(ch)
		ch = next
	}
	c.recycleNode(n)
}

// streamable reports the containers the builder may convert while they
// are still open: those element writes the same way whatever they hold
// (a block boundary around the content, or nothing), so each child can be
// written once complete. Custom elements (unknown names) are transparent.
func streamable(n *html.Node) bool {
	switch n.DataAtom {
	case 0:
		return n.Namespace == ""
	case atom.Html, atom.Body, atom.Main, atom.Article, atom.Div, atom.Section,
		atom.Header, atom.Footer, atom.Address, atom.Center, atom.Figure,
		atom.Figcaption, atom.Details, atom.Summary, atom.Fieldset, atom.Legend,
		atom.Hgroup, atom.Search, atom.Dl, atom.Dt, atom.Dd,
		atom.Ul, atom.Ol, atom.Menu, atom.Dir:
		return true
	}
	return false
}

func isList(a atom.Atom) bool {
	return a == atom.Ul || a == atom.Ol || a == atom.Menu || a == atom.Dir
}

// streamsItem reports whether an item of a streamed list can be written
// while open: its marker is known at once unless task lists are on (a
// checkbox at its start changes it).
func (c *conv) streamsItem() bool { return !c.opt.TaskList }

// streamChild writes a complete child of a streamed container.
func (c *conv) streamChild(container, ch *html.Node) {
	if isList(container.DataAtom) {
		c.listChild(&c.lists[len(c.lists)-1], ch)
		return
	}
	c.node(ch)
}

// openContainer writes what element writes before the children of a
// streamable container; closeContainer what it writes after them.
func (c *conv) openContainer(n *html.Node) {
	if isList(n.DataAtom) {
		c.lists = append(c.lists, c.listStart(n))
		return
	}
	if n.DataAtom == atom.Li {
		// An item of a streamed list (see streamsItem): what item
		// writes before the content.
		st := &c.lists[len(c.lists)-1]
		marker := "- "
		if st.ordered {
			marker = strconv.Itoa(st.num) + ". "
		}
		st.num++
		c.w.block(1)
		c.w.push(frame{cont: spaces(len(marker)), marker: marker})
		c.inItem++
		return
	}
	switch n.DataAtom {
	case 0, atom.Html, atom.Body:
		return
	case atom.Main, atom.Article:
		c.inMain++
	}
	c.w.block(2)
}

func (c *conv) closeContainer(n *html.Node) {
	if n.DataAtom == atom.Li {
		c.inItem--
		c.w.pop()
		c.w.block(1)
		return
	}
	if isList(n.DataAtom) {
		st := c.lists[len(c.lists)-1]
		c.lists = c.lists[:len(c.lists)-1]
		c.w.block(st.sep)
		return
	}
	switch n.DataAtom {
	case 0, atom.Html, atom.Body:
		return
	case atom.Main, atom.Article:
		c.inMain--
	}
	c.w.block(2)
}

// finish trims the trailing blank lines and spaces, ends the text with
// one newline, and replaces any invalid UTF-8 (a page that lied about its
// encoding can carry some through the parser).
func finish(b []byte) []byte {
	end := len(b)
	for end > 0 && (b[end-1] == '\n' || b[end-1] == ' ' || b[end-1] == '\t') {
		end--
	}
	if end == 0 {
		return nil
	}
	b = append(b[:end], '\n')
	if !utf8.Valid(b) {
		b = bytes.ToValidUTF8(b, []byte("\uFFFD"))
	}
	return b
}

// conv walks the parsed tree once, deciding what is removed and writing
// the rest.
type conv struct {
	w    writer
	opt  Options
	base *url.URL
	// origin, page and dir are the base URL's scheme and host, the base
	// without its fragment, and its directory: the fast paths of resolve.
	origin, page, dir string

	inMain int // inside <main> or <article>: a <footer> there is content
	inItem int // inside a list item: a nested list is tight
	strong int // open **: a nested <b> adds nothing
	em     int
	del    int
	link   int // inside a link: no nested link

	consume bool   // unlink what is written (Convert owns the tree)
	scratch []byte // code block text
	cellW   writer // reused for table cells

	// When converting while parsing: written nodes the builder may reuse.
	recycle bool
	free    []*html.Node
	lists   []listState // streamed lists, innermost last
}

func (c *conv) children(n *html.Node) {
	for ch := n.FirstChild; ch != nil; {
		next := ch.NextSibling
		c.node(ch)
		if c.consume {
			// Nothing looks back at a written sibling: drop every link
			// to it (ancestors stay reachable through Parent).
			n.FirstChild = next
			if next != nil {
				next.PrevSibling = nil
			} else {
				n.LastChild = nil
			}
			ch.NextSibling = nil
			c.recycleNode(ch)
		}
		ch = next
	}
}

func (c *conv) node(n *html.Node) {
	switch n.Type {
	case html.TextNode:
		c.w.text(n.Data)
	case html.ElementNode:
		if !c.dropped(n) {
			c.element(n)
		}
	case html.DocumentNode:
		c.children(n)
	}
}

// blockContainer writes n's content as its own block.
func (c *conv) blockContainer(n *html.Node) {
	c.w.block(2)
	c.children(n)
	c.w.block(2)
}

func (c *conv) element(n *html.Node) {
	switch n.DataAtom {
	case atom.Html, atom.Body:
		c.children(n)
	case atom.Main, atom.Article:
		c.inMain++
		c.blockContainer(n)
		c.inMain--
	case atom.P, atom.Div, atom.Section, atom.Header, atom.Footer, atom.Address,
		atom.Center, atom.Figure, atom.Figcaption, atom.Details, atom.Summary,
		atom.Form, atom.Fieldset, atom.Legend, atom.Hgroup, atom.Dl, atom.Dt,
		atom.Dd, atom.Caption, atom.Search, atom.Tbody, atom.Thead, atom.Tfoot,
		atom.Tr, atom.Td, atom.Th, atom.Frame, atom.Noscript:
		c.blockContainer(n)
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		c.heading(n, int(n.Data[1]-'0'))
	case atom.Ul, atom.Ol, atom.Menu, atom.Dir:
		c.list(n)
	case atom.Li:
		// An item outside any list: still an item.
		c.w.block(2)
		c.item(n, "- ")
		c.w.block(2)
	case atom.Blockquote:
		c.quote(n)
	case atom.Pre, atom.Listing, atom.Xmp, atom.Plaintext:
		c.pre(n)
	case atom.Hr:
		c.rule()
	case atom.Br:
		c.w.hardBreak()
	case atom.Table:
		c.table(n)
	case atom.Strong, atom.B:
		c.emphasis(n, "**", &c.strong)
	case atom.Em, atom.I:
		c.emphasis(n, "*", &c.em)
	case atom.Del, atom.S, atom.Strike:
		if c.opt.Strikethrough {
			c.emphasis(n, "~~", &c.del)
		} else {
			c.children(n)
		}
	case atom.Code, atom.Kbd, atom.Samp, atom.Tt:
		c.inlineCode(n)
	case atom.A:
		c.anchor(n)
	case atom.Img:
		c.image(n)
	case atom.Input, atom.Wbr:
		// A checkbox is written by its list item (task lists) or not at
		// all; nothing else of a form shows as text.
	default:
		// Unknown and purely presentational elements: the tags go, the
		// text stays; blocks inside make their own boundaries.
		c.children(n)
	}
}

// isBlock reports the elements that start a block of their own.
func isBlock(a atom.Atom) bool {
	switch a {
	case atom.P, atom.Div, atom.Section, atom.Article, atom.Main, atom.Header,
		atom.Footer, atom.Address, atom.Center, atom.Figure, atom.Figcaption,
		atom.Details, atom.Summary, atom.Form, atom.Fieldset, atom.Legend,
		atom.Hgroup, atom.Dl, atom.Dt, atom.Dd, atom.Caption, atom.H1, atom.H2,
		atom.H3, atom.H4, atom.H5, atom.H6, atom.Ul, atom.Ol, atom.Menu, atom.Dir,
		atom.Li, atom.Blockquote, atom.Pre, atom.Listing, atom.Xmp, atom.Hr,
		atom.Table, atom.Tr, atom.Td, atom.Th, atom.Tbody, atom.Thead, atom.Tfoot,
		atom.Search, atom.Plaintext:
		return true
	}
	return false
}

// hasBlock reports whether n holds a block element: an emphasis or a link
// around blocks cannot be written as one Markdown span.
func hasBlock(n *html.Node) bool {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode {
			continue
		}
		if isBlock(ch.DataAtom) || hasBlock(ch) {
			return true
		}
	}
	return false
}

var headingMarks = [...]string{"", "# ", "## ", "### ", "#### ", "##### ", "###### "}

func (c *conv) heading(n *html.Node, level int) {
	if c.w.inline != "" {
		c.w.block(1)
		c.children(n)
		c.w.block(1)
		return
	}
	c.w.block(2)
	mark := headingMarks[level]
	c.w.openDelim(mark)
	c.w.depth++
	prev := c.w.enterInline(" ")
	c.children(n)
	c.w.leaveInline(prev)
	c.w.depth--
	if c.w.closeDelim(mark, "") {
		escapeClosingHashes(&c.w)
	}
	c.w.block(2)
}

// escapeClosingHashes keeps a heading that ends with " #" (or is only
// hashes) from losing them: Markdown reads them as a closing sequence.
func escapeClosingHashes(w *writer) {
	b := w.buf
	i := len(b)
	for i > 0 && b[i-1] == '#' {
		i--
	}
	if i == len(b) || i == 0 || (b[i-1] != ' ' && b[i-1] != '\\') {
		return
	}
	if b[i-1] == '\\' {
		return
	}
	w.buf = append(b[:i], append([]byte{'\\'}, b[i:]...)...)
}

func (c *conv) list(n *html.Node) {
	if c.w.inline != "" {
		for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
			c.w.block(1)
			c.node(ch)
		}
		c.w.block(1)
		return
	}
	st := c.listStart(n)
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		c.listChild(&st, ch)
	}
	c.w.block(st.sep)
}

// listState is a list being written: its separation and the next number.
type listState struct {
	ordered  bool
	num, sep int
}

// listStart writes what comes before a list's items.
func (c *conv) listStart(n *html.Node) listState {
	st := listState{ordered: n.DataAtom == atom.Ol, num: 1, sep: 2}
	if c.inItem > 0 {
		st.sep = 1
	}
	c.w.block(st.sep)
	if st.ordered {
		if s, ok := attr(n, "start"); ok {
			if v, err := strconv.Atoi(strings.TrimSpace(s)); err == nil && v >= 0 && v <= 999999999 {
				st.num = v
			}
		}
	}
	return st
}

// listChild writes one child of a list: an item with its marker, or
// anything else as it is. A removed item still takes its number.
func (c *conv) listChild(st *listState, ch *html.Node) {
	if ch.Type != html.ElementNode || ch.DataAtom != atom.Li {
		c.node(ch)
		return
	}
	if c.dropped(ch) {
		st.num++
		return
	}
	marker := "- "
	if st.ordered {
		marker = strconv.Itoa(st.num) + ". "
	}
	c.item(ch, marker)
	st.num++
}

// item writes one list item: its marker on the first line, its other lines
// indented by the marker's width, so nested lists and blocks stay inside.
func (c *conv) item(n *html.Node, marker string) {
	if c.w.inline != "" {
		c.w.block(1)
		c.children(n)
		c.w.block(1)
		return
	}
	first := marker
	if box := leadingCheckbox(n); box != nil && c.opt.TaskList {
		if checked(box) {
			first += "[x] "
		} else {
			first += "[ ] "
		}
	}
	c.w.block(1)
	c.w.push(frame{cont: spaces(len(marker)), marker: first})
	c.inItem++
	c.children(n)
	c.inItem--
	c.w.pop()
	c.w.block(1)
}

const manySpaces = "                                "

func spaces(n int) string {
	if n <= len(manySpaces) {
		return manySpaces[:n]
	}
	return strings.Repeat(" ", n)
}

// leadingCheckbox returns the checkbox a list item starts with, looking
// through leading whitespace and wrappers (<p>, <label>, <span>).
func leadingCheckbox(n *html.Node) *html.Node {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch ch.Type {
		case html.TextNode:
			if strings.TrimSpace(ch.Data) != "" {
				return nil
			}
			continue
		case html.ElementNode:
		default:
			continue
		}
		if ch.DataAtom == atom.Input {
			if isCheckbox(ch) {
				return ch
			}
			continue
		}
		switch ch.DataAtom {
		case atom.P, atom.Label, atom.Span, atom.Div:
			return leadingCheckbox(ch)
		}
		return nil
	}
	return nil
}

func (c *conv) quote(n *html.Node) {
	if c.w.inline != "" {
		c.blockContainer(n)
		return
	}
	c.w.block(2)
	c.w.push(frame{cont: "> "})
	c.children(n)
	c.w.pop()
	c.w.block(2)
}

func (c *conv) rule() {
	if c.w.inline != "" {
		c.w.block(1)
		return
	}
	c.w.block(2)
	c.w.raw("---")
	c.w.block(2)
}

// emphasis writes **…**, *…* or ~~…~~ around n's content, unless the same
// emphasis is already open or n holds blocks.
func (c *conv) emphasis(n *html.Node, d string, open *int) {
	if *open > 0 || hasBlock(n) {
		c.children(n)
		return
	}
	*open++
	c.w.depth++
	c.w.openDelim(d)
	c.children(n)
	c.w.closeDelim(d, d)
	c.w.depth--
	*open--
}

// inlineCode writes <code>, <kbd>, <samp>, <tt> as a code span. A code
// span that is all one link becomes a link around the code span.
func (c *conv) inlineCode(n *html.Node) {
	if hasBlock(n) {
		c.children(n)
		return
	}
	text := textContent(n)
	if a := onlyLink(n); a != nil && c.link == 0 {
		if href, ok := c.linkTarget(a); ok {
			c.w.depth++
			c.w.openDelim("[")
			c.w.codeSpan(text)
			c.closeLink(href)
			c.w.depth--
			return
		}
	}
	c.w.codeSpan(text)
}

// onlyLink returns the <a href> that holds all of n's text, if any.
func onlyLink(n *html.Node) *html.Node {
	var found *html.Node
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch ch.Type {
		case html.TextNode:
			if strings.TrimSpace(ch.Data) != "" {
				return nil
			}
		case html.ElementNode:
			if found != nil {
				return nil
			}
			if ch.DataAtom == atom.A {
				if _, ok := attr(ch, "href"); !ok {
					return nil
				}
				found = ch
			} else if a := onlyLink(ch); a != nil {
				found = a
			} else {
				return nil
			}
		}
	}
	return found
}

// textContent is the text of n's subtree, <br> as a line break, removed
// elements left out.
func textContent(n *html.Node) string {
	if ch := n.FirstChild; ch != nil && ch.NextSibling == nil && ch.Type == html.TextNode {
		return ch.Data
	}
	var b strings.Builder
	appendText(&b, n)
	return b.String()
}

func appendText(b *strings.Builder, n *html.Node) {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		switch ch.Type {
		case html.TextNode:
			b.WriteString(ch.Data)
		case html.ElementNode:
			if ch.DataAtom == atom.Br {
				b.WriteByte('\n')
				continue
			}
			if droppedNode(ch, true) {
				continue
			}
			appendText(b, ch)
		}
	}
}

// anchor writes a link: [text](url), the URL alone when there is no text,
// the text alone for javascript: and for an <a> without a target.
// Permalink anchors (¶ after a heading) and empty links to the same page
// are dropped.
func (c *conv) anchor(n *html.Node) {
	if c.link > 0 {
		c.children(n)
		return
	}
	raw, ok := attr(n, "href")
	raw = strings.TrimSpace(raw)
	if strings.HasPrefix(raw, "#") && isPermalink(n) {
		return
	}
	href, ok := c.linkTarget(n)
	if !ok {
		c.children(n)
		return
	}
	c.link++
	c.w.depth++
	var prev string
	flat := hasBlock(n)
	if flat {
		prev = c.w.enterInline(" ")
	}
	c.w.openDelim("[")
	c.children(n)
	if flat {
		c.w.leaveInline(prev)
	}
	if !c.closeLink(href) && !strings.HasPrefix(raw, "#") {
		c.autolink(href)
	}
	c.w.depth--
	c.link--
}

// linkTarget returns the resolved destination of an <a>, or false when it
// has none worth a link (no href, an empty one, javascript:).
func (c *conv) linkTarget(n *html.Node) (string, bool) {
	raw, ok := attr(n, "href")
	if !ok {
		return "", false
	}
	raw = strings.TrimSpace(raw)
	if raw == "" || hasScheme(raw, "javascript") {
		return "", false
	}
	return c.resolve(raw), true
}

// closeLink writes "](href)" and reports whether the link had text. A link
// whose text is its URL becomes an autolink.
func (c *conv) closeLink(href string) bool {
	w := &c.w
	if n := len(w.open); n > 0 && w.open[n-1] == "[" {
		w.open = w.open[:n-1]
		return false
	}
	start := w.linkText
	if text := w.buf[start:]; string(text) == href && autolinkable(href) {
		w.buf = append(w.buf[:start-1], '<')
		w.buf = append(w.buf, href...)
		w.buf = append(w.buf, '>')
		return true
	}
	w.buf = append(w.buf, "]("...)
	w.buf = appendDest(w.buf, href)
	w.buf = append(w.buf, ')')
	w.lineStart = false
	return true
}

// autolink writes a URL that stands for its own text.
func (c *conv) autolink(href string) {
	w := &c.w
	if autolinkable(href) {
		w.begin()
		w.buf = append(w.buf, '<')
		w.buf = append(w.buf, href...)
		w.buf = append(w.buf, '>')
		w.lineStart = false
		return
	}
	w.openDelim("[")
	w.word(href, false)
	c.closeLink(href)
}

// autolinkable reports a URL Markdown takes as an autolink: a scheme, no
// space, no angle bracket.
func autolinkable(u string) bool {
	i := strings.IndexByte(u, ':')
	if i < 2 {
		return false
	}
	for j := 0; j < len(u); j++ {
		if c := u[j]; c <= ' ' || c == '<' || c == '>' || c == 0x7f {
			return false
		}
	}
	return true
}

// isPermalink reports a same-page link whose text is a pilcrow or a
// similar mark, or nothing at all: the anchors documentation generators
// put after each heading.
func isPermalink(n *html.Node) bool {
	t := strings.TrimSpace(textContent(n))
	switch t {
	case "", "¶", "§", "#", "🔗", "⚓", "⁋", "link", "Permalink", "permalink":
		return !hasImage(n)
	}
	return false
}

func hasImage(n *html.Node) bool {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type == html.ElementNode && (ch.DataAtom == atom.Img || hasImage(ch)) {
			return true
		}
	}
	return false
}

// hasScheme reports whether u starts with scheme: (any case, leading
// spaces and tabs inside the scheme ignored as browsers do).
func hasScheme(u, scheme string) bool {
	if len(u) <= len(scheme) {
		return false
	}
	return strings.EqualFold(u[:len(scheme)], scheme) && u[len(scheme)] == ':'
}

// setBase prepares the base URL's parts the common links need: a page has
// thousands of links, and url.Parse plus ResolveReference for each was a
// fifth of what the conversion allocated.
func (c *conv) setBase(base *url.URL) {
	c.base = base
	if base == nil || (base.Scheme != "http" && base.Scheme != "https") || base.Host == "" {
		return
	}
	c.origin = (&url.URL{Scheme: base.Scheme, User: base.User, Host: base.Host}).String()
	page := *base
	page.Fragment, page.RawFragment = "", ""
	c.page = page.String()
	p := base.EscapedPath()
	if i := strings.LastIndexByte(p, '/'); i >= 0 {
		p = p[:i+1]
	} else {
		p = "/"
	}
	c.dir = c.origin + p
}

// resolve makes ref absolute against the base URL, if any.
func (c *conv) resolve(ref string) string {
	if c.base == nil {
		return ref
	}
	if (strings.HasPrefix(ref, "https://") || strings.HasPrefix(ref, "http://")) && !strings.Contains(ref, "/.") {
		return ref
	}
	if c.origin != "" && !strings.Contains(ref, "/.") && !strings.HasPrefix(ref, ".") {
		switch {
		case ref[0] == '#':
			return c.page + ref
		case ref[0] == '/' && (len(ref) == 1 || ref[1] != '/'):
			return c.origin + ref
		case ref[0] != '?' && ref[0] != '/' && !hasSchemePrefix(ref):
			return c.dir + ref
		}
	}
	u, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	return c.base.ResolveReference(u).String()
}

// hasSchemePrefix reports a ref that starts with a scheme ("mailto:"):
// letters, digits, +, -, . before a colon that comes before any /, ? or #.
func hasSchemePrefix(ref string) bool {
	for i := 0; i < len(ref); i++ {
		switch c := ref[i]; {
		case c == ':':
			return i > 0
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		default:
			return false
		}
	}
	return false
}

// appendDest writes a link destination: spaces, angle brackets, controls
// and unbalanced parentheses percent-encoded, so the link never breaks.
func appendDest(b []byte, u string) []byte {
	depth, balanced := 0, true
	for i := 0; i < len(u); i++ {
		switch u[i] {
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				balanced = false
			}
		}
	}
	balanced = balanced && depth == 0
	for i := 0; i < len(u); i++ {
		c := u[i]
		switch {
		case c <= ' ' || c == '<' || c == '>' || c == 0x7f || c == '\\':
			b = append(b, '%', "0123456789ABCDEF"[c>>4], "0123456789ABCDEF"[c&15])
		case !balanced && c == '(':
			b = append(b, "%28"...)
		case !balanced && c == ')':
			b = append(b, "%29"...)
		default:
			b = append(b, c)
		}
	}
	return b
}

// image writes ![alt](src), ![](src) without alt, and only the alt text
// for a data: URI or a missing source.
func (c *conv) image(n *html.Node) {
	src, _ := attr(n, "src")
	alt, _ := attr(n, "alt")
	src = strings.TrimSpace(src)
	if src == "" || hasScheme(src, "data") {
		c.w.text(alt)
		return
	}
	alt = collapseSpace(alt)
	w := &c.w
	w.begin()
	w.buf = append(w.buf, '!', '[')
	w.lineStart = false
	w.escapeText(alt, false)
	w.buf = append(w.buf, ']', '(')
	w.buf = appendDest(w.buf, c.resolve(src))
	w.buf = append(w.buf, ')')
}
