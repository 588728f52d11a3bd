// Command llmtest runs mm's scripted OpenAI-compatible test server by hand,
// so mm can be tried without a model:
//
//	go run ./cmd/llmtest [-addr 127.0.0.1:8080] [-script file.yaml] [-demo]
//	                     [-provider llamacpp|ollama] [-nctx 32768] [-model tiny.gguf]
//	                     [-running-nctx N] [-truncate]
//	                     [-log FILE] [-background | -stop]
//
// Without -script it answers with the rule-based demo model; with -script it
// plays the script's turns, then the demo model if -demo is given. It logs
// one line per request to stderr (or to -log FILE) and runs until
// interrupted. With -background it returns once the server listens and
// leaves it running with all its output in a file, so the server never
// writes over mm in the same terminal; -stop ends it.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"mm/internal/llmtest"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	code := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run serves until ctx ends (Ctrl-C in main) and returns the exit code.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("llmtest", flag.ContinueOnError)
	fs.SetOutput(stderr)
	addr := fs.String("addr", "", "listen address (default 127.0.0.1:8080 for llamacpp, 127.0.0.1:11434 for ollama, the servers' own ports)")
	script := fs.String("script", "", "YAML or JSON script of turns (see docs/llmtest.md)")
	demo := fs.Bool("demo", false, "answer with the demo model (the default without -script; after the script with it)")
	provider := fs.String("provider", "llamacpp", "server to imitate: llamacpp or ollama")
	nctx := fs.Int("nctx", llmtest.DefaultNCtx, "context window reported by /props, /v1/models or /api/show (-1: leave it out)")
	runningNCtx := fs.Int("running-nctx", 0, "ollama: the loaded model's context_length in /api/ps (0: -nctx)")
	truncate := fs.Bool("truncate", false, "ollama: cut a prompt over the running window, reporting at most that many prompt tokens")
	model := fs.String("model", "tiny.gguf", "model name reported by the server")
	apiKey := fs.String("api-key", "", "require Authorization: Bearer <key>")
	logFile := fs.String("log", "", "append the request log to this file instead of stderr")
	background := fs.Bool("background", false, "start the server in the background, its output in a file, and return once it listens")
	stopIt := fs.Bool("stop", false, "stop the server -background started on -addr")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "llmtest: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *addr == "" {
		*addr = "127.0.0.1:8080"
		if *provider == "ollama" {
			*addr = "127.0.0.1:11434"
		}
	}
	switch {
	case *background && *stopIt:
		fmt.Fprintln(stderr, "llmtest: -background and -stop do not go together")
		return 2
	case *stopIt:
		return stop(*addr, stdout, stderr)
	case *background:
		return startBackground(args, *addr, *logFile, stdout, stderr)
	}
	var turns []llmtest.Turn
	if *script != "" {
		var err error
		if turns, err = llmtest.LoadScript(*script); err != nil {
			return fail(stderr, err)
		}
	} else {
		*demo = true
	}
	logTo := stderr
	if *logFile != "" {
		f, err := os.OpenFile(*logFile, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
		if err != nil {
			return fail(stderr, err)
		}
		defer f.Close()
		logTo = f
	}
	logf := func(format string, a ...any) {
		fmt.Fprintf(logTo, "%s "+format+"\n", append([]any{time.Now().Format("15:04:05.000")}, a...)...)
	}
	s, err := llmtest.Start(llmtest.Options{
		ModelName: *model, NCtx: *nctx, Provider: *provider, APIKey: *apiKey,
		RunningNCtx: *runningNCtx, Truncate: *truncate,
		Addr: *addr, Demo: *demo, Logf: logf,
	}, turns...)
	if err != nil {
		return fail(stderr, err)
	}
	// The pid file goes once the port is free: -stop waits for it.
	defer backgroundDone()
	defer s.Close()
	if err := backgroundReady(s.Root()); err != nil {
		return fail(stderr, err)
	}

	what := "demo model"
	if *script != "" {
		what = fmt.Sprintf("%d scripted turns", len(turns))
		if *demo {
			what += ", then the demo model"
		}
	}
	how := "Ctrl-C to stop"
	if inBackground() {
		how = "llmtest -stop to stop"
	}
	fmt.Fprintf(stdout, "llmtest: imitating %s on %s (%s), %s\n", *provider, s.Root(), what, how)
	fmt.Fprintf(stdout, "AGENT_BASE_URL=%s\n", s.URL())
	// Single quotes: the backquotes must reach mm, not the shell.
	fmt.Fprintf(stdout, "try: AGENT_PROVIDER=%s AGENT_BASE_URL=%s mm -p 'run `ls`'\n", *provider, s.URL())
	<-ctx.Done()
	fmt.Fprintln(stderr, "llmtest: stopping")
	return 0
}

// fail prints err once prefixed with "llmtest:" (the package's own errors
// already carry it) and returns exit code 1.
func fail(stderr io.Writer, err error) int {
	msg := err.Error()
	if !strings.HasPrefix(msg, "llmtest: ") {
		msg = "llmtest: " + msg
	}
	fmt.Fprintln(stderr, msg)
	return 1
}
