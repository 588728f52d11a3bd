package webmd

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzConvert: whatever the bytes, the converter does not panic, writes
// valid UTF-8, and ends its output with exactly one newline (or writes
// nothing). Run longer with: go test -fuzz FuzzConvert ./internal/webmd
func FuzzConvert(f *testing.F) {
	for _, seed := range []string{
		"", "<p>a</p>", "<ul><li>a<ol><li>b</ol></ul>", "<pre>```</pre>",
		"<table><tr><td rowspan=0 colspan=999>a<td><table><tr><td>b</table></table>",
		"<blockquote><ul><li><pre>x\n\ny</pre></ul></blockquote>",
		"<a href='x'><div><h1>t</h1></div></a>", "<b><p>x</b>y</p>", "\xff\xfe<p>\x80</p>",
		"<h1>#</h1><p>1. _a_ *b* [c] <d> \\e</p>", "<ul><li><input type=checkbox checked>x</ul>",
		"<code>`</code><kbd>``</kbd>", "<br><br><br>x<br>", "<svg><p>x</svg>", strings.Repeat("<ul><li>", 100),
		strings.Repeat("<blockquote>", 50) + "x", "<img src='data:x' alt='\x00'>", "<p>a&nbsp;&shy;&#0;b</p>",
	} {
		f.Add([]byte(seed), false, false, false)
	}
	f.Fuzz(func(t *testing.T, page []byte, flatten, strike, tasks bool) {
		o := Options{Strikethrough: strike, TaskList: tasks, BaseURL: mustURL("https://example.com/a/b.html")}
		if flatten {
			o.Tables = TablesFlatten
		}
		out := Convert(page, o)
		if !utf8.ValidString(out) {
			t.Fatalf("invalid UTF-8 for %q: %q", page, out)
		}
		if out != "" && (!strings.HasSuffix(out, "\n") || strings.HasSuffix(out, "\n\n")) {
			t.Fatalf("does not end with a single newline for %q: %q", page, out)
		}
		if out == "\n" {
			t.Fatalf("a lone newline for %q", page)
		}
	})
}

// FuzzDecode: any bytes with any declared type decode to valid UTF-8 or a
// conversion error.
func FuzzDecode(f *testing.F) {
	f.Add([]byte("<meta charset=euc-kr>\xc7\xd1"), "")
	f.Add([]byte("\xff\xfe<\x00"), "text/html; charset=utf-8")
	f.Add([]byte("caf\xe9"), "text/html; charset=iso-2022-jp")
	f.Fuzz(func(t *testing.T, body []byte, ct string) {
		out, _, err := Decode(body, ct)
		if err == nil && !utf8.Valid(out) {
			t.Fatalf("invalid UTF-8 from %q (%q)", body, ct)
		}
		if err != nil {
			if e, ok := err.(*Error); !ok || e.Code != ErrConversion {
				t.Fatalf("error %v", err)
			}
		}
	})
}

// FuzzRobots: parsing and matching any robots.txt and path terminates
// without panic.
func FuzzRobots(f *testing.F) {
	f.Add("User-agent: *\nDisallow: /a*b$\nAllow: /%7e", "/a/b")
	f.Fuzz(func(t *testing.T, robots, path string) {
		ParseRobots([]byte(robots)).Allowed("mm", path)
	})
}
