package main

import (
	"context"
	"os"
	"path/filepath"

	"golang.org/x/sys/unix"

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
	eng, err := engine.Start(context.Background(), cfg, engine.Options{Warn: warn, SkillsBase: base, Agents: agentsOf(cfg), MCPPerSession: true})
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

// protocolOut keeps stdout for the protocol alone: the protocol gets a
// private copy of it, and descriptor 1 and os.Stdout become stderr, so
// that nothing else mm or a library prints (Genkit, a stray print, a
// child that inherits descriptor 1) can ever land between two messages.
func protocolOut(stdout, stderr *os.File) *os.File {
	os.Stdout = stderr
	if stdout.Fd() != 1 {
		return stdout
	}
	fd, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return stdout
	}
	if err := unix.Dup2(int(stderr.Fd()), 1); err != nil {
		unix.Close(fd)
		return stdout
	}
	return os.NewFile(uintptr(fd), "/dev/stdout")
}
