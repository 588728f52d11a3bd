package tui

// The window's slash commands: the line mode's (internal/repl), with its
// texts, shared from there. What may wait on the model or the server
// (/compact, /context, /model) runs off the Update loop, as a turn does:
// the status line says what runs, Esc stops it, and its outcome comes back
// as a message.

import (
	"context"
	"errors"
	"strings"

	tea "charm.land/bubbletea/v2"

	"mm/internal/agent"
	"mm/internal/llm"
	"mm/internal/repl"
)

// blockOutput is a command's output, printed as the line mode prints it
// (its printer's Line): sanitised and wrapped, not styled (wrap's default
// case), and never rendered as an answer is.
const blockOutput blockKind = 100

// cmdMsg is a message of this file's (and complete.go's) work off the
// Update loop: it applies itself to the model on the loop.
type cmdMsg interface{ apply(m *model) tea.Cmd }

// cmdState is what the commands, the completion and the line editing
// keep between keys.
type cmdState struct {
	busy bool // a command runs off the loop (m.running is set too)

	comp   *completion // the Tab candidates shown (complete.go)
	models []string    // the names the server serves, fetched once
	// sessions are the ids of a fetch just answered, for the completion
	// waiting for them; nil otherwise (each Tab lists them afresh).
	sessions []string

	search *search // Ctrl-R's search (readline.go)
	kill   []rune  // the last text cut (Ctrl-K, Ctrl-U, Ctrl-W …), for Ctrl-Y
}

// command runs a slash command of the window and reports whether line
// was one (a line that is not is a question for the model; "//…" too, as
// in the line mode).
func (m *model) command(line string) (tea.Cmd, bool) {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "/") || strings.HasPrefix(line, "//") {
		return nil, false
	}
	fields := strings.Fields(line)
	name, args := fields[0], fields[1:]
	m.addBlock(blockUser, line)
	if cmd, ok := m.askCommand(line); ok { // ask_agent.go
		return cmd, true
	}
	if cmd, ok := m.sessionCommand(line); ok { // sessions.go
		return cmd, true
	}
	switch name {
	case "/help":
		m.addBlock(blockOutput, m.help())
	case "/new":
		m.sess.NewConversation()
		m.eng.Agent.Reset()
		m.addBlock(blockDim, "new conversation")
	case "/compact":
		return m.background("Compressing the conversation", m.compact), true
	case "/context":
		return m.background("Measuring the context", func(ctx context.Context) cmdDoneMsg {
			ctx, cancel := context.WithTimeout(ctx, llm.ProbeTimeout)
			defer cancel()
			return cmdDoneMsg{text: m.eng.ContextTable(ctx, m.eng.Agent, m.eng.Instructions), kind: blockOutput}
		}), true
	case "/config":
		m.addBlock(blockOutput, repl.ConfigText(m.eng.Config))
	case "/model":
		if len(args) > 1 {
			m.addBlock(blockOutput, repl.ModelUsage)
			break
		}
		return m.background("Asking the server what it serves", func(ctx context.Context) cmdDoneMsg {
			return m.model(ctx, args)
		}), true
	case "/undo", "/redo":
		m.addBlock(blockDim, m.undo(name == "/redo"))
	case "/abort":
		m.addBlock(blockDim, repl.NothingRunning) // during a turn, submit stops it
	case "/quit", "/exit":
		return tea.Quit, true
	default:
		m.addBlock(blockOutput, repl.UnknownCommand(name))
	}
	return m.later(), true
}

// help is /help: the line mode's list of the commands, then the window's
// keys.
func (m *model) help() string {
	return repl.CommandsHelp() + repl.AskHelp(m.eng.Agents) + windowKeys
}

// windowKeys ends /help: the keys of the window (docs/window-mode.md has
// them in a table).
const windowKeys = `  Keys: Enter sends; Alt-Enter or Ctrl-J adds a line; Esc or Ctrl-C stops a turn; Ctrl-C twice, or Ctrl-D on an empty box, quits.
  ↑/↓ (Ctrl-P/Ctrl-N) go through the history, Ctrl-R searches it; Tab completes a command, /model's names, /resume's ids.
  Ctrl-A/Ctrl-E, Alt-B/Alt-F move; Ctrl-K, Ctrl-U, Ctrl-W, Alt-Backspace, Alt-D cut; Ctrl-Y puts the last cut back.
  Ctrl-O unfolds the last output or reasoning; PgUp/PgDn, Home/End and the mouse wheel scroll.`

// cmdDoneMsg is a command's outcome: a block to add, and what to change
// on the loop (then).
type cmdDoneMsg struct {
	text string
	kind blockKind
	then func(m *model)
}

func (d cmdDoneMsg) apply(m *model) tea.Cmd {
	m.running, m.cmds.busy, m.status = false, false, ""
	m.turn.mu.Lock()
	m.turn.cancel = nil
	m.turn.mu.Unlock()
	if d.then != nil {
		d.then(m)
	}
	if d.text != "" {
		m.addBlock(d.kind, d.text)
	}
	if q := m.next; q != "" {
		// What was sent while the command ran: asked now, as the line
		// mode reads the next line once a command ended.
		m.next = ""
		return m.ask(q)
	}
	return m.later()
}

// background runs f off the Update loop as a turn runs: the status line
// shows status and the time, Esc (or Ctrl-C, /abort) cancels f's context,
// and a line sent meanwhile waits for f's end (submit).
func (m *model) background(status string, f func(ctx context.Context) cmdDoneMsg) tea.Cmd {
	m.cmds.busy = true
	return m.goTurn(status, func(ctx context.Context) { m.ev.post(f(ctx)) })
}

// compact is /compact, off the loop: the model writes the summary.
func (m *model) compact(ctx context.Context) cmdDoneMsg {
	rep, err := m.eng.Agent.Compact(ctx, m.ui)
	if errors.Is(err, context.Canceled) {
		return cmdDoneMsg{text: "[/compact stopped — the history is unchanged]", kind: blockDim}
	}
	text, failed := repl.CompactOutcome(m.eng.Config, rep, err)
	if !errors.Is(err, agent.ErrNothingToCompact) {
		m.sess.Save() // the session holds the history as it is now, as the line mode's does
	}
	if failed {
		return cmdDoneMsg{text: text, kind: blockRed}
	}
	return cmdDoneMsg{text: text, kind: blockDim}
}

// model is /model [NAME], off the loop: the server is asked what it
// serves; the model changes on the loop, between turns, and the header
// with it.
func (m *model) model(ctx context.Context, args []string) cmdDoneMsg {
	ctx, cancel := context.WithTimeout(ctx, llm.ProbeTimeout)
	defer cancel()
	served, err := m.eng.Models(ctx)
	text, use := repl.ModelOutcome(args, served, err, m.eng.Endpoint.Shown(), m.eng.Config.Model)
	return cmdDoneMsg{text: text, kind: blockOutput, then: func(m *model) {
		if err == nil {
			m.cmds.models = completable(served.IDs)
		}
		if use != "" {
			m.eng.SetModel(use)
			m.header = Header(m.eng.Config, m.eng.Provider.Name)
		}
	}}
}
