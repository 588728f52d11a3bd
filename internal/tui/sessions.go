package tui

// Sessions in the window (sessions.enabled): the line mode's own code
// (repl.Sessions) saves the conversation after the question, around each
// tool call and at the end of each turn, under the same lock, in the same
// signed files; /new starts a new session file, /sessions and /resume
// [ID] say what the line mode says, and -resume ID or -continue open the
// window on a saved conversation.

import (
	"strings"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"

	"mm/internal/repl"
	"mm/internal/ui"
)

// sessLineMsg is a line from the sessions (a failed save) shown from
// outside the program's goroutine.
type sessLineMsg struct {
	text string
	red  bool
}

// openSessions hooks the saves into the engine; a failed save is told
// once, in red, wherever it happened (a turn's goroutine or the
// program's: the line goes through the event queue from a goroutine of
// its own, never blocking the program).
func (m *model) openSessions() {
	m.sess.Sessions = repl.NewSessions(m.eng, func(s string) {
		m.sess.failed.Store(true)
		go m.ev.post(sessLineMsg{text: s, red: true})
	})
}

// sessionLine shows what the sessions answered.
func (m *model) sessionLine(text string, red bool) {
	kind := blockDim
	if red {
		kind = blockRed
	}
	m.addBlock(kind, text)
}

// sessionCommand runs /sessions and /resume [ID]; ok false when line is
// neither.
func (m *model) sessionCommand(line string) (cmd tea.Cmd, ok bool) {
	f := strings.Fields(line)
	if len(f) == 0 {
		return nil, false
	}
	switch f[0] {
	case "/sessions":
		m.sessionLine(m.sess.List())
	case "/resume":
		if len(f) > 2 {
			m.sessionLine("usage: /resume [ID]", false)
		} else {
			m.resume(strings.Join(f[1:], ""))
		}
	default:
		return nil, false
	}
	return m.later(), true
}

// resume goes on with a saved conversation and draws it again
// (replay.go) under the line mode's `resumed session …` line.
func (m *model) resume(id string) {
	text, red := m.sess.Resume(id)
	m.sessionLine(text, red)
	if !red && strings.HasPrefix(text, "resumed session ") {
		m.replay(m.eng.Agent.History())
		if plan := m.eng.Agent.Plan().Text(); plan != "" {
			// The plan came back with the conversation, as in the line
			// mode (the printer sanitises it).
			m.addBlock(blockDim, repl.PlanHead+"\n"+printed(0, func(p *ui.Printer) { p.Plan(plan) }))
		}
	}
}

// leavingLine is the one line printed once the window is closed: how to
// go on with the conversation when it is saved.
func (m *model) leavingLine() string {
	if m.sess.ID() == "" || m.sess.failed.Load() {
		return "[left the window mode: mm -tui opens a new one]"
	}
	if m.eng.Config.TUI && !m.eng.Config.TUIFlag {
		return "[left the window mode: mm -continue goes on with this conversation]"
	}
	// Opened by the flag: mm -continue alone would go on in the line mode.
	return "[left the window mode: mm -tui -continue goes on with this conversation]"
}

// winSessions is the window's sessions: the line mode's, and whether a
// save failed (set from a turn's goroutine).
type winSessions struct {
	*repl.Sessions
	failed atomic.Bool
}
