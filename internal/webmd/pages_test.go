package webmd

import (
	"bufio"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

var update = flag.Bool("update", false, "rewrite the golden Markdown of testdata/pages")

// TestRealPages converts real pages (copied from the shared corpus:
// documentation with code, news with navigation and cookie banners,
// windows-1252, EUC-KR, ISO-8859-1 and UTF-16 pages, tables) and compares
// them with Markdown reviewed by eye. Run with -update after a deliberate
// change, and read the diff.
func TestRealPages(t *testing.T) {
	dir := filepath.Join("testdata", "pages")
	f, err := os.Open(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	n := 0
	for sc.Scan() {
		name, base, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			text, _, err := Decode(raw, "")
			if err != nil {
				t.Fatal(err)
			}
			got := Convert(text, Options{BaseURL: mustURL(base)})
			checkInvariants(t, got)
			golden := filepath.Join(dir, strings.TrimSuffix(name, ".html")+".md")
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if got != string(want) {
				t.Errorf("differs from %s; first difference at line %d:\n got: %q\nwant: %q", golden, firstDiffLine(got, string(want)), lineAt(got, firstDiffLine(got, string(want))), lineAt(string(want), firstDiffLine(got, string(want))))
			}
		})
	}
	if n < 10 {
		t.Fatalf("%d pages in the manifest", n)
	}
}

// checkInvariants: what every conversion must satisfy.
func checkInvariants(t *testing.T, md string) {
	t.Helper()
	if !utf8.ValidString(md) {
		t.Error("invalid UTF-8")
	}
	if md != "" && (!strings.HasSuffix(md, "\n") || strings.HasSuffix(md, "\n\n")) {
		t.Error("does not end with a single newline")
	}
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "#") && strings.Contains(line, "¶") || strings.Contains(line, "[¶](") {
			t.Errorf("a ¶ permalink is left: %q", line)
		}
	}
	if i := strings.Index(md, "[]("); i >= 0 && (i == 0 || md[i-1] != '!') {
		t.Errorf("an empty-text link: %q", md[max(0, i-20):min(len(md), i+40)])
	}
}

func firstDiffLine(a, b string) int {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := 0; i < len(la) && i < len(lb); i++ {
		if la[i] != lb[i] {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}

func lineAt(s string, n int) string {
	lines := strings.Split(s, "\n")
	if n-1 < len(lines) {
		return lines[n-1]
	}
	return ""
}

// TestRealPagesContent: facts a reader checks on the golden pages.
func TestRealPagesContent(t *testing.T) {
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join("testdata", "pages", name+".md"))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	cases := []struct {
		page        string
		has, hasNot []string
	}{
		{"py-tutorial-controlflow", []string{"# 4. More Control Flow Tools", "```python\n>>> x = int(input(\"Please enter an integer: \"))", "[`while`](https://docs.python.org/3.11/reference/compound_stmts.html#while)"},
			[]string{"Previous topic", "Quick search", "Navigation", "¶"}},
		{"traf-bbc-cookie", []string{"# Coronavirus: New York ramps up mass burials amid outbreak"}, []string{"Let us know you agree to cookies", "Skip to content"}},
		{"traf-automobilwoche-win1252", []string{"ü", "ß"}, []string{"\uFFFD", "Ã¼"}},
		{"apache-ko-perf-tuning", []string{"아파치"}, []string{"\uFFFD"}},
		// Labelled ISO-8859-1, but UTF-8 with a few sequences the page's
		// generator broke: read as UTF-8, the broken bytes as U+FFFD.
		{"vim-digraph", []string{"Example: a: is ä  and o: is ö", "ü\tu:\t0xfc"}, []string{"Ã¤"}},
		{"sqlite-datatype3", []string{"| --- |"}, nil},
		{"cmake-tutorial-step1", []string{"```cmake\n", "```console\n"}, nil},
	}
	for _, tc := range cases {
		md := read(tc.page)
		for _, s := range tc.has {
			if !strings.Contains(md, s) {
				t.Errorf("%s: missing %q", tc.page, s)
			}
		}
		for _, s := range tc.hasNot {
			if strings.Contains(md, s) {
				t.Errorf("%s: has %q", tc.page, s)
			}
		}
	}
}
