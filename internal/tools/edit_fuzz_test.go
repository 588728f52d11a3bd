package tools

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var fuzzSeeds = []struct{ text, old, new string }{
	{"a\nb\nc\n", "b", "B"},
	{"func f() {\n\tif x {\n\t\ty()\n\t}\n}\n", "    if x {\n        y()\n    }", "    if x {\n        z()\n    }"},
	{"func f() {\n\tx := 1\n}\n", "    x := 1", "    x := 2\n    y := 3"},
	{"a\n\tfoo()\nb\n", "  foo()\n", ""},
	{"a\r\nb\r\nc\r\n", "a\nb\n", "a\nB\n"},
	{"aaa\n", "aa", "b"},
	{"max := 1\n", "  x := 1", "y"},
	{"\uFEFFx\n", "x", "y"},
	{"a\n\n\nb", "\n\n", "\n"},
	{"\tif x {\n\t\ty()\n\t}\n", "if x {\ny()\n}", "if x {\ny()\nz()\n}"},
	{"a  \nb\t\nc", "a\nb", ""},
	{"x\n", "\n", "\n\n"},
	{"a\r\nb\nc\r\n", " b\n", "  c\n"},
	{"a\x00b", "a", "b"},
	{"caf\xe9", "caf", "x"},
	{"", "x", "y"},
}

// FuzzMatch: findOld never panics, and what it reports holds: the region
// of a unique match is what its pass promises, and the first pass that
// finds anything wins.
func FuzzMatch(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s.text, s.old)
	}
	f.Fuzz(func(t *testing.T, text, old string) {
		m := findOld(text, old)
		if old != "" && strings.Contains(text, old) && m.pass != passExact {
			t.Fatalf("old is in the text byte for byte, but pass %d won", m.pass)
		}
		if m.count == 0 {
			return
		}
		if len(m.lines) != min(m.count, maxListedLines) {
			t.Fatalf("%d matches, %d lines listed", m.count, len(m.lines))
		}
		total := strings.Count(text, "\n") + 1
		for i, l := range m.lines {
			if l < 1 || l > total || i > 0 && l < m.lines[i-1] {
				t.Fatalf("line numbers %v out of order or range (%d lines)", m.lines, total)
			}
		}
		if m.pass == passExact {
			naive := 0
			for i := 0; i+len(old) <= len(text); i++ {
				if text[i:i+len(old)] == old {
					naive++
				}
			}
			if naive != m.count {
				t.Fatalf("exact count %d, naive count %d", m.count, naive)
			}
		}
		if m.start < 0 || m.start > m.end || m.end > len(text) {
			t.Fatalf("region [%d, %d) out of the text (%d bytes)", m.start, m.end, len(text))
		}
		region := text[m.start:m.end]
		_, core, _ := splitPadding(old)
		switch m.pass {
		case passExact:
			if region != old {
				t.Fatalf("exact region %q is not old %q", region, old)
			}
		case passEdges:
			pad, ok := strings.CutSuffix(region, core)
			if !ok || strings.Trim(pad, " \t") != "" {
				t.Fatalf("edges region %q is not indentation + core %q", region, core)
			}
		case passIndent:
			got, want := strings.Split(region, "\n"), strings.Split(core, "\n")
			if len(got) != len(want) || len(want) < 2 {
				t.Fatalf("indent region %q has not the lines of %q", region, core)
			}
			for i := range got {
				if trimBlank(got[i]) != trimBlank(want[i]) {
					t.Fatalf("indent region line %q is not %q", got[i], want[i])
				}
			}
			if m.start > 0 && text[m.start-1] != '\n' {
				t.Fatal("indent region does not start a line")
			}
		}
	})
}

// FuzzEdit: edit_file never panics; a refused edit never writes (the file
// is byte-identical); an applied edit changes only its region: the text
// before and after it is byte-identical.
func FuzzEdit(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add(s.text, s.old, s.new)
	}
	dir := f.TempDir()
	o := FileOptions{Dir: dir}
	tool := NewEditFile(o)
	path := filepath.Join(dir, "main.go")
	f.Fuzz(func(t *testing.T, text, old, newText string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		raw, err := json.Marshal(editArgsOf("main.go", fileEdit{old, newText}))
		if err != nil {
			t.Fatal(err)
		}
		// What the tool receives: JSON replaces invalid UTF-8.
		var sent struct{ Edits []fileEdit }
		if err := json.Unmarshal(raw, &sent); err != nil {
			t.Fatal(err)
		}
		out := tool.Run(t.Context(), raw)
		after, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(out, "main.go: 1 edit applied") {
			if !bytes.Equal(after, []byte(text)) {
				t.Fatalf("refused (%q) but the file changed:\n%q\n→\n%q", out, text, after)
			}
			return
		}
		norm0, norm := normalize(text)
		o, n := norm.text(sent.Edits[0].Old), norm.text(sent.Edits[0].New)
		m := findOld(norm0, o)
		if m.count != 1 {
			t.Fatalf("applied, but old is found %d times", m.count)
		}
		start, end, _ := replacement(norm0, o, n, m, detectIndentStyle(norm0))
		got := string(after)
		if norm.bom {
			var ok bool
			if got, ok = strings.CutPrefix(got, utf8BOM); !ok {
				t.Fatal("byte-order mark lost")
			}
		}
		if norm.ending == endingCRLF {
			got = strings.ReplaceAll(got, "\r\n", "\n")
		}
		if !strings.HasPrefix(got, norm0[:start]) || !strings.HasSuffix(got[start:], norm0[end:]) {
			t.Fatalf("text outside the region [%d, %d) changed:\n%q\n→\n%q", start, end, norm0, got)
		}
		if out == "" || string(after) == text {
			t.Fatalf("applied but nothing changed: %q", out)
		}
	})
}
