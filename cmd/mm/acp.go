package main

import (
	"context"
	"os"
	"path/filepath"

	"mm/internal/acp"
	"mm/internal/config"
	"mm/internal/engine"
	"mm/internal/oneshot"
	"mm/internal/termsafe"
)

// runACP is mm -acp: the Agent Client Protocol on stdio, until the
// client closes stdin. The configuration is loaded; its errors were
// reported already.
func runACP(cfg *config.Config, stdin, stdout, stderr *os.File) int {
	proto := protocolOut(stdout, stderr)
	warn := func(s string) { stderr.WriteString(termsafe.Text(s) + "\n") }
	launch, _ := os.Getwd()
	base := launch
	if cfg.Path != "" {
		// A relative skillsDir sits beside the configuration file: the
		// editor starts mm in a directory of its own choosing.
		if abs, err := filepath.Abs(cfg.Path); err == nil {
			base = filepath.Dir(abs)
		}
	}
	for _, w := range cfg.Warnings {
		warn(w)
	}
	eng, err := engine.Start(context.Background(), cfg, engine.Options{Warn: warn, SkillsBase: base, Agents: agentsOf(cfg), MCPPerSession: true, Undo: true})
	if err != nil {
		return oneshot.ExitCode(err, stderr)
	}
	defer eng.Close()
	for _, w := range eng.Warnings {
		warn(w)
	}
	if err := acp.Serve(context.Background(), eng, acp.Options{In: stdin, Out: proto, Log: stderr, SkillsBase: base, LaunchDir: launch}); err != nil {
		warn("mm: " + err.Error())
	}
	return oneshot.ExitOK
}
