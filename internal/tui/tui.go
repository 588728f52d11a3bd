// Package tui is mm's window mode (mm -tui, or tui: true): one full-screen
// window beside the line mode, -p and ACP. The header names the agent, the
// conversation scrolls under it, the input box (or the permission zone)
// sits at the bottom with a status line. It drives the same engine as the
// line mode through the same agent.UI; every text that comes from the
// model, a tool, a server or a file passes termsafe.Text (directly, or
// through the line mode's printer) before it is drawn.
package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	tea "charm.land/bubbletea/v2"

	"mm/internal/agent"
	"mm/internal/config"
	"mm/internal/engine"
	"mm/internal/llm"
	"mm/internal/termsafe"
	"mm/internal/tools"
	"mm/internal/ui"
)

// Options are what the window needs besides the engine.
type Options struct {
	In, Out  *os.File
	Warnings []string // shown at the top of the conversation
	// Env is the environment the renderer reads (TERM, NO_COLOR); nil
	// means the process's.
	Env []string
	// Resume is -resume ID, Continue -continue: the session the window
	// opens on (sessions.go).
	Resume   string
	Continue bool
	// Late, when set, is where the engine's warnings go while it runs:
	// the window shows them as notices while it is open (warnings.go).
	Late *LateWarnings
}

// Run shows the window until the user leaves and returns the exit code.
// The terminal is restored (the alternate screen left, the cursor shown)
// before the one line that says how to go on is printed.
func Run(ctx context.Context, eng *engine.Engine, opts Options) int {
	code, _ := Open(ctx, eng.Config, func() (*engine.Engine, []string, error) { return eng, nil, nil }, opts)
	return code
}

// Open is Run for an engine that start makes while the window draws its
// first frame (start.go): it returns start's error, the window closed and
// nothing printed, for the caller to report as the line mode does.
func Open(ctx context.Context, cfg *config.Config, start func() (*engine.Engine, []string, error), opts Options) (int, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	m := newModel(ctx, starting(cfg))
	m.starting = true
	m.resumeID, m.continueOn = opts.Resume, opts.Continue // started() resumes
	defer m.sess.Close()
	// mm watches the signals itself (Bubble Tea's own handler would end a
	// SIGTERM with status 0): SIGTERM closes the window with 143, a SIGINT
	// is a Ctrl-C (the first stops the turn, the second quits with 130),
	// as in the line mode.
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for s := range sigs {
			m.ev.post(signalMsg{s})
		}
	}()
	popts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(opts.In), tea.WithOutput(opts.Out), tea.WithoutSignalHandler()}
	if opts.Env != nil {
		popts = append(popts, tea.WithEnvironment(opts.Env))
	}
	p := tea.NewProgram(m, popts...)
	m.ev.wake, m.ev.pace = p.Send, streamFrame
	detach := opts.Late.attach(func(s string) { m.ev.post(noticeMsg(s)) })
	st := m.startEngine(ctx, start, sigs, opts.Warnings)
	_, err := p.Run()
	detach() // what comes now is printed: the terminal is the line's again
	// A turn still running stops with the window; its goroutine must not
	// outlive mm's terminal state (it would write nothing, but it holds
	// the tools' processes).
	m.stopTurn()
	m.turns.Wait()
	<-st.done // the engine's start, which the user may have left before
	if st.hist != nil {
		st.hist.Close()
	}
	if st.err != nil {
		return 0, st.err
	}
	if m.panicked != "" {
		fmt.Fprintf(opts.Out, "mm: internal error in the window mode: %s\n", termsafe.Text(m.panicked))
		return 2, nil
	}
	if errors.Is(err, tea.ErrProgramPanic) {
		// A panic while drawing or in the window's loop: Bubble Tea caught
		// it, restored the terminal and wrote it on stderr.
		fmt.Fprintln(opts.Out, "mm: internal error in the window mode (reported above)")
		return 2, nil
	}
	if err != nil && ctx.Err() == nil && !isKilled(err) {
		fmt.Fprintf(opts.Out, "mm: the window mode failed: %s\n", termsafe.Text(err.Error()))
		return 1, nil
	}
	fmt.Fprintln(opts.Out, m.leavingLine())
	return m.exitCode, nil
}

func isKilled(err error) bool {
	return errors.Is(err, tea.ErrProgramKilled) || errors.Is(err, tea.ErrInterrupted)
}

// Messages from the turn's goroutine to the window.
type (
	textMsg     string
	thinkMsg    string
	statusMsg   string
	noticeMsg   string
	toolMsg     struct{ c callView }
	turnDoneMsg struct {
		res    *agent.Result
		err    error
		window int // the context window, 0 when unknown
	}
	permMsg struct {
		head, keys, prefix string
		id                 string // the call's block, which shows the answer under its line
		reply              chan agent.Decision
		whole              bool // the head did not fit the zone: it is in the conversation too
	}
	permCancelMsg struct{ reply chan agent.Decision }
)

// callView is what the window shows of a call, copied when the agent
// reports it: the agent goes on changing its *agent.Call.
type callView struct {
	id, name, summary, mcp string
	kind                   tools.Kind // its ACP kind, which decides what shows under its line (kinds.go)
	done, failed, refused  bool
	duration               time.Duration
	preview                string // the folded output, already sanitised
	full                   string // the whole output, for Ctrl-O ("" when preview is all of it)
}

// events carries the turn's messages to the window in their order. The
// streamed pieces that arrive while the window is busy are merged into one
// message, and the program is woken once for all those waiting: a token
// costs an append, not a pass through the program's loop and a view.
type events struct {
	mu     sync.Mutex
	queue  []tea.Msg
	posted bool // a drainMsg is on its way
	wake   func(tea.Msg)
	pace   time.Duration // how long a streamed piece waits for others (frame.go)
}

type drainMsg struct{}

func (e *events) post(msg tea.Msg) {
	e.mu.Lock()
	if n := len(e.queue); n > 0 {
		merged := false
		switch last := e.queue[n-1].(type) {
		case textMsg:
			if t, ok := msg.(textMsg); ok {
				e.queue[n-1], merged = last+t, true
			}
		case thinkMsg:
			if t, ok := msg.(thinkMsg); ok {
				e.queue[n-1], merged = last+t, true
			}
		case statusMsg:
			if _, ok := msg.(statusMsg); ok {
				e.queue[n-1], merged = msg, true // only the last status shows
			}
		}
		if merged {
			e.mu.Unlock()
			return
		}
	}
	e.queue = append(e.queue, msg)
	wake := !e.posted
	e.posted = true
	e.mu.Unlock()
	if wake {
		e.send(msg) // frame.go
	}
}

// take returns the messages waiting, in order.
func (e *events) take() []tea.Msg {
	e.mu.Lock()
	defer e.mu.Unlock()
	q := e.queue
	e.queue, e.posted = nil, false
	return q
}

// windowUI is the agent's view of the window: each event becomes a
// message to the program, which alone touches the model.
type windowUI struct {
	send         func(tea.Msg)
	showThinking bool
	previewLines int
}

func (u *windowUI) Text(s string) { u.send(textMsg(s)) }
func (u *windowUI) Thinking(s string) {
	if u.showThinking {
		u.send(thinkMsg(s))
	}
}
func (u *windowUI) Progress(p llm.Progress) {
	if p.Loading {
		u.send(statusMsg("Loading the model"))
		return
	}
	if p.Total > 0 && p.Processed < p.Total {
		u.send(statusMsg(fmt.Sprintf("Reading the prompt %s/%s tokens", ui.Tokens(p.Processed), ui.Tokens(p.Total))))
	}
}
func (u *windowUI) Composing(string, int) { u.send(statusMsg("Composing a tool call")) }
func (u *windowUI) ToolStart(c *agent.Call) {
	u.send(toolMsg{view(c, false, u.previewLines)})
	u.send(statusMsg("Running " + c.Name))
	u.askToolStart(c) // ask_agent.go
}
func (u *windowUI) ToolEnd(c *agent.Call) {
	v := view(c, true, u.previewLines)
	if u.askToolEnd(c) { // ask_agent.go: the answer has scrolled
		v.preview, v.full = "", ""
	}
	u.send(toolMsg{v})
	u.send(statusMsg("Thinking"))
}
func (u *windowUI) Notice(msg string) { u.send(noticeMsg(msg)) }

// Permission puts the permission zone in place of the input box and waits
// for its answer (the window applies the line mode's keys and guard), or
// for the turn to stop, which refuses.
func (u *windowUI) Permission(ctx context.Context, c *agent.Call) agent.Decision {
	scope := c.Name
	if c.Session != "" {
		scope = c.Session
	}
	prefixKey := ""
	if c.Prefix != "" {
		prefixKey = fmt.Sprintf(" · [p] allow %q for the session", c.Prefix+" …")
	}
	keys := termsafe.Text(fmt.Sprintf("[a] allow once · [s] allow %s for the session%s · [r] refuse · [n] never", scope, prefixKey))
	head := printed(u.previewLines, func(p *ui.Printer) { p.Permission(c) })
	reply := make(chan agent.Decision, 1)
	u.send(permMsg{head: head, keys: keys, prefix: c.Prefix, id: c.ID, reply: reply})
	select {
	case d := <-reply:
		return d
	case <-ctx.Done():
		u.send(permCancelMsg{reply})
		return agent.Refuse
	}
}

// view copies what the window shows of c. The output is folded the way
// the line mode folds it (previewLines), by the line mode's own printer,
// which also sanitises it.
func view(c *agent.Call, done bool, previewLines int) callView {
	v := callView{id: c.ID, name: c.Name, summary: c.Summary, mcp: c.MCP, kind: c.Kind, done: done}
	if done {
		// Failed as ACP shows it: a cancelled or killed bash, a declined
		// question, a change not written end failed, not done.
		v.failed = c.Failed || (c.Diff != nil && !c.Diff.Applied) || agent.FailedOutput(c.Output)
		v.refused, v.duration = c.Refused, c.Duration
		v.preview = printed(previewLines, func(p *ui.Printer) { p.ToolEnd(c) })
		if v.preview == "" {
			v.preview = readPreview(c, previewLines)
		}
		if previewLines > 0 && strings.Count(c.Output, "\n") >= previewLines {
			// The output as the model read it (maxOutput), unfolded.
			if full := printed(maxUnfolded, func(p *ui.Printer) { p.ToolEnd(c) }); full != v.preview {
				v.full = full
			}
		}
	}
	return v
}

// maxUnfolded is how many lines Ctrl-O unfolds at most.
const maxUnfolded = 10000

// printed is what the line mode's printer writes, without colour: its
// texts are sanitised there (termsafe), the window styles them itself.
func printed(previewLines int, f func(p *ui.Printer)) string {
	var b bytes.Buffer
	p := ui.NewPrinter(&b, &b, false, previewLines)
	f(p)
	p.Close()
	return strings.TrimRight(b.String(), "\n")
}

// title is acp.title as the window shows it: "" when empty or the
// built-in one.
func title(cfg *config.Config) string {
	t := strings.TrimSpace(cfg.ACP.Title)
	if t == config.DefaultACPTitle {
		return ""
	}
	return termsafe.Text(strings.ReplaceAll(t, "\n", " "))
}

// Header is the window's top row: `mm [<acp.title>] · <model> @ <provider>`.
func Header(cfg *config.Config, provider string) string {
	return termsafe.Text(fmt.Sprintf("%s · %s @ %s", agentName(cfg), oneLine(cfg.Model), oneLine(provider)))
}

// agentName is `mm [<acp.title>]`, or `mm`.
func agentName(cfg *config.Config) string {
	if t := title(cfg); t != "" {
		return "mm [" + t + "]"
	}
	return "mm"
}

func oneLine(s string) string { return strings.ReplaceAll(s, "\n", " ") }

// turnState is the running turn (guarded by its mutex: Run stops it from
// outside the program's goroutine).
type turnState struct {
	mu     sync.Mutex
	cancel context.CancelFunc
}
