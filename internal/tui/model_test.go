package tui

import (
	"context"
	"fmt"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"mm/internal/config"
	"mm/internal/engine"
	"mm/internal/llm"
)

func testModel(t testing.TB) *model {
	cfg := config.Default()
	cfg.Model = "m"
	eng := &engine.Engine{Config: cfg, Provider: llm.Provider{Name: "p"}}
	m := newModel(context.Background(), eng)
	return m
}

func TestViewShowsBlocks(t *testing.T) {
	m := testModel(t)
	m.addBlock(blockDim, "banner line")
	m.addBlock(blockUser, "question")
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.stream(blockText, "streamed answer")
	m.Update(flushMsg{})
	v := m.View()
	if !strings.Contains(v.Content, "banner line") || !strings.Contains(v.Content, "streamed answer") {
		t.Fatalf("view:\n%s", v.Content)
	}
}

// A block streamed in pieces is laid out as the same text given at once:
// the ended lines are kept, only the growing one is laid out again.
func TestStreamedLayoutMatchesWhole(t *testing.T) {
	text := "first line of the answer, long enough to wrap at forty columns for sure\n\nsecond\r\nthird \x1b[31m red\tand a tab\nlast words without an end"
	whole := &block{kind: blockText}
	whole.text.WriteString(text)
	want := wrap(whole, 40, false)
	for _, step := range []int{1, 3, 7, 50} {
		b := &block{kind: blockText}
		var got []string
		for i := 0; i < len(text); i += step {
			b.text.WriteString(text[i:min(len(text), i+step)])
			got = wrap(b, 40, false)
		}
		if strings.Join(got, "\n") != strings.Join(want, "\n") {
			t.Errorf("pieces of %d:\n%q\nwant\n%q", step, got, want)
		}
	}
	for _, l := range want {
		if strings.Contains(l, "\x1b") {
			t.Errorf("an escape reached the layout: %q", l)
		}
	}
}

func TestScroller(t *testing.T) {
	var s scroller
	s.SetHeight(3)
	s.SetLines([]string{"a", "b", "c", "d", "e"})
	if s.AtBottom() {
		t.Error("at the bottom at the top")
	}
	s.GotoBottom()
	if s.View() != "c\nd\ne" || !s.AtBottom() {
		t.Errorf("bottom: %q", s.View())
	}
	s.PageUp()
	if s.View() != "a\nb\nc" {
		t.Errorf("page up: %q", s.View())
	}
	s.SetLines([]string{"a"})
	if s.View() != "a\n\n" {
		t.Errorf("padded: %q", s.View())
	}
}

func pastedLines(n int) string {
	var b strings.Builder
	for i := 1; i <= n; i++ {
		fmt.Fprintf(&b, "pasted line %03d %s\n", i, strings.Repeat("x", i%7*40))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// A paste of more lines than the box shows leaves the box on its last
// rows, the cursor at the end; one in the middle of the box's text leaves
// the cursor where the paste ended. The first took 20 s for these 300
// lines (BenchmarkPaste300Lines): the widget's cache of wrapped lines
// held 99.
func TestPasteShowsTheCursorRows(t *testing.T) {
	m := testModel(t)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(tea.PasteMsg{Content: pastedLines(300)})
	if m.ta.Height() != 8 || m.ta.Line() != 299 || m.ta.LineCount() != 300 {
		t.Fatalf("box height %d, cursor line %d of %d", m.ta.Height(), m.ta.Line(), m.ta.LineCount())
	}
	box := m.ta.View()
	if !strings.Contains(box, "pasted line 300") || strings.Contains(box, "pasted line 290") {
		t.Errorf("the box shows:\n%s", box)
	}

	m = testModel(t)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(tea.PasteMsg{Content: "top\nbottom"})
	m.ta.MoveToBegin()
	m.ta.CursorEnd()
	m.Update(tea.PasteMsg{Content: "\nmid 1\nmid 2\nmid 3\nmid 4"})
	if m.ta.Line() != 4 || m.ta.LineCount() != 6 {
		t.Fatalf("cursor line %d of %d", m.ta.Line(), m.ta.LineCount())
	}
	if box := m.ta.View(); !strings.HasPrefix(box, "› top ") || !strings.Contains(box, "› mid 4") || !strings.Contains(box, "› bottom") {
		t.Errorf("the box shows:\n%s", box)
	}
}

// The zone's height is counted, not drawn (zoneHeight): the count must be
// the drawn box's, with the candidates over it and the search under it.
func TestZoneHeightIsTheDrawnOne(t *testing.T) {
	m := testModel(t)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	check := func(what string) {
		t.Helper()
		if got, drawn := m.zoneHeight(), strings.Count(m.zone(), "\n")+1; got != drawn {
			t.Errorf("%s: counted %d rows, drawn %d:\n%s", what, got, drawn, m.zone())
		}
	}
	check("empty box")
	m.Update(tea.PasteMsg{Content: "one\ntwo\nthree"})
	check("three lines")
	m.Update(tea.PasteMsg{Content: pastedLines(300)})
	check("300 lines")
	m = testModel(t)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, r := range "/co" {
		m.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeyTab})
	if m.compLine() == "" {
		t.Fatal("no candidates for /co")
	}
	check("candidates")
	m.Update(tea.KeyPressMsg{Code: tea.KeyEscape})
	m.Update(tea.KeyPressMsg{Code: 'r', Mod: tea.ModCtrl})
	if m.cmds.search == nil {
		t.Fatal("Ctrl-R opened no search")
	}
	check("search")
}
