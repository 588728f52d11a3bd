package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"mm/internal/ask"
	"mm/internal/config"
	"mm/internal/hooks"
	"mm/internal/interrupt"
	"mm/internal/llm"
	"mm/internal/oneshot"
	"mm/internal/termsafe"
	"mm/internal/tools"
	"mm/internal/ui"
)

// agentsOf is the pool of cfg's mmConfigs, nil when there are none (no
// ask_agent then). The engine closes it.
func agentsOf(cfg *config.Config) tools.AgentAsker {
	if len(cfg.MMConfigs) == 0 {
		return nil
	}
	return ask.New(ask.Options{Config: cfg})
}

// runAsk is `mm --ask NAME "prompt"`. NAME is a key of cfg's mmConfigs,
// else a path to a config file. Nobody can answer the asked agent's
// permission requests: they are refused unless its entry says yolo: true
// (the design's decision for mm --ask: no agent asks, so cfg's own yolo
// does not count; a path has no entry, so its calls are refused).
func runAsk(cfg *config.Config, name, prompt string, stdin *os.File, noStdin bool, stdout, stderr *os.File) int {
	in := stdin
	if noStdin {
		in = nil
	}
	question, err := oneshot.Prompt(prompt, in, stderr)
	if err != nil {
		fmt.Fprintln(stderr, err.Error())
		return oneshot.ExitUsage
	}
	if strings.TrimSpace(question) == "" {
		fmt.Fprintln(stderr, "mm: the prompt is empty")
		return oneshot.ExitUsage
	}
	own := *cfg
	own.Yolo = false
	entry, ok := cfg.MMConfigs[name]
	if !ok {
		abs, err := filepath.Abs(name)
		fi, serr := os.Stat(abs)
		if err != nil || serr != nil || fi.IsDir() {
			msg := fmt.Sprintf("mm: --ask %s: neither an agent of mmConfigs nor a config file", termsafe.Text(name))
			if len(cfg.MMConfigs) > 0 {
				pool := ask.New(ask.Options{Config: cfg})
				msg += " (agents: " + strings.Join(pool.Names(), ", ") + ")"
			}
			fmt.Fprintln(stderr, msg)
			return oneshot.ExitUsage
		}
		entry = config.MMConfig{Path: abs}
		name = strings.TrimSuffix(filepath.Base(abs), filepath.Ext(abs))
	}
	own.MMConfigs = map[string]config.MMConfig{name: entry}
	pool := ask.New(ask.Options{Config: &own})
	defer pool.Close()
	info, _ := pool.Info(name)
	// The child (mm -acp, same PATH) keeps its start-up warnings to
	// itself: say here why its bash tool is missing, as -p does.
	if _, err := tools.LookBash(); info.Bash && err != nil {
		fmt.Fprintln(stderr, tools.NoBashWarning)
	}
	shown := name
	if info.Model != "" {
		shown = fmt.Sprintf("%s (%s/%s)", name, info.Provider, info.Model)
	}
	ctx, stop := interrupt.Context(context.Background(), stderr)
	defer stop()
	p := ui.NewPrinter(stdout, stderr, cfg.ShowThinking, cfg.PreviewLines)
	defer p.Close()
	// This agent's preAsk and postAsk hooks, as for ask_agent.
	cwd, _ := os.Getwd()
	asker := hooks.WrapAsker(pool, hooks.New(cfg.Hooks, cwd, cfg.ACP.Name, llm.ChildEnv(cfg.APIKeyEnv)))
	return oneshot.RunAsk(ctx, asker, name, question, oneshot.AskOptions{Printer: p, Shown: shown})
}

// askUsage checks the flags that go with --ask: NAME, one prompt, and
// none of the other modes.
func askUsage(set map[string]bool, name string, args int) string {
	for _, f := range []string{"p", "acp", "json", "resume", "continue", "tui"} {
		if set[f] {
			return fmt.Sprintf("mm: -%s does not go with --ask (run mm -h for the flags)", f)
		}
	}
	switch {
	case strings.TrimSpace(name) == "":
		return "mm: --ask needs an agent's name (or a config file)"
	case args > 1:
		return `mm: --ask NAME "prompt": one prompt (quote it)`
	}
	return ""
}
