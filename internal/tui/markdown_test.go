package tui

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"mm/internal/agent"
	"mm/internal/tools"
)

const mdSample = "# Title here\n\nSome **bold** and *italic* and `code` and a [link](https://x.org/a) text.\n\n" +
	"- first item that is long enough to wrap around the forty column limit\n- second\n  1. nested number\n\n" +
	"> a quote that is also quite long so that it wraps\n\n" +
	"```go\nfunc main() {\n\tfmt.Println(\"a very long line of code that does not fit\")\n}\n```\n---\nsnake_case_name stays, ** alone too\n"

// answer lays text out as an answer given at once.
func answer(text string, width int, noColor bool) []string {
	b := &block{kind: blockText}
	b.text.WriteString(text)
	return wrap(b, width, noColor)
}

func TestMarkdownLayout(t *testing.T) {
	want := []string{
		"Title here",
		"",
		"Some bold and italic and code and a link",
		"(https://x.org/a) text.",
		"",
		"• first item that is long enough to wrap",
		"  around the forty column limit",
		"• second",
		"  1. nested number",
		"",
		"▎ a quote that is also quite long so",
		"▎ that it wraps",
		"",
		"┌─ go",
		"│ func main() {",
		"│     fmt.Println(\"a very long line of c",
		"┆ ode that does not fit\")",
		"│ }",
		"└─",
		strings.Repeat("─", 40),
		"snake_case_name stays, ** alone too",
		"",
	}
	rows := answer(mdSample, 40, false)
	var plain []string
	for _, r := range rows {
		plain = append(plain, ansi.Strip(r))
	}
	if strings.Join(plain, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(plain, "\n"), strings.Join(want, "\n"))
	}
	for _, style := range []struct{ row, sgr, text string }{
		{"Title here", "\x1b[0;1;35m", "Title here"},
		{"Some", "\x1b[0;1m", "bold"},
		{"Some", "\x1b[0;3m", "italic"},
		{"Some", "\x1b[0;36m", "code"},
		{"(https", "\x1b[0;2m", "https://x.org/a"},
	} {
		found := false
		for _, r := range rows {
			if strings.Contains(ansi.Strip(r), style.row) && strings.Contains(r, style.sgr+style.text) {
				found = true
			}
		}
		if !found {
			t.Errorf("%q not styled %q in %q", style.text, style.sgr, rows)
		}
	}
}

// With NO_COLOR: not one escape, the structure kept, the inline marks
// kept as written (nothing else tells them apart).
func TestMarkdownNoColor(t *testing.T) {
	rows := answer(mdSample, 40, true)
	got := strings.Join(rows, "\n")
	if strings.Contains(got, "\x1b") {
		t.Fatalf("an escape under NO_COLOR: %q", got)
	}
	for _, want := range []string{"# Title here", "**bold**", "*italic*", "`code`", "• first item", "  around the forty", "┌─ go", "│ func main() {", "└─", "(https://x.org/a)"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q under NO_COLOR:\n%s", want, got)
		}
	}
}

// Each row stands alone: a style open where a row wraps is closed at its
// end and opened again on the next (the viewport may show one without
// the other).
func TestMarkdownRowsStandAlone(t *testing.T) {
	rows := answer("**"+strings.TrimSpace(strings.Repeat("bold words ", 10))+"**\n", 30, false)
	if len(rows) < 3 {
		t.Fatalf("not wrapped: %q", rows)
	}
	for i, r := range rows[:len(rows)-1] {
		if !strings.HasPrefix(r, "\x1b[0;1m") || !strings.HasSuffix(r, "\x1b[0m") {
			t.Errorf("row %d does not stand alone: %q", i, r)
		}
	}
}

// The model's text cannot style the window: an escape or a bidi control
// stays inert, in a heading, a code span, a code block; the only escapes
// are the renderer's own.
func TestMarkdownHostile(t *testing.T) {
	text := "# \x1b[31mred\x1b[0m\n**\x1b]0;title\x07** `\x1b[2J` \u202eevil\n```\n\x1b[?1049l\u2066\n```\n"
	for _, noColor := range []bool{false, true} {
		got := strings.Join(answer(text, 60, noColor), "\n")
		own := regexp.MustCompile(`\x1b\[0(;[0-9]+)*m`)
		if rest := own.ReplaceAllString(got, ""); strings.ContainsAny(rest, "\x1b\x07\u202e\u2066") {
			t.Errorf("a control reached the layout (noColor %v): %q", noColor, rest)
		}
		for _, shown := range []string{"^[[31mred", "^[]0;title^G", "^[[2J", "<U+202E>evil", "^[[?1049l<U+2066>"} {
			if !strings.Contains(ansi.Strip(got), shown) {
				t.Errorf("%q not shown inert (noColor %v): %q", shown, noColor, got)
			}
		}
	}
}

// Streamed in pieces, an answer is laid out as given at once; a code
// fence's state is carried from line to line, and a line still growing
// does not move it on.
func TestMarkdownStreamedMatchesWhole(t *testing.T) {
	for _, noColor := range []bool{false, true} {
		want := answer(mdSample, 40, noColor)
		for _, step := range []int{1, 2, 5, 13} {
			b := &block{kind: blockText}
			var got []string
			for i := 0; i < len(mdSample); i += step {
				b.text.WriteString(mdSample[i:min(len(mdSample), i+step)])
				got = wrap(b, 40, noColor)
			}
			if strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Errorf("pieces of %d (noColor %v):\n%q\nwant\n%q", step, noColor, got, want)
			}
		}
	}
	// A resize lays the answer out again from its start, the fence's
	// state with it.
	b := &block{kind: blockText}
	b.text.WriteString(mdSample[:strings.Index(mdSample, "}\n")])
	wrap(b, 40, false)
	b.text.WriteString(mdSample[strings.Index(mdSample, "}\n"):])
	if got, want := strings.Join(wrap(b, 60, false), "\n"), strings.Join(answer(mdSample, 60, false), "\n"); got != want {
		t.Errorf("after a resize:\n%s\nwant\n%s", got, want)
	}
	// Inside a fence, a Markdown line is code.
	rows := answer("```\n# not a heading\n- not a list\n```\n# a heading\n", 40, true)
	if got := strings.Join(rows, "\n"); !strings.Contains(got, "│ # not a heading\n│ - not a list\n└─\n# a heading") {
		t.Errorf("fence state:\n%s", got)
	}
}

// Fences: ~~~ too, indented under a list item (the indent taken off the
// code), closed only by as many marks or more; a ``` with a backtick in
// its info is text; an unclosed fence runs to the answer's end.
func TestMarkdownFences(t *testing.T) {
	text := "- step\n  ~~~~sh\n  make\n    indented\n  ~~~\n  ~~~~\nafter\n``` a`b\n```\nopen\n"
	got := strings.Join(answer(text, 40, true), "\n")
	want := "• step\n  ┌─ sh\n  │ make\n  │   indented\n  │ ~~~\n  └─\nafter\n``` a`b\n┌─\n│ open\n"
	if got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	for _, c := range []struct{ in, want string }{
		{"###### six", "###### six"},
		{"####### seven", "####### seven"},
		{"#no blank", "#no blank"},
		{"## closed ##", "## closed"},
		{"10) tenth item", "10) tenth item"},
		{"* * *", strings.Repeat("─", 40)},
		{"    deep paragraph", "    deep paragraph"},
	} {
		if got := strings.Join(answer(c.in, 40, true), "\n"); got != c.want+"\n" {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
		}
	}
}

func TestMarkdownInline(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`a \*not italic\* b`, `a *not italic* b`},
		{"``code with ` inside``", "\x1b[0;36mcode with ` inside\x1b[0m"},
		{"<https://x.org>", "\x1b[0;2mhttps://x.org\x1b[0m"},
		{"[https://x.org](https://x.org)", "\x1b[0;2mhttps://x.org\x1b[0m"},
		{"~~gone~~ kept", "\x1b[0;9mgone\x1b[0m kept"},
		{"a * b * c", "a * b * c"},
		{"unclosed **bold", "unclosed **bold"},
	} {
		if got := inline(c.in, 0, false); got != c.want {
			t.Errorf("inline(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	// A line of lone marks stays linear (each closer looked for once).
	long := "`" + strings.Repeat("* _ [ <a ~~ ", 4000)
	if got := inline(long, 0, false); got != long {
		t.Errorf("lone marks changed: %q", got[:min(len(got), 200)])
	}
}

func TestColorDiff(t *testing.T) {
	head := "🔐 edit_file main.go (1 edit)\n   main.go: 1 edit would be applied, +1 -1 lines, first change at line 2\n   1  │ package main\n   2 -│ old\n   2 +│ new\n   …\n   9  │ }"
	got := colorDiff(head, false)
	for _, want := range []string{"\x1b[0;31m   2 -│ old\x1b[0m", "\x1b[0;32m   2 +│ new\x1b[0m", "\x1b[0;36m   …\x1b[0m", "\x1b[0;36m   main.go: 1 edit"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in %q", want, got)
		}
	}
	if strings.Contains(strings.Split(got, "\n")[0], "\x1b") || strings.Contains(got, "\x1b[0;32m   1  │") {
		t.Errorf("a line that is no change coloured: %q", got)
	}
	if colorDiff(head, true) != head {
		t.Error("coloured under NO_COLOR")
	}
	// A command shown whole in the zone is never taken for a diff.
	cmd := "🔐 bash: 2 lines\n   │ 12 +│ x\n   │ echo"
	if colorDiff(cmd, false) != cmd {
		t.Errorf("a command coloured: %q", colorDiff(cmd, false))
	}
}

// A read's content is for the model: the window counts its lines, and
// shows a failed read's text.
func TestReadKindPreview(t *testing.T) {
	ok := &agent.Call{Name: "read_file", Kind: tools.KindRead, Summary: "a.go lines 1-3", Output: "a\nb\nc"}
	if got := view(ok, true, 5).preview; got != "   (3 line(s) read, for the model)" {
		t.Errorf("read: %q", got)
	}
	bad := &agent.Call{Name: "read_file", Kind: tools.KindRead, Failed: true, Output: "x.go does not exist. Create it with write_file"}
	if got := view(bad, true, 5).preview; got != "   x.go does not exist. Create it with write_file" {
		t.Errorf("failed read: %q", got)
	}
	edit := view(&agent.Call{Name: "edit_file", Kind: tools.KindEdit, Summary: "a.go (1 edit)", Output: "a.go: 1 edit applied\n1 -│ x\n1 +│ y"}, true, 5)
	b := &block{kind: blockTool, tool: edit}
	rows := strings.Join(wrap(b, 80, false), "\n")
	if !strings.Contains(rows, "\x1b[0;32m   1 +│ y\x1b[0m") || !strings.Contains(rows, "\x1b[0;31m   1 -│ x\x1b[0m") {
		t.Errorf("the edit's diff not coloured: %q", rows)
	}
	if rows := strings.Join(wrap(b, 80, true), "\n"); strings.Contains(rows, "\x1b") {
		t.Errorf("coloured under NO_COLOR: %q", rows)
	}
}
