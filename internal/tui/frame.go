package tui

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

// The frame's cost (issue #23's speed budgets, docs/benchmarks.md).
//
// Bubble Tea asks for the whole view after every message, a streamed
// token's too, and compares it with the last one before drawing. While an
// answer streams only the conversation and the status line change: the
// header and the bottom zone (the input box, whose View lays out and
// styles every line of the textarea, or the permission zone, or a form)
// are the same strings as in the last frame. They are kept here and made
// again only after a message that may change them.

// frameCache holds the parts of the view that streaming does not change.
type frameCache struct {
	zone   string
	zoneOK bool
	// head is the header row rendered for headW columns.
	head, headOf string
	headW        int
	// status is the status line, styled.
	status   string
	statusOK bool
}

// touch is called with every message before it is handled: any message
// but those that only add to the conversation or the status line may
// change the zone (a key, a paste, a resize, the permission zone or a
// form opening, a turn ending), so the zone is made again at the next
// view. Unknown messages count as changes: a message added later can
// only cost a frame, never leave a stale box on screen.
//
// The status line is made again after any message but a streamed piece:
// its clock moves at each frame (flushMsg) and each second (tickMsg), not
// at each token.
func (c *frameCache) touch(msg tea.Msg) {
	switch msg.(type) {
	case drainMsg, textMsg, thinkMsg:
		return
	case flushMsg, tickMsg, statusMsg, noticeMsg, toolMsg:
		c.statusOK = false
		return
	}
	c.zoneOK, c.statusOK = false, false
}

// cachedZone is m.zone(), made again only after touch.
func (m *model) cachedZone() string {
	if !m.frame.zoneOK {
		m.frame.zone, m.frame.zoneOK = m.zone(), true
	}
	return m.frame.zone
}

// headRow is the header on the whole top row, in reverse video.
func (m *model) headRow() string {
	if m.frame.headOf != m.header || m.frame.headW != m.w || m.frame.head == "" {
		head := ansi.Truncate(m.header, m.w, "…")
		head += strings.Repeat(" ", max(0, m.w-ansi.StringWidth(head)))
		m.frame.head, m.frame.headOf, m.frame.headW = headStyle.Render(head), m.header, m.w
	}
	return m.frame.head
}

// statusRow is the status line, styled.
func (m *model) statusRow() string {
	if !m.frame.statusOK {
		text := m.statusLine()
		if m.starting {
			text = "Starting…"
		}
		m.frame.status, m.frame.statusOK = statusStyle.Render(text), true
	}
	return m.frame.status
}

// streamFrame is how often a streamed answer is laid out and drawn while
// a turn runs: 30 frames a second read as smooth text, and each frame
// costs Bubble Tea's renderer a parse and a diff of the whole screen
// (frame, 60 a second, stays for what a key changes).
const streamFrame = 33 * time.Millisecond

// frameDelay is the wait before the next layout.
func (m *model) frameDelay() time.Duration {
	if m.running {
		return streamFrame
	}
	return frame
}

// send wakes the program for the messages waiting, first among them. A
// streamed piece waits a frame (pace) for those that follow it: at 200
// tokens a second the program then handles one message, one view and one
// layout a frame, not one message and one view a token (each a pass
// through Bubble Tea's loop and hand-offs between goroutines). Anything
// else wakes it at once (its order kept: it comes after the pieces).
func (e *events) send(first tea.Msg) {
	switch first.(type) {
	case textMsg, thinkMsg:
		if e.pace > 0 {
			time.AfterFunc(e.pace, func() { e.wake(drainMsg{}) })
			return
		}
	}
	e.wake(drainMsg{})
}

// drained lays out at once what the waiting messages added: they waited
// a frame already.
func (m *model) drained() {
	if m.ev.pace > 0 {
		m.layout()
	}
}
