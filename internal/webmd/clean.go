package webmd

import (
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// dropped reports whether n, an element, is removed with everything in
// it: the reference's list (scripts, navigation, ads, hidden elements…)
// plus a few elements a browser never shows either (audio and video
// fallback text, <noembed>, <head> and what is in it).
func (c *conv) dropped(n *html.Node) bool {
	return droppedNode(n, c.inMain > 0)
}

// removedElement: the elements removed with their content whatever their
// attributes and place.
func removedElement(a atom.Atom) bool {
	switch a {
	case atom.Script, atom.Style, atom.Noscript, atom.Template, atom.Meta,
		atom.Link, atom.Base, atom.Title, atom.Svg, atom.Canvas, atom.Iframe,
		atom.Object, atom.Embed, atom.Nav, atom.Aside, atom.Dialog,
		atom.Button, atom.Select, atom.Textarea, atom.Head, atom.Video,
		atom.Audio, atom.Noembed, atom.Noframes, atom.Frameset, atom.Datalist:
		return true
	}
	return false
}

// droppedNode is dropped for a given context: inMain says whether n is
// inside a <main> or an <article>.
func droppedNode(n *html.Node, inMain bool) bool {
	if removedElement(n.DataAtom) {
		return true
	}
	switch n.DataAtom {
	case atom.Input:
		return !isCheckbox(n)
	case atom.Footer:
		if !inMain {
			return true
		}
	}
	if len(n.Attr) == 0 {
		return false
	}
	return droppedByAttr(n)
}

// droppedByAttr applies the attribute rules: hidden, aria-hidden, the ARIA
// landmark roles of page chrome, screen-reader-only classes, an inline
// display:none, and the class/id words of ads, banners and menus.
func droppedByAttr(n *html.Node) bool {
	flagged := false
	for i := range n.Attr {
		a := &n.Attr[i]
		if a.Namespace != "" {
			continue
		}
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			if strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "role":
			if chromeRole(a.Val) {
				return true
			}
		case "style":
			if displayNone(a.Val) {
				return true
			}
		case "class":
			if srOnly(a.Val) {
				return true
			}
			if !flagged {
				flagged = boilerplateWords(a.Val, false)
			}
		case "id":
			if !flagged {
				flagged = boilerplateWords(a.Val, true)
			}
		}
	}
	if !flagged {
		return false
	}
	// The page itself is never chrome, whatever its classes say
	// (<body class="has-sidebar">): those elements count as containing
	// themselves.
	switch n.DataAtom {
	case atom.Html, atom.Body, atom.Main, atom.Article, atom.H1:
		return false
	}
	return !containsLandmark(n)
}

// isCheckbox reports an <input type="checkbox">.
func isCheckbox(n *html.Node) bool {
	t, _ := attr(n, "type")
	return strings.EqualFold(strings.TrimSpace(t), "checkbox")
}

// checked reports a checked checkbox.
func checked(n *html.Node) bool {
	_, ok := attr(n, "checked")
	return ok
}

// attr returns the value of the attribute key (lower case, no namespace).
func attr(n *html.Node, key string) (string, bool) {
	for i := range n.Attr {
		if n.Attr[i].Key == key && n.Attr[i].Namespace == "" {
			return n.Attr[i].Val, true
		}
	}
	return "", false
}

// containsLandmark reports whether n holds a <main>, an <article>, an
// <h1> or a role="main": an element flagged by its class or id is kept
// then, it is the page's content under an unlucky name.
func containsLandmark(n *html.Node) bool {
	for ch := n.FirstChild; ch != nil; ch = ch.NextSibling {
		if ch.Type != html.ElementNode {
			continue
		}
		switch ch.DataAtom {
		case atom.Main, atom.Article, atom.H1:
			return true
		}
		if r, ok := attr(ch, "role"); ok && strings.EqualFold(strings.TrimSpace(r), "main") {
			return true
		}
		if containsLandmark(ch) {
			return true
		}
	}
	return false
}

// chromeRole reports an ARIA role of page chrome: navigation, banner,
// complementary, search, contentinfo, dialog (alertdialog too).
func chromeRole(v string) bool {
	for tok := range fields(v) {
		switch strings.ToLower(tok) {
		case "navigation", "banner", "complementary", "search", "contentinfo", "dialog", "alertdialog":
			return true
		}
	}
	return false
}

// srOnly reports the classes of text meant for screen readers only.
func srOnly(v string) bool {
	for tok := range fields(v) {
		switch strings.ToLower(tok) {
		case "sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text",
			"screen-reader-only", "screenreader-only", "sr-text", "element-invisible",
			"a11y-hidden", "hidden-visually", "u-visually-hidden", "show-for-sr":
			return true
		}
	}
	return false
}

// displayNone reports an inline style that hides the element.
func displayNone(v string) bool {
	if !strings.Contains(v, "none") && !strings.Contains(v, "hidden") && !strings.Contains(v, "NONE") {
		return false
	}
	var b [64]byte
	s := b[:0]
	for i := 0; i < len(v); i++ {
		c := v[i]
		if c == ' ' || c == '\t' || c == '\n' {
			continue
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c == ';' {
			if isHiding(s) {
				return true
			}
			s = s[:0]
			continue
		}
		if len(s) < cap(s) {
			s = append(s, c)
		}
	}
	return isHiding(s)
}

func isHiding(decl []byte) bool {
	d := string(decl)
	return d == "display:none" || d == "display:none!important" ||
		d == "visibility:hidden" || d == "visibility:hidden!important"
}

// boilerplateWords are the class and id words of page chrome: the
// reference's list and its common variants (plurals, compounds that sites
// write as one word).
var boilerplateWords_ = map[string]bool{
	"ad": true, "ads": true, "advert": true, "adverts": true, "advertisement": true,
	"advertisements": true, "advertising": true, "adsense": true, "adslot": true,
	"adunit": true, "adsbygoogle": true, "adblock": true, "adcontainer": true,
	"sponsor": true, "sponsors": true, "sponsored": true,
	"promo": true, "promos": true, "promoted": true, "promotion": true, "promotions": true,
	"cookie": true, "cookies": true, "consent": true, "gdpr": true,
	"newsletter": true, "newsletters": true, "subscribe": true, "subscription": true,
	"popup": true, "popups": true, "modal": true, "modals": true,
	"share": true, "sharing": true, "sharebar": true, "sharebuttons": true,
	"social": true, "socials": true,
	"breadcrumb": true, "breadcrumbs": true,
	"nav": true, "navbar": true, "navheader": true, "navfooter": true, "navigation": true, "navmenu": true, "topnav": true, "sidenav": true,
	"menu": true, "menus": true, "menubar": true, "mainmenu": true,
	"sidebar": true, "sidebars": true,
	"skiplink": true, "skiplinks": true, "skip": true, "skipnav": true,
}

// boilerplatePrefixes catch one-word compounds: cookiebanner,
// CybotCookiebotDialog, newsletterSignup, sidebarLeft.
var boilerplatePrefixes = []string{"cookie", "consent", "gdpr", "newsletter", "breadcrumb", "sidebar", "navbar", "advert", "sponsor", "popup", "skiplink"}

// boilerplateWords reports whether a class or id value has a chrome word:
// each space-separated token is cut into words at '-', '_', ':', '.',
// digits, and lower-to-upper case changes (mainNav → main, nav). An id
// that reads like a slug made from a heading — five words or more, or a
// little word such as "with" or "the" — is not looked at: documentation
// generators give sections ids like "sharing-with-a-single-developer" or
// "the-cookie-jar", which are content. A skip link ("skip-to-content") is
// chrome whatever its words.
func boilerplateWords(v string, id bool) bool {
	for tok := range fields(v) {
		if tokenFlagged(tok, id) {
			return true
		}
	}
	return false
}

func tokenFlagged(tok string, id bool) bool {
	var b [32]byte
	w := b[:0]
	words := 0
	flagged, slug, skip := false, false, false
	end := func() {
		if len(w) == 0 {
			return
		}
		words++
		switch {
		case words == 1 && string(w) == "skip":
			skip = true
		case slugWords[string(w)]:
			slug = true
		case !flagged && boilerplateWord(w):
			flagged = true
		}
		w = w[:0]
	}
	prevLower := false
	for i := 0; i < len(tok); i++ {
		c := tok[i]
		switch {
		case 'a' <= c && c <= 'z':
			if len(w) < cap(w) {
				w = append(w, c)
			}
			prevLower = true
		case 'A' <= c && c <= 'Z':
			if prevLower {
				end()
			}
			if len(w) < cap(w) {
				w = append(w, c+'a'-'A')
			}
			prevLower = false
		default:
			end()
			prevLower = false
		}
	}
	end()
	if id && words >= 5 {
		slug = true
	}
	return skip || flagged && !(id && slug)
}

// slugWords mark a token made from a sentence.
var slugWords = map[string]bool{
	"a": true, "an": true, "the": true, "with": true, "and": true, "of": true,
	"to": true, "for": true, "in": true, "on": true, "your": true, "how": true,
	"from": true, "by": true, "is": true, "are": true, "what": true, "when": true,
	"using": true, "about": true, "into": true, "at": true, "or": true,
}

func boilerplateWord(w []byte) bool {
	if boilerplateWords_[string(w)] {
		return true
	}
	if len(w) > 5 {
		for _, p := range boilerplatePrefixes {
			if len(w) > len(p) && string(w[:len(p)]) == p {
				return true
			}
		}
	}
	return false
}

// fields yields the space-separated words of an attribute value without
// allocating a slice: class attributes are read on most elements.
func fields(v string) func(yield func(string) bool) {
	return func(yield func(string) bool) {
		for i := 0; i < len(v); {
			for i < len(v) && isSpaceByte(v[i]) {
				i++
			}
			j := i
			for j < len(v) && !isSpaceByte(v[j]) {
				j++
			}
			if j > i && !yield(v[i:j]) {
				return
			}
			i = j
		}
	}
}
