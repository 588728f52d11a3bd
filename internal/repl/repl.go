// Package repl is mm's line-mode facade: a readline prompt with history, the
// streamed answer, the 🛠️ tool lines, the 🔐 permission prompt, a spinner,
// the turn summary, and slash commands. Esc or Ctrl-C stops the running
// turn and the prompt comes back.
package repl

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"

	"github.com/chzyer/readline"
	"golang.org/x/term"

	"mm/internal/agent"
	"mm/internal/engine"
	"mm/internal/llm"
	"mm/internal/ui"
)

// Options are what the REPL needs besides the engine.
type Options struct {
	In       *os.File
	Out      *os.File
	Warnings []string // printed under the banner
	Notice   string   // a one-line notice for the start (the -tui fallback)
}

// REPL is one interactive session.
type REPL struct {
	eng  *engine.Engine
	opts Options
	p    *ui.Printer
	rt   *router
	fd   int

	mu       sync.Mutex
	permWait chan rune // a permission prompt is waiting for a key
	typed    []rune    // type-ahead during a turn
	next     string    // a question typed during the turn, to ask next
	quit     bool

	// readLine reads one line in the plain (non-terminal) session.
	readLine func() (string, bool)
}

// Run runs the session until /quit or Ctrl-D and returns the exit code.
func Run(ctx context.Context, eng *engine.Engine, opts Options) int {
	if opts.In == nil {
		opts.In = os.Stdin
	}
	if opts.Out == nil {
		opts.Out = os.Stdout
	}
	cfg := eng.Config
	r := &REPL{eng: eng, opts: opts, p: ui.NewPrinter(opts.Out, opts.Out, cfg.ShowThinking, cfg.PreviewLines), fd: int(opts.In.Fd())}
	defer r.p.Close()
	r.banner(ctx)
	if term.IsTerminal(r.fd) && term.IsTerminal(int(opts.Out.Fd())) {
		return r.interactive(ctx)
	}
	return r.plain(ctx)
}

func (r *REPL) banner(ctx context.Context) {
	// The banner and the warnings name what the configuration and the
	// project hold (a model name, skill names): the printer sanitises them.
	r.p.Line(r.eng.Banner(ctx))
	for _, w := range r.opts.Warnings {
		r.p.Line(w)
	}
	if r.opts.Notice != "" {
		r.p.Line(r.opts.Notice)
	}
	r.p.DimLine("/help for commands · Esc or Ctrl-C stops a turn · Ctrl-D quits")
}

// interactive is the terminal session: readline at the prompt, keys during
// a turn.
func (r *REPL) interactive(ctx context.Context) int {
	r.rt = newRouter()
	go r.rt.run(r.opts.In)
	history := ""
	if dir := filepath.Join(r.eng.Cwd, ".mm"); os.MkdirAll(dir, 0o755) == nil {
		history = filepath.Join(dir, "history")
	}
	rl, err := readline.NewEx(&readline.Config{
		Prompt:            "› ",
		HistoryFile:       history,
		HistoryLimit:      1000,
		HistorySearchFold: true,
		Stdin:             r.rt.pipe,
		Stdout:            r.opts.Out,
		Stderr:            r.opts.Out,
		InterruptPrompt:   "^C",
		EOFPrompt:         "",
	})
	if err != nil {
		fmt.Fprintf(r.opts.Out, "[error: cannot start the line editor: %v]\n", err)
		return 1
	}
	defer rl.Close()
	// A SIGINT can still arrive between modes (the terminal is briefly in
	// its normal mode): it must not kill mm.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	go func() {
		for s := range sigs {
			if s == syscall.SIGTERM {
				r.mu.Lock()
				r.quit = true
				r.mu.Unlock()
			}
			r.rt.send(key{kind: keyInterrupt})
		}
	}()
	defer io.WriteString(r.opts.Out, bracketedPasteOff)

	for !r.quitting() {
		line := r.takeNext()
		if line == "" {
			io.WriteString(r.opts.Out, bracketedPasteOn)
			in, err := rl.Readline()
			io.WriteString(r.opts.Out, bracketedPasteOff)
			if errors.Is(err, readline.ErrInterrupt) {
				r.rt.expand("") // forget pastes of the cancelled line
				continue
			}
			if err != nil { // Ctrl-D on an empty line, or the input ended
				break
			}
			line = r.rt.expand(in)
		} else {
			fmt.Fprintf(r.opts.Out, "› %s\n", line)
			rl.SaveHistory(line)
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		if r.command(line) {
			continue
		}
		r.turn(ctx, line)
	}
	return 0
}

// plain is the session when stdin or stdout is not a terminal: one question
// per line, plain text, a permission answered by a line.
func (r *REPL) plain(ctx context.Context) int {
	in := bufio.NewReader(r.opts.In)
	r.readLine = func() (string, bool) {
		s, err := in.ReadString('\n')
		if err != nil && s == "" {
			return "", false
		}
		return strings.TrimRight(s, "\r\n"), true
	}
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt)
	defer signal.Stop(sigs)
	for !r.quitting() {
		line, ok := r.readLine()
		if !ok {
			break
		}
		if strings.TrimSpace(line) == "" || r.command(line) {
			continue
		}
		tctx, cancel := context.WithCancel(ctx)
		go func() {
			select {
			case <-sigs:
				cancel()
			case <-tctx.Done():
			}
		}()
		r.ask(tctx, line)
		cancel()
	}
	return 0
}

func (r *REPL) quitting() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.quit
}

func (r *REPL) takeNext() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.next
	r.next = ""
	return s
}

// turn runs one question with the keys watched.
func (r *REPL) turn(ctx context.Context, question string) {
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	restore, _ := keysMode(r.fd)
	defer restore()
	r.rt.setTurn(true)
	defer r.rt.setTurn(false)
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.watchKeys(done, cancel)
	}()
	r.ask(tctx, question)
	close(done)
	wg.Wait()
	r.mu.Lock()
	r.typed = nil
	r.mu.Unlock()
	r.p.SetInput("")
}

// ask runs the question and prints what follows the answer.
func (r *REPL) ask(ctx context.Context, question string) {
	r.p.Status("Thinking")
	res, err := r.eng.Agent.Ask(ctx, question, &replUI{r: r})
	r.p.Finish()
	if res != nil && r.eng.Config.DisplayCommands && len(res.Calls) > 0 {
		r.p.Line(ui.CommandList(res.Calls))
	}
	switch {
	case err == nil:
	case errors.Is(err, context.Canceled):
		r.p.DimLine("[turn stopped]")
	default:
		r.p.RedLine(err.Error())
	}
	if res != nil && (err == nil || len(res.Calls) > 0) {
		r.p.DimLine(ui.Summary(res))
	}
}

// watchKeys handles the keys typed while a turn runs.
func (r *REPL) watchKeys(done <-chan struct{}, cancel context.CancelFunc) {
	for {
		select {
		case <-done:
			return
		case k := <-r.rt.keys:
			r.handleKey(k, cancel)
		}
	}
}

func (r *REPL) handleKey(k key, cancel context.CancelFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch k.kind {
	case keyEsc, keyInterrupt:
		r.typed = nil
		cancel()
		return
	case keyEOF:
		if len(r.typed) == 0 {
			r.quit = true
			cancel()
		}
		return
	}
	if r.permWait != nil && k.kind == keyRune && len(r.typed) == 0 {
		select {
		case r.permWait <- k.r:
		default:
		}
		return
	}
	switch k.kind {
	case keyRune:
		r.typed = append(r.typed, k.r)
	case keyText:
		r.typed = append(r.typed, []rune(strings.ReplaceAll(k.text, "\n", " "))...)
	case keyBackspace:
		if len(r.typed) > 0 {
			r.typed = r.typed[:len(r.typed)-1]
		}
	case keyKill:
		r.typed = nil
	case keyEnter:
		line := strings.TrimSpace(string(r.typed))
		r.typed = nil
		switch line {
		case "":
		case "/abort":
			cancel()
		case "/quit", "/exit":
			r.quit = true
			cancel()
		default:
			// Asking something else stops the running turn.
			r.next = line
			cancel()
		}
	}
	r.p.SetInput(string(r.typed))
}

// replUI is the agent's view of the terminal.
type replUI struct{ r *REPL }

func (u *replUI) Text(s string) { u.r.p.Text(s) }
func (u *replUI) Thinking(s string) {
	if u.r.eng.Config.ShowThinking {
		u.r.p.Thinking(s)
	}
}
func (u *replUI) Progress(p llm.Progress) {
	if p.Total > 0 && p.Processed < p.Total {
		u.r.p.Status(fmt.Sprintf("Reading the prompt %s/%s tokens", ui.Tokens(p.Processed), ui.Tokens(p.Total)))
	}
}
func (u *replUI) Composing(string, int) { u.r.p.Status("Composing a tool call") }
func (u *replUI) ToolStart(c *agent.Call) {
	u.r.p.ToolStart(c)
	switch c.Name {
	case "bash":
		u.r.p.Status("Running")
	case "fetch_content":
		u.r.p.Status("Fetching")
	}
}
func (u *replUI) ToolEnd(c *agent.Call) {
	u.r.p.ToolEnd(c)
	u.r.p.Status("Thinking")
}
func (u *replUI) Notice(msg string) { u.r.p.Notice(msg) }

// Permission shows the 🔐 prompt and waits for one key: a allow once, s
// allow this tool for the session, r refuse, n never.
func (u *replUI) Permission(ctx context.Context, c *agent.Call) agent.Decision {
	r := u.r
	r.p.Status("") // nothing runs while mm waits for the user
	r.p.Line(fmt.Sprintf("🔐 %s %s", c.Name, oneLine(c.Summary)))
	r.p.DimLine(fmt.Sprintf("   [a] allow once · [s] allow %s for the session · [r] refuse · [n] never", c.Name))
	if r.rt == nil {
		return r.plainPermission(c)
	}
	wait := make(chan rune, 1)
	r.mu.Lock()
	r.permWait = wait
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.permWait = nil
		r.mu.Unlock()
	}()
	for {
		select {
		case <-ctx.Done():
			return agent.Refuse
		case k := <-wait:
			if d, word, ok := decision(k); ok {
				r.p.DimLine("   → " + word)
				if d == agent.AllowOnce || d == agent.AllowSession {
					r.p.Status("Running")
				}
				return d
			}
		}
	}
}

func (r *REPL) plainPermission(c *agent.Call) agent.Decision {
	for {
		fmt.Fprint(r.opts.Out, "   ? ")
		line, ok := r.readLine()
		if !ok {
			return agent.Refuse
		}
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if d, word, ok := decision([]rune(line)[0]); ok {
			fmt.Fprintln(r.opts.Out, "   → "+word)
			return d
		}
	}
}

func decision(k rune) (agent.Decision, string, bool) {
	switch k {
	case 'a', 'A', 'y', 'Y':
		return agent.AllowOnce, "allowed once", true
	case 's', 'S':
		return agent.AllowSession, "allowed for the session", true
	case 'r', 'R':
		return agent.Refuse, "refused", true
	case 'n', 'N':
		return agent.Never, "refused for the session", true
	}
	return agent.Refuse, "", false
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i] + " …"
	}
	return s
}
