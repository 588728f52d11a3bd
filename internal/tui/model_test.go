package tui

import (
	"context"
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
