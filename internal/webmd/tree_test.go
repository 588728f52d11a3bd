package webmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// treeCases are pages where the HTML standard's tree construction decides
// what the text becomes: implied end tags, scopes, tables with missing
// parts and misplaced content, misnested formatting, foreign content,
// selects, code blocks. The builder must give the Markdown html.Parse's
// tree gives.
var treeCases = []string{
	// Implied end tags and scopes.
	`<p>one<p>two<div>three</div>four`,
	`<ul><li>a<li>b<ul><li>c</ul>d</ul>e`,
	`<dl><dt>t<dd>d<dt>u<dd>e</dl>`,
	`<p>a</div>b</p>c</p>d`,
	`<h1>a<h2>b</h1>c`,
	`<div><p>text</form>more</div>`,
	`<ol start=3><li>x<p>y<li>z</ol>`,
	`<button>a<button>b</button>c`,
	`<p>a<table><tr><td>b</table>c`,
	`<!DOCTYPE html><p>a<table><tr><td>b</table>c`,
	`<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><p>a<table><tr><td>b</table>`,
	// Tables.
	`<table><td>a<td>b<tr><td>c<td>d</table>`,
	`<table><tr><th>h1<th>h2<tr><td>1<td>2</table>`,
	`<table>text before<tr><td>a</td></tr><div>fostered</div></table>after`,
	`<table><caption>cap<tr><td>a</table>`,
	`<table><colgroup><col><col></colgroup><thead><tr><th>a<th>b<tbody><tr><td>1<td>2<tfoot><tr><td>f<td>g</table>`,
	`<table><tr><td>a<table><tr><td>inner</table>b</table>`,
	`<table><tr><td>a</td></tr><table><tr><td>second</table>`,
	`<table><tr><td colspan=2>wide<tr><td>a<td>b</table>`,
	`<table><b>bold<tr><td>x</table>`,
	`<table><form><tr><td><input type=checkbox>a</table>`,
	`<td>stray cell</td><tr>stray row`,
	// Misnested formatting (the adoption agency).
	`<p><b>bold<i>both</b>italic</i>plain</p>`,
	`<b><p>x</b>y</p>`,
	`<a href="/1">one<a href="/2">two</a>`,
	`<p><b>a</p><p>b</b>c</p>`,
	`<b><b><b><b>deep</b></b></b></b>`,
	`<a href="/x"><div><h2>Title</h2><p>text</p></div></a>`,
	`<em><div>a<em>b</div>c</em>`,
	`<nobr>a<nobr>b</nobr>`,
	// Foreign content.
	`<p>a<svg><title>t</title><p>breaks out</svg>b`,
	`<math><mi>x</mi><mo>=</mo><mn>1</mn></math> after`,
	`<svg><foreignObject><p>inside</p></foreignObject></svg>after`,
	`<math><mtext><b>bold</b></mtext></math>`,
	// Select, raw text, code.
	`<select><option>a<div>b</div><option>c</select>after`,
	`<table><tr><td><select><option>x<td>cell</table>`,
	`<textarea>a<b>c</textarea>d`,
	"<pre>\nfirst line\n  second</pre>",
	"<pre><code class=\"language-go\">x := 1\n<b>y</b> := 2</code></pre>",
	"<div class=\"highlight-python3\"><pre><span class=k>def</span> f():\n<span class=linenos>2</span>    pass</pre></div>",
	"<pre>a<br>b<div>c</div>d<span hidden>no</span><script>no</script></pre>",
	"<pre><p>para<b>bold</pre>after",
	"<listing>\nlisting text</listing>",
	// Chrome and landmarks.
	`<div class="sidebar"><p>menu</p></div><p>content</p>`,
	`<div class="wy-grid-for-nav"><div class="nav">links</div><div role="main"><h1>Title</h1><p>body</p></div></div>`,
	`<div id="cookie-banner"><p>We use cookies</p></div><main><p>text</p><footer>in main</footer></main><footer>page footer</footer>`,
	`<span class="sr-only">hidden</span><b hidden>h</b><span style="display:none">x</span>shown`,
	`<nav><b>x<p>y</b>z</p></nav>after`,
	`<body hidden><p>all hidden</p>`,
	`<p>before</p><body class="has-sidebar"><p>after</p>`,
	`<frameset><frame src=a></frameset>`,
	// Text.
	"a\x00b<p>c&amp;d&#0;e\r\nf</p>",
	`<p>one</p>   <!-- c -->  <p>two</p>tail text`,
	`<plaintext><p>not a tag`,
	`<p>x<img src=a.png alt="A"><br>y<hr>z`,
	`<ul><li><input type=checkbox checked> done<li><input type=checkbox> todo</ul>`,
	`<custom-element><p>inside custom</p></custom-element>`,
	`<main><article><h1>T</h1><section><h2>S</h2><p>p</p></section></article></main>`,
	// Found by fuzzing against html.Parse.
	`<svg></p >after`,
	"\x00<frameset>text",
	`<table><col>0<col> 1`,
	`<a class="x nav"><b class="nav"><a href="/y">text`,
}

// viaHTMLParse converts with html.Parse's tree: what the builder must
// match.
func viaHTMLParse(t testing.TB, page []byte, o Options) string {
	doc, err := html.Parse(bytes.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return ConvertNode(doc, o, 0)
}

func TestBuilderMatchesHTMLParse(t *testing.T) {
	for _, flatten := range []bool{false, true} {
		o := Options{BaseURL: mustURL("https://example.com/a/b.html"), Strikethrough: true, TaskList: true}
		if flatten {
			o.Tables = TablesFlatten
		}
		for _, c := range treeCases {
			want := viaHTMLParse(t, []byte(c), o)
			if got := Convert([]byte(c), o); got != want {
				t.Errorf("flatten=%v %q:\n got %q\nwant %q", flatten, c, got, want)
			}
			if got := convert(parse([]byte(c)), o, 0, true); got != want {
				t.Errorf("whole tree, flatten=%v %q:\n got %q\nwant %q", flatten, c, got, want)
			}
		}
	}
}

// TestRealPagesMatchHTMLParse: on real pages (the reviewed ones in
// testdata, and a whole corpus of pages when MM_HTML_CORPUS names its
// directory), converting while parsing gives exactly what converting
// html.Parse's tree gives.
func TestRealPagesMatchHTMLParse(t *testing.T) {
	dirs := []string{filepath.Join("testdata", "pages")}
	if corpus := os.Getenv("MM_HTML_CORPUS"); corpus != "" {
		dirs = append(dirs, corpus)
	}
	n := 0
	for _, dir := range dirs {
		files, err := filepath.Glob(filepath.Join(dir, "*.html"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no pages in %s", dir)
		}
		for _, f := range files {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			text, _, err := Decode(raw, "")
			if err != nil {
				t.Fatal(err)
			}
			o := Options{BaseURL: mustURL("https://example.com/docs/page.html")}
			want := viaHTMLParse(t, text, o)
			if got := Convert(text, o); got != want {
				l := firstDiffLine(got, want)
				t.Errorf("%s: differs at line %d:\n got %q\nwant %q", f, l, lineAt(got, l), lineAt(want, l))
			}
			n++
		}
	}
	t.Logf("%d pages", n)
}

// FuzzStreamMatchesTree: converting while parsing gives what converting
// the builder's whole tree gives, whatever the bytes.
func FuzzStreamMatchesTree(f *testing.F) {
	for _, c := range treeCases {
		f.Add([]byte(c), false, false)
	}
	f.Fuzz(func(t *testing.T, page []byte, tasks, flatten bool) {
		o := Options{BaseURL: mustURL("https://example.com/"), TaskList: tasks, Strikethrough: tasks}
		if flatten {
			o.Tables = TablesFlatten
		}
		whole := convert(parse(page), o, 0, true)
		if got := Convert(page, o); got != whole {
			t.Fatalf("%q:\nstream %q\n whole %q", page, got, whole)
		}
	})
}

// The builder's own behaviour: what it keeps of a page.
func TestBuilderKeepsLittle(t *testing.T) {
	page := []byte(`<html><head><title>T</title><script>var x = 1</script><style>p{}</style></head>` +
		`<body><nav><a href="/">home</a></nav><div class="px-4 py-2 text-lg" data-x="1" id="main-nav-bar"><p>menu</p></div>` +
		`<p class="lead big" style="color:red" title="t"><a href="/x" class="link">x</a></p></body></html>`)
	doc := parse(page)
	var texts, elems []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch n.Type {
		case html.TextNode:
			texts = append(texts, n.Data)
		case html.ElementNode:
			s := n.Data
			for _, a := range n.Attr {
				s += " " + a.Key + "=" + a.Val
			}
			elems = append(elems, s)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if got, want := strings.Join(elems, "|"), "html|body|p|a href=/x"; got != want {
		t.Errorf("elements %q, want %q", got, want)
	}
	if got, want := strings.Join(texts, "|"), "x"; got != want {
		t.Errorf("texts %q, want %q", got, want)
	}
}

// TestDeepNesting: past 512 open elements the builder ignores further
// tags and keeps their text (html.Parse rejects such a page outright).
func TestDeepNesting(t *testing.T) {
	for _, unit := range []string{"<div>x", "<b>x", "<ul><li>x", "<table><tr><td>x", "<font color=red><div>x", "<pre><b>x"} {
		page := []byte(strings.Repeat(unit, 5000))
		out := Convert(page, Options{})
		if n := strings.Count(out, "x"); n != 5000 {
			t.Errorf("%s ×5000: %d x in the output, want 5000", unit, n)
		}
	}
}

// BenchmarkDeepNesting: a hostile page stays linear.
func BenchmarkDeepNesting(b *testing.B) {
	page := []byte(strings.Repeat("<div><b>x", 20000))
	b.SetBytes(int64(len(page)))
	for i := 0; i < b.N; i++ {
		Convert(page, Options{})
	}
}

// TestQuirksDoctype: the doctypes that leave a <p> open around a <table>,
// by the HTML standard's rules.
func TestQuirksDoctype(t *testing.T) {
	for doctype, quirks := range map[string]bool{
		"html":                                false,
		"HTML":                                false,
		"html SYSTEM \"about:legacy-compat\"": false,
		`html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"`:                                  false,
		`HTML PUBLIC "-//W3C//DTD HTML 4.01//EN" "http://www.w3.org/TR/html4/strict.dtd"`: false,
		`html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" "http://x"`:                 false,
		`html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"`:                            true,
		`HTML PUBLIC "-//W3C//DTD HTML 3.2 Final//EN"`:                                    true,
		`html PUBLIC "-//IETF//DTD HTML//EN"`:                                             true,
		`html SYSTEM "http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd"`:        true,
		"svg":         true,
		"":            true,
		"html 0":      true,
		`html PUBLIC`: true,
		`html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN`: true,
	} {
		if got := quirksDoctype(doctype); got != quirks {
			t.Errorf("<!DOCTYPE %s>: quirks %v, want %v", doctype, got, quirks)
		}
	}
	// In the quirks mode a table stays in the paragraph: text foster
	// parented out of the table joins the paragraph's.
	if got, want := Convert([]byte("<p>a<table>b<tr><td>c</table>"), Options{}), "ab\n\nc\n"; got != want {
		t.Errorf("quirks: %q, want %q", got, want)
	}
	if got, want := Convert([]byte("<!DOCTYPE html><p>a<table>b<tr><td>c</table>"), Options{}), "a\n\nb\n\nc\n"; got != want {
		t.Errorf("no quirks: %q, want %q", got, want)
	}
}
