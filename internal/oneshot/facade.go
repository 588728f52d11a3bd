package oneshot

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"mm/internal/agent"
	"mm/internal/llm"
	"mm/internal/ui"
)

// facade adapts the printer to the agent's UI for a run where nobody can
// answer.
//
// With hold (stdout is not a terminal), the text of each round is kept
// until the round's end is known: a round that goes on with a tool call,
// or with a notice and another round, was narration and goes to stderr
// before the activity it announced; the round the turn ends with is the
// answer and goes to stdout. A script then reads the answer alone.
type facade struct {
	p    *ui.Printer
	hold bool

	mu    sync.Mutex
	round strings.Builder // the held text of the current round
	// notices came after the held text: they wait with it, so that stderr
	// keeps the order in which things happened.
	notices []string
	// av shows the asked agents (ask.go).
	av *agentView
}

func (f *facade) Text(s string) {
	if !f.hold {
		f.p.Text(s)
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nextRound()
	f.round.WriteString(s)
}

func (f *facade) Thinking(s string) {
	if f.hold {
		f.mu.Lock()
		f.nextRound()
		f.mu.Unlock()
	}
	f.p.Thinking(s)
}

// The spinner is the line mode's, on stderr; the printer draws it only
// when stderr is a terminal (ui.Printer.Status), and clears it before
// anything else is written.

func (f *facade) Progress(p llm.Progress) {
	if p.Loading {
		f.p.Status("Loading the model")
		return
	}
	if p.Total > 0 && p.Processed < p.Total {
		f.p.Status(fmt.Sprintf("Reading the prompt %s/%s tokens", ui.Tokens(p.Processed), ui.Tokens(p.Total)))
	}
}

func (f *facade) Composing(string, int) { f.p.Status("Composing a tool call") }

func (f *facade) ToolStart(c *agent.Call) {
	f.mu.Lock()
	f.narrate()
	f.mu.Unlock()
	f.p.ToolStart(c)
	switch c.Name {
	case "bash":
		f.p.Status("Running")
	case "fetch_content":
		f.p.Status("Fetching")
	}
}

func (f *facade) ToolEnd(c *agent.Call) {
	f.p.ToolEnd(c)
	f.askEnded(c)
	f.p.Status("Thinking")
}

func (f *facade) Notice(msg string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.hold && f.round.Len() > 0 {
		f.notices = append(f.notices, msg)
		return
	}
	f.p.Notice(msg)
}

func (f *facade) Permission(_ context.Context, c *agent.Call) agent.Decision {
	name, why := refusal(c)
	f.p.Line(fmt.Sprintf("🔐 %s refused: %s", name, why))
	return agent.Refuse
}

// nextRound: text or reasoning after held notices starts a new round, so
// the held one was narration.
func (f *facade) nextRound() {
	if len(f.notices) > 0 {
		f.narrate()
	}
}

// narrate writes the held text and notices to stderr. The printer
// sanitises them.
func (f *facade) narrate() {
	if text := strings.TrimRight(f.round.String(), "\n"); strings.TrimSpace(text) != "" {
		f.p.Line(text)
	}
	f.round.Reset()
	for _, n := range f.notices {
		f.p.Notice(n)
	}
	f.notices = nil
}

// end writes what is held when the turn is over: the answer to stdout when
// the turn answered, else to stderr with the error (a half answer is no
// answer a script should read).
func (f *facade) end(answered bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if !f.hold {
		return
	}
	if !answered {
		f.narrate()
		return
	}
	f.p.Text(f.round.String())
	f.round.Reset()
	for _, n := range f.notices {
		f.p.Notice(n)
	}
	f.notices = nil
}
