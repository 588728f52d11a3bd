package webmd

import (
	"net/url"
	"strings"
	"testing"
	"unicode/utf8"

	"golang.org/x/net/html"
)

type convCase struct {
	name string
	html string
	opt  Options
	want string // without the final newline; "" for no output
}

func runConvCases(t *testing.T, cases []convCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Convert([]byte(tc.html), tc.opt)
			want := tc.want
			if want != "" {
				want += "\n"
			}
			if got != want {
				t.Errorf("Convert(%q)\n got: %q\nwant: %q\n--- got ---\n%s--- want ---\n%s", tc.html, got, want, got, want)
			}
		})
	}
}

func mustURL(s string) *url.URL {
	u, err := url.Parse(s)
	if err != nil {
		panic(err)
	}
	return u
}

// TestConversionRules: one case (at least) per rule of the reference's
// "Conversion" row.
func TestConversionRules(t *testing.T) {
	runConvCases(t, []convCase{
		{"h1", "<h1>Title</h1>", Options{}, "# Title"},
		{"h2-h6", "<h2>a</h2><h3>b</h3><h4>c</h4><h5>d</h5><h6>e</h6>", Options{}, "## a\n\n### b\n\n#### c\n\n##### d\n\n###### e"},
		{"heading on one line", "<h2>one<br>two\n three</h2>", Options{}, "## one two three"},
		{"paragraphs", "<p>one</p><p>two</p>", Options{}, "one\n\ntwo"},
		{"strong and b", "<p><strong>a</strong> <b>b</b></p>", Options{}, "**a** **b**"},
		{"em and i", "<p><em>a</em> <i>b</i></p>", Options{}, "*a* *b*"},
		{"emphasis hugs its text", "<p>x<b> bold </b>y</p>", Options{}, "x **bold** y"},
		{"nested same emphasis once", "<p><b>a <strong>b</strong></b></p>", Options{}, "**a b**"},
		{"inline code kinds", "<p><code>a</code> <kbd>b</kbd> <samp>c</samp> <tt>d</tt></p>", Options{}, "`a` `b` `c` `d`"},
		{"inline code with backquote", "<p><code>a`b</code></p>", Options{}, "``a`b``"},
		{"inline code starting with backquote", "<p><code>`x</code></p>", Options{}, "`` `x ``"},
		{"inline code not escaped", "<p><code>*a_b* [x]</code></p>", Options{}, "`*a_b* [x]`"},
		{"pre fenced", "<pre>x := 1\ny := 2</pre>", Options{}, "```\nx := 1\ny := 2\n```"},
		{"pre language-x", `<pre><code class="language-go">package main</code></pre>`, Options{}, "```go\npackage main\n```"},
		{"pre lang-x", `<pre class="prettyprint lang-sh">ls</pre>`, Options{}, "```sh\nls\n```"},
		{"fence longer than backquote runs", "<pre>a ``` b\n````</pre>", Options{}, "`````\na ``` b\n````\n`````"},
		{"pre keeps blank lines and indentation", "<pre>a\n\n    b</pre>", Options{}, "```\na\n\n    b\n```"},
		{"br is a hard break", "<p>a<br>b</p>", Options{}, "a\\\nb"},
		{"br at the end of a block dropped", "<p>a<br></p><p>b</p>", Options{}, "a\n\nb"},
		{"hr", "<p>a</p><hr><p>b</p>", Options{}, "a\n\n---\n\nb"},
		{"blockquote", "<blockquote><p>a</p><p>b</p></blockquote>", Options{}, "> a\n>\n> b"},
		{"nested blockquote", "<blockquote>a<blockquote>b</blockquote></blockquote>", Options{}, "> a\n>\n> > b"},
		{"link", `<p><a href="https://x.org/a">text</a></p>`, Options{}, "[text](https://x.org/a)"},
		{"link without text is its URL", `<p><a href="https://x.org/a"></a></p>`, Options{}, "<https://x.org/a>"},
		{"link text equal to URL", `<p><a href="https://x.org/a">https://x.org/a</a></p>`, Options{}, "<https://x.org/a>"},
		{"javascript link is text", `<p><a href="javascript:void(0)">click</a></p>`, Options{}, "click"},
		{"anchor without href is text", `<p><a name="x">here</a></p>`, Options{}, "here"},
		{"link destination with space", `<p><a href="https://x.org/a b">t</a></p>`, Options{}, "[t](https://x.org/a%20b)"},
		{"link with balanced parentheses", `<p><a href="https://x.org/F_(b)">t</a></p>`, Options{}, "[t](https://x.org/F_(b))"},
		{"img", `<p><img src="https://x.org/i.png" alt="An image"></p>`, Options{}, "![An image](https://x.org/i.png)"},
		{"img without alt", `<p><img src="https://x.org/i.png"></p>`, Options{}, "![](https://x.org/i.png)"},
		{"img data URI is its alt", `<p><img src="data:image/png;base64,AAAA" alt="Logo"></p>`, Options{}, "Logo"},
		{"image in link", `<p><a href="https://x.org/"><img src="https://x.org/i.png" alt="i"></a></p>`, Options{}, "[![i](https://x.org/i.png)](https://x.org/)"},
		{"ul", "<ul><li>a</li><li>b</li></ul>", Options{}, "- a\n- b"},
		{"ol", "<ol><li>a</li><li>b</li></ol>", Options{}, "1. a\n2. b"},
		{"ol start", `<ol start="7"><li>a</li><li>b</li></ol>`, Options{}, "7. a\n8. b"},
		{"nested ul indented by 2", "<ul><li>a<ul><li>b</li></ul></li></ul>", Options{}, "- a\n  - b"},
		{"nested in ol indented by 3", "<ol><li>a<ul><li>b</li></ul></li></ol>", Options{}, "1. a\n   - b"},
		{"nested in 10. indented by 4", `<ol start="10"><li>a<ol><li>b</li></ol></li></ol>`, Options{}, "10. a\n    1. b"},
		{"three levels", "<ul><li>a<ol><li>b<ul><li>c</li></ul></li></ol></li></ul>", Options{}, "- a\n  1. b\n     - c"},
		{"item with paragraphs", "<ul><li><p>a</p><p>b</p></li><li>c</li></ul>", Options{}, "- a\n\n  b\n\n- c"},
		{"code block in item", "<ul><li>a<pre>x\n\ny</pre></li></ul>", Options{}, "- a\n\n  ```\n  x\n\n  y\n  ```"},
		{"list after paragraph", "<p>p</p><ul><li>a</li></ul><p>q</p>", Options{}, "p\n\n- a\n\nq"},
		{"simple table", "<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>", Options{}, "| a | b |\n| --- | --- |\n| 1 | 2 |"},
		{"table first row is header", "<table><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>", Options{}, "| a | b |\n| --- | --- |\n| 1 | 2 |"},
		{"table pipe escaped", "<table><tr><td>a|b</td><td>c</td></tr><tr><td>1</td><td>2</td></tr></table>", Options{}, "| a\\|b | c |\n| --- | --- |\n| 1 | 2 |"},
		{"table br in cell", "<table><tr><th>h</th><th>i</th></tr><tr><td>a<br>b</td><td>c</td></tr></table>", Options{}, "| h | i |\n| --- | --- |\n| a<br>b | c |"},
		{"table paragraphs in cell", "<table><tr><th>h</th><th>i</th></tr><tr><td><p>a</p><p>b</p></td><td>c</td></tr></table>", Options{}, "| h | i |\n| --- | --- |\n| a<br>b | c |"},
		{"table caption above", "<table><caption>Cap</caption><tr><td>a</td><td>b</td></tr><tr><td>1</td><td>2</td></tr></table>", Options{}, "Cap\n\n| a | b |\n| --- | --- |\n| 1 | 2 |"},
		{"table ragged rows padded", "<table><tr><td>a</td><td>b</td></tr><tr><td>1</td></tr></table>", Options{}, "| a | b |\n| --- | --- |\n| 1 | |"},
		{"table thead tbody tfoot order", "<table><tfoot><tr><td>f</td><td>f</td></tr></tfoot><tbody><tr><td>b</td><td>b</td></tr></tbody><thead><tr><th>h</th><th>h</th></tr></thead></table>", Options{}, "| h | h |\n| --- | --- |\n| b | b |\n| f | f |"},
		{"table code with pipe", "<table><tr><th>h</th><th>i</th></tr><tr><td><code>a|b</code></td><td>c</td></tr></table>", Options{}, "| h | i |\n| --- | --- |\n| `a\\|b` | c |"},
	})
}

func TestTables(t *testing.T) {
	span := `<table><tr><th colspan="2">h</th></tr><tr><td rowspan="2" class="x" style="color:red">a</td><td>b</td></tr><tr><td>c</td></tr></table>`
	nested := `<table><tr><th>h</th><th>i</th></tr><tr><td>a</td><td><table><tr><td>x</td><td>y</td></tr><tr><td>z</td><td>t</td></tr></table></td></tr></table>`
	runConvCases(t, []convCase{
		{"colspan kept as html", span, Options{}, "<table>\n<tr><th colspan=\"2\">h</th></tr>\n<tr><td rowspan=\"2\">a</td><td>b</td></tr>\n<tr><td>c</td></tr>\n</table>"},
		{"colspan flattened", span, Options{Tables: TablesFlatten}, "| h | h |\n| --- | --- |\n| a | b |\n| a | c |"},
		{"nested kept as html", nested, Options{}, "<table>\n<tr><th>h</th><th>i</th></tr>\n<tr><td>a</td><td>\n<table>\n<tr><td>x</td><td>y</td></tr>\n<tr><td>z</td><td>t</td></tr>\n</table></td></tr>\n</table>"},
		{"nested flattened", nested, Options{Tables: TablesFlatten}, "| h | i |\n| --- | --- |\n| a | x y<br>z t |"},
		{"html table keeps only the reference's attributes",
			`<table><tr><td colspan="2"><a href="/x" class="c" title="t">l</a> <img src="/i.png" alt="i" width="3"> <input type="checkbox" checked name="n"></td></tr><tr><td><ol start="3" class="k"><li>z</li></ol></td><td><pre class="language-go highlight">x</pre></td></tr></table>`,
			Options{BaseURL: mustURL("https://h.org/d/")},
			"<table>\n<tr><td colspan=\"2\"><a href=\"https://h.org/x\">l</a> <img src=\"https://h.org/i.png\" alt=\"i\"> <input type=\"checkbox\" checked></td></tr>\n<tr><td><ol start=\"3\"><li>z</li></ol></td><td><pre class=\"language-go\">x</pre></td></tr>\n</table>"},
		{"html table drops removed elements", `<table><tr><td rowspan="2">a<script>x()</script><button>b</button></td><td>c</td></tr><tr><td>d</td></tr></table>`, Options{},
			"<table>\n<tr><td rowspan=\"2\">a</td><td>c</td></tr>\n<tr><td>d</td></tr>\n</table>"},
		{"html table text escaped", `<table><tr><td colspan="2">a &lt; b &amp; c</td></tr><tr><td>1</td><td>2</td></tr></table>`, Options{}, "<table>\n<tr><td colspan=\"2\">a &lt; b &amp; c</td></tr>\n<tr><td>1</td><td>2</td></tr>\n</table>"},
		{"html table has no blank line", "<table><tr><td colspan=2><pre>a\n\nb</pre></td></tr><tr><td>1</td><td>2</td></tr></table>", Options{}, "<table>\n<tr><td colspan=\"2\"><pre>a<br><br>b</pre></td></tr>\n<tr><td>1</td><td>2</td></tr>\n</table>"},
		{"layout table of one cell is its content", "<table><tr><td><h2>T</h2><p>x</p></td></tr></table>", Options{}, "## T\n\nx"},
		{"presentation table is its content", `<table role="presentation"><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>`, Options{}, "a\n\nb\n\nc\n\nd"},
		{"one-row table is its content", `<table><tr><td><img src="https://x.org/l.png" alt="logo"></td><td>Site name</td></tr></table>`, Options{}, "![logo](https://x.org/l.png)\n\nSite name"},
		{"one-column table is its content", `<table><tr><td><b>Menu</b></td></tr><tr><td><ul><li>a</li></ul></td></tr></table>`, Options{}, "**Menu**\n\n- a"},
		{"one-column table with header is data", `<table><tr><th>Name</th></tr><tr><td>a</td></tr></table>`, Options{}, "| Name |\n| --- |\n| a |"},
		{"table with a heading in a cell is its content", `<table><tr><td><h1>T</h1></td><td>x</td></tr><tr><td>y</td><td><table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table></td></tr></table>`, Options{},
			"# T\n\nx\n\ny\n\n| 1 | 2 |\n| --- | --- |\n| 3 | 4 |"},
		{"empty table", "<table><tr><td></td><td> </td></tr></table>", Options{}, ""},
	})
}

func TestOptions(t *testing.T) {
	base := mustURL("https://example.com/docs/page.html")
	runConvCases(t, []convCase{
		{"strikethrough off", "<p>a <del>b</del> <s>c</s> <strike>d</strike></p>", Options{}, "a b c d"},
		{"strikethrough on", "<p>a <del>b</del> <s>c</s> <strike>d</strike></p>", Options{Strikethrough: true}, "a ~~b~~ ~~c~~ ~~d~~"},
		{"task list off", `<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>`, Options{}, "- done\n- todo"},
		{"task list on", `<ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li></ul>`, Options{TaskList: true}, "- [x] done\n- [ ] todo"},
		{"task list in p", `<ul><li><p><input type="checkbox" disabled> x</p></li></ul>`, Options{TaskList: true}, "- [ ] x"},
		{"checkbox not first is not a task", `<ul><li>x <input type="checkbox"></li></ul>`, Options{TaskList: true}, "- x"},
		{"task list escapes its text", `<ul><li><input type="checkbox"> [b]</li></ul>`, Options{TaskList: true}, `- [ ] \[b\]`},
		{"base url resolves links", `<p><a href="../a.html">a</a> <a href="/b">b</a> <a href="c?x=1#f">c</a> <a href="//cdn.org/d">d</a></p>`, Options{BaseURL: base},
			"[a](https://example.com/a.html) [b](https://example.com/b) [c](https://example.com/docs/c?x=1#f) [d](https://cdn.org/d)"},
		{"base url resolves images", `<p><img src="img/x.png" alt="x"></p>`, Options{BaseURL: base}, "![x](https://example.com/docs/img/x.png)"},
		{"fragment link resolved", `<p><a href="#sec">see</a></p>`, Options{BaseURL: base}, "[see](https://example.com/docs/page.html#sec)"},
		{"no base leaves links as written", `<p><a href="../a.html">a</a></p>`, Options{}, "[a](../a.html)"},
	})
}

// TestRemoved: every element, role, attribute and class of the
// reference's "Retiré" row.
func TestRemoved(t *testing.T) {
	var cases []convCase
	for _, tag := range []string{"script", "style", "noscript", "template", "title", "svg", "canvas", "iframe", "object", "nav", "aside", "dialog", "button", "select", "textarea"} {
		cases = append(cases, convCase{"tag " + tag, "<p>keep</p><" + tag + ">GONE</" + tag + "><p>kept</p>", Options{}, "keep\n\nkept"})
	}
	for _, role := range []string{"navigation", "banner", "complementary", "search", "contentinfo", "dialog"} {
		cases = append(cases, convCase{"role " + role, `<p>keep</p><div role="` + role + `">GONE</div>`, Options{}, "keep"})
	}
	for _, word := range []string{"ad", "ads", "advert", "sponsor", "promo", "cookie", "consent", "gdpr", "newsletter", "subscribe", "popup", "modal", "share", "social", "breadcrumb", "nav", "navbar", "navigation", "menu", "sidebar", "skiplink"} {
		cases = append(cases,
			convCase{"class " + word, `<p>keep</p><div class="x ` + word + `-box">GONE</div>`, Options{}, "keep"},
			convCase{"id " + word, `<p>keep</p><div id="main-` + word + `">GONE</div>`, Options{}, "keep"},
		)
	}
	for _, cl := range []string{"sr-only", "visually-hidden", "screen-reader-text"} {
		cases = append(cases, convCase{"class " + cl, `<p>keep <span class="` + cl + `">GONE</span></p>`, Options{}, "keep"})
	}
	cases = append(cases,
		convCase{"embed", `<p>keep</p><embed src="GONE"><p>kept</p>`, Options{}, "keep\n\nkept"},
		convCase{"meta link base", `<meta name="a" content="GONE"><link rel="x" href="GONE"><base href="https://gone/"><p>keep</p>`, Options{}, "keep"},
		convCase{"text inputs", `<p>keep <input type="text" value="GONE"><input value="GONE"></p>`, Options{}, "keep"},
		convCase{"footer outside article", `<p>keep</p><footer>GONE</footer>`, Options{}, "keep"},
		convCase{"footer inside article", `<article><p>keep</p><footer>kept</footer></article>`, Options{}, "keep\n\nkept"},
		convCase{"footer inside main", `<main><p>keep</p><footer>kept</footer></main>`, Options{}, "keep\n\nkept"},
		convCase{"comments", `<p>keep<!-- GONE --></p>`, Options{}, "keep"},
		convCase{"aria-hidden", `<p>keep <span aria-hidden="true">GONE</span><span aria-hidden="false">kept</span></p>`, Options{}, "keep kept"},
		convCase{"hidden", `<p>keep</p><div hidden>GONE</div>`, Options{}, "keep"},
		convCase{"flagged kept with h1", `<div class="sidebar"><h1>Title</h1><p>kept</p></div>`, Options{}, "# Title\n\nkept"},
		convCase{"flagged kept with main", `<div id="menu"><main><p>kept</p></main></div>`, Options{}, "kept"},
		convCase{"flagged kept with article", `<div class="promo"><article><p>kept</p></article></div>`, Options{}, "kept"},
		convCase{"word inside a word is not flagged", `<div class="header loaded shadow"><p>kept</p></div>`, Options{}, "kept"},
		convCase{"heading slug id is content", `<div class="section" id="sharing-with-a-single-developer"><h2>Sharing</h2><p>kept</p></div>`, Options{}, "## Sharing\n\nkept"},
		convCase{"long slug id is content", `<section id="menu-item-options-and-settings-page"><p>kept</p></section>`, Options{}, "kept"},
		convCase{"short chrome id", `<div id="cookie-law-info-bar">GONE</div><p>keep</p>`, Options{}, "keep"},
		convCase{"camel case word", `<div class="mainNav">GONE</div><p>keep</p>`, Options{}, "keep"},
		convCase{"body class never removes the page", `<body class="has-sidebar cookie-consent-open"><p>kept</p></body>`, Options{}, "kept"},
		convCase{"display none", `<p>keep</p><div style="display: none">GONE</div>`, Options{}, "keep"},
	)
	runConvCases(t, cases)
}

func TestEscaping(t *testing.T) {
	runConvCases(t, []convCase{
		{"specials", `<p>a\b *c* ` + "`d`" + ` [e] &lt;f&gt;</p>`, Options{}, "a\\\\b \\*c\\* \\`d\\` \\[e\\] \\<f>"},
		{"underscore inside a word stays", "<p>snake_case and CONST_NAME_2</p>", Options{}, "snake_case and CONST_NAME_2"},
		{"underscore outside a word", "<p>_private and trailing_ and __init__ and (_x_)</p>", Options{}, "\\_private and trailing_ and \\_\\_init__ and (\\_x_)"},
		{"underscore across text nodes", "<p>A_<span>B</span> <b>x</b>_y</p>", Options{}, "A_B **x**\\_y"},
		{"line start hash", "<p># not a heading</p>", Options{}, "\\# not a heading"},
		{"line start quote", "<p>&gt; not a quote</p>", Options{}, "\\> not a quote"},
		{"line start dash plus equals pipe", "<p>- a</p><p>+ b</p><p>= c</p><p>| d</p>", Options{}, "\\- a\n\n\\+ b\n\n\\= c\n\n\\| d"},
		{"line start number", "<p>1984. A year</p>", Options{}, "1984\\. A year"},
		{"line start after br", "<p>a<br># b<br>2. c</p>", Options{}, "a\\\n\\# b\\\n2\\. c"},
		{"line start in list item", "<ul><li>- x</li><li>3. y</li></ul>", Options{}, "- \\- x\n- 3\\. y"},
		{"mid-line markers not escaped", "<p>a # b - c + d = e | f 1. g</p>", Options{}, "a # b - c + d = e | f 1. g"},
		{"no escape after heading marker", "<h2>- x</h2>", Options{}, "## - x"},
		{"entity-like ampersand", "<p>&amp;amp; and a &amp; b</p>", Options{}, "\\&amp; and a & b"},
		{"closing hashes of a heading", "<h2>C #</h2><h2>C#</h2>", Options{}, "## C \\#\n\n## C#"},
		{"url text equal to url is an autolink", `<p><a href="https://x.org/a_b_">https://x.org/a_b_</a></p>`, Options{}, "<https://x.org/a_b_>"},
	})
}

// TestBeyond: what real pages need beyond the reference's rules.
func TestBeyond(t *testing.T) {
	runConvCases(t, []convCase{
		{"sphinx highlight-x", `<div class="highlight-python3 notranslate"><div class="highlight"><pre><span></span><span class="k">def</span> <span class="nf">f</span><span class="p">():</span></pre></div></div>`, Options{}, "```python\ndef f():\n```"},
		{"sphinx highlight-default has no language", `<div class="highlight-default notranslate"><div class="highlight"><pre>x</pre></div></div>`, Options{}, "```\nx\n```"},
		{"github highlight-source-x", `<div class="highlight highlight-source-go notranslate"><pre>package x</pre></div>`, Options{}, "```go\npackage x\n```"},
		{"rouge language-x on wrapper", `<div class="language-ruby highlighter-rouge"><div class="highlight"><pre class="highlight"><code><span class="nb">puts</span> 1</code></pre></div></div>`, Options{}, "```ruby\nputs 1\n```"},
		{"pygments line numbers dropped", `<pre><span class="linenos">1</span>a
<span class="linenos">2</span>b</pre>`, Options{}, "```\na\nb\n```"},
		{"pandoc sourceCode", `<pre class="sourceCode python"><code>x</code></pre>`, Options{}, "```python\nx\n```"},
		{"brush", `<pre class="brush: js; gutter: false">x</pre>`, Options{}, "```js\nx\n```"},
		{"data-lang", `<pre><code data-lang="rust">x</code></pre>`, Options{}, "```rust\nx\n```"},
		{"line divs in pre", `<pre><div class="line">a</div><div class="line">b</div></pre>`, Options{}, "```\na\nb\n```"},
		{"permalink pilcrow dropped", `<h2>Title<a class="headerlink" href="#title" title="Permalink">¶</a></h2>`, Options{}, "## Title"},
		{"empty fragment link dropped", `<h2><a href="#x"></a>Title</h2>`, Options{}, "## Title"},
		{"two br make a paragraph", "<p>a<br><br>b</p>", Options{}, "a\n\nb"},
		{"nbsp is a space", "<p>a&nbsp;&nbsp;b</p>", Options{}, "a b"},
		{"soft hyphen and zero width dropped", "<p>hy&shy;phen zero&#8203;width</p>", Options{}, "hyphen zerowidth"},
		{"link around blocks", `<a href="https://x.org/"><div><h3>Title</h3><p>Text</p></div></a>`, Options{}, "[Title Text](https://x.org/)"},
		{"code that is a link", `<p><code><a href="https://x.org/f">f()</a></code></p>`, Options{}, "[`f()`](https://x.org/f)"},
		{"link around code", `<p><a href="https://x.org/f"><code>f()</code></a></p>`, Options{}, "[`f()`](https://x.org/f)"},
		{"definition list", "<dl><dt>term</dt><dd>def</dd></dl>", Options{}, "term\n\ndef"},
		{"head text never shown", "<html><head><title>T</title></head><body><p>x</p></body></html>", Options{}, "x"},
	})
}

func TestStructure(t *testing.T) {
	runConvCases(t, []convCase{
		{"unknown inline element keeps text", "<p>a <foo-bar>b</foo-bar> c</p>", Options{}, "a b c"},
		{"unknown element with block is a container", "<foo-bar><p>a</p><p>b</p></foo-bar>", Options{}, "a\n\nb"},
		{"span with block", "<p>x</p><span>a<div>b</div>c</span>", Options{}, "x\n\na\n\nb\n\nc"},
		{"empty elements leave nothing", "<p>a</p><p></p><div> </div><ul></ul><ul><li></li></ul><h2></h2><blockquote></blockquote><pre>\n</pre><b></b><p>b</p>", Options{}, "a\n\nb"},
		{"invalid html repaired", "<p>a <b>bold<p>next", Options{}, "a **bold**\n\n**next**"},
		{"misnested list repaired", "<ul><li>a<li>b</ul>", Options{}, "- a\n- b"},
		{"whitespace collapsed", "<p>  a \n\t b  </p>", Options{}, "a b"},
		{"empty document", "", Options{}, ""},
		{"only scripts", "<script>x</script><style>y</style>", Options{}, ""},
		{"text directly in body", "a<div>b</div>c", Options{}, "a\n\nb\n\nc"},
		{"single trailing newline", "<p>a</p>\n\n\n", Options{}, "a"},
	})
}

func TestOutputAlwaysValid(t *testing.T) {
	// A page decoded with a wrong label can carry invalid bytes into the
	// parser; they never reach the output.
	got := Convert([]byte("<p>caf\xe9 \xff\xfe ok</p><pre>\xc3</pre>"), Options{})
	if !utf8.ValidString(got) {
		t.Fatalf("invalid UTF-8: %q", got)
	}
	if !strings.Contains(got, "caf\uFFFD") || !strings.HasSuffix(got, "```\n") {
		t.Errorf("got %q", got)
	}
}

// TestResolveFastPaths: the shortcuts of resolve agree with
// url.ResolveReference.
func TestResolveFastPaths(t *testing.T) {
	for _, base := range []string{"https://h.org/d/p.html?q=1#f", "http://h.org", "https://u@h.org:8443/a/b/", "https://h.org/x"} {
		b := mustURL(base)
		c := &conv{}
		c.setBase(b)
		for _, ref := range []string{"#x", "/a", "/", "a/b.html", "a", "?q=2", "./a", "../a", "a/../b", "//cdn.org/x", "mailto:x@y.org", "https://o.org/p", "a:b", "a?b#c", "/a#b"} {
			u, err := url.Parse(ref)
			if err != nil {
				t.Fatal(err)
			}
			want := b.ResolveReference(u).String()
			if got := c.resolve(ref); got != want {
				t.Errorf("base %s, ref %q: got %q, want %q", base, ref, got, want)
			}
		}
	}
}

// TestConvertNodeLeavesTheTree: only Convert, which owns its tree,
// unlinks what it wrote.
func TestConvertNodeLeavesTheTree(t *testing.T) {
	doc, _ := html.Parse(strings.NewReader("<p>a</p><p>b</p>"))
	first := ConvertNode(doc, Options{}, 0)
	if second := ConvertNode(doc, Options{}, 0); first != "a\n\nb\n" || second != first {
		t.Errorf("first %q, second %q", first, second)
	}
}
