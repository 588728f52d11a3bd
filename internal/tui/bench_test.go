package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
)

// BenchmarkStreamFrame is one frame of a streamed answer: a token added,
// the conversation laid out again and drawn, with 2,000 lines above it.
func BenchmarkStreamFrame(b *testing.B) {
	m := testModel(b)
	m.Update(tea.WindowSizeMsg{Width: 100, Height: 40})
	for i := 0; i < 200; i++ {
		m.addBlock(blockText, strings.Repeat("some earlier answer text, ", 30)+"\n"+strings.Repeat("x\n", 5))
	}
	m.stream(blockText, "start ")
	m.layout()
	for b.Loop() {
		m.stream(blockText, "token ")
		m.layout()
		_ = m.View()
	}
}

// BenchmarkStreamToken is one streamed token as the program handles it:
// the message, then the view (Bubble Tea asks for one after every
// message); a layout every third token (a frame at 200 tokens a second).
func BenchmarkStreamToken(b *testing.B) {
	m := testModel(b)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(flushMsg{})
	i := 0
	for b.Loop() {
		m.Update(textMsg("word "))
		if i++; i%3 == 0 {
			m.Update(flushMsg{})
		}
		_ = m.View()
	}
}

// BenchmarkPaste300Lines is a 300-line paste (40 KB) into the empty box,
// then one frame: 20 s before the box's cache was sized (model.go).
func BenchmarkPaste300Lines(b *testing.B) {
	text := pastedLines(300)
	for b.Loop() {
		m := testModel(b)
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m.Update(tea.PasteMsg{Content: text})
		_ = m.View()
	}
}

// BenchmarkKeyAfterPaste300Lines is one typed letter, and its frame, in a
// box that holds a 300-line paste.
func BenchmarkKeyAfterPaste300Lines(b *testing.B) {
	m := testModel(b)
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.Update(tea.PasteMsg{Content: pastedLines(300)})
	_ = m.View()
	for b.Loop() {
		m.Update(tea.KeyPressMsg{Code: 'x', Text: "x"})
		_ = m.View()
	}
}
