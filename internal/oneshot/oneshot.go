// Package oneshot is `mm -p "…"`: one prompt, the answer on stdout, the
// activity on stderr, an exit code a script can test (docs/scripting.md).
// Nobody can be asked anything, so a call that would need permission is
// refused. With --json, stdout is one JSON event per line instead
// (jsonevents.go).
package oneshot

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

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

// Reason names an exit code in the --json result event.
func Reason(code int) string {
	switch code {
	case ExitOK:
		return "answered"
	case ExitConfig:
		return "config_error"
	case ExitUsage:
		return "usage_error"
	case ExitEngine:
		return "engine_error"
	case ExitStopped:
		return "stopped"
	case ExitCanceled:
		return "interrupted"
	}
	return "error"
}

// MaxStdin bounds the text read from a pipe: more than this would not fit
// any local model's context anyway.
const MaxStdin = 4 << 20

// WaitingForStdin is said on stderr when the pipe on stdin is still open
// after StdinPatience: a script that runs mm -p with an inherited stdin that
// never closes would otherwise hang without a word.
const WaitingForStdin = "mm: waiting for stdin to close (the text piped there is added to the prompt) — use -no-stdin or </dev/null to skip it"

// StdinPatience is how long mm reads stdin before it says it is waiting.
const StdinPatience = time.Second

// Prompt joins the prompt and the text piped on stdin (`cat err.log | mm -p
// "explain"`). stdin is read only when it is not a terminal. note (when not
// nil) gets WaitingForStdin if the read lasts longer than StdinPatience.
func Prompt(prompt string, stdin *os.File, note io.Writer) (string, error) {
	if stdin == nil || term.IsTerminal(int(stdin.Fd())) {
		return prompt, nil
	}
	if note != nil {
		t := time.AfterFunc(StdinPatience, func() { fmt.Fprintln(note, WaitingForStdin) })
		defer t.Stop()
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

// Options configures a run with text output.
type Options struct {
	Printer *ui.Printer
	// DisplayCommands adds the numbered list of the turn's calls after the
	// answer.
	DisplayCommands bool
	// AnswerOnly is set when stdout is not a terminal: stdout then gets the
	// final answer only, and the text of the rounds that call a tool goes to
	// stderr with the activity. On a terminal everything streams.
	AnswerOnly bool
	// Done, when set, is told how the turn ended (a session saves it).
	Done func(error)
}

// Run asks the question and returns the exit code.
func Run(ctx context.Context, a *agent.Agent, question string, opts Options) int {
	p := opts.Printer
	f := &facade{p: p, hold: opts.AnswerOnly}
	p.Status("Thinking")
	res, err := a.Ask(ctx, question, f)
	if opts.Done != nil {
		opts.Done(err)
	}
	f.end(err == nil)
	p.Finish()
	if res != nil && opts.DisplayCommands && len(res.Calls) > 0 {
		p.Line(ui.CommandList(res.Calls))
	}
	if res != nil && (err == nil || len(res.Calls) > 0) {
		p.Line(ui.Summary(res))
	}
	return ExitCode(err, p.Err)
}

// ExitCode prints err (if any) and maps it to the exit code.
func ExitCode(err error, w io.Writer) int {
	code, msg := Describe(err)
	if msg != "" {
		fmt.Fprintln(w, msg)
	}
	return code
}

// Describe maps err to the exit code and the message mm prints. The
// message may quote what a server sent: it is sanitised like everything
// printed.
func Describe(err error) (int, string) {
	if err == nil {
		return ExitOK, ""
	}
	var stop *agent.StopError
	var ee *llm.EngineError
	switch {
	case errors.As(err, &stop):
		return ExitStopped, termsafe.Text(stop.Error())
	case errors.As(err, &ee):
		return ExitEngine, termsafe.Text(ee.Error())
	case errors.Is(err, context.Canceled):
		return ExitCanceled, "[interrupted]"
	}
	return ExitEngine, termsafe.Text(fmt.Sprintf("[engine error: %v]", err))
}

// Refusal is what a call that needs permission gets with -p.
const Refusal = "nobody can confirm it with -p (yolo: false)"

// RefusalAsk is what it gets under yolo: true, when mcp.permissions
// makes the call ask.
const RefusalAsk = "nobody can confirm it with -p (mcp.permissions says ask)"

// refusal is why c is refused, and the name the refusal line gives it:
// an MCP tool as server/tool (through `mcp`: the tool the call runs).
func refusal(c *agent.Call) (name, why string) {
	name, why = c.Name, Refusal
	if c.MCP != "" {
		name = c.MCP
	} else if c.Session != "" {
		name += " " + c.Session
	}
	if c.UnderYolo {
		why = RefusalAsk
	}
	return name, why
}
