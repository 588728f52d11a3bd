// Package oneshot is `mm -p "…"`: one prompt, the answer streamed to stdout,
// the activity to stderr, an exit code a script can test. Nobody can be
// asked anything, so a call that would need permission is refused.
package oneshot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"mm/internal/agent"
	"mm/internal/llm"
	"mm/internal/termsafe"
	"mm/internal/ui"
)

// Exit codes (shared/spec/README.md).
const (
	ExitOK       = 0
	ExitConfig   = 1
	ExitUsage    = 2
	ExitEngine   = 3
	ExitStopped  = 4
	ExitCanceled = 130 // interrupted by Ctrl-C, as shells report it
)

// MaxStdin bounds the text read from a pipe: more than this would not fit
// any local model's context anyway.
const MaxStdin = 4 << 20

// Prompt joins the prompt and the text piped on stdin (`cat err.log | mm -p
// "explain"`). stdin is read only when it is not a terminal.
func Prompt(prompt string, stdin *os.File) (string, error) {
	if stdin == nil || term.IsTerminal(int(stdin.Fd())) {
		return prompt, nil
	}
	data, err := io.ReadAll(io.LimitReader(stdin, MaxStdin+1))
	if err != nil {
		return prompt, nil // no readable stdin (closed): nothing to add
	}
	if len(data) > MaxStdin {
		return "", fmt.Errorf("[error: the text piped on stdin is over %d MiB — cut it first, for instance with tail -c 200000]", MaxStdin>>20)
	}
	piped := strings.TrimRight(string(data), "\n")
	if strings.TrimSpace(piped) == "" {
		return prompt, nil
	}
	if strings.TrimSpace(prompt) == "" {
		return piped, nil
	}
	return prompt + "\n\n" + piped, nil
}

// Run asks the question and returns the exit code. displayCommands adds the
// numbered list of the turn's calls after the answer.
func Run(ctx context.Context, a *agent.Agent, question string, p *ui.Printer, displayCommands bool) int {
	res, err := a.Ask(ctx, question, &facade{p: p})
	p.Finish()
	if res != nil && displayCommands && len(res.Calls) > 0 {
		p.Line(ui.CommandList(res.Calls))
	}
	if res != nil && (err == nil || len(res.Calls) > 0) {
		p.Line(ui.Summary(res))
	}
	return ExitCode(err, p.Err)
}

// ExitCode prints err (if any) and maps it to the exit code. The message
// may quote what a server sent: it is sanitised like everything printed.
func ExitCode(err error, w io.Writer) int {
	if err == nil {
		return ExitOK
	}
	var stop *agent.StopError
	var ee *llm.EngineError
	switch {
	case errors.As(err, &stop):
		fmt.Fprintln(w, termsafe.Text(stop.Error()))
		return ExitStopped
	case errors.As(err, &ee):
		fmt.Fprintln(w, termsafe.Text(ee.Error()))
		return ExitEngine
	case errors.Is(err, context.Canceled):
		fmt.Fprintln(w, "[interrupted]")
		return ExitCanceled
	}
	fmt.Fprintln(w, termsafe.Text(fmt.Sprintf("[engine error: %v]", err)))
	return ExitEngine
}

// facade adapts the printer to the agent's UI for a run where nobody can
// answer.
type facade struct{ p *ui.Printer }

func (f *facade) Text(s string)           { f.p.Text(s) }
func (f *facade) Thinking(s string)       { f.p.Thinking(s) }
func (f *facade) Progress(llm.Progress)   {}
func (f *facade) Composing(string, int)   {}
func (f *facade) ToolStart(c *agent.Call) { f.p.ToolStart(c) }
func (f *facade) ToolEnd(c *agent.Call)   { f.p.ToolEnd(c) }
func (f *facade) Notice(msg string)       { f.p.Notice(msg) }
func (f *facade) Permission(_ context.Context, c *agent.Call) agent.Decision {
	f.p.Line(fmt.Sprintf("🔐 %s refused: nobody can confirm it with -p (yolo: false)", c.Name))
	return agent.Refuse
}
