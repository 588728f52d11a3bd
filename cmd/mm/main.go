// Command mm is a terminal coding agent for local models served by
// OpenAI-compatible servers (Docker Model Runner, llama.cpp, Ollama,
// llmman). main reads the flags and the configuration and hands over to
// one facade; nothing else lives here.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"strings"

	"golang.org/x/term"

	"mm/internal/config"
	"mm/internal/engine"
	"mm/internal/interrupt"
	"mm/internal/oneshot"
	"mm/internal/procguard"
	"mm/internal/repl"
	"mm/internal/termsafe"
	"mm/internal/tui"
	"mm/internal/ui"
	"mm/internal/version"
	"mm/internal/webmd/fetchcmd"
)

// usage lists every flag, one line each.
const usage = `mm — a terminal coding agent for local models

Usage:
  mm [flags]               interactive line mode in the current directory
  mm -p "prompt" [flags]   answer one prompt and exit (text piped on stdin is appended)
  mm fetch URL [-o FILE]   print a web page as Markdown (mm fetch -help for its flags)
  mm trust [DIR]           trust DIR's agent.yaml as it is now (-revoke [DIR], -list: mm trust -h)
  mm -acp [flags]          be an Agent Client Protocol agent on stdio, for an editor (docs/acp.md)
  mm --ask NAME "prompt"   ask another mm agent (a mmConfigs name or a config file) and print its answer (docs/ask.md)

Flags:
  -p PROMPT                answer this prompt: the answer on stdout, activity on stderr; without
                           a terminal, stdout gets the final answer only (docs/scripting.md)
  -json                    with -p, stdout is one JSON event per line, the result last
  -no-stdin                with -p, do not append the text piped on stdin (for loops that read it)
  -C DIR                   run as if mm was started in DIR (its agent.yaml, the tools, the project)
  -m NAME, -model NAME     the model to use (wins over AGENT_MODEL and the files)
  -c PATH, -config PATH    configuration file, over ~/.config/mm/agent.yaml, in place of ./agent.yaml (always applied)
  -continue                go on with the latest saved conversation (sessions.enabled)
  -resume ID               go on with the saved conversation ID (/sessions lists them)
  -sandbox MODE            confine bash: off, workspace or read-only (wins over sandbox.mode; docs/security.md)
  -acp                     speak the Agent Client Protocol on stdin/stdout (an editor drives mm)
  -tui                     the full-screen window mode (docs/window-mode.md); line mode without a terminal
  -version                 print the version and exit
  -h, -help                print this help and exit
Every flag also takes two dashes: --json, --model NAME.

Configuration: built-in defaults, then ~/.config/mm/agent.yaml, then ./agent.yaml (its commands, servers
and credentials only once trusted: mm trust) or -c PATH, then the environment, then the flags.
Environment: AGENT_PROVIDER, AGENT_MODEL, AGENT_BASE_URL, AGENT_YOLO, AGENT_TRACE override the files.
Exit codes: 0 answered, 1 configuration error, 2 usage error, 3 model server unreachable or failed,
4 turn stopped (watchdog, maxTurns, max_tokens, loop detector), 130 interrupted.
`

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin *os.File, stdout, stderr *os.File) int {
	if len(args) > 0 && args[0] == "fetch" {
		return fetchcmd.Command(args[1:], stdout, stderr)
	}
	if len(args) > 0 && args[0] == "trust" {
		return trustCommand(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("mm", flag.ContinueOnError)
	// The flag package would print the help, or the error and the whole
	// help, itself: on stderr, so twice on a terminal with the copy below.
	// mm says it once, where it belongs.
	fs.SetOutput(io.Discard)
	prompt := fs.String("p", "", "answer this prompt, print the answer on stdout, and exit")
	noStdin := fs.Bool("no-stdin", false, "do not read stdin with -p")
	jsonOut := fs.Bool("json", false, "with -p, one JSON event per line on stdout")
	dir := fs.String("C", "", "run as if started in this directory")
	var model string
	fs.StringVar(&model, "model", "", "the model (wins over AGENT_MODEL and the files)")
	fs.StringVar(&model, "m", "", "same as -model")
	var cfgPath string
	fs.StringVar(&cfgPath, "config", "", "configuration file, in place of ./agent.yaml (always applied)")
	fs.StringVar(&cfgPath, "c", "", "same as -config")
	showVersion := fs.Bool("version", false, "print the version and exit")
	tuiFlag := fs.Bool("tui", false, "full-screen mode")
	resume := fs.String("resume", "", "go on with this saved conversation")
	cont := fs.Bool("continue", false, "go on with the latest saved conversation")
	acpMode := fs.Bool("acp", false, "speak the Agent Client Protocol on stdio")
	askName := fs.String("ask", "", "ask this agent (a mmConfigs name or a config file) the prompt that follows")
	sandboxMode := fs.String("sandbox", "", "confine bash: off, workspace or read-only (wins over sandbox.mode)")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return oneshot.ExitOK
		}
		// One line: the error names what was typed, shown as text.
		msg := termsafe.Text(strings.ReplaceAll(err.Error(), "\n", "^J"))
		fmt.Fprintf(stderr, "mm: %s (run mm -h for the flags)\n", msg)
		return oneshot.ExitUsage
	}
	if *showVersion {
		fmt.Fprintln(stdout, "mm", version.String())
		return oneshot.ExitOK
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	promptSet := set["p"]
	if *acpMode {
		for _, name := range []string{"p", "json", "no-stdin", "resume", "continue"} {
			if set[name] {
				fmt.Fprintf(stderr, "mm: -%s does not go with -acp (run mm -h for the flags)\n", name)
				return oneshot.ExitUsage
			}
		}
	}
	for _, name := range []string{"json", "no-stdin"} {
		if set[name] && !promptSet && !(name == "no-stdin" && set["ask"]) {
			fmt.Fprintf(stderr, "mm: -%s goes with -p (run mm -h for the flags)\n", name)
			return oneshot.ExitUsage
		}
	}

	// From here on a --json run ends with a result line, whatever stops it.
	var events *oneshot.Events
	if *jsonOut {
		events = oneshot.NewEvents(stdout)
	}
	fail := func(code int, msg string) int {
		fmt.Fprintln(stderr, msg)
		if events != nil {
			events.Result(code, msg, nil)
		}
		return code
	}
	if set["ask"] {
		if msg := askUsage(set, *askName, fs.NArg()); msg != "" {
			return fail(oneshot.ExitUsage, msg)
		}
	} else if fs.NArg() > 0 {
		return fail(oneshot.ExitUsage, fmt.Sprintf("mm: unexpected argument %q (a prompt goes after -p)", termsafe.Text(fs.Arg(0))))
	}
	// Warnings printed before a start that fails: an unknown key often
	// explains why it failed (baseURL for baseUrl).
	warnFirst := func(warnings []string) {
		for _, w := range warnings {
			fmt.Fprintln(stderr, termsafe.Text(w))
			if events != nil {
				events.Warning(w)
			}
		}
	}
	if set["C"] {
		if msg := chdir(*dir); msg != "" {
			return fail(oneshot.ExitUsage, msg)
		}
	}
	modelSet := set["m"] || set["model"]
	if modelSet && strings.TrimSpace(model) == "" {
		return fail(oneshot.ExitUsage, "mm: -m needs a model name")
	}
	if !modelSet {
		model = ""
	}

	sandbox := ""
	if set["sandbox"] {
		if !config.ValidSandboxMode(*sandboxMode) {
			return fail(oneshot.ExitUsage, "mm: -sandbox must be off, workspace or read-only (run mm -h for the flags)")
		}
		sandbox = *sandboxMode
	}
	layers, err := config.Read(config.Options{Path: cfgPath, Model: model, Sandbox: sandbox, TUI: *tuiFlag})
	var cfg *config.Config
	if err == nil {
		// The line mode on a terminal asks once whether to trust the
		// project's file; every other mode leaves its gated keys out and
		// says so.
		interactive := !*acpMode && !set["ask"] && !promptSet &&
			term.IsTerminal(int(stdin.Fd())) && term.IsTerminal(int(stdout.Fd()))
		cfg, err = resolve(layers, interactive, stdin, stdout)
	}
	if errors.Is(err, errInterrupted) {
		return 130
	}
	if err != nil {
		// The message quotes the file, which may come with the project.
		var ce *config.Error
		if errors.As(err, &ce) {
			warnFirst(ce.Warnings)
		}
		return fail(oneshot.ExitConfig, termsafe.Text(err.Error()))
	}
	sessionKeyWarning(cfg)
	warn := func(s string) { fmt.Fprintln(stderr, termsafe.Text(s)) }
	if cfg.Sandbox.Required && cfg.Sandbox.Mode != config.SandboxOff && cfg.BashTool {
		if why := procguard.SandboxUnavailable(); why != "" {
			return fail(oneshot.ExitConfig, termsafe.Text(cfg.SandboxUnavailable(why).Error()))
		}
	}
	if *acpMode {
		return runACP(cfg, stdin, stdout, stderr)
	}
	if set["ask"] {
		if w := cfg.TrustWarning(); w != "" {
			warn(w)
		}
		return runAsk(cfg, *askName, fs.Arg(0), stdin, *noStdin, stdout, stderr)
	}
	if (set["resume"] || *cont) && !cfg.Sessions.Enabled {
		return fail(oneshot.ExitUsage, "mm: -resume and -continue need sessions.enabled: true in the configuration")
	}
	switch {
	case set["resume"] && *cont:
		return fail(oneshot.ExitUsage, "mm: -resume ID or -continue, not both")
	case set["resume"] && strings.TrimSpace(*resume) == "":
		return fail(oneshot.ExitUsage, "mm: -resume needs a session id (-continue takes the latest)")
	}
	if !promptSet {
		notice, window := windowMode(cfg.TUI, stdin, stdout)
		// In the window a warning that comes while mm runs is a notice of
		// the window, not a line on stderr over it.
		late := tui.NewLateWarnings(warn)
		startEngine := func() (*engine.Engine, error) {
			w := warn
			if window {
				w = late.Warn
			}
			return engine.Start(context.Background(), cfg, engine.Options{Warn: w, Agents: agentsOf(cfg), Undo: true})
		}
		if window {
			// The window's first frame is drawn while the engine starts.
			var eng *engine.Engine
			code, err := tui.Open(context.Background(), cfg, func() (*engine.Engine, []string, error) {
				e, err := startEngine()
				if err != nil {
					return nil, nil, err
				}
				eng = e
				return e, append(append([]string(nil), e.Warnings...), e.SkillWarnings...), nil
			}, tui.Options{In: stdin, Out: stdout, Warnings: cfg.Warnings, Resume: *resume, Continue: *cont, Late: late})
			if eng != nil {
				eng.Close() // the language servers stop with mm
			}
			if err != nil {
				warnFirst(cfg.Warnings)
				return oneshot.ExitCode(err, stderr)
			}
			return code
		}
		eng, err := startEngine()
		if err != nil {
			warnFirst(cfg.Warnings)
			return oneshot.ExitCode(err, stderr)
		}
		defer eng.Close() // the language servers stop with mm
		return repl.Run(context.Background(), eng, repl.Options{In: stdin, Out: stdout, Notice: notice, Resume: *resume, Continue: *cont,
			Warnings: append(append(cfg.Warnings, eng.Warnings...), eng.SkillWarnings...)})
	}

	in := stdin
	if *noStdin {
		in = nil
	}
	question, err := oneshot.Prompt(*prompt, in, stderr)
	if err != nil {
		return fail(oneshot.ExitUsage, err.Error())
	}
	if strings.TrimSpace(question) == "" {
		return fail(oneshot.ExitUsage, "mm: the prompt is empty")
	}
	eng, err := engine.Start(context.Background(), cfg, engine.Options{Warn: warn, Agents: agentsOf(cfg)})
	if err != nil {
		warnFirst(cfg.Warnings)
		return fail(oneshot.Describe(err))
	}
	defer eng.Close()
	warnings := append(cfg.Warnings, eng.Warnings...)
	for _, w := range warnings {
		warn(w)
	}
	sess, err := startOneshotSession(eng, *resume, *cont)
	if err != nil {
		return fail(oneshot.ExitUsage, termsafe.Text(err.Error()))
	}
	var done func(error)
	// say is how done tells a failed save: the printer's line once there
	// is one, which closes the reasoning line the warning would end.
	say := warn
	if sess != nil {
		done = func(err error) {
			if w := sess.done(err); w != "" {
				say(w)
			}
		}
	}
	// After engine.Start: Genkit's Init resets the signal handlers. A
	// second Ctrl-C ends mm at once.
	ctx, stop := interrupt.Context(context.Background(), stderr)
	defer stop()
	if events != nil {
		cwd, _ := os.Getwd()
		return oneshot.RunJSON(ctx, eng.Agent, question, events, stderr, oneshot.JSONOptions{
			Model: cfg.Model, Provider: cfg.Provider, Cwd: cwd, Yolo: cfg.Yolo, Warnings: warnings, Done: done})
	}
	p := ui.NewPrinter(stdout, stderr, cfg.ShowThinking, cfg.PreviewLines)
	defer p.Close()
	say = p.Line
	return oneshot.Run(ctx, eng.Agent, question, oneshot.Options{Printer: p, DisplayCommands: cfg.DisplayCommands,
		AnswerOnly: !term.IsTerminal(int(stdout.Fd())), Done: done})
}

// chdir is -C DIR: mm then reads ./agent.yaml, runs the tools and finds the
// project root from DIR. It returns the usage error, or "".
func chdir(dir string) string {
	shown := termsafe.Text(dir)
	if dir == "" {
		return "mm: -C needs a directory"
	}
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		return fmt.Sprintf("mm: -C %s: the directory does not exist", shown)
	case err != nil:
		return termsafe.Text(fmt.Sprintf("mm: -C %s: %v", dir, errors.Unwrap(err)))
	case !fi.IsDir():
		return fmt.Sprintf("mm: -C %s: not a directory", shown)
	}
	if err := os.Chdir(dir); err != nil {
		return termsafe.Text(fmt.Sprintf("mm: -C %s: %v", dir, errors.Unwrap(err)))
	}
	return ""
}

// windowMode says whether the window mode (-tui, tui: true) starts, or the
// notice of the line mode it falls back to: without a terminal on both
// stdin and stdout.
func windowMode(asked bool, stdin, stdout *os.File) (notice string, window bool) {
	switch {
	case !asked:
		return "", false
	case !term.IsTerminal(int(stdin.Fd())) || !term.IsTerminal(int(stdout.Fd())):
		return "[the window mode (-tui) needs a terminal: line mode]", false
	}
	return "", true
}
