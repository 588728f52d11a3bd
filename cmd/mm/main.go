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
	"os"

	"mm/internal/config"
	"mm/internal/engine"
	"mm/internal/interrupt"
	"mm/internal/oneshot"
	"mm/internal/repl"
	"mm/internal/termsafe"
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

Flags:
  -p PROMPT                answer this prompt: the answer on stdout, activity on stderr
  -no-stdin                with -p, do not append the text piped on stdin (for loops that read it)
  -c PATH, -config PATH    configuration file (default: ./agent.yaml when present, else built-in defaults)
  -tui                     full-screen mode (not available yet: mm falls back to line mode)
  -version                 print the version and exit
  -h, -help                print this help and exit

Environment: AGENT_PROVIDER, AGENT_MODEL, AGENT_BASE_URL, AGENT_YOLO, AGENT_TRACE override the file.
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
	fs := flag.NewFlagSet("mm", flag.ContinueOnError)
	fs.SetOutput(stderr)
	prompt := fs.String("p", "", "answer this prompt, print the answer on stdout, and exit")
	noStdin := fs.Bool("no-stdin", false, "do not read stdin with -p")
	var cfgPath string
	fs.StringVar(&cfgPath, "config", "", "configuration file (default ./agent.yaml when present, else built-in defaults)")
	fs.StringVar(&cfgPath, "c", "", "same as -config")
	showVersion := fs.Bool("version", false, "print the version and exit")
	tui := fs.Bool("tui", false, "full-screen mode")
	fs.Usage = func() { fmt.Fprint(fs.Output(), usage) }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return oneshot.ExitOK
		}
		fmt.Fprintln(stderr, "run mm -help for the flags")
		return oneshot.ExitUsage
	}
	if *showVersion {
		fmt.Fprintln(stdout, "mm", version.String())
		return oneshot.ExitOK
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "mm: unexpected argument %q (a prompt goes after -p)\n", fs.Arg(0))
		return oneshot.ExitUsage
	}
	promptSet := false
	fs.Visit(func(f *flag.Flag) { promptSet = promptSet || f.Name == "p" })

	cfg, err := config.Load(cfgPath, os.Getenv)
	if err != nil {
		// The message quotes the file, which may come with the project.
		fmt.Fprintln(stderr, termsafe.Text(err.Error()))
		return oneshot.ExitConfig
	}
	warn := func(s string) { fmt.Fprintln(stderr, termsafe.Text(s)) }
	if !promptSet {
		notice := ""
		if *tui || cfg.TUI {
			notice = "[the full-screen mode (-tui) is not available yet: line mode]"
		}
		eng, err := engine.Start(context.Background(), cfg, engine.Options{Warn: warn})
		if err != nil {
			return oneshot.ExitCode(err, stderr)
		}
		defer eng.Close() // the language servers stop with mm
		return repl.Run(context.Background(), eng, repl.Options{In: stdin, Out: stdout, Notice: notice,
			Warnings: append(append(cfg.Warnings, eng.Warnings...), eng.SkillWarnings...)})
	}

	in := stdin
	if *noStdin {
		in = nil
	}
	question, err := oneshot.Prompt(*prompt, in)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return oneshot.ExitUsage
	}
	if question == "" {
		fmt.Fprintln(stderr, "mm: the prompt is empty")
		return oneshot.ExitUsage
	}
	eng, err := engine.Start(context.Background(), cfg, engine.Options{Warn: warn})
	if err != nil {
		return oneshot.ExitCode(err, stderr)
	}
	defer eng.Close()
	for _, w := range append(cfg.Warnings, eng.Warnings...) {
		warn(w)
	}
	// After engine.Start: Genkit's Init resets the signal handlers. A
	// second Ctrl-C ends mm at once.
	ctx, stop := interrupt.Context(context.Background(), stderr)
	defer stop()
	p := ui.NewPrinter(stdout, stderr, cfg.ShowThinking, cfg.PreviewLines)
	defer p.Close()
	return oneshot.Run(ctx, eng.Agent, question, p, cfg.DisplayCommands)
}
