package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// editCase is one edit_file call on a file main.go holding file.
type editCase struct {
	name   string
	file   string
	edits  []fileEdit
	dryRun bool
	// want is the whole output, or its start when it ends with "…".
	want string
	// after is the file once the call returned; "" means unchanged.
	after string
}

func runEditCases(t *testing.T, cases []editCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			o := fileDir(t, map[string]string{"main.go": tc.file})
			args := editArgsOf("main.go", tc.edits...)
			if tc.dryRun {
				args["dry_run"] = true
			}
			got := runFileTool(t, NewEditFile(o), args)
			if prefix, ok := strings.CutSuffix(tc.want, "…"); ok {
				if !strings.HasPrefix(got, prefix) {
					t.Errorf("output:\n%s\nwant it to start with:\n%s", got, prefix)
				}
			} else if got != tc.want {
				t.Errorf("output:\n%s\nwant:\n%s", got, tc.want)
			}
			after := tc.after
			if after == "" {
				after = tc.file
			}
			if content := fileText(t, o, "main.go"); content != after {
				t.Errorf("file:\n%q\nwant:\n%q", content, after)
			}
			noTempFiles(t, o.Dir)
		})
	}
}

func TestEditExact(t *testing.T) {
	runEditCases(t, []editCase{
		{
			name:  "one line",
			file:  "a\nb\nc\n",
			edits: []fileEdit{{"b", "B"}},
			want:  "main.go: 1 edit applied, +1 -1 lines, first change at line 2\n1  │ a\n2 -│ b\n2 +│ B\n3  │ c",
			after: "a\nB\nc\n",
		},
		{
			name:  "empty new deletes",
			file:  "a\nb\nc\n",
			edits: []fileEdit{{"b\n", ""}},
			want:  "main.go: 1 edit applied, +0 -1 lines, first change at line 2\n1  │ a\n2 -│ b\n2  │ c",
			after: "a\nc\n",
		},
		{
			name:  "several edits resolved against the original, in any order",
			file:  "one\ntwo\nthree\nfour\nfive\nsix\nseven\neight\nnine\nten\n",
			edits: []fileEdit{{"nine", "9"}, {"two", "2\n2b"}},
			want: "main.go: 2 edits applied, +3 -2 lines, first change at line 2\n" +
				" 1  │ one\n 2 -│ two\n 2 +│ 2\n 3 +│ 2b\n 4  │ three\n 5  │ four\n…\n" +
				" 8  │ seven\n 9  │ eight\n 9 -│ nine\n10 +│ 9\n11  │ ten",
			after: "one\n2\n2b\nthree\nfour\nfive\nsix\nseven\neight\n9\nten\n",
		},
		{
			name:  "two edits on one line",
			file:  "x = a + b\n",
			edits: []fileEdit{{"a", "1"}, {"b", "2"}},
			want:  "main.go: 2 edits applied, +1 -1 lines, first change at line 1\n1 -│ x = a + b\n1 +│ x = 1 + 2",
			after: "x = 1 + 2\n",
		},
		{
			name:  "edits are not cascaded",
			file:  "a\n",
			edits: []fileEdit{{"a", "b"}, {"b", "c"}},
			want: "main.go: edit #2: old text not found — it must match the file exactly, including indentation and line breaks:\n│ b\n" +
				"(old is in the new text of edit #1: every edit applies to the original file, never to another edit's result)\n\n" +
				"nothing written: the 2 edits of a call apply together or not at all — send them all again, corrected",
		},
		{
			name:  "no final newline",
			file:  "a\nb",
			edits: []fileEdit{{"b", "c"}},
			want:  "main.go: 1 edit applied, +1 -1 lines, first change at line 2\n1  │ a\n2 -│ b\n\\ No newline at end of file\n2 +│ c\n\\ No newline at end of file",
			after: "a\nc",
		},
		{
			name:  "exact wins over tolerant: the byte-exact place is taken even when a tolerant one exists",
			file:  "\tfoo()\n  foo()\n",
			edits: []fileEdit{{"  foo()", "  bar()"}},
			want:  "main.go: 1 edit applied, +1 -1 lines, first change at line 2\n1  │ \tfoo()\n2 -│   foo()\n2 +│   bar()",
			after: "\tfoo()\n  bar()\n",
		},
		{
			name:  "an exact match in a tab-indented file gets tabs for the model's spaces",
			file:  "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n",
			edits: []fileEdit{{"\t\ty()\n", "\t\ty()\n        z()\n            w()\n"}},
			want:  "main.go: 1 edit applied, +2 -0 lines, first change at line 4…",
			after: "func f() {\n\tif x {\n\t\ty()\n\t\tz()\n\t\t\tw()\n\t}\n}\n",
		},
	})
}

func TestEditEdges(t *testing.T) {
	runEditCases(t, []editCase{
		{
			name:  "indentation kept on a lone line",
			file:  "func f() {\n\tx := 1\n}\n",
			edits: []fileEdit{{"    x := 1", "    x := 2"}},
			want:  "main.go: 1 edit applied, +1 -1 lines, first change at line 2 · 1 matched ignoring whitespace\n1  │ func f() {\n2 -│ \tx := 1\n2 +│ \tx := 2\n3  │ }",
			after: "func f() {\n\tx := 2\n}\n",
		},
		{
			name:  "leading and trailing line breaks",
			file:  "a\nfoo()\nb\n",
			edits: []fileEdit{{"\n\nfoo()\n\n", "\n\nbar()\n\n"}},
			want:  "main.go: 1 edit applied, +1 -1 lines, first change at line 2 · 1 matched ignoring whitespace…",
			after: "a\nbar()\nb\n",
		},
		{
			name:  "new without the padding",
			file:  "a\nfoo()\nb\n",
			edits: []fileEdit{{"\n\nfoo()\n\n", "bar()"}},
			want:  "main.go: 1 edit applied, +1 -1 lines, first change at line 2 · 1 matched ignoring whitespace…",
			after: "a\nbar()\nb\n",
		},
		{
			name:  "a deliberate blank line in new is still added",
			file:  "a\n\tfoo()\nb\n",
			edits: []fileEdit{{"    foo()\n", "    foo()\n\n    bar()\n"}},
			want:  "main.go: 1 edit applied, +2 -0 lines, first change at line 3 · 1 matched ignoring whitespace…",
			after: "a\n\tfoo()\n\n\tbar()\nb\n",
		},
		{
			name:  "a deliberate blank line after, beyond old's padding",
			file:  "a\n  foo()\nb\n",
			edits: []fileEdit{{"\nfoo()\n", "\nfoo()\n\n"}},
			want:  "main.go: 1 edit applied, +1 -0 lines, first change at line 3 · 1 matched ignoring whitespace…",
			after: "a\n  foo()\n\nb\n",
		},
		{
			name:  "a whole line deleted goes with its line break",
			file:  "a\n\tfoo()\nb\n",
			edits: []fileEdit{{"  foo()\n", ""}},
			want:  "main.go: 1 edit applied, +0 -1 lines, first change at line 2 · 1 matched ignoring whitespace…",
			after: "a\nb\n",
		},
		{
			name:  "a whole line deleted when old left out its indentation",
			file:  "a\n\tfoo()  \nb\n",
			edits: []fileEdit{{"foo()\n", ""}},
			want:  "main.go: 1 edit applied, +0 -1 lines, first change at line 2 · 1 matched ignoring whitespace…",
			after: "a\nb\n",
		},
		{
			name:  "multi-line new re-indented to the file",
			file:  "func f() {\n\t\tfoo()\n}\n",
			edits: []fileEdit{{"    foo()", "    if ok {\n        foo()\n    }"}},
			want:  "main.go: 1 edit applied, +3 -1 lines, first change at line 2 · 1 matched ignoring whitespace…",
			after: "func f() {\n\t\tif ok {\n\t\t\tfoo()\n\t\t}\n}\n",
		},
		{
			name:  "trailing spaces around old",
			file:  "x := f(a)\ny\n",
			edits: []fileEdit{{"x := f(a)   ", "x := f(b)   "}},
			want:  "main.go: 1 edit applied, +1 -1 lines, first change at line 1 · 1 matched ignoring whitespace…",
			after: "x := f(b)\ny\n",
		},
		{
			name:  "the file needs whitespace where old has it: x := 1 is not inside max := 1",
			file:  "max := 1\n",
			edits: []fileEdit{{"  x := 1", "  x := 2"}},
			want:  "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n│   x := 1",
		},
		{
			name:  "a line break in old needs one in the file",
			file:  "a := foo()\n",
			edits: []fileEdit{{"\nfoo()", "\nbar()"}},
			want:  "main.go: edit #1: old text not found…",
		},
	})
}

func TestEditIndentation(t *testing.T) {
	goFile := "func f() {\n\tif x {\n\t\ty()\n\t}\n}\n"
	runEditCases(t, []editCase{
		{
			name:  "spaces for tabs",
			file:  goFile,
			edits: []fileEdit{{"    if x {\n        y()\n    }", "    if x {\n        y()\n        z()\n    }"}},
			want: "main.go: 1 edit applied, +1 -0 lines, first change at line 4 · 1 matched ignoring whitespace\n" +
				"2  │ \tif x {\n3  │ \t\ty()\n4 +│ \t\tz()\n5  │ \t}\n6  │ }",
			after: "func f() {\n\tif x {\n\t\ty()\n\t\tz()\n\t}\n}\n",
		},
		{
			name:  "two-space model in a tab file",
			file:  goFile,
			edits: []fileEdit{{"  if x {\n    y()\n  }", "  if x {\n    y()\n  } else {\n    z()\n  }"}},
			want:  "main.go: 1 edit applied, +2 -0 lines, first change at line 4 · 1 matched ignoring whitespace…",
			after: "func f() {\n\tif x {\n\t\ty()\n\t} else {\n\t\tz()\n\t}\n}\n",
		},
		{
			name:  "tabs for spaces",
			file:  "def f():\n    if x:\n        y()\n",
			edits: []fileEdit{{"\tif x:\n\t\ty()", "\tif x:\n\t\tz()\n\t\t\tw()"}},
			want:  "main.go: 1 edit applied, +2 -1 lines, first change at line 3 · 1 matched ignoring whitespace…",
			after: "def f():\n    if x:\n        z()\n            w()\n",
		},
		{
			name:  "flattened old",
			file:  goFile,
			edits: []fileEdit{{"if x {\ny()\n}", "if x {\ny()\nz()\n}"}},
			want:  "main.go: 1 edit applied, +1 -0 lines, first change at line 4 · 1 matched ignoring whitespace…",
			after: "func f() {\n\tif x {\n\t\ty()\n\t\tz()\n\t}\n}\n",
		},
		{
			name:  "an empty line stays empty",
			file:  goFile,
			edits: []fileEdit{{"  if x {\n    y()\n  }", "  if x {\n    y()\n\n    z()\n      \n  }"}},
			want:  "main.go: 1 edit applied, +3 -0 lines, first change at line 4 · 1 matched ignoring whitespace…",
			after: "func f() {\n\tif x {\n\t\ty()\n\n\t\tz()\n\n\t}\n}\n",
		},
		{
			name:  "trailing whitespace on a line is forgiven",
			file:  "a  \nb\t\nc\n",
			edits: []fileEdit{{"a\nb", "A\nB"}},
			want:  "main.go: 1 edit applied, +2 -2 lines, first change at line 1 · 1 matched ignoring whitespace…",
			after: "A\nB\nc\n",
		},
		{
			name:  "whole lines only: a longer line does not match",
			file:  "\tif x {\n\t\ty() // call\n\t}\n",
			edits: []fileEdit{{"  if x {\n    y()", "z"}},
			want:  "main.go: edit #1: old text not found…",
		},
		{
			name:  "interior whitespace is not forgiven",
			file:  "\tif x {\n\t\ty()\n",
			edits: []fileEdit{{"  if  x {\n    y()", "z"}},
			want:  "main.go: edit #1: old text not found…",
		},
		{
			name:  "the whole lines deleted go with their line break",
			file:  "a\n\tif x {\n\t\ty()\n\t}\nb\n",
			edits: []fileEdit{{"  if x {\n    y()\n  }\n", ""}},
			want:  "main.go: 1 edit applied, +0 -3 lines, first change at line 2 · 1 matched ignoring whitespace…",
			after: "a\nb\n",
		},
		{
			name:  "new deeper than old goes one level deeper",
			file:  "x\n\tfoo()\n",
			edits: []fileEdit{{"  foo()", "    foo()"}},
			want:  "main.go: 1 edit applied, +1 -1 lines, first change at line 2 · 1 matched ignoring whitespace…",
			after: "x\n\t\tfoo()\n",
		},
		{
			name:  "count of tolerant matches",
			file:  "\tif x {\n\t\ty()\n\t}\nfoo\n\tbar()\n",
			edits: []fileEdit{{"  if x {\n    y()", "\tif x {\n\t\tz()"}, {"foo", "FOO"}, {"  bar()", "  baz()"}},
			want:  "main.go: 3 edits applied, +3 -3 lines, first change at line 2 · 2 matched ignoring whitespace…",
			after: "\tif x {\n\t\tz()\n\t}\nFOO\n\tbaz()\n",
		},
	})
}

func TestEditUniqueness(t *testing.T) {
	const advice = " — to change ONE of them, include its surrounding lines in old until the text is unique; to change several, send one edit per place"
	many := strings.Repeat("x\n", 12)
	runEditCases(t, []editCase{
		{
			name:  "exact",
			file:  "a\nfoo\nb\nfoo\n",
			edits: []fileEdit{{"foo", "bar"}},
			want:  "main.go: edit #1: old text appears 2 times (lines 2, 4)" + advice + "…",
		},
		{
			name:  "exact, old starting with a line break names the line of its text",
			file:  "a\nfoo\nb\nfoo\n",
			edits: []fileEdit{{"\nfoo", "\nbar"}},
			want:  "main.go: edit #1: old text appears 2 times (lines 2, 4)" + advice + "…",
		},
		{
			name:  "edges",
			file:  "\tfoo()\nx\n\t\tfoo()\n",
			edits: []fileEdit{{"  foo()", "  bar()"}},
			want:  "main.go: edit #1: old text appears 2 times (lines 1, 3)" + advice + "…",
		},
		{
			name:  "indentation",
			file:  "\ta\n\tb\nx\n  a\n  b\n",
			edits: []fileEdit{{"a\n    b", "c"}},
			want:  "main.go: edit #1: old text appears 2 times (lines 1, 4)" + advice + "…",
		},
		{
			name:  "more than ten",
			file:  many,
			edits: []fileEdit{{"x", "y"}},
			want:  "main.go: edit #1: old text appears 12 times (lines 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, …)" + advice + "…",
		},
		{
			name:  "overlapping occurrences count",
			file:  "aaa\n",
			edits: []fileEdit{{"aa", "b"}},
			want:  "main.go: edit #1: old text appears 2 times (lines 1, 1)" + advice + "…",
		},
		{
			name:  "one ambiguous edit refuses the others",
			file:  "a\nfoo\nfoo\n",
			edits: []fileEdit{{"a", "A"}, {"foo", "bar"}},
			want:  "main.go: edit #2: old text appears 2 times (lines 2, 3)" + advice + "…",
		},
	})
}

func TestEditOverlaps(t *testing.T) {
	file := "a\nb\nc\nd\ne\n"
	runEditCases(t, []editCase{
		{
			name:  "repeated",
			file:  file,
			edits: []fileEdit{{"b", "B"}, {"c", "C"}, {"b", "X"}},
			want: "main.go: edit #3 repeats edit #1: both change the same text (line 2) — send each change once\n\n" +
				"nothing written: the 3 edits of a call apply together or not at all — send them all again, corrected",
		},
		{
			name:  "nested",
			file:  file,
			edits: []fileEdit{{"b\nc\nd", "x"}, {"c", "C"}},
			want: "main.go: edit #2 (line 3) lies inside edit #1 (lines 2-4) — merge them into one edit\n\n" +
				"nothing written: the 2 edits of a call apply together or not at all — send them all again, corrected",
		},
		{
			name:  "overlapping",
			file:  file,
			edits: []fileEdit{{"c\nd", "x"}, {"b\nc", "y"}},
			want: "main.go: edits #1 (lines 2-3) and #2 (lines 3-4) overlap — merge them into one edit\n\n" +
				"nothing written: the 2 edits of a call apply together or not at all — send them all again, corrected",
		},
		{
			name:  "adjacent is fine",
			file:  file,
			edits: []fileEdit{{"b\n", "B\n"}, {"c\n", "C\n"}},
			want:  "main.go: 2 edits applied, +2 -2 lines, first change at line 2…",
			after: "a\nB\nC\nd\ne\n",
		},
	})
}

func TestEditRefusals(t *testing.T) {
	runEditCases(t, []editCase{
		{
			name:  "empty old",
			file:  "a\n",
			edits: []fileEdit{{"", "x"}},
			want:  "main.go: edit #1: old is empty — copy the exact text to replace from the file (to create a file, use write_file)",
		},
		{
			name:  "old equal to new",
			file:  "a\n",
			edits: []fileEdit{{"a", "a"}},
			want:  "main.go: edit #1: old and new are the same — this edit changes nothing",
		},
		{
			name:  "blank old",
			file:  "a\n\nb\n",
			edits: []fileEdit{{"  \n ", "x"}},
			want:  "main.go: edit #1: old text not found…",
		},
		{
			name:  "several failures are all named",
			file:  "a\nb\n",
			edits: []fileEdit{{"zz", "1"}, {"b", "B"}, {"", "2"}},
			want: "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n│ zz\n\n" +
				"main.go: edit #3: old is empty — copy the exact text to replace from the file (to create a file, use write_file)\n\n" +
				"nothing written: the 3 edits of a call apply together or not at all — send them all again, corrected",
		},
		{
			name:  "line numbers copied from read_file",
			file:  "a\nb\n",
			edits: []fileEdit{{"1│ a\n2│ b", "x"}},
			want: "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n" +
				"│ 1│ a\n│ 2│ b\n(old carries the line numbers read_file adds: they are not part of the file — leave them out)",
		},
		{
			name:  "re-indented new equal to the file",
			file:  "\tfoo()\n",
			edits: []fileEdit{{"  foo()\n", "  foo()"}},
			want:  "main.go: the edits leave the file as it is — nothing written",
		},
	})

	o := fileDir(t, map[string]string{"bin": "a\x00b\n", "latin1": "caf\xe9\n", "d/x": ""})
	e := NewEditFile(o)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{editArgsOf("missing.go", fileEdit{"a", "b"}), "missing.go does not exist. Create it with write_file"},
		{editArgsOf("bin", fileEdit{"a", "b"}), "bin is a binary file (it contains NUL bytes) — edit_file edits UTF-8 text only"},
		{editArgsOf("latin1", fileEdit{"caf", "b"}), "latin1 is not UTF-8 text — edit_file edits UTF-8 text only"},
		{editArgsOf("d", fileEdit{"a", "b"}), "d is a directory, not a file"},
		{editArgsOf(""), "[error: edit_file needs a path]"},
		{map[string]any{"path": "bin", "edits": []any{}}, `[error: edit_file needs edits: [{"old": "<exact text>", "new": "<replacement>"}]]`},
		{map[string]any{"path": "latin1", "edits": []any{map[string]any{"old": "caf"}}}, `latin1 is not UTF-8 text — edit_file edits UTF-8 text only`},
	} {
		if got := runFileTool(t, e, tc.args); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.args, got, tc.want)
		}
	}
	if fileText(t, o, "bin") != "a\x00b\n" || fileText(t, o, "latin1") != "caf\xe9\n" {
		t.Fatal("a refused file changed")
	}
	o = fileDir(t, map[string]string{"m.go": "a\n"})
	if got := runFileTool(t, NewEditFile(o), map[string]any{"path": "m.go", "edits": []any{map[string]any{"old": "a"}}}); got != `m.go: edit #1: new is missing — send "new": "" to delete the text` {
		t.Errorf("missing new: %q", got)
	}
	if got := NewEditFile(o).Run(t.Context(), json.RawMessage(`{"path":"m.go","edits":"a"}`)); !strings.HasPrefix(got, "[error: edit_file: bad arguments: ") {
		t.Errorf("bad JSON: %q", got)
	}
}

// TestEditNotFoundReference reproduces the reference's own example byte for
// byte.
func TestEditNotFoundReference(t *testing.T) {
	runEditCases(t, []editCase{{
		name:  "reference",
		file:  "package main\n\nfunc main() {\ncount := 1\nprint(count)\n}\n",
		edits: []fileEdit{{"func main() {\ncount := 2\nprint(count)\n}", "func main() {\ncount := 3\nprint(count)\n}"}},
		want: "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n" +
			"│ func main() {\n" +
			"│ count := 2\n" +
			"│ print(count)\n" +
			"│ }\n" +
			"the closest the file comes to it — copy these lines:\n" +
			"│ 3 │ func main() {\n" +
			"│ 4 │ count := 1\n" +
			"│ 5 │ print(count)\n" +
			"│ 6 │ }",
	}})
}

func TestEditNotFoundClosestRegion(t *testing.T) {
	var long strings.Builder
	for i := 1; i <= 12; i++ {
		long.WriteString("line\n")
	}
	long.WriteString("\tfunc g() {\n\t\treturn 1\n\t}\n")
	runEditCases(t, []editCase{
		{
			name:  "half of the lines coincide: shown, verbatim, with real numbers",
			file:  long.String(),
			edits: []fileEdit{{"func g() {\n    return 2\n}\n", "x"}},
			want: "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n" +
				"│ func g() {\n│     return 2\n│ }\n" +
				"the closest the file comes to it — copy these lines:\n" +
				"│ 13 │ \tfunc g() {\n│ 14 │ \t\treturn 1\n│ 15 │ \t}",
		},
		{
			name:  "exactly half: shown",
			file:  "a\nb\nc\nd\n",
			edits: []fileEdit{{"a\nX", "y"}},
			want: "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n" +
				"│ a\n│ X\nthe closest the file comes to it — copy these lines:\n│ 1 │ a\n│ 2 │ b",
		},
		{
			name:  "less than half: nothing shown",
			file:  "a\nb\nc\nd\n",
			edits: []fileEdit{{"a\nX\nY", "y"}},
			want:  "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n│ a\n│ X\n│ Y",
		},
		{
			name:  "the best window is the first with the most coinciding lines",
			file:  "f()\nx\ng()\nf()\ny\ng()\nh()\n",
			edits: []fileEdit{{"f()\nz\ng()\nh()", "w"}},
			want: "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n" +
				"│ f()\n│ z\n│ g()\n│ h()\nthe closest the file comes to it — copy these lines:\n│ 4 │ f()\n│ 5 │ y\n│ 6 │ g()\n│ 7 │ h()",
		},
		{
			name:  "a window past the end of the file is not offered",
			file:  "a\nb\n",
			edits: []fileEdit{{"b\nc\nd", "y"}},
			want:  "main.go: edit #1: old text not found — it must match the file exactly, including indentation and line breaks:\n│ b\n│ c\n│ d",
		},
	})
}

func TestEditDryRun(t *testing.T) {
	runEditCases(t, []editCase{{
		name:   "dry run",
		file:   "a\nb\n",
		edits:  []fileEdit{{"b", "c"}},
		dryRun: true,
		want:   "main.go: dry run, nothing written: 1 edit would apply, +1 -1 lines, first change at line 2\n1  │ a\n2 -│ b\n2 +│ c",
	}})
	o := fileDir(t, map[string]string{"main.go": "a\n"})
	p := filepath.Join(o.Dir, "main.go")
	before := fileInode(t, p)
	raw, _ := json.Marshal(map[string]any{"path": "main.go", "edits": []fileEdit{{"a", "b"}}, "dry_run": true})
	c, failure := PlanEdit(o, raw)
	if failure != "" || !c.DryRun || c.New != "b\n" {
		t.Fatalf("plan: %q %+v", failure, c)
	}
	if NewEditFile(o).Run(t.Context(), raw) != c.Report || fileInode(t, p) != before {
		t.Fatal("a dry run wrote the file")
	}
}

func TestEditCRLF(t *testing.T) {
	runEditCases(t, []editCase{
		{
			name:  "old with LF matches a CRLF file; new is written with CRLF",
			file:  "a\r\nb\r\nc\r\n",
			edits: []fileEdit{{"a\nb\n", "a\nB\nx\n"}},
			want:  "main.go: 1 edit applied, +2 -1 lines, first change at line 2\n1  │ a\n2 -│ b\n2 +│ B\n3 +│ x\n4  │ c",
			after: "a\r\nB\r\nx\r\nc\r\n",
		},
		{
			name:  "old with CRLF too",
			file:  "a\r\nb\r\n",
			edits: []fileEdit{{"a\r\nb", "A\r\nB"}},
			want:  "main.go: 1 edit applied…",
			after: "A\r\nB\r\n",
		},
		{
			name:  "tolerant passes in a CRLF file",
			file:  "x\r\n\tif a {\r\n\t\tb()\r\n\t}\r\n",
			edits: []fileEdit{{"    if a {\n        b()\n    }", "    if a {\n        c()\n    }"}},
			want:  "main.go: 1 edit applied, +1 -1 lines, first change at line 3 · 1 matched ignoring whitespace…",
			after: "x\r\n\tif a {\r\n\t\tc()\r\n\t}\r\n",
		},
		{
			name:  "an LF file gets no CR from new",
			file:  "a\nb\n",
			edits: []fileEdit{{"a\n", "A\r\nA2\r\n"}},
			want:  "main.go: 1 edit applied…",
			after: "A\nA2\nb\n",
		},
		{
			name:  "a mixed file is left as it is around the edit",
			file:  "a\r\nb\nc\r\n",
			edits: []fileEdit{{"b", "B"}},
			want:  "main.go: 1 edit applied…",
			after: "a\r\nB\nc\r\n",
		},
		{
			name:  "a byte-order mark stays",
			file:  "\uFEFFpackage x\n",
			edits: []fileEdit{{"package x", "package y"}},
			want:  "main.go: 1 edit applied…",
			after: "\uFEFFpackage y\n",
		},
	})
}

func TestEditLargeNewIsTruncated(t *testing.T) {
	o := fileDir(t, map[string]string{"main.go": "a\n"})
	o.MaxOutput = 500
	big := strings.Repeat("added line\n", 200)
	got := runFileTool(t, NewEditFile(o), editArgsOf("main.go", fileEdit{"a\n", big}))
	if !strings.HasPrefix(got, "main.go: 1 edit applied, +200 -1 lines") || !strings.Contains(got, " characters cut ...]") {
		t.Fatalf("got %q", got[:min(len(got), 200)])
	}
	if fileText(t, o, "main.go") != big {
		t.Fatal("content")
	}
}

func TestEditKeepsMode(t *testing.T) {
	o := fileDir(t, map[string]string{"main.go": "a\n"})
	p := filepath.Join(o.Dir, "main.go")
	if err := os.Chmod(p, 0o740); err != nil {
		t.Fatal(err)
	}
	runFileTool(t, NewEditFile(o), editArgsOf("main.go", fileEdit{"a", "b"}))
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o740 || fileText(t, o, "main.go") != "b\n" {
		t.Fatalf("mode %v, content %q", info.Mode().Perm(), fileText(t, o, "main.go"))
	}
}
