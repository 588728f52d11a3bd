package tui

import (
	"strings"

	tea "charm.land/bubbletea/v2"
)

// command runs a slash command of the window and reports whether line
// was one (a line that is not is a question for the model).
func (m *model) command(line string) (tea.Cmd, bool) {
	if !strings.HasPrefix(line, "/") {
		return nil, false
	}
	m.addBlock(blockUser, line)
	switch strings.TrimSpace(line) {
	case "/new":
		m.eng.Agent.Reset()
		m.addBlock(blockDim, "new conversation")
	case "/help":
		m.addBlock(blockDim, windowHelp)
	case "/undo", "/redo":
		m.addBlock(blockDim, m.undo(strings.TrimSpace(line) == "/redo"))
	default:
		m.addBlock(blockDim, "[the window mode runs /new, /undo, /redo, /help, /abort and /quit only so far: mm without -tui runs the others]")
	}
	return m.later(), true
}
