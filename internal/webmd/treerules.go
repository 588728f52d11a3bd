package webmd

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// The insertion modes of the HTML standard this builder tells apart. The
// mode is read from the open elements each time (the standard's "reset
// the insertion mode"), since the head and after-body modes come to the
// same tree for the converter.
type insertionMode int

const (
	modeBody insertionMode = iota
	modeTable
	modeTableBody
	modeRow
	modeCell
	modeCaption
	modeColgroup
	modeSelect
)

func (b *builder) mode() insertionMode {
	for i := len(b.stack) - 1; i >= 2; i-- {
		e := b.stack[i]
		if e.ns != "" {
			continue
		}
		switch e.atom {
		case atom.Select:
			return modeSelect
		case atom.Td, atom.Th:
			return modeCell
		case atom.Tr:
			return modeRow
		case atom.Tbody, atom.Thead, atom.Tfoot:
			return modeTableBody
		case atom.Caption:
			return modeCaption
		case atom.Colgroup:
			return modeColgroup
		case atom.Table:
			return modeTable
		case atom.Template:
			return modeBody
		}
	}
	return modeBody
}

// inForeign reports whether the token goes to the rules for foreign
// content (inside <svg> or <math>, away from their integration points).
func (b *builder) inForeign(startTag bool) bool {
	cur := b.current()
	if cur.ns == "" {
		return false
	}
	if cur.ns == "math" {
		switch cur.name {
		case "mi", "mo", "mn", "ms", "mtext":
			if !startTag || (b.tok.name != "mglyph" && b.tok.name != "malignmark") {
				return false
			}
		case "annotation-xml":
			if startTag && b.tok.atom == atom.Svg {
				return false
			}
		}
	}
	if b.htmlIntegrationPoint(cur) {
		return false
	}
	return true
}

func (b *builder) htmlIntegrationPoint(e *elem) bool {
	switch e.ns {
	case "svg":
		switch strings.ToLower(e.name) {
		case "foreignobject", "desc", "title":
			return true
		}
	case "math":
		return e.name == "annotation-xml" && e.htmlEncoding
	}
	return false
}

func (b *builder) dispatchStart() {
	if b.inForeign(true) {
		b.startForeign()
		return
	}
	b.startHTML()
}

func (b *builder) dispatchEnd() {
	if b.current().ns != "" {
		b.endForeign()
		return
	}
	b.endHTML()
}

func (b *builder) startHTML() {
	switch b.mode() {
	case modeTable:
		b.startInTable()
	case modeTableBody:
		b.startInTableBody()
	case modeRow:
		b.startInRow()
	case modeCell:
		b.startInCell()
	case modeCaption:
		b.startInCaption()
	case modeColgroup:
		b.startInColgroup()
	case modeSelect:
		b.startInSelect()
	default:
		b.startInBody()
	}
}

func (b *builder) endHTML() {
	switch b.mode() {
	case modeTable:
		b.endInTable()
	case modeTableBody:
		b.endInTableBody()
	case modeRow:
		b.endInRow()
	case modeCell:
		b.endInCell()
	case modeCaption:
		b.endInCaption()
	case modeColgroup:
		b.endInColgroup()
	case modeSelect:
		b.endInSelect()
	default:
		b.endInBody()
	}
}

// closesP: the start tags that close an open <p> first.
func closesP(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Article, atom.Aside, atom.Blockquote, atom.Center,
		atom.Details, atom.Dialog, atom.Dir, atom.Div, atom.Dl, atom.Fieldset,
		atom.Figcaption, atom.Figure, atom.Footer, atom.Header, atom.Hgroup,
		atom.Main, atom.Menu, atom.Nav, atom.Ol, atom.P, atom.Search,
		atom.Section, atom.Summary, atom.Ul:
		return true
	}
	return false
}

func isFormatting(a atom.Atom) bool {
	switch a {
	case atom.A, atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I,
		atom.Nobr, atom.S, atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
		return true
	}
	return false
}

func isHeading(a atom.Atom) bool {
	switch a {
	case atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6:
		return true
	}
	return false
}

var headings = []atom.Atom{atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6}

func (b *builder) startInBody() {
	t := &b.tok
	switch a := t.atom; {
	case a == atom.Html:
		b.mergeAttrs(b.htmlEl)
	case a == atom.Body:
		b.mergeAttrs(b.body)
	case a == atom.Frameset:
		if !b.started {
			// A frameset page has no body: nothing of it is content.
			b.body.node.Attr = hiddenAttrs
			b.discard = b.out != nil
		}
	case a == atom.Base, a == atom.Basefont, a == atom.Bgsound, a == atom.Link, a == atom.Meta:
		b.insertVoid("")
	case a == atom.Noframes, a == atom.Script, a == atom.Style, a == atom.Title,
		a == atom.Noembed, a == atom.Noscript, a == atom.Iframe:
		b.insertElement("")
	case a == atom.Template:
		b.insertElement("")
		b.afe = append(b.afe, nil)
	case closesP(a):
		b.closePInButtonScope()
		b.insertElement("")
	case isHeading(a):
		b.closePInButtonScope()
		if cur := b.current(); cur.ns == "" && isHeading(cur.atom) {
			b.pop()
		}
		b.insertElement("")
	case a == atom.Pre, a == atom.Listing:
		b.closePInButtonScope()
		b.insertElement("")
		b.skipNewline = true
	case a == atom.Form:
		if b.form != nil && !b.openTemplate() {
			return
		}
		b.closePInButtonScope()
		e := b.insertElement("")
		if !b.openTemplate() {
			b.form = e
		}
	case a == atom.Li, a == atom.Dd, a == atom.Dt:
		for i := len(b.stack) - 1; i >= 2; i-- {
			e := b.stack[i]
			if e.ns == "" && (e.atom == a || a != atom.Li && (e.atom == atom.Dd || e.atom == atom.Dt)) {
				b.generateImpliedEndTags(e.atom)
				b.popUntil(e.atom)
				break
			}
			if b.isSpecialElem(e) && e.atom != atom.Address && e.atom != atom.Div && e.atom != atom.P {
				break
			}
		}
		b.closePInButtonScope()
		b.insertElement("")
	case a == atom.Plaintext:
		b.closePInButtonScope()
		b.insertElement("")
	case a == atom.Button:
		if b.inScope(scopeDefault, atom.Button) {
			b.generateImpliedEndTags(0)
			b.popUntil(atom.Button)
		}
		b.reconstruct()
		b.insertElement("")
	case a == atom.A:
		for i := len(b.afe) - 1; i >= 0 && b.afe[i] != nil; i-- {
			if f := b.afe[i]; f.atom == atom.A && f.ns == "" {
				b.adoptionAgency(atom.A, "a")
				b.removeFromAFE(f)
				b.removeFromStack(f)
				break
			}
		}
		b.reconstruct()
		b.pushFormatting(b.insertElement(""))
	case a == atom.Nobr:
		b.reconstruct()
		if b.inScope(scopeDefault, atom.Nobr) {
			b.adoptionAgency(atom.Nobr, "nobr")
			b.reconstruct()
		}
		b.pushFormatting(b.insertElement(""))
	case isFormatting(a):
		b.reconstruct()
		b.pushFormatting(b.insertElement(""))
	case a == atom.Applet, a == atom.Marquee, a == atom.Object:
		b.reconstruct()
		b.insertElement("")
		b.afe = append(b.afe, nil)
	case a == atom.Table:
		if !b.quirks {
			b.closePInButtonScope()
		}
		b.insertElement("")
	case a == atom.Area, a == atom.Br, a == atom.Embed, a == atom.Img, a == atom.Keygen,
		a == atom.Wbr, a == atom.Input:
		b.reconstruct()
		b.insertVoid("")
	case a == atom.Param, a == atom.Source, a == atom.Track:
		b.insertVoid("")
	case a == atom.Hr:
		b.closePInButtonScope()
		b.insertVoid("")
	case a == atom.Textarea:
		b.insertElement("")
		b.skipNewline = true
	case a == atom.Xmp:
		b.closePInButtonScope()
		b.reconstruct()
		b.insertElement("")
	case a == atom.Select:
		b.reconstruct()
		b.insertElement("")
	case a == atom.Optgroup, a == atom.Option:
		if cur := b.current(); cur.ns == "" && cur.atom == atom.Option {
			b.pop()
		}
		b.reconstruct()
		b.insertElement("")
	case a == atom.Rb, a == atom.Rtc:
		if b.inScope(scopeDefault, atom.Ruby) {
			b.generateImpliedEndTags(0)
		}
		b.insertElement("")
	case a == atom.Rp, a == atom.Rt:
		if b.inScope(scopeDefault, atom.Ruby) {
			b.generateImpliedEndTags(atom.Rtc)
		}
		b.insertElement("")
	case a == atom.Math, a == atom.Svg:
		b.reconstruct()
		b.insertForeign(t.name)
	case a == atom.Caption, a == atom.Col, a == atom.Colgroup, a == atom.Frame,
		a == atom.Head, a == atom.Tbody, a == atom.Td, a == atom.Tfoot, a == atom.Th,
		a == atom.Thead, a == atom.Tr:
		// Parse errors: ignored.
	default:
		b.reconstruct()
		b.insertElement("")
	}
}

// insertForeign inserts an element of the namespace ns, closed at once
// when written self-closing.
func (b *builder) insertForeign(ns string) {
	e := b.insertElement(ns)
	e.htmlEncoding = b.tok.hasKeys&keyEncodingHTML != 0
	if b.tok.selfClosing {
		b.pop()
	}
}

// mergeAttrs applies a second <html> or <body> tag: the standard adds its
// attributes to the element, so a hiding one hides the page.
func (b *builder) mergeAttrs(e *elem) {
	if b.tok.drop {
		e.node.Attr = hiddenAttrs
		b.discard = b.out != nil
	}
}

func (b *builder) openTemplate() bool {
	for _, e := range b.stack {
		if e.ns == "" && e.atom == atom.Template {
			return true
		}
	}
	return false
}

func (b *builder) endInBody() {
	t := &b.tok
	switch a := t.atom; {
	case a == atom.Body, a == atom.Html:
		// The standard moves to "after body", where content goes back
		// into the body: nothing to do.
	case closesP(a) && a != atom.P, a == atom.Button, a == atom.Listing, a == atom.Pre:
		if !b.inScope(scopeDefault, a) {
			return
		}
		b.generateImpliedEndTags(0)
		b.popUntil(a)
	case a == atom.Form:
		if b.openTemplate() {
			if b.inScope(scopeDefault, atom.Form) {
				b.generateImpliedEndTags(0)
				b.popUntil(atom.Form)
			}
			return
		}
		f := b.form
		b.form = nil
		if f == nil || !b.elemInScope(f) {
			return
		}
		b.generateImpliedEndTags(0)
		b.removeFromStack(f)
	case a == atom.P:
		if !b.inScope(scopeButton, atom.P) {
			// </p> with no open <p>: an empty paragraph.
			b.insert(&elem{atom: atom.P, name: "p"}, false)
		}
		b.closeP()
	case a == atom.Li:
		if b.inScope(scopeListItem, atom.Li) {
			b.generateImpliedEndTags(atom.Li)
			b.popUntil(atom.Li)
		}
	case a == atom.Dd, a == atom.Dt:
		if b.inScope(scopeDefault, a) {
			b.generateImpliedEndTags(a)
			b.popUntil(a)
		}
	case isHeading(a):
		if b.inScope(scopeDefault, headings...) {
			b.generateImpliedEndTags(0)
			b.popUntil(headings...)
		}
	case isFormatting(a):
		if !b.adoptionAgency(a, t.name) {
			b.anyOtherEnd()
		}
	case a == atom.Applet, a == atom.Marquee, a == atom.Object:
		if b.inScope(scopeDefault, a) {
			b.generateImpliedEndTags(0)
			b.popUntil(a)
			b.clearAFEToMarker()
		}
	case a == atom.Br:
		// </br> is a <br>.
		b.tok.attrs, b.tok.drop, b.tok.flagged = nil, false, false
		b.reconstruct()
		b.insertVoid("")
	case a == atom.Template:
		if b.openTemplate() {
			b.generateImpliedEndTags(0)
			b.popUntil(atom.Template)
			b.clearAFEToMarker()
		}
	default:
		b.anyOtherEnd()
	}
}

// anyOtherEnd closes the open element of that name, unless a special
// element comes first.
func (b *builder) anyOtherEnd() {
	t := &b.tok
	for i := len(b.stack) - 1; i >= 2; i-- {
		e := b.stack[i]
		if e.ns == "" && e.name == t.name {
			b.generateImpliedEndTagsNamed(t.name)
			b.popUntilElem(e)
			return
		}
		if b.isSpecialElem(e) {
			return
		}
	}
}

// Table rules.

func (b *builder) startInTable() {
	t := &b.tok
	switch t.atom {
	case atom.Caption:
		b.clearToContext(atom.Table)
		b.afe = append(b.afe, nil)
		b.insertElement("")
	case atom.Colgroup:
		b.clearToContext(atom.Table)
		b.insertElement("")
	case atom.Col:
		b.clearToContext(atom.Table)
		b.insert(&elem{atom: atom.Colgroup, name: "colgroup"}, false)
		b.startHTML()
	case atom.Tbody, atom.Tfoot, atom.Thead:
		b.clearToContext(atom.Table)
		b.insertElement("")
	case atom.Td, atom.Th, atom.Tr:
		b.clearToContext(atom.Table)
		b.insert(&elem{atom: atom.Tbody, name: "tbody"}, false)
		b.startHTML()
	case atom.Table:
		if !b.inScope(scopeTable, atom.Table) {
			return
		}
		b.popUntil(atom.Table)
		b.startHTML()
	case atom.Style, atom.Script, atom.Template:
		b.startInBody()
	case atom.Input:
		if t.hiddenInput {
			b.insertVoid("")
			return
		}
		b.fosterStart()
	case atom.Form:
		if b.openTemplate() || b.form != nil {
			return
		}
		b.form = b.insertElement("")
		b.pop()
	default:
		b.fosterStart()
	}
}

// fosterStart processes a start tag with the body's rules, with foster
// parenting: content misplaced in a table goes before it.
func (b *builder) fosterStart() {
	prev := b.foster
	b.foster = true
	b.startInBody()
	b.foster = prev
}

func (b *builder) endInTable() {
	switch b.tok.atom {
	case atom.Table:
		if b.inScope(scopeTable, atom.Table) {
			b.popUntil(atom.Table)
		}
	case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Tbody,
		atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
	case atom.Template:
		b.endInBody()
	default:
		prev := b.foster
		b.foster = true
		b.endInBody()
		b.foster = prev
	}
}

// clearToContext pops until the current node is one of as (or the
// template, html and body that end every context here).
func (b *builder) clearToContext(as ...atom.Atom) {
	for len(b.stack) > 2 {
		cur := b.current()
		if cur.ns == "" && (in(cur.atom, as) || cur.atom == atom.Template) {
			return
		}
		b.pop()
	}
}

func (b *builder) startInTableBody() {
	switch b.tok.atom {
	case atom.Tr:
		b.clearToContext(atom.Tbody, atom.Tfoot, atom.Thead)
		b.insertElement("")
	case atom.Th, atom.Td:
		b.clearToContext(atom.Tbody, atom.Tfoot, atom.Thead)
		b.insert(&elem{atom: atom.Tr, name: "tr"}, false)
		b.startHTML()
	case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead:
		if !b.inScope(scopeTable, atom.Tbody, atom.Thead, atom.Tfoot) {
			return
		}
		b.clearToContext(atom.Tbody, atom.Tfoot, atom.Thead)
		b.pop()
		b.startHTML()
	default:
		b.startInTable()
	}
}

func (b *builder) endInTableBody() {
	switch a := b.tok.atom; a {
	case atom.Tbody, atom.Tfoot, atom.Thead:
		if !b.inScope(scopeTable, a) {
			return
		}
		b.clearToContext(atom.Tbody, atom.Tfoot, atom.Thead)
		b.pop()
	case atom.Table:
		if !b.inScope(scopeTable, atom.Tbody, atom.Thead, atom.Tfoot) {
			return
		}
		b.clearToContext(atom.Tbody, atom.Tfoot, atom.Thead)
		b.pop()
		b.endHTML()
	case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th, atom.Tr:
	default:
		b.endInTable()
	}
}

func (b *builder) startInRow() {
	switch b.tok.atom {
	case atom.Th, atom.Td:
		b.clearToContext(atom.Tr)
		b.insertElement("")
		b.afe = append(b.afe, nil)
	case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
		if !b.inScope(scopeTable, atom.Tr) {
			return
		}
		b.clearToContext(atom.Tr)
		b.pop()
		b.startHTML()
	default:
		b.startInTable()
	}
}

func (b *builder) endInRow() {
	switch a := b.tok.atom; a {
	case atom.Tr:
		if !b.inScope(scopeTable, atom.Tr) {
			return
		}
		b.clearToContext(atom.Tr)
		b.pop()
	case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead:
		if a != atom.Table && !b.inScope(scopeTable, a) || !b.inScope(scopeTable, atom.Tr) {
			return
		}
		b.clearToContext(atom.Tr)
		b.pop()
		b.endHTML()
	case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html, atom.Td, atom.Th:
	default:
		b.endInTable()
	}
}

func (b *builder) startInCell() {
	switch b.tok.atom {
	case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
		if !b.inScope(scopeTable, atom.Td, atom.Th) {
			return
		}
		b.closeCell()
		b.startHTML()
	default:
		b.startInBody()
	}
}

func (b *builder) endInCell() {
	switch a := b.tok.atom; a {
	case atom.Td, atom.Th:
		if !b.inScope(scopeTable, a) {
			return
		}
		b.generateImpliedEndTags(0)
		b.popUntil(a)
		b.clearAFEToMarker()
	case atom.Body, atom.Caption, atom.Col, atom.Colgroup, atom.Html:
	case atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr:
		if !b.inScope(scopeTable, a) {
			return
		}
		b.closeCell()
		b.endHTML()
	default:
		b.endInBody()
	}
}

func (b *builder) closeCell() {
	b.generateImpliedEndTags(0)
	b.popUntil(atom.Td, atom.Th)
	b.clearAFEToMarker()
}

func (b *builder) startInCaption() {
	switch b.tok.atom {
	case atom.Caption, atom.Col, atom.Colgroup, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
		if !b.closeCaption() {
			return
		}
		b.startHTML()
	default:
		b.startInBody()
	}
}

func (b *builder) endInCaption() {
	switch b.tok.atom {
	case atom.Caption:
		b.closeCaption()
	case atom.Table:
		if b.closeCaption() {
			b.endHTML()
		}
	case atom.Body, atom.Col, atom.Colgroup, atom.Html, atom.Tbody, atom.Td, atom.Tfoot, atom.Th, atom.Thead, atom.Tr:
	default:
		b.endInBody()
	}
}

func (b *builder) closeCaption() bool {
	if !b.inScope(scopeTable, atom.Caption) {
		return false
	}
	b.generateImpliedEndTags(0)
	b.popUntil(atom.Caption)
	b.clearAFEToMarker()
	return true
}

func (b *builder) startInColgroup() {
	switch b.tok.atom {
	case atom.Col:
		b.insertVoid("")
	case atom.Html, atom.Template:
		b.startInBody()
	default:
		if cur := b.current(); cur.ns == "" && cur.atom == atom.Colgroup {
			b.pop()
			b.startHTML()
		}
	}
}

func (b *builder) endInColgroup() {
	cur := b.current()
	isColgroup := cur.ns == "" && cur.atom == atom.Colgroup
	switch b.tok.atom {
	case atom.Colgroup:
		if isColgroup {
			b.pop()
		}
	case atom.Col:
	case atom.Template:
		b.endInBody()
	default:
		if isColgroup {
			b.pop()
			b.endHTML()
		}
	}
}

// Select rules: a <select> is removed with its options, only its extent
// matters.

func (b *builder) startInSelect() {
	cur := b.current()
	switch a := b.tok.atom; a {
	case atom.Html:
		b.startInBody()
	case atom.Option, atom.Optgroup, atom.Hr:
		if cur.atom == atom.Option {
			b.pop()
		}
		if a != atom.Option && b.current().atom == atom.Optgroup {
			b.pop()
		}
		if a == atom.Hr {
			b.insertVoid("")
		} else {
			b.insertElement("")
		}
	case atom.Select:
		if b.inScope(scopeSelect, atom.Select) {
			b.popUntil(atom.Select)
		}
	case atom.Input, atom.Keygen, atom.Textarea:
		if !b.inScope(scopeSelect, atom.Select) {
			return
		}
		b.popUntil(atom.Select)
		b.startHTML()
	case atom.Script, atom.Template:
		b.startInBody()
	case atom.Caption, atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr, atom.Td, atom.Th:
		if b.selectInTable() {
			b.popUntil(atom.Select)
			b.startHTML()
		}
	}
}

func (b *builder) endInSelect() {
	cur := b.current()
	switch a := b.tok.atom; a {
	case atom.Optgroup:
		if cur.atom == atom.Option && len(b.stack) > 3 && b.stack[len(b.stack)-2].atom == atom.Optgroup {
			b.pop()
		}
		if b.current().atom == atom.Optgroup {
			b.pop()
		}
	case atom.Option:
		if cur.atom == atom.Option {
			b.pop()
		}
	case atom.Select:
		if b.inScope(scopeSelect, atom.Select) {
			b.popUntil(atom.Select)
		}
	case atom.Caption, atom.Table, atom.Tbody, atom.Tfoot, atom.Thead, atom.Tr, atom.Td, atom.Th:
		if b.selectInTable() && b.inScope(scopeTable, a) {
			b.popUntil(atom.Select)
			b.endHTML()
		}
	case atom.Template:
		b.endInBody()
	}
}

// selectInTable reports a <select> opened inside a table.
func (b *builder) selectInTable() bool {
	seen := false
	for i := len(b.stack) - 1; i >= 2; i-- {
		e := b.stack[i]
		if e.ns != "" {
			continue
		}
		switch {
		case e.atom == atom.Select:
			seen = true
		case !seen:
		case e.atom == atom.Template:
			return false
		case e.atom == atom.Table:
			return true
		}
	}
	return false
}

// Foreign content.

func (b *builder) startForeign() {
	t := &b.tok
	if breaksOutOfForeign(t) {
		b.popForeign()
		b.startHTML()
		return
	}
	b.insertForeign(b.current().ns)
}

// popForeign closes foreign elements up to HTML content.
func (b *builder) popForeign() {
	for len(b.stack) > 2 {
		cur := b.current()
		if cur.ns == "" || b.htmlIntegrationPoint(cur) || cur.ns == "math" && isMathTextPoint(cur.name) {
			return
		}
		b.pop()
	}
}

func isMathTextPoint(name string) bool {
	switch name {
	case "mi", "mo", "mn", "ms", "mtext":
		return true
	}
	return false
}

// breaksOutOfForeign: the HTML start tags that close open <svg> and
// <math> elements.
func breaksOutOfForeign(t *tag) bool {
	switch t.atom {
	case atom.B, atom.Big, atom.Blockquote, atom.Body, atom.Br, atom.Center,
		atom.Code, atom.Dd, atom.Div, atom.Dl, atom.Dt, atom.Em, atom.Embed,
		atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6, atom.Head, atom.Hr,
		atom.I, atom.Img, atom.Li, atom.Listing, atom.Menu, atom.Meta, atom.Nobr,
		atom.Ol, atom.P, atom.Pre, atom.Ruby, atom.S, atom.Small, atom.Span,
		atom.Strong, atom.Strike, atom.Sub, atom.Sup, atom.Table, atom.Tt, atom.U,
		atom.Ul, atom.Var:
		return true
	case atom.Font:
		return t.hasKeys&(keyColor|keyFace|keySize) != 0
	}
	return false
}

func (b *builder) endForeign() {
	t := &b.tok
	if t.atom == atom.P || t.atom == atom.Br {
		// </p> and </br> break out of foreign content like their start
		// tags.
		b.popForeign()
		b.endHTML()
		return
	}
	for i := len(b.stack) - 1; i >= 2; i-- {
		e := b.stack[i]
		if e.ns == "" {
			b.endHTML()
			return
		}
		if strings.EqualFold(e.name, t.name) {
			b.popUntilElem(e)
			return
		}
	}
}

// Scopes and implied end tags.

type scopeKind int

const (
	scopeDefault scopeKind = iota
	scopeListItem
	scopeButton
	scopeTable
	scopeSelect
)

// scopeBoundary reports an element that ends the search for an element
// "in scope".
func scopeBoundary(k scopeKind, e *elem) bool {
	switch k {
	case scopeTable:
		return e.ns == "" && (e.atom == atom.Html || e.atom == atom.Table || e.atom == atom.Template)
	case scopeSelect:
		return !(e.ns == "" && (e.atom == atom.Optgroup || e.atom == atom.Option))
	}
	switch e.ns {
	case "math":
		return e.name == "annotation-xml" || isMathTextPoint(e.name)
	case "svg":
		switch strings.ToLower(e.name) {
		case "foreignobject", "desc", "title":
			return true
		}
		return false
	}
	switch e.atom {
	case atom.Applet, atom.Caption, atom.Html, atom.Table, atom.Td, atom.Th,
		atom.Marquee, atom.Object, atom.Template:
		return true
	case atom.Ol, atom.Ul:
		return k == scopeListItem
	case atom.Button:
		return k == scopeButton
	}
	return false
}

// inScope reports an open element among as in the given scope.
func (b *builder) inScope(k scopeKind, as ...atom.Atom) bool {
	for i := len(b.stack) - 1; i >= 0; i-- {
		e := b.stack[i]
		if e.ns == "" && in(e.atom, as) {
			return true
		}
		if scopeBoundary(k, e) {
			return false
		}
	}
	return false
}

// elemInScope reports that x is open and in the default scope.
func (b *builder) elemInScope(x *elem) bool {
	for i := len(b.stack) - 1; i >= 0; i-- {
		e := b.stack[i]
		if e == x {
			return true
		}
		if scopeBoundary(scopeDefault, e) {
			return false
		}
	}
	return false
}

func impliedEnd(a atom.Atom) bool {
	switch a {
	case atom.Dd, atom.Dt, atom.Li, atom.Optgroup, atom.Option, atom.P,
		atom.Rb, atom.Rp, atom.Rt, atom.Rtc:
		return true
	}
	return false
}

// generateImpliedEndTags closes the elements whose end tag may be left
// out, but not except.
func (b *builder) generateImpliedEndTags(except atom.Atom) {
	for len(b.stack) > 2 {
		cur := b.current()
		if cur.ns != "" || !impliedEnd(cur.atom) || cur.atom == except {
			return
		}
		b.pop()
	}
}

func (b *builder) generateImpliedEndTagsNamed(name string) {
	for len(b.stack) > 2 {
		cur := b.current()
		if cur.ns != "" || !impliedEnd(cur.atom) || cur.name == name {
			return
		}
		b.pop()
	}
}

func (b *builder) closePInButtonScope() {
	if b.inScope(scopeButton, atom.P) {
		b.closeP()
	}
}

func (b *builder) closeP() {
	b.generateImpliedEndTags(atom.P)
	b.popUntil(atom.P)
}

// isSpecialElem: the standard's "special" category.
func (b *builder) isSpecialElem(e *elem) bool {
	switch e.ns {
	case "":
		return isSpecial(e.atom)
	case "math":
		return e.name == "annotation-xml" || isMathTextPoint(e.name)
	case "svg":
		switch strings.ToLower(e.name) {
		case "foreignobject", "desc", "title":
			return true
		}
	}
	return false
}

func isSpecial(a atom.Atom) bool {
	switch a {
	case atom.Address, atom.Applet, atom.Area, atom.Article, atom.Aside, atom.Base,
		atom.Basefont, atom.Bgsound, atom.Blockquote, atom.Body, atom.Br, atom.Button,
		atom.Caption, atom.Center, atom.Col, atom.Colgroup, atom.Dd, atom.Details,
		atom.Dir, atom.Div, atom.Dl, atom.Dt, atom.Embed, atom.Fieldset,
		atom.Figcaption, atom.Figure, atom.Footer, atom.Form, atom.Frame,
		atom.Frameset, atom.H1, atom.H2, atom.H3, atom.H4, atom.H5, atom.H6,
		atom.Head, atom.Header, atom.Hgroup, atom.Hr, atom.Html, atom.Iframe,
		atom.Img, atom.Input, atom.Keygen, atom.Li, atom.Link, atom.Listing,
		atom.Main, atom.Marquee, atom.Menu, atom.Meta, atom.Nav, atom.Noembed,
		atom.Noframes, atom.Noscript, atom.Object, atom.Ol, atom.P, atom.Param,
		atom.Plaintext, atom.Pre, atom.Script, atom.Search, atom.Section,
		atom.Select, atom.Source, atom.Style, atom.Summary, atom.Table,
		atom.Tbody, atom.Td, atom.Template, atom.Textarea, atom.Tfoot, atom.Th,
		atom.Thead, atom.Title, atom.Tr, atom.Track, atom.Ul, atom.Wbr, atom.Xmp:
		return true
	}
	return false
}

// The list of active formatting elements.

// pushFormatting adds e, keeping at most three equal entries after the
// last marker (the standard's "Noah's Ark" clause).
func (b *builder) pushFormatting(e *elem) {
	count, earliest := 0, -1
	for i := len(b.afe) - 1; i >= 0 && b.afe[i] != nil; i-- {
		if f := b.afe[i]; f.atom == e.atom && f.name == e.name && sameAttrs(f.attrs, e.attrs) {
			count++
			earliest = i
		}
	}
	if count >= 3 {
		b.afe = append(b.afe[:earliest], b.afe[earliest+1:]...)
	}
	b.afe = append(b.afe, e)
}

func sameAttrs(x, y []html.Attribute) bool {
	if len(x) != len(y) {
		return false
	}
	for i := range x {
		if x[i] != y[i] {
			return false
		}
	}
	return true
}

func (b *builder) afeIndex(e *elem) int {
	for i := len(b.afe) - 1; i >= 0; i-- {
		if b.afe[i] == e {
			return i
		}
	}
	return -1
}

func (b *builder) removeFromAFE(e *elem) {
	if i := b.afeIndex(e); i >= 0 {
		b.afe = append(b.afe[:i], b.afe[i+1:]...)
	}
}

func (b *builder) clearAFEToMarker() {
	for len(b.afe) > 0 {
		e := b.afe[len(b.afe)-1]
		b.afe = b.afe[:len(b.afe)-1]
		if e == nil {
			return
		}
	}
}

// reconstruct reopens the formatting elements a block closed early
// (<p><b>x</p><p>y: y is bold too).
func (b *builder) reconstruct() {
	n := len(b.afe)
	if n == 0 {
		return
	}
	if last := b.afe[n-1]; last == nil || b.indexInStack(last) >= 0 {
		return
	}
	i := n - 1
	for i > 0 {
		if f := b.afe[i-1]; f == nil || b.indexInStack(f) >= 0 {
			break
		}
		i--
	}
	for ; i < n; i++ {
		f := b.afe[i]
		clone := b.newElem()
		clone.atom, clone.name, clone.ns, clone.attrs = f.atom, f.name, f.ns, f.attrs
		clone.flagged, clone.chrome = f.chrome, f.chrome
		clone.hidden = f.hidden
		b.insert(clone, false)
		b.afe[i] = clone
	}
}

// insert puts e's node (made unless prune) at the insertion place and
// opens e.
func (b *builder) insert(e *elem, prune bool) {
	if cur := b.current(); cur.pre != nil {
		b.insertInPre(e, cur)
		return
	}
	parent, before := b.insertionPlace(nil)
	if parent != nil && !prune {
		e.node = b.newNode()
		*e.node = html.Node{Type: html.ElementNode, DataAtom: e.atom, Data: e.name, Namespace: e.ns, Attr: e.attrs}
		b.flushText()
		if before != nil {
			parent.InsertBefore(e.node, before)
		} else {
			parent.AppendChild(e.node)
		}
		b.started = true
	}
	b.stack = append(b.stack, e)
	if b.out != nil && e.node != nil && before == nil {
		b.promote()
	}
}

// adoptionAgency closes a formatting element the way the standard's
// adoption agency algorithm does, moving the blocks opened inside it out
// with a copy of the formatting around their content. It returns false
// when there is no such formatting element: the end tag is then an
// ordinary one.
func (b *builder) adoptionAgency(a atom.Atom, name string) bool {
	b.flushText()
	if cur := b.current(); cur.ns == "" && cur.name == name && b.afeIndex(cur) < 0 {
		b.pop()
		return true
	}
	for outer := 0; outer < 8; outer++ {
		fi := -1
		for i := len(b.afe) - 1; i >= 0 && b.afe[i] != nil; i-- {
			if b.afe[i].name == name && b.afe[i].ns == "" {
				fi = i
				break
			}
		}
		if fi < 0 {
			return false
		}
		fe := b.afe[fi]
		si := b.indexInStack(fe)
		if si < 0 {
			b.afe = append(b.afe[:fi], b.afe[fi+1:]...)
			return true
		}
		if !b.elemInScope(fe) {
			return true
		}
		fb := -1
		for i := si + 1; i < len(b.stack); i++ {
			if b.isSpecialElem(b.stack[i]) {
				fb = i
				break
			}
		}
		if fb < 0 {
			// (Out of the list first, so that its record can be reused
			// once popped.)
			b.removeFromAFE(fe)
			b.popUntilElem(fe)
			return true
		}
		common := b.stack[si-1]
		furthest := b.stack[fb]
		bookmark := fi
		last := furthest
		var dropped []*elem
		ni := fb
		for inner := 1; ; inner++ {
			ni--
			node := b.stack[ni]
			if node == fe {
				break
			}
			ai := b.afeIndex(node)
			if inner > 3 && ai >= 0 {
				b.afe = append(b.afe[:ai], b.afe[ai+1:]...)
				if ai < bookmark {
					bookmark--
				}
				ai = -1
			}
			if ai < 0 {
				b.stack = append(b.stack[:ni], b.stack[ni+1:]...)
				dropped = append(dropped, node)
				continue
			}
			clone := cloneElem(node)
			b.afe[ai] = clone
			b.stack[ni] = clone
			if last == furthest {
				bookmark = ai + 1
			}
			if last.node != nil && clone.node != nil {
				detach(last.node)
				clone.node.AppendChild(last.node)
			}
			last = clone
		}
		if last.node != nil {
			detach(last.node)
			if parent, before := b.insertionPlace(common); parent != nil {
				if before != nil {
					parent.InsertBefore(last.node, before)
				} else {
					parent.AppendChild(last.node)
				}
			}
		}
		ne := cloneElem(fe)
		if furthest.node == nil {
			ne.node = nil
		}
		if ne.node != nil {
			for c := furthest.node.FirstChild; c != nil; c = furthest.node.FirstChild {
				furthest.node.RemoveChild(c)
				ne.node.AppendChild(c)
			}
			furthest.node.AppendChild(ne.node)
		}
		if i := b.afeIndex(fe); i >= 0 {
			b.afe = append(b.afe[:i], b.afe[i+1:]...)
			if i < bookmark {
				bookmark--
			}
		}
		bookmark = min(max(bookmark, 0), len(b.afe))
		b.afe = append(b.afe[:bookmark], append([]*elem{ne}, b.afe[bookmark:]...)...)
		for i := range b.stack {
			if b.stack[i] == fe {
				b.stack = append(b.stack[:i], b.stack[i+1:]...)
				break
			}
		}
		fbi := b.indexInStack(furthest)
		b.stack = append(b.stack[:fbi+1], append([]*elem{ne}, b.stack[fbi+1:]...)...)
		b.closed(fe)
		for _, d := range dropped {
			b.closed(d)
		}
	}
	return true
}

// cloneElem makes a new element for the same tag, with a detached node
// unless e is pruned.
func cloneElem(e *elem) *elem {
	c := &elem{atom: e.atom, name: e.name, ns: e.ns, attrs: e.attrs, flagged: e.chrome, chrome: e.chrome,
		pre: e.pre, skip: e.skip, hidden: e.hidden}
	if e.node != nil {
		n := *e.node
		n.Parent, n.FirstChild, n.LastChild, n.PrevSibling, n.NextSibling = nil, nil, nil, nil, nil
		c.node = &n
	}
	return c
}

func detach(n *html.Node) {
	if n.Parent != nil {
		n.Parent.RemoveChild(n)
	}
}
