package tools

import (
	"slices"
	"testing"
)

func TestFindOldPasses(t *testing.T) {
	for _, tc := range []struct {
		name, text, old string
		pass            matchPass
		count           int
		lines           []int
		region          string // text[start:end] when count == 1
	}{
		{"exact", "a\nfoo\nb\n", "foo", passExact, 1, []int{2}, "foo"},
		{"exact inside a longer line", "xfooy\n", "foo", passExact, 1, []int{1}, "foo"},
		{"exact beats edges", "  foo\n\tfoo\n", "  foo", passExact, 1, []int{1}, "  foo"},
		{"edges: lone line", "\tfoo\n", "    foo", passEdges, 1, []int{1}, "\tfoo"},
		{"edges: line breaks", "a\n  foo\nb", "\nfoo\n", passEdges, 1, []int{2}, "  foo"},
		{"edges: only trailing", "foo\tbar\n", "foo  ", passEdges, 1, []int{1}, "foo"},
		{"edges: mid-line after a space", "x = foo\n", "\tfoo", passEdges, 1, []int{1}, "foo"},
		{"edges need whitespace before", "xfoo\n", " foo", passNone, 0, nil, ""},
		{"edges need whitespace after", "foox\n", "foo ", passNone, 0, nil, ""},
		{"edges need a line start", "x foo\n", "\nfoo", passNone, 0, nil, ""},
		{"edges need a line end", "foo x\n", "foo\n", passNone, 0, nil, ""},
		{"edges at the end of the file", "a\nfoo", "\nfoo\n", passEdges, 1, []int{2}, "foo"},
		{"indent", "\tif x {\n\t\ty()\n\t}\n", "if x {\n    y()\n}", passIndent, 1, []int{1}, "\tif x {\n\t\ty()\n\t}"},
		{"indent: blank lines match blank lines", "a\n \nb\n", "  a\n\n  b", passIndent, 1, []int{1}, "a\n \nb"},
		{"indent: region stops before CR", "\ta\r\n\tb\r\nc", "a\n b", passIndent, 1, []int{1}, "\ta\r\n\tb"},
		{"indent needs two lines", "\tfoo  bar\n", "foo bar", passNone, 0, nil, ""},
		{"indent needs the lines in sequence", "\ta\nx\n\tb\n", "a\nb", passNone, 0, nil, ""},
		{"indent: file too short", "\ta\n", "a\n b", passNone, 0, nil, ""},
		{"ambiguous exact", "foo\nfoo\n", "foo", passExact, 2, []int{1, 2}, ""},
		{"ambiguous edges", "\tfoo\n  foo\n", "\n foo\n", passEdges, 2, []int{1, 2}, ""},
		{"ambiguous indent", "\ta\n\tb\n  a\n  b\n", "a\nb\n", passIndent, 2, []int{1, 3}, ""},
		{"ambiguous indent (two lines)", "\ta\n\tb\n  a\n  b\n", " a\n b", passIndent, 2, []int{1, 3}, ""},
		{"empty old", "a", "", passNone, 0, nil, ""},
		{"blank old", "a\n\n", "\n\n\n", passNone, 0, nil, ""},
	} {
		m := findOld(tc.text, tc.old)
		if m.pass != tc.pass || m.count != tc.count || !slices.Equal(m.lines, tc.lines) {
			t.Errorf("%s: pass %d count %d lines %v; want pass %d count %d lines %v", tc.name, m.pass, m.count, m.lines, tc.pass, tc.count, tc.lines)
			continue
		}
		if tc.count == 1 && tc.text[m.start:m.end] != tc.region {
			t.Errorf("%s: region %q, want %q", tc.name, tc.text[m.start:m.end], tc.region)
		}
	}
}

func TestFindOldPicksExactFirstEvenWhenTolerantIsUnique(t *testing.T) {
	// "foo" is twice in the file byte for byte: ambiguous, even though a
	// tolerant pass would have found a single place for the padded form.
	m := findOld("foo\nfoo\n", "foo")
	if m.pass != passExact || m.count != 2 {
		t.Fatalf("got pass %d count %d", m.pass, m.count)
	}
}

func TestDetectIndentStyle(t *testing.T) {
	for _, tc := range []struct {
		text string
		want indentStyle
	}{
		{"a\nb\n", indentStyle{}},
		{"a\n\tb\n\t\tc\n", indentStyle{tabs: true, unit: 4, known: true}},
		{"a\n  b\n    c\n  d\n", indentStyle{unit: 2, known: true}},
		{"a\n    b\n        c\n      d (alignment)\n", indentStyle{unit: 4, known: true}},
		{"a\n\tb\n  c\n\td\n", indentStyle{tabs: true, unit: 4, known: true}},
		{"a\n   \n\n", indentStyle{}},
	} {
		if got := detectIndentStyle(tc.text); got != tc.want {
			t.Errorf("detectIndentStyle(%q) = %+v, want %+v", tc.text, got, tc.want)
		}
	}
}

func TestReplacementReindents(t *testing.T) {
	tab := "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n"
	spaces := "def f():\n    if x:\n        y()\n"
	for _, tc := range []struct {
		name, text, old, new, want string
	}{
		{"spaces to tabs, deeper line extrapolated", tab, "    if x {\n        y()\n    }", "    if x {\n            deep()\n    }", "\tif x {\n\t\t\tdeep()\n\t}"},
		{"shallower than old", tab, "    if x {\n        y()\n    }", "return\n    if x {\n        y()\n    }", "return\n\tif x {\n\t\ty()\n\t}"},
		{"tabs to spaces", spaces, "\tif x:\n\t\ty()", "\tif x:\n\t\ty()\n\tz()", "    if x:\n        y()\n    z()"},
		{"spaces to spaces keep columns", spaces, "  if x:\n      y()", "  if x:\n      z()\n        w()", "    if x:\n        z()\n          w()"},
		{"alignment spaces after tabs survive", tab, "    if x {\n        y()", "    if x {\n        y(a,\n          b)", "\tif x {\n\t\ty(a,\n\t\t  b)"},
		{"blank and whitespace-only lines become empty", tab, "    if x {\n        y()", "    if x {\n\n   \t \n        y()", "\tif x {\n\n\n\t\ty()"},
	} {
		m := findOld(tc.text, tc.old)
		if m.count != 1 || m.pass == passExact {
			t.Fatalf("%s: match %+v", tc.name, m)
		}
		_, _, got := replacement(tc.text, tc.old, tc.new, m, detectIndentStyle(tc.text))
		if got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestStripPadding(t *testing.T) {
	for _, tc := range []struct {
		new         string
		lead, trail int
		trailing    bool
		want        string
	}{
		{"\nfoo\n", 1, 1, true, "foo"},
		{"\n\nfoo\n", 1, 1, true, "\nfoo"},    // one more line break before: a blank line added
		{"\nfoo\n\n", 1, 1, true, "foo\n"},    // one more after
		{"foo", 2, 2, true, "foo"},            // new without padding
		{"\n    foo", 1, 0, false, "    foo"}, // the first line's indentation stays
		{"foo   ", 0, 0, true, "foo"},         // old had trailing spaces
		{"foo   ", 0, 0, false, "foo   "},     // old had none: new's are kept
		{"foo\n    ", 0, 1, true, "foo"},      // the next line's indentation copied
		{"\n", 1, 1, true, ""},                // whitespace only: nothing beyond the padding
		{"\n\n\n", 1, 1, true, "\n"},
	} {
		if got := stripPadding(tc.new, tc.lead, tc.trail, tc.trailing); got != tc.want {
			t.Errorf("stripPadding(%q, %d, %d, %v) = %q, want %q", tc.new, tc.lead, tc.trail, tc.trailing, got, tc.want)
		}
	}
}

func TestConvertIndentKind(t *testing.T) {
	tabs := indentStyle{tabs: true, unit: 4, known: true}
	spaces := indentStyle{unit: 4, known: true}
	for _, tc := range []struct {
		new       string
		firstLine bool
		style     indentStyle
		want      string
	}{
		{"    a\n        b", true, tabs, "\ta\n\t\tb"},
		{"x()\n    a", false, tabs, "x()\n\ta"},
		{"    x()\n  a", false, tabs, "    x()\n\ta"}, // mid-line first line untouched; unit from the model's text (2)
		{"\ta\n\t\tb", true, tabs, "\ta\n\t\tb"},
		{"\ta\n\t\tb", true, spaces, "    a\n        b"},
		{"a\n    \n", true, tabs, "a\n    \n"}, // whitespace-only lines as written
		{"  a", true, indentStyle{}, "  a"},    // unknown style: as written
	} {
		if got := convertIndentKind(tc.new, tc.firstLine, tc.style); got != tc.want {
			t.Errorf("convertIndentKind(%q, %v, %+v) = %q, want %q", tc.new, tc.firstLine, tc.style, got, tc.want)
		}
	}
}
