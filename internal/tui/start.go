package tui

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	tea "charm.land/bubbletea/v2"

	"mm/internal/config"
	"mm/internal/engine"
	"mm/internal/llm"
	"mm/internal/repl"
)

// The window's first frame comes before the engine (issue #23: on screen
// ≤ 30 ms after exec). The engine's start (the probe of the server,
// Genkit, the tools, the banner's context window) takes 10–20 ms, after
// the 10 ms or so of the process's own start: done before the window they
// passed the budget (docs/benchmarks.md). Here the engine starts while the
// program does (and third_party/bubbletea draws the first view at once,
// where upstream waits for its first frame tick).
//
// Until the engine is there the window holds a stand-in: the header made
// from the configuration (the model shown as "…" when the server is to
// name it: the header is exact once it is known), an empty conversation,
// "Starting…" on the status line. Keys, pastes and the mouse wait and are
// handled, in their order, once the engine is there: no code of the
// window meets the stand-in's missing agent. A Ctrl-C (or a signal) is
// handled at once: it can leave a start that hangs.

// starting is the stand-in engine: a copy of the configuration (the
// engine's start writes the model it finds into cfg meanwhile) and the
// provider it names.
func starting(cfg *config.Config) *engine.Engine {
	c := *cfg
	if !c.ModelSet {
		c.Model = "…"
	}
	p, err := llm.LookupProvider(c.Provider)
	if err != nil {
		p = llm.Provider{Name: c.Provider}
	}
	return &engine.Engine{Config: &c, Provider: p}
}

// engineMsg is the engine, started.
type engineMsg struct {
	eng      *engine.Engine
	banner   string
	warnings []string
	hist     *repl.History
	histWarn string
}

// startFailedMsg: the engine did not start (startState.err says why).
type startFailedMsg struct{}

type startState struct {
	done chan struct{}
	err  error
	hist *repl.History // closed by Open
}

// startEngine runs start in its own goroutine, with what the window shows
// of the engine that needs the server (the banner asks it for the context
// window) or the disk (the history).
func (m *model) startEngine(ctx context.Context, start func() (*engine.Engine, []string, error), sigs chan os.Signal, warnings []string) *startState {
	st := &startState{done: make(chan struct{})}
	go func() {
		defer close(st.done)
		eng, more, err := start()
		// Genkit's start resets SIGINT and SIGTERM to their default
		// (llm.NewGenkit): the window watches them again.
		signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
		if err != nil {
			st.err = err
			m.ev.post(startFailedMsg{})
			return
		}
		msg := engineMsg{eng: eng, banner: eng.Banner(ctx), warnings: append(append([]string(nil), warnings...), more...)}
		msg.hist, msg.histWarn = repl.OpenHistory(eng.Root)
		st.hist = msg.hist
		m.ev.post(msg)
	}()
	return st
}

// early keeps, while the engine starts, the messages that need it; it
// says whether msg was kept.
func (m *model) early(msg tea.Msg) bool {
	if !m.starting {
		return false
	}
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		if msg.String() == "ctrl+c" {
			return false
		}
	case tea.PasteMsg, tea.PasteStartMsg, tea.PasteEndMsg, tea.MouseMsg:
	default:
		return false
	}
	m.waiting = append(m.waiting, msg)
	return true
}

// started puts the engine in the stand-in's place, the conversation's
// first blocks as Run had them, then handles the keys that waited.
func (m *model) started(msg engineMsg) tea.Cmd {
	eng := msg.eng
	m.eng, m.starting = eng, false
	m.header = Header(eng.Config, eng.Provider.Name)
	m.name = agentName(eng.Config)
	m.ui.showThinking, m.ui.previewLines = eng.Config.ShowThinking, eng.Config.PreviewLines
	m.addBlock(blockDim, msg.banner)
	for _, w := range msg.warnings {
		m.addBlock(blockDim, w)
	}
	if msg.histWarn != "" {
		m.addBlock(blockDim, "· "+msg.histWarn)
	}
	m.hist, m.past = msg.hist, append([]string(nil), msg.hist.Lines()...)
	m.histAt = len(m.past)
	m.addBlock(blockDim, startHint)
	m.openSessions() // sessions.go
	if m.resumeID != "" || m.continueOn {
		m.resume(m.resumeID)
	}
	m.layout() // now: the opening is the first thing a person reads
	var cmds []tea.Cmd
	for _, k := range m.waiting {
		cmds = append(cmds, m.update(k))
	}
	m.waiting = nil
	return tea.Batch(cmds...)
}

// startHint is the last line of the window's opening.
const startHint = "Enter sends · Alt-Enter or Ctrl-J: a new line · Esc stops a turn · PgUp/PgDn scroll · Ctrl-C twice or Ctrl-D quits"
