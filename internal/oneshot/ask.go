package oneshot

// What -p and mm --ask show of an asked agent: everything on stderr (the
// activity), its answer to a -p turn is a tool result the model reads;
// nobody can answer its permission requests, so they are refused.

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"

	"mm/internal/agent"
	"mm/internal/termsafe"
	"mm/internal/tools"
	"mm/internal/ui"
)

// agentView shows an asked agent on the printer's stderr: its text a
// round at a time (held until the round ends: a line written per delta
// would break it), its reasoning as it streams, its calls.
type agentView struct {
	p *ui.Printer

	mu    sync.Mutex
	round strings.Builder
}

func (v *agentView) AgentText(_, s string) {
	v.mu.Lock()
	v.round.WriteString(s)
	v.mu.Unlock()
}

func (v *agentView) AgentThinking(_, s string) {
	v.flush()
	v.p.Thinking(s)
}

func (v *agentView) AgentToolStart(agent string, c *tools.AgentCall) {
	v.flush()
	v.p.Line(ui.AgentToolLine(agent, c))
}

func (v *agentView) AgentToolEnd(_ string, c *tools.AgentCall) { v.p.AgentToolEnd(c) }

// Notice shows a hook's notice (preAsk, postAsk).
func (v *agentView) Notice(msg string) { v.p.Notice(msg) }

func (v *agentView) AgentPermission(_ context.Context, agent string, c *tools.AgentCall) string {
	v.flush()
	v.p.Line(fmt.Sprintf("%s — refused: %s", ui.AgentPermissionLine(agent, c), askRefusal))
	return tools.RejectOnce
}

// askRefusal is why an asked agent's call is refused here.
const askRefusal = "nobody can confirm it here (its mmConfigs entry does not say yolo: true)"

// flush writes the held text to stderr.
func (v *agentView) flush() {
	v.mu.Lock()
	text := strings.TrimSpace(v.round.String())
	v.round.Reset()
	v.mu.Unlock()
	if text != "" {
		v.p.Line(text)
	}
}

// The -p facade shows asked agents the same way.
func (f *facade) agents() *agentView {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.av == nil {
		f.av = &agentView{p: f.p}
	}
	return f.av
}

func (f *facade) AgentText(a, s string)                       { f.agents().AgentText(a, s) }
func (f *facade) AgentThinking(a, s string)                   { f.agents().AgentThinking(a, s) }
func (f *facade) AgentToolStart(a string, c *tools.AgentCall) { f.agents().AgentToolStart(a, c) }
func (f *facade) AgentToolEnd(a string, c *tools.AgentCall) {
	f.agents().AgentToolEnd(a, c)
}
func (f *facade) AgentPermission(ctx context.Context, a string, c *tools.AgentCall) string {
	return f.agents().AgentPermission(ctx, a, c)
}

var _ tools.AgentWatcher = (*facade)(nil)

// AskOptions configure RunAsk.
type AskOptions struct {
	Printer *ui.Printer
	// Shown is the 🗣 line's `<agent> (<provider>/<model>)`.
	Shown string
}

// RunAsk is `mm --ask NAME "prompt"`: the answer on stdout, the activity
// on stderr, the exit codes of -p.
func RunAsk(ctx context.Context, agents tools.AgentAsker, name, prompt string, opts AskOptions) int {
	p := opts.Printer
	first, _, _ := strings.Cut(strings.TrimSpace(prompt), "\n")
	p.Line(fmt.Sprintf("🗣 ask_agent: %s — %s", opts.Shown, first))
	v := &agentView{p: p}
	r := agents.Ask(tools.WithFacade(ctx, v), tools.AgentRequest{Agent: name, Prompt: prompt})
	v.mu.Lock()
	v.round.Reset() // the answer: it goes to stdout below
	v.mu.Unlock()
	p.Finish()
	if r.Failed {
		fmt.Fprintln(p.Err, termsafe.Text(r.Text))
		if r.Exit == ExitOK {
			return ExitEngine
		}
		return r.Exit
	}
	if r.Replaced {
		p.Notice(tools.AnsweredLine(name, r.Text, true))
	}
	io.WriteString(p.Out, termsafe.Text(strings.TrimRight(r.Text, "\n")+"\n"))
	return ExitOK
}

// askEnded forgets what an ask_agent call held: its answer was the
// call's output, shown as its preview.
func (f *facade) askEnded(c *agent.Call) {
	if c.Name != tools.AskAgentName {
		return
	}
	v := f.agents()
	v.mu.Lock()
	v.round.Reset()
	v.mu.Unlock()
}
