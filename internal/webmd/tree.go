package webmd

import (
	"bytes"
	"strings"
	"unsafe"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// parse builds the tree the converter walks, from x/net/html's tokenizer.
//
// html.Parse keeps every element, every attribute and every script of a
// page: its tree is about six times the page, more than the whole
// conversion may take. This builder follows the HTML standard's tree
// construction where it shapes the text a reader sees (implied end tags,
// scopes, tables and foster parenting, misnested formatting elements,
// foreign content), and keeps only what the converter reads:
//
//   - a removed element that is "special" in the standard's sense
//     (<script>, <nav>, <div hidden>…) gets no node, nor does anything in
//     it: the standard never moves content out of a special element;
//   - a removed element of another kind keeps its node with a lone
//     `hidden` attribute, so the converter still leaves it out;
//   - an element flagged by its class or id words (menus, sidebars,
//     banners) is decided when it closes: unlinked unless it holds a
//     landmark (<main>, <article>, <h1>), as the converter would;
//   - attributes are those the conversion reads (href, src, alt, start,
//     colspan, rowspan, type, checked, data-lang, the table roles, the
//     language and gutter words of a class); comments and the doctype go.
//
// The tree converts to the same Markdown as html.Parse's on the corpus
// and on each tree-construction rule (TestBuilderMatchesHTMLParse); on
// some broken markup the two differ where this builder simplifies
// (docs/webmd.md). parse builds the whole tree; Convert uses the same
// builder in streaming mode (stream), converting while it parses.
func parse(page []byte) *html.Node {
	b := newBuilder(page)
	b.run()
	return b.doc
}

// maxOpen bounds the open elements, as x/net/html does (512): every step
// of tree construction looks through them, and a hostile page nested ten
// thousand deep would make it quadratic.
const maxOpen = 512

// isVoid: the elements that are never open.
func isVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Basefont, atom.Bgsound, atom.Br, atom.Col,
		atom.Embed, atom.Frame, atom.Hr, atom.Img, atom.Input, atom.Keygen,
		atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}

// elem is an open element, or one the list of active formatting elements
// remembers.
type elem struct {
	node  *html.Node // nil inside a pruned subtree
	atom  atom.Atom
	name  string
	ns    string // "", "svg" or "math"
	attrs []html.Attribute

	// flagged: class or id words of page chrome, decided at the end
	// (chrome keeps what the tag said, for copies of the element).
	// landmark: a <main>, <article>, <h1> or role=main was opened inside.
	flagged, chrome, landmark bool
	// htmlEncoding: a MathML <annotation-xml> that holds HTML.
	htmlEncoding bool
	// streamed: a container being converted while open (see stream).
	streamed bool

	// pre: the code block gathered as text this element is in (or is);
	// skip: its text is left out of it (removed, a line-number gutter);
	// hidden: removed by its own attributes; textStart: where its text
	// starts in the block.
	pre       *preText
	skip      bool
	hidden    bool
	textStart int
}

// preText is a code block whose text is gathered while it is parsed, as
// the converter's appendPreText would read it from a tree: a page that is
// one large <pre> (manuals, help files) needs no node for each of its
// links and highlighted words.
type preText struct {
	elem *elem
	buf  []byte
	lang string // hint of the first <code> directly inside
}

// hiddenAttrs stand for the attributes that removed an element the
// builder keeps a node of.
var hiddenAttrs = []html.Attribute{{Key: "hidden"}}

type builder struct {
	z      *html.Tokenizer
	page   []byte
	pos    int // offset in page of the end of the current token
	doc    *html.Node
	htmlEl *elem
	body   *elem
	stack  []*elem
	afe    []*elem // active formatting elements; nil is a marker
	form   *elem   // the form element pointer
	quirks bool

	skipNewline bool // the token after <pre>, <listing>, <textarea>
	foster      bool // insertions go before the current table
	started     bool // the body has content (a <frameset> comes too late)

	// Text is gathered until something else is inserted: one node for
	// text the standard would have merged anyway.
	text       []byte
	textStr    string // gathered text that is a piece of page, not copied
	textParent *html.Node
	textBefore *html.Node

	tok tag // the current tag token

	// When converting while parsing: the converter, the open containers
	// it is inside (html, body, then nested streamable ones), and whether
	// the page turned out hidden as a whole.
	out       *conv
	streams   []*elem
	discard   bool
	freeElems []*elem
}

// tag is a start or end tag, with the attributes kept.
type tag struct {
	atom        atom.Atom
	name        string
	selfClosing bool
	attrs       []html.Attribute
	drop        bool // removed by an attribute (hidden, aria-hidden, role, style, class)
	flagged     bool // class or id words of page chrome
	landmark    bool // role=main
	checkbox    bool // <input type=checkbox>
	hiddenInput bool // <input type=hidden>
	hasKeys     uint8
}

const (
	keyColor = 1 << iota
	keyFace
	keySize
	keyEncodingHTML
)

func newBuilder(page []byte) *builder {
	b := &builder{z: html.NewTokenizer(bytes.NewReader(page)), page: page, quirks: true}
	b.doc = &html.Node{Type: html.DocumentNode}
	b.htmlEl = &elem{node: &html.Node{Type: html.ElementNode, DataAtom: atom.Html, Data: "html"}, atom: atom.Html, name: "html"}
	b.doc.AppendChild(b.htmlEl.node)
	b.body = &elem{node: &html.Node{Type: html.ElementNode, DataAtom: atom.Body, Data: "body"}, atom: atom.Body, name: "body"}
	b.htmlEl.node.AppendChild(b.body.node)
	b.stack = []*elem{b.htmlEl, b.body}
	return b
}

func (b *builder) run() {
	sawDoctype := false
	for {
		b.z.AllowCDATA(b.current().ns != "")
		tt := b.z.Next()
		raw := b.z.Raw()
		b.pos += len(raw)
		switch tt {
		case html.ErrorToken:
			b.finish()
			return
		case html.DoctypeToken:
			if !sawDoctype && !b.started {
				sawDoctype = true
				b.quirks = quirksDoctype(string(b.z.Text()))
			}
			b.skipNewline = false
		case html.CommentToken:
			// Comments are not content; gathered text continues across
			// them, as the standard's text node would.
		case html.TextToken:
			// Text with no reference, carriage return or NUL is the page's
			// own bytes: when converting while parsing (the page outlives
			// the tree), its node points into the page rather than a copy.
			// (The tokens' raw lengths add up to the position in the page;
			// the bytes are compared all the same, which costs little.)
			var same []byte
			if b.out != nil && b.pos <= len(b.page) && bytes.IndexByte(raw, '&') < 0 && bytes.IndexByte(raw, '\r') < 0 && bytes.IndexByte(raw, 0) < 0 {
				if p := b.page[b.pos-len(raw) : b.pos]; bytes.Equal(p, raw) {
					same = p
				}
			}
			b.textToken(b.z.Text(), same)
		case html.StartTagToken, html.SelfClosingTagToken:
			b.skipNewline = false
			b.readTag(tt == html.SelfClosingTagToken)
			if len(b.stack) >= maxOpen && !isVoid(b.tok.atom) {
				// Too deep: the tag is ignored, its content goes on in
				// the current element. (html.Parse rejects the whole page.)
				continue
			}
			b.dispatchStart()
			if cur := b.current(); cur.ns != "" {
				// <style> or <title> in <svg> holds markup, not raw text.
				b.z.NextIsNotRawText()
			}
		case html.EndTagToken:
			b.skipNewline = false
			b.readTag(false)
			b.dispatchEnd()
		}
	}
}

// readTag fills b.tok from the tokenizer, reading every attribute once:
// what removes the element is decided here, and only the attributes the
// conversion reads are copied.
func (b *builder) readTag(selfClosing bool) {
	name, more := b.z.TagName()
	t := &b.tok
	*t = tag{selfClosing: selfClosing, attrs: t.attrs[:0]}
	t.atom = atom.Lookup(name)
	if t.atom != 0 {
		t.name = t.atom.String()
	} else {
		t.name = string(name)
	}
	if t.atom == atom.Image {
		t.atom, t.name = atom.Img, "img"
	}
	var classKept string
	for more {
		var k, v []byte
		k, v, more = b.z.TagAttr()
		switch string(k) {
		case "hidden":
			t.drop = true
		case "aria-hidden":
			if strings.EqualFold(string(bytes.TrimSpace(v)), "true") {
				t.drop = true
			}
		case "role":
			s := string(v)
			if chromeRole(s) {
				t.drop = true
			}
			switch strings.ToLower(strings.TrimSpace(s)) {
			case "main":
				t.landmark = true
				t.attrs = append(t.attrs, html.Attribute{Key: "role", Val: "main"})
			case "presentation", "none":
				t.attrs = append(t.attrs, html.Attribute{Key: "role", Val: "presentation"})
			}
		case "style":
			if displayNone(string(v)) {
				t.drop = true
			}
		case "class":
			s := string(v)
			if srOnly(s) {
				t.drop = true
			}
			if !t.flagged && boilerplateWords(s, false) {
				t.flagged = true
			}
			if classKept == "" {
				classKept = codeClassWords(s)
			}
		case "id":
			if !t.flagged && boilerplateWords(string(v), true) {
				t.flagged = true
			}
		case "href", "src", "alt", "start", "colspan", "rowspan", "checked", "data-lang":
			t.attrs = append(t.attrs, html.Attribute{Key: string(k), Val: string(v)})
		case "type":
			switch strings.ToLower(string(bytes.TrimSpace(v))) {
			case "checkbox":
				t.checkbox = true
			case "hidden":
				t.hiddenInput = true
			}
			t.attrs = append(t.attrs, html.Attribute{Key: "type", Val: string(v)})
		case "color":
			t.hasKeys |= keyColor
		case "face":
			t.hasKeys |= keyFace
		case "size":
			t.hasKeys |= keySize
		case "encoding":
			if e := strings.ToLower(string(v)); e == "text/html" || e == "application/xhtml+xml" {
				t.hasKeys |= keyEncodingHTML
			}
		}
	}
	if classKept != "" && !boilerplateWords(classKept, false) {
		t.attrs = append(t.attrs, html.Attribute{Key: "class", Val: classKept})
	}
	switch t.atom {
	case atom.Html, atom.Body, atom.Main, atom.Article, atom.H1:
		t.flagged = false
	}
}

// codeClassWords keeps the words of a class attribute the conversion
// reads: language hints (and the word after "hljs", "sourceCode",
// "brush:"), line-number gutters. A long utility class list on every
// element is not kept.
func codeClassWords(v string) string {
	var keep []string
	next := false
	for tok := range fields(v) {
		if next {
			keep = append(keep, tok)
			next = false
			continue
		}
		low := strings.ToLower(tok)
		switch {
		case strings.HasPrefix(low, "language-"), strings.HasPrefix(low, "lang-"),
			strings.HasPrefix(low, "highlight-"), strings.HasPrefix(low, "brush:") && low != "brush:":
			keep = append(keep, tok)
		case low == "brush:" || low == "sourcecode" || low == "hljs":
			keep = append(keep, tok)
			next = true
		case isGutterWord(tok):
			keep = append(keep, tok)
		}
	}
	if len(keep) == 0 {
		return ""
	}
	if len(keep) == 1 {
		return keep[0]
	}
	return strings.Join(keep, " ")
}

// current is the current node: the last open element.
func (b *builder) current() *elem { return b.stack[len(b.stack)-1] }

// textToken inserts text, as the insertion mode says.
func (b *builder) textToken(s, same []byte) {
	if b.skipNewline {
		b.skipNewline = false
		if len(s) > 0 && s[0] == '\n' {
			s = s[1:]
			if same != nil {
				same = same[1:]
			}
		}
	}
	if len(s) == 0 {
		return
	}
	if cur := b.current(); cur.pre != nil {
		if !cur.skip {
			cur.pre.appendText(s)
		}
		return
	}
	if b.inForeign(false) {
		b.insertText(s, true, nil)
		return
	}
	switch b.mode() {
	case modeTable, modeTableBody, modeRow:
		if cur := b.current(); cur.ns != "" || !isTableish(cur.atom) {
			break
		}
		if isAllSpace(s) {
			b.insertText(s, false, same)
			return
		}
		b.foster = true
		b.reconstruct()
		b.insertText(s, false, same)
		b.foster = false
		return
	case modeColgroup:
		// Leading whitespace stays in the <colgroup>; the rest closes it.
		i := 0
		for i < len(s) && isSpaceByte(s[i]) {
			i++
		}
		if i > 0 {
			b.insertText(s[:i], false, nil)
			if i == len(s) {
				return
			}
			s = s[i:]
			if same != nil {
				same = same[i:]
			}
		}
		if cur := b.current(); cur.ns == "" && cur.atom == atom.Colgroup {
			b.pop()
			b.textToken(s, same)
		}
		return
	case modeSelect:
		b.insertText(s, false, same)
		return
	}
	if !b.started {
		if isAllSpace(bytes.ReplaceAll(s, []byte{0}, nil)) {
			// Whitespace before any content sits in <head> or between
			// <head> and <body> in the standard's tree: not content.
			return
		}
		b.started = true
	}
	b.reconstruct()
	b.insertText(s, false, same)
}

func isAllSpace(s []byte) bool {
	for _, c := range s {
		if !isSpaceByte(c) {
			return false
		}
	}
	return true
}

// insertText appends text at the insertion place; a NUL is dropped in
// HTML content and replaced in foreign content, as the standard does.
func (b *builder) insertText(s []byte, foreign bool, same []byte) {
	parent, before := b.insertionPlace(nil)
	if parent == nil {
		return
	}
	if parent != b.textParent || before != b.textBefore {
		b.flushText()
		b.textParent, b.textBefore = parent, before
	}
	if len(same) > 0 && len(b.text) == 0 && b.textStr == "" {
		b.textStr = unsafe.String(&same[0], len(same))
		return
	}
	if b.textStr != "" {
		b.text = append(b.text, b.textStr...)
		b.textStr = ""
	}
	for {
		i := bytes.IndexByte(s, 0)
		if i < 0 {
			break
		}
		b.text = append(b.text, s[:i]...)
		if foreign {
			b.text = append(b.text, "\uFFFD"...)
		}
		s = s[i+1:]
	}
	b.text = append(b.text, s...)
}

// flushText makes a node of the gathered text, merged into a text node
// that already ends the place.
func (b *builder) flushText() {
	data := b.textStr
	if data == "" {
		if len(b.text) == 0 {
			b.textParent, b.textBefore = nil, nil
			return
		}
		data = string(b.text)
	}
	parent, before := b.textParent, b.textBefore
	var prev *html.Node
	if before != nil {
		prev = before.PrevSibling
	} else {
		prev = parent.LastChild
	}
	if prev != nil && prev.Type == html.TextNode {
		prev.Data += data
	} else {
		n := b.newNode()
		n.Type, n.Data = html.TextNode, data
		if before != nil {
			parent.InsertBefore(n, before)
		} else {
			parent.AppendChild(n)
		}
	}
	b.text, b.textStr = b.text[:0], ""
	b.textParent, b.textBefore = nil, nil
}

// newNode returns an empty node, one the converter is done with if any.
func (b *builder) newNode() *html.Node {
	if b.out != nil {
		if f := b.out.free; len(f) > 0 {
			n := f[len(f)-1]
			b.out.free = f[:len(f)-1]
			*n = html.Node{}
			return n
		}
	}
	return &html.Node{}
}

// insertionPlace is the appropriate place for inserting a node: in target
// (the current node when nil), or before the last table when foster
// parenting applies. A nil parent means inside a pruned subtree.
func (b *builder) insertionPlace(target *elem) (parent, before *html.Node) {
	if target == nil {
		target = b.current()
	}
	if b.foster && isTableish(target.atom) && target.ns == "" {
		for i := len(b.stack) - 1; i >= 0; i-- {
			e := b.stack[i]
			if e.atom == atom.Template && e.ns == "" {
				return e.node, nil
			}
			if e.atom == atom.Table && e.ns == "" {
				if e.node != nil && e.node.Parent != nil {
					return e.node.Parent, e.node
				}
				return b.stack[i-1].node, nil
			}
		}
	}
	return target.node, nil
}

// isTableish: the nodes under which text and elements are foster parented.
func isTableish(a atom.Atom) bool {
	switch a {
	case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
		return true
	}
	return false
}

// insertElement creates an element for the current token at the
// insertion place and opens it.
func (b *builder) insertElement(ns string) *elem {
	t := &b.tok
	e := b.newElem()
	e.atom, e.name, e.ns, e.flagged, e.chrome = t.atom, t.name, ns, t.flagged, t.flagged
	if len(t.attrs) > 0 {
		e.attrs = append([]html.Attribute(nil), t.attrs...)
	}
	prune := b.pruned(t, ns)
	e.hidden = t.drop
	if t.drop && !prune {
		e.attrs, e.flagged, e.chrome = hiddenAttrs, false, false
	}
	if b.current().pre != nil {
		e.skip = removedByName(t, true)
		b.insert(e, prune)
	} else {
		b.insert(e, prune)
		if e.node != nil && b.out != nil && ns == "" && (e.atom == atom.Pre || e.atom == atom.Listing) && !b.tableOpen() {
			e.pre = &preText{elem: e}
		}
	}
	if t.landmark || ns == "" && (t.atom == atom.Main || t.atom == atom.Article || t.atom == atom.H1) {
		for _, o := range b.stack {
			o.landmark = true
		}
		if b.out != nil {
			b.promote()
		}
	}
	return e
}

// pruned reports an element the converter removes with all it holds and
// the standard never moves content out of: no node is made for it.
func (b *builder) pruned(t *tag, ns string) bool {
	if ns == "svg" {
		return true
	}
	if ns != "" {
		return false
	}
	if removedByName(t, b.inMain()) {
		return isSpecial(t.atom) || t.atom == atom.Svg
	}
	return t.drop && isSpecial(t.atom)
}

// removedByName: the elements droppedNode removes whatever their
// attributes.
func removedByName(t *tag, inMain bool) bool {
	if removedElement(t.atom) {
		return true
	}
	switch t.atom {
	case atom.Input:
		return !t.checkbox
	case atom.Footer:
		return !inMain
	}
	return false
}

func (b *builder) inMain() bool {
	for i := len(b.stack) - 1; i >= 2; i-- {
		if e := b.stack[i]; e.ns == "" && (e.atom == atom.Main || e.atom == atom.Article) {
			return true
		}
	}
	return false
}

// insertVoid inserts an element that is never open.
func (b *builder) insertVoid(ns string) {
	b.insertElement(ns)
	b.pop()
}

// pop closes the current element.
func (b *builder) pop() {
	if len(b.stack) <= 2 {
		return
	}
	e := b.stack[len(b.stack)-1]
	b.stack = b.stack[:len(b.stack)-1]
	b.closed(e)
	if b.out != nil && !e.streamed && e != b.form && b.afeIndex(e) < 0 {
		// Nothing refers to e any more: the next element reuses it.
		b.freeElems = append(b.freeElems, e)
	}
}

// newElem returns an empty element record.
func (b *builder) newElem() *elem {
	if n := len(b.freeElems); n > 0 {
		e := b.freeElems[n-1]
		b.freeElems = b.freeElems[:n-1]
		*e = elem{}
		return e
	}
	return &elem{}
}

// closed is called for every element leaving the open elements. A
// flagged element is decided now its content is known: unlinked unless
// it holds a landmark. When converting while parsing, a complete child of
// the innermost open container is written and freed.
func (b *builder) closed(e *elem) {
	if e.pre != nil {
		if e.pre.elem != e {
			e.pre.closeInner(e)
			return
		}
		b.flushText()
		e.pre.finish(b)
	}
	if e.flagged && e.node != nil {
		e.flagged = false
		if !e.landmark {
			b.flushText()
			detach(e.node)
			return
		}
	}
	if b.out == nil || e.node == nil || b.discard {
		return
	}
	if e.streamed {
		b.endStream(e)
		return
	}
	if n := len(b.streams); n > 0 && e.node.Parent == b.streams[n-1].node {
		b.drain(b.streams[n-1], false)
	}
}

// finish closes what the page left open, at its end.
func (b *builder) finish() {
	b.flushText()
	for len(b.stack) > 0 {
		e := b.stack[len(b.stack)-1]
		b.stack = b.stack[:len(b.stack)-1]
		b.closed(e)
	}
}

// stream makes the builder convert with c while it parses. A page has
// one or a few wrappers around all its content: a tree of the whole page
// would be built before anything could be written, and the parse tree of
// a page is several times its size. Containers that write the same way
// whatever they hold (streamable) are entered when they open, and each of
// their children is written and unlinked as soon as it is complete. What
// must be seen whole (a table, a flagged <div>) is still built first.
func (b *builder) stream(c *conv) {
	b.out = c
	c.w.expect = func(written int) int {
		if b.pos == 0 {
			return 0
		}
		// A tenth more than the pace so far, and never past the page.
		est := int(int64(written) * int64(len(b.page)) / int64(b.pos))
		return min(est+est/10, max(len(b.page), written))
	}
	b.htmlEl.streamed, b.body.streamed = true, true
	b.streams = []*elem{b.htmlEl, b.body}
}

// promote enters the open elements that can now be converted while open:
// going up from the innermost streamed container, each streamable element
// directly inside the one before. An element flagged by its class or id
// (a "wy-grid-for-nav" wrapper) qualifies once a landmark opened inside
// it, which decides that it is kept.
func (b *builder) promote() {
	n := len(b.streams)
	if n == 0 || b.discard {
		return
	}
	top := b.streams[n-1]
	i := len(b.stack) - 1
	for i >= 0 && b.stack[i] != top {
		i--
	}
	for i++; i < len(b.stack); i++ {
		e := b.stack[i]
		if e.node == nil || e.ns != "" || e.pre != nil || e.node.Parent != top.node ||
			e.flagged && !e.landmark || b.out.dropped(e.node) {
			return
		}
		if e.atom == atom.Li {
			if !isList(top.atom) || top.ns != "" || !b.out.streamsItem() {
				return
			}
		} else if !streamable(e.node) {
			return
		}
		b.drain(top, false)
		e.flagged = false
		e.streamed = true
		b.streams = append(b.streams, e)
		b.out.openContainer(e.node)
		top = e
	}
}

// drain writes and unlinks the complete children at the start of top: up
// to the first open one. A text node that may still grow (the last one,
// or one just before an open table, where foster parenting appends) waits
// unless top is closing.
func (b *builder) drain(top *elem, closing bool) {
	b.flushText()
	p := top.node
	for ch := p.FirstChild; ch != nil; ch = p.FirstChild {
		switch ch.Type {
		case html.TextNode:
			if next := ch.NextSibling; !closing && (next == nil || next.DataAtom == atom.Table && b.isOpen(next, top)) {
				return
			}
		case html.ElementNode:
			if b.holdsOpen(ch, top) {
				return
			}
		}
		b.out.streamChild(p, ch)
		p.RemoveChild(ch)
		b.out.recycleTree(ch)
	}
}

// holdsOpen reports whether n, a child of the streamed container top, is
// open or holds an open element (a </form> closes a form around an open
// paragraph).
func (b *builder) holdsOpen(n *html.Node, top *elem) bool {
	for i := len(b.stack) - 1; i >= 0; i-- {
		e := b.stack[i]
		if e == top {
			return false
		}
		for x := e.node; x != nil && x != top.node; x = x.Parent {
			if x == n {
				return true
			}
		}
	}
	return false
}

// isOpen reports whether n, a child of the streamed container top, is
// the node of an open element.
func (b *builder) isOpen(n *html.Node, top *elem) bool {
	for i := len(b.stack) - 1; i >= 0; i-- {
		e := b.stack[i]
		if e == top {
			return false
		}
		if e.node == n {
			return true
		}
	}
	return false
}

// endStream finishes a streamed container: its last children, then what
// is written after them.
func (b *builder) endStream(e *elem) {
	b.flushText()
	b.drain(e, true)
	b.out.closeContainer(e.node)
	for i := len(b.streams) - 1; i >= 0; i-- {
		if b.streams[i] == e {
			b.streams = b.streams[:i]
			break
		}
	}
	detach(e.node)
}

// popUntil pops up to and including the last open element named a.
func (b *builder) popUntil(as ...atom.Atom) {
	for len(b.stack) > 2 {
		e := b.current()
		b.pop()
		if e.ns == "" && in(e.atom, as) {
			return
		}
	}
}

// popUntilElem pops up to and including e.
func (b *builder) popUntilElem(e *elem) {
	for len(b.stack) > 2 {
		top := b.current()
		b.pop()
		if top == e {
			return
		}
	}
}

// removeFromStack takes e out of the open elements wherever it is.
func (b *builder) removeFromStack(e *elem) {
	for i := len(b.stack) - 1; i >= 0; i-- {
		if b.stack[i] == e {
			b.stack = append(b.stack[:i], b.stack[i+1:]...)
			b.closed(e)
			return
		}
	}
}

func in(a atom.Atom, as []atom.Atom) bool {
	for _, x := range as {
		if a == x {
			return true
		}
	}
	return false
}

func (b *builder) indexInStack(e *elem) int {
	for i := len(b.stack) - 1; i >= 0; i-- {
		if b.stack[i] == e {
			return i
		}
	}
	return -1
}

// quirksDoctype reads a doctype's text ("html PUBLIC "…" "…"") and
// reports the quirks mode, in which a <table> does not close an open <p>.
// Limited quirks behaves as no quirks for everything this builder does.
// The rules are the HTML standard's (x/net/html differs on two points:
// it takes <!DOCTYPE HTML> and a public identifier without a system one
// for quirks).
func quirksDoctype(s string) bool {
	s = strings.TrimLeft(s, " \t\n\f\r")
	end := strings.IndexAny(s, " \t\n\f\r")
	if end < 0 {
		end = len(s)
	}
	if !strings.EqualFold(s[:end], "html") {
		return true
	}
	rest := strings.TrimLeft(s[end:], " \t\n\f\r")
	var public, system string
	hasPublic, hasSystem := false, false
	switch {
	case rest == "":
	case len(rest) >= 6 && strings.EqualFold(rest[:6], "public"):
		var ok, closed bool
		public, ok, closed, rest = quotedRest(rest[6:])
		if !ok || !closed {
			return true // no identifier, or one cut short: force-quirks
		}
		hasPublic = true
		if strings.TrimSpace(rest) != "" {
			if system, hasSystem, closed, _ = quotedRest(rest); !hasSystem || !closed {
				return true
			}
		}
	case len(rest) >= 6 && strings.EqualFold(rest[:6], "system"):
		var closed bool
		if system, hasSystem, closed, _ = quotedRest(rest[6:]); !hasSystem || !closed {
			return true
		}
	default:
		return true // anything else after the name: a bogus doctype
	}
	if hasSystem && strings.EqualFold(system, "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd") {
		return true
	}
	if !hasPublic {
		return false
	}
	p := strings.ToLower(public)
	switch p {
	case "-//w3o//dtd w3 html strict 3.0//en//", "-/w3c/dtd html 4.0 transitional/en", "html":
		return true
	}
	for _, q := range quirkyPublicIDs {
		if strings.HasPrefix(p, q) {
			return true
		}
	}
	if !hasSystem && (strings.HasPrefix(p, "-//w3c//dtd html 4.01 frameset//") || strings.HasPrefix(p, "-//w3c//dtd html 4.01 transitional//")) {
		return true
	}
	return false
}

// quirkyPublicIDs: the public identifier prefixes of the HTML standard
// that set the quirks mode.
var quirkyPublicIDs = []string{
	"+//silmaril//dtd html pro v0r11 19970101//",
	"-//as//dtd html 3.0 aswedit + extensions//",
	"-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
	"-//ietf//dtd html 2.0 level 1//",
	"-//ietf//dtd html 2.0 level 2//",
	"-//ietf//dtd html 2.0 strict level 1//",
	"-//ietf//dtd html 2.0 strict level 2//",
	"-//ietf//dtd html 2.0 strict//",
	"-//ietf//dtd html 2.0//",
	"-//ietf//dtd html 2.1e//",
	"-//ietf//dtd html 3.0//",
	"-//ietf//dtd html 3.2 final//",
	"-//ietf//dtd html 3.2//",
	"-//ietf//dtd html 3//",
	"-//ietf//dtd html level 0//",
	"-//ietf//dtd html level 1//",
	"-//ietf//dtd html level 2//",
	"-//ietf//dtd html level 3//",
	"-//ietf//dtd html strict level 0//",
	"-//ietf//dtd html strict level 1//",
	"-//ietf//dtd html strict level 2//",
	"-//ietf//dtd html strict level 3//",
	"-//ietf//dtd html strict//",
	"-//ietf//dtd html//",
	"-//metrius//dtd metrius presentational//",
	"-//microsoft//dtd internet explorer 2.0 html strict//",
	"-//microsoft//dtd internet explorer 2.0 html//",
	"-//microsoft//dtd internet explorer 2.0 tables//",
	"-//microsoft//dtd internet explorer 3.0 html strict//",
	"-//microsoft//dtd internet explorer 3.0 html//",
	"-//microsoft//dtd internet explorer 3.0 tables//",
	"-//netscape comm. corp.//dtd html//",
	"-//netscape comm. corp.//dtd strict html//",
	"-//o'reilly and associates//dtd html 2.0//",
	"-//o'reilly and associates//dtd html extended 1.0//",
	"-//o'reilly and associates//dtd html extended relaxed 1.0//",
	"-//sq//dtd html 2.0 hotmetal + extensions//",
	"-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
	"-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
	"-//spyglass//dtd html 2.0 extended//",
	"-//sun microsystems corp.//dtd hotjava html//",
	"-//sun microsystems corp.//dtd hotjava strict html//",
	"-//w3c//dtd html 3 1995-03-24//",
	"-//w3c//dtd html 3.2 draft//",
	"-//w3c//dtd html 3.2 final//",
	"-//w3c//dtd html 3.2//",
	"-//w3c//dtd html 3.2s draft//",
	"-//w3c//dtd html 4.0 frameset//",
	"-//w3c//dtd html 4.0 transitional//",
	"-//w3c//dtd html experimental 19960712//",
	"-//w3c//dtd html experimental 970421//",
	"-//w3c//dtd w3 html//",
	"-//w3o//dtd w3 html 3.0//",
	"-//webtechs//dtd mozilla html 2.0//",
	"-//webtechs//dtd mozilla html//",
}

// quotedRest reads a quoted identifier: its value, whether there was
// one, whether its closing quote was there, and what follows.
func quotedRest(s string) (val string, ok, closed bool, rest string) {
	s = strings.TrimLeft(s, " \t\n\f\r")
	if s == "" || (s[0] != '"' && s[0] != '\'') {
		return "", false, false, s
	}
	q := s[0]
	end := strings.IndexByte(s[1:], q)
	if end < 0 {
		return s[1:], true, false, ""
	}
	return s[1 : 1+end], true, true, s[end+2:]
}

// tableOpen reports an open table: a code block in a table stays a tree,
// which the HTML form of a complex table writes out.
func (b *builder) tableOpen() bool {
	for _, e := range b.stack {
		if e.atom == atom.Table && e.ns == "" {
			return true
		}
	}
	return false
}

// insertInPre opens e inside a code block gathered as text: no node, the
// rules of appendPreText applied as it comes.
func (b *builder) insertInPre(e *elem, cur *elem) {
	p := cur.pre
	e.pre, e.node = p, nil
	e.textStart = len(p.buf)
	e.skip = e.skip || cur.skip || e.hidden || classIsGutter(e.attrs)
	if !e.skip && cur == p.elem && e.atom == atom.Code && e.ns == "" && p.lang == "" {
		p.lang = langOf(&html.Node{Type: html.ElementNode, Attr: e.attrs})
	}
	if !e.skip && e.atom == atom.Br && e.ns == "" {
		p.buf = append(p.buf, '\n')
	}
	b.started = true
	b.stack = append(b.stack, e)
}

func classIsGutter(attrs []html.Attribute) bool {
	return isGutter(&html.Node{Type: html.ElementNode, Attr: attrs})
}

func (p *preText) appendText(s []byte) {
	if cap(p.buf)-len(p.buf) < len(s) {
		// Doubling: append grows a large buffer a quarter at a time.
		b := make([]byte, len(p.buf), max(2*cap(p.buf), len(p.buf)+len(s), 64))
		copy(b, p.buf)
		p.buf = b
	}
	for {
		i := bytes.IndexByte(s, 0)
		if i < 0 {
			break
		}
		p.buf = append(p.buf, s[:i]...)
		s = s[i+1:]
	}
	p.buf = append(p.buf, s...)
}

// closeInner ends an element inside the block: a flagged one takes its
// text back out, a block one ends its line.
func (p *preText) closeInner(e *elem) {
	switch {
	case e.skip:
	case e.flagged && !e.landmark:
		p.buf = p.buf[:e.textStart]
	case e.ns == "" && isBlock(e.atom) && len(p.buf) > 0 && p.buf[len(p.buf)-1] != '\n':
		p.buf = append(p.buf, '\n')
	}
}

// finish gives the block its text, as one text node, and the language of
// a <code> inside as data-lang when the block has none of its own.
func (p *preText) finish(b *builder) {
	e := p.elem
	e.pre = nil
	if len(p.buf) > 0 {
		t := b.newNode()
		t.Type, t.Data = html.TextNode, unsafe.String(&p.buf[0], len(p.buf))
		e.node.AppendChild(t)
	}
	if p.lang != "" && langOf(e.node) == "" {
		attrs := make([]html.Attribute, 0, len(e.node.Attr)+1)
		attrs = append(attrs, e.node.Attr...)
		e.node.Attr = append(attrs, html.Attribute{Key: "data-lang", Val: p.lang})
	}
}
