package tui

import "strings"

// scroller shows a window of the conversation's lines. It stands in for
// bubbles' viewport, whose SetContentLines measures the width of every
// line on each call: with a long conversation that was most of a streamed
// frame's time (BenchmarkStreamFrame: 4 ms a frame with 2,000 lines).
// The lines given are already wrapped to the width.
type scroller struct {
	lines  []string
	off    int // the first line shown
	height int
	// The last View, for the lines given at gen, off and height: Bubble
	// Tea asks for the view after every message, a streamed token's too,
	// and the lines change only at a layout (frame.go).
	gen, viewGen        int
	viewOff, viewHeight int
	view                string
}

func (s *scroller) maxOff() int { return max(0, len(s.lines)-s.height) }

func (s *scroller) clamp() { s.off = min(max(0, s.off), s.maxOff()) }

// AtBottom says the last line is in view.
func (s *scroller) AtBottom() bool { return s.off >= s.maxOff() }

func (s *scroller) SetLines(lines []string) {
	s.lines = lines
	s.gen++
	s.clamp()
}

func (s *scroller) SetHeight(h int) {
	s.height = max(1, h)
	s.clamp()
}

func (s *scroller) GotoTop()       { s.off = 0 }
func (s *scroller) GotoBottom()    { s.off = s.maxOff() }
func (s *scroller) Scroll(n int)   { s.off += n; s.clamp() }
func (s *scroller) PageUp()        { s.Scroll(-max(1, s.height-1)) }
func (s *scroller) PageDown()      { s.Scroll(max(1, s.height-1)) }
func (s *scroller) Height() int    { return s.height }
func (s *scroller) Offset() int    { return s.off }
func (s *scroller) LineCount() int { return len(s.lines) }

// View is the lines in view, padded to the height.
func (s *scroller) View() string {
	if s.view != "" && s.viewGen == s.gen && s.viewOff == s.off && s.viewHeight == s.height {
		return s.view
	}
	s.view, s.viewGen, s.viewOff, s.viewHeight = s.draw(), s.gen, s.off, s.height
	return s.view
}

func (s *scroller) draw() string {
	end := min(len(s.lines), s.off+s.height)
	var b strings.Builder
	for i := s.off; i < end; i++ {
		if i > s.off {
			b.WriteByte('\n')
		}
		b.WriteString(s.lines[i])
	}
	for i := max(0, end-s.off); i < s.height; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
	}
	return b.String()
}
