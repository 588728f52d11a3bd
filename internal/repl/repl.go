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
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/chzyer/readline"
	"golang.org/x/term"

	"mm/internal/agent"
	"mm/internal/engine"
	"mm/internal/llm"
	"mm/internal/termsafe"
	"mm/internal/ui"
)

// Options are what the REPL needs besides the engine.
type Options struct {
	In       *os.File
	Out      *os.File
	Warnings []string // printed under the banner
	Notice   string   // a one-line notice for the start (the -tui fallback)
	// Resume is -resume ID, Continue -continue: the session restored at
	// start (sessions.go).
	Resume   string
	Continue bool
}

// REPL is one interactive session.
type REPL struct {
	eng  *engine.Engine
	opts Options
	p    *ui.Printer
	rt   *router
	fd   int

	mu        sync.Mutex
	permWait  chan agent.Decision // a permission prompt is waiting for its answer
	permShown time.Time           // when the prompt appeared
	question  askState            // an ask_user question waiting (ask_user.go)
	lastKey   time.Time           // when the last key of the turn arrived
	// typed is the type-ahead of a turn: shown while the model works,
	// kept when the turn ends (the next prompt starts with it).
	typed    []rune
	next     string // a question typed during the turn, to ask next
	quit     bool
	inTurn   bool
	stopping bool // the turn was asked to stop: another Ctrl-C ends mm
	now      func() time.Time
	exit     func(code int) // os.Exit unless a test sets it
	// restoreTerm puts the terminal back as mm found it, for an exit that
	// skips the deferred restores.
	restoreTerm func()

	// readLine reads one line in the plain (non-terminal) session.
	readLine func() (string, bool)

	// permPrefix is the command prefix the waiting 🔐 prompt offers to
	// allow for the session with p ("" = no p key); guarded by mu.
	permPrefix string

	sess *Sessions // sessions.go

	// rl is the line editor of the terminal session (nil in the plain
	// one): /undo asks its question there.
	rl *readline.Instance
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
	r := &REPL{eng: eng, opts: opts, p: ui.NewPrinter(opts.Out, opts.Out, cfg.ShowThinking, cfg.PreviewLines), fd: int(opts.In.Fd()), now: time.Now}
	defer r.p.Close()
	r.initSessions()
	defer func() { r.sess.Close() }() // the lock file goes with mm
	if term.IsTerminal(r.fd) && term.IsTerminal(int(opts.Out.Fd())) {
		r.banner(ctx, "/help for commands · Esc or Ctrl-C stops a turn · Ctrl-D quits")
		r.resumeAtStart()
		return r.interactive(ctx)
	}
	return r.plain(ctx)
}

// banner writes what runs, the warnings, and the hint of the keys that
// work in this session.
func (r *REPL) banner(ctx context.Context, hint string) {
	// The banner and the warnings name what the configuration and the
	// project hold (a model name, skill names): the printer sanitises them.
	r.p.Line(r.eng.Banner(ctx))
	for _, w := range r.opts.Warnings {
		r.p.Line(w)
	}
	if r.opts.Notice != "" {
		r.p.Line(r.opts.Notice)
	}
	r.p.DimLine(hint)
}

// interactive is the terminal session: readline at the prompt, keys during
// a turn.
func (r *REPL) interactive(ctx context.Context) int {
	r.rt = newRouter()
	go r.rt.run(r.opts.In)
	rl, err := readline.NewEx(&readline.Config{
		Prompt: "› ",
		// mm keeps the history file itself (history.go): readline's own
		// would follow a symbolic link planted in the project.
		DisableAutoSaveHistory: true,
		HistoryLimit:           historyLimit,
		HistorySearchFold:      true,
		Stdin:                  r.rt.pipe,
		Stdout:                 r.opts.Out,
		Stderr:                 r.opts.Out,
		InterruptPrompt:        "^C",
		EOFPrompt:              "",
	})
	if err != nil {
		fmt.Fprintf(r.opts.Out, "[error: cannot start the line editor: %v]\n", err)
		return 1
	}
	defer rl.Close()
	r.rl = rl
	// Runs before rl.Close: readline's Close waits for its reading
	// goroutine, which can still be blocked reading the pipe after the
	// Ctrl-D that ended the line (seen with a Ctrl-D typed as the first
	// prompt appears, in one start of three when an MCP server failed at
	// start: mm then never exited), and readline's own Close does not
	// reach the pipe. Closed, the pipe ends that read.
	defer r.rt.pipe.Close()
	hist, warning := openHistory(r.eng.Root)
	if warning != "" {
		r.p.Notice(warning)
	}
	defer hist.close()
	for _, line := range hist.lines {
		if strings.Contains(line, "\n") {
			// A paste is recalled as its placeholder, like when it was
			// pasted, and sends its text.
			line = r.rt.hold(line)
		}
		rl.SaveHistory(line)
	}
	// A SIGINT can still arrive between modes (the terminal is briefly in
	// its normal mode): it must not kill mm.
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	pasteOn, pasteOff := bracketedPasteOn, bracketedPasteOff
	if ui.DumbTerminal() {
		// A dumb terminal (Emacs' M-x shell) would print the switches as
		// junk; its pastes are then told by the line break in one read.
		pasteOn, pasteOff = "", ""
	}
	if orig, err := term.GetState(r.fd); err == nil {
		r.restoreTerm = func() {
			_ = term.Restore(r.fd, orig)
			io.WriteString(r.opts.Out, pasteOff)
		}
	}
	// The terminal stays in the keys' mode between lines and turns, not
	// only during a turn (readline puts its own raw mode over it), so a
	// key typed as a turn ends never meets the line discipline (which
	// echoes it, and takes a Ctrl-D as its end of file). A Ctrl-D typed
	// then was once lost on a loaded CI machine; that this was the cause is
	// not shown (it was not reproduced). Not on Windows, whose console has
	// no line discipline (and no machine here to try it on).
	if runtime.GOOS != "windows" {
		if restore, err := keysMode(r.fd); err == nil {
			defer restore()
		}
	}
	go func() {
		terms := 0 // SIGTERMs received during the turn
		for s := range sigs {
			r.mu.Lock()
			inTurn := r.inTurn
			if s == syscall.SIGTERM {
				r.quit = true
			}
			r.mu.Unlock()
			switch {
			case s == syscall.SIGTERM && (!inTurn || terms > 0):
				// SIGTERM at the prompt, or a second one while the turn
				// stops: mm ends at once, whatever it is doing.
				r.exitNow(exitCode(s))
			case !inTurn:
				// A SIGINT at the prompt stops nothing, and must not be
				// kept to stop the next question.
				continue
			}
			if s == syscall.SIGTERM {
				terms++
			}
			r.rt.send(key{kind: keyInterrupt})
		}
	}()
	defer io.WriteString(r.opts.Out, pasteOff)

	for !r.quitting() {
		raw := r.takeNext()
		if raw == "" {
			io.WriteString(r.opts.Out, pasteOn)
			// What was typed during the last turn without Enter is the
			// start of this line, to edit or send.
			in, err := rl.ReadlineWithDefault(r.takeTyped())
			io.WriteString(r.opts.Out, pasteOff)
			if errors.Is(err, readline.ErrInterrupt) {
				continue
			}
			if err != nil { // Ctrl-D on an empty line, or the input ended
				break
			}
			raw = in
		} else {
			fmt.Fprintf(r.opts.Out, "› %s\n", termsafe.Text(raw))
		}
		if strings.TrimSpace(raw) == "" {
			continue
		}
		// readline's history keeps the placeholders (the router keeps
		// their pastes for the session), the file the text itself.
		line := r.rt.expand(raw)
		rl.SaveHistory(raw)
		hist.add(line)
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
	var sig struct {
		sync.Mutex
		cancel   context.CancelFunc // the running turn's; nil while idle
		stopping bool
	}
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	// The banner once the signals are watched: a Ctrl-C from then on
	// never kills mm. No key is read here (a line at a time, maybe from
	// a file): the hint names none that stops a turn.
	r.banner(ctx, "/help for commands · /quit or Ctrl-D quits")
	r.resumeAtStart()
	go func() {
		for s := range sigs {
			sig.Lock()
			switch {
			case sig.cancel == nil && s == os.Interrupt:
				// Idle: nothing to stop, and nothing is kept to stop
				// the next question.
			case sig.cancel == nil || sig.stopping:
				// SIGTERM while idle, or a second signal while the turn
				// stops: mm ends at once.
				r.exitNow(exitCode(s))
			default:
				sig.stopping = true
				sig.cancel()
				if s == syscall.SIGTERM {
					r.mu.Lock()
					r.quit = true
					r.mu.Unlock()
				}
			}
			sig.Unlock()
		}
	}()
	for !r.quitting() {
		// The prompt, then the question as read: the transcript shows
		// what was asked, whether the input is a file or a terminal.
		fmt.Fprint(r.opts.Out, "› ")
		line, ok := r.readLine()
		if !ok {
			fmt.Fprintln(r.opts.Out)
			break
		}
		fmt.Fprintln(r.opts.Out, termsafe.Text(line))
		if strings.TrimSpace(line) == "" || r.command(line) {
			continue
		}
		tctx, cancel := context.WithCancel(ctx)
		sig.Lock()
		sig.cancel, sig.stopping = cancel, false
		sig.Unlock()
		r.question.stop = cancel // a /abort typed at a question
		r.ask(tctx, line)
		sig.Lock()
		sig.cancel = nil
		sig.Unlock()
		cancel()
	}
	return 0
}

// exitNow ends mm at once, the terminal restored: the user asked twice.
func (r *REPL) exitNow(code int) {
	r.p.Close()
	if r.restoreTerm != nil {
		r.restoreTerm()
	}
	fmt.Fprintln(r.opts.Out, "[interrupted]")
	if r.exit != nil {
		r.exit(code)
		return
	}
	os.Exit(code)
}

// exitCode is the shell's code for a process ended by s.
func exitCode(s os.Signal) int {
	if s == syscall.SIGTERM {
		return 128 + int(syscall.SIGTERM)
	}
	return 130
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

// takeTyped returns and clears the type-ahead left by the last turn.
func (r *REPL) takeTyped() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := string(r.typed)
	r.typed = nil
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
	r.mu.Lock()
	r.inTurn, r.stopping, r.lastKey = true, false, time.Time{}
	// Type-ahead typed after an Enter in the last turn is still there.
	r.p.SetInput(string(r.typed))
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.inTurn = false
		r.mu.Unlock()
	}()
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		r.watchKeys(done, cancel)
	}()
	r.ask(tctx, question)
	// Keys from now on go to readline; those the router sent before are
	// still handled here, so a key typed as the turn ends is not lost (or
	// left for the next turn).
	r.rt.setTurn(false)
	close(done)
	wg.Wait()
	for drained := false; !drained; {
		select {
		case k := <-r.rt.keys:
			r.handleKey(k, cancel)
		default:
			drained = true
		}
	}
	// The type-ahead stays in r.typed: the next prompt (or the next
	// question's turn) starts with it.
	r.p.SetInput("")
}

// ask runs the question and prints what follows the answer.
func (r *REPL) ask(ctx context.Context, question string) {
	if r.slashAsk(ctx, question) { // ask.go
		return
	}
	r.p.Status("Thinking")
	res, err := r.eng.Agent.Ask(ctx, question, &replUI{r: r})
	r.p.Finish()
	defer r.afterTurn(err) // after the error is shown
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

// permGuard is how long a permission prompt must have been on screen, and
// the keyboard quiet, before a key answers it: a key typed before the
// prompt appeared, or in the flow of typing ("show me the diff" must not
// allow bash for the session with its "s"), never does.
const permGuard = 500 * time.Millisecond

func (r *REPL) handleKey(k key, cancel context.CancelFunc) {
	r.mu.Lock()
	defer r.mu.Unlock()
	now := r.now()
	quiet := r.lastKey.IsZero() || now.Sub(r.lastKey) >= permGuard
	r.lastKey = now
	if r.askKey(k, cancel) {
		return
	}
	switch k.kind {
	case keyEsc, keyInterrupt:
		if k.kind == keyInterrupt && r.stopping {
			// A second Ctrl-C: the turn did not stop yet; mm ends now.
			r.exitNow(130)
		}
		// The type-ahead is kept: stopping the model is not giving up
		// what was typed for the next question.
		r.stopping = true
		cancel()
		return
	case keyEOF:
		if len(r.typed) == 0 {
			if r.permWait != nil {
				r.answer(agent.Refuse) // Ctrl-D at a prompt refuses the call
				return
			}
			r.quit = true
			cancel()
		}
		return
	}
	if r.permWait != nil && k.kind == keyRune && len(r.typed) == 0 && quiet && now.Sub(r.permShown) >= permGuard {
		if d, _, ok := decision(k.r, r.permPrefix); ok {
			r.answer(d)
			return
		}
	}
	switch k.kind {
	case keyRune:
		r.typed = append(r.typed, k.r)
	case keyText:
		r.typed = append(r.typed, typeable(k.text)...)
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

// typeable is a pasted text as type-ahead: what readline can edit as
// typed (a paste of several lines is its placeholder already), without
// the control characters that would be keys there; a tab is a blank.
func typeable(s string) []rune {
	var out []rune
	for _, c := range s {
		switch {
		case c == '\t' || c == '\n':
			out = append(out, ' ')
		case c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0):
		default:
			out = append(out, c)
		}
	}
	return out
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
	if p.Loading {
		u.r.p.Status("Loading the model")
		return
	}
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
	if !u.askToolEnd(c) {
		u.r.p.ToolEnd(c)
	}
	u.r.p.Status("Thinking")
}
func (u *replUI) Notice(msg string) { u.r.p.Notice(msg) }

// Permission shows the 🔐 prompt and waits for one key: a allow once, s
// allow this tool for the session, p allow the command's prefix for the
// session (when the call offers one: bash's `npm test`), r refuse, n
// never. Only a key typed once the prompt has been seen answers it (see
// permGuard); other keys are type-ahead for the next question.
func (u *replUI) Permission(ctx context.Context, c *agent.Call) agent.Decision {
	r := u.r
	r.p.Status("") // nothing runs while mm waits for the user
	r.p.Permission(c)
	scope := c.Name
	if c.Session != "" {
		scope = c.Session // the one MCP tool an `mcp` call runs
	}
	prefixKey := ""
	if c.Prefix != "" {
		// The printer sanitises the line; the prefix is plain words
		// anyway (tools.BashPrefix).
		prefixKey = fmt.Sprintf(" · [p] allow %q for the session", c.Prefix+" …")
	}
	r.p.DimLine(fmt.Sprintf("   [a] allow once · [s] allow %s for the session%s · [r] refuse · [n] never", scope, prefixKey))
	r.mu.Lock()
	r.permPrefix = c.Prefix
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.permPrefix = ""
		r.mu.Unlock()
	}()
	if r.rt == nil {
		return r.plainPermission()
	}
	wait := make(chan agent.Decision, 1)
	r.mu.Lock()
	r.permWait = wait
	r.permShown = r.now()
	typed := len(r.typed) > 0
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		r.permWait = nil
		r.mu.Unlock()
	}()
	if typed {
		r.p.TypedSoFar() // a dumb terminal has no status line to show it
		r.p.Status("Waiting for your answer (Ctrl-U clears what you typed)")
	} else {
		r.p.Status("Waiting for your answer")
	}
	select {
	case <-ctx.Done():
		return agent.Refuse
	case d := <-wait:
		r.p.DimLine("   → " + prefixWord(d, c.Prefix))
		if d == agent.AllowOnce || d == agent.AllowSession || d == agent.AllowPrefix {
			r.p.Status("Running")
		}
		return d
	}
}

// answer gives the waiting prompt its answer (r.mu held).
func (r *REPL) answer(d agent.Decision) {
	select {
	case r.permWait <- d:
	default:
	}
	r.permWait = nil
}

// plainPermission reads the answer as a line that must be exactly one of
// the documented answers; anything else asks again, the end of the input
// refuses.
func (r *REPL) plainPermission() agent.Decision {
	r.mu.Lock()
	prefix := r.permPrefix
	r.mu.Unlock()
	for {
		fmt.Fprint(r.opts.Out, "   ? ")
		line, ok := r.readLine()
		if !ok {
			fmt.Fprintln(r.opts.Out, "\n   → refused (end of input)")
			return agent.Refuse
		}
		// The answer as read, on the line of its "?": the transcript
		// reads "? a" then "→ allowed once".
		fmt.Fprintln(r.opts.Out, termsafe.Text(line))
		if k := []rune(strings.TrimSpace(line)); len(k) == 1 {
			if d, _, ok := decision(k[0], prefix); ok {
				fmt.Fprintln(r.opts.Out, "   → "+prefixWord(d, prefix))
				return d
			}
		}
		if prefix != "" {
			fmt.Fprintln(r.opts.Out, "   answer with one letter on its own line: a, s, p, r or n")
			continue
		}
		fmt.Fprintln(r.opts.Out, "   answer with one letter on its own line: a, s, r or n")
	}
}

// decision is the answer key k gives; p only when the prompt offers a
// prefix.
func decision(k rune, prefix string) (agent.Decision, string, bool) {
	switch k {
	case 'p', 'P':
		if prefix != "" {
			return agent.AllowPrefix, prefixWord(agent.AllowPrefix, prefix), true
		}
	case 'a', 'A':
		return agent.AllowOnce, decisionWord(agent.AllowOnce), true
	case 's', 'S':
		return agent.AllowSession, decisionWord(agent.AllowSession), true
	case 'r', 'R':
		return agent.Refuse, decisionWord(agent.Refuse), true
	case 'n', 'N':
		return agent.Never, decisionWord(agent.Never), true
	}
	return agent.Refuse, "", false
}

// prefixWord is decisionWord, with the prefix an AllowPrefix allowed.
func prefixWord(d agent.Decision, prefix string) string {
	if d == agent.AllowPrefix {
		return termsafe.Text(fmt.Sprintf("allowed %q for the session", prefix+" …"))
	}
	return decisionWord(d)
}

func decisionWord(d agent.Decision) string {
	switch d {
	case agent.AllowOnce:
		return "allowed once"
	case agent.AllowSession:
		return "allowed for the session"
	case agent.Never:
		return "refused for the session"
	}
	return "refused"
}
