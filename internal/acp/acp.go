// Package acp is mm's Agent Client Protocol facade (mm -acp): an editor
// drives mm over JSON-RPC on stdio. It is a thin layer over
// github.com/coder/acp-go-sdk's AgentSideConnection that drives the same
// engine and agent as the line mode: one engine.Session per ACP session,
// each with its own cwd, history, permissions, loop detector and
// language servers.
//
// It works around the SDK where the SDK falls short (see docs/acp.md):
// a turn runs under a context of its own, not the SDK's request context
// (which a second prompt of the same session cancels, and which would
// make a cancelled turn an error); input the SDK would only log, or that
// would end its read loop, is answered here (wire.go).
package acp

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/engine"
	"mm/internal/termsafe"
)

// Options are what Serve needs besides the engine.
type Options struct {
	// In is the client's messages (stdin); Out carries the protocol
	// messages and nothing else (the real stdout).
	In  io.Reader
	Out io.Writer
	// Log receives everything else: banners, warnings, notices (stderr).
	Log io.Writer
	// SkillsBase is where a relative skillsDir is resolved: the
	// configuration file's directory, else the launch directory.
	SkillsBase string
	// LaunchDir is mm's own directory: where session/list looks without
	// a cwd.
	LaunchDir string
}

// stopWait is how long the end of the connection waits for the running
// turns to stop (their commands killed) before closing the sessions.
const stopWait = 10 * time.Second

// Serve answers the client until its input ends (or ctx is done), then
// stops every running turn and closes every session (their commands and
// language servers). The engine is the caller's to close.
func Serve(ctx context.Context, eng *engine.Engine, opts Options) error {
	out := &lineWriter{w: opts.Out, open: &inflight{}}
	s := newServer(eng, opts)
	s.out = out
	pr, pw := io.Pipe()
	// ElicitationOutput gives ask_user's elicitation/create its sessionId.
	s.conn = acpsdk.NewAgentSideConnection(s, ElicitationOutput(out), pr)
	s.conn.SetLogger(slog.New(slog.NewTextHandler(&logWriter{s.log}, &slog.HandlerOptions{Level: slog.LevelWarn})))
	filtered := make(chan error, 1)
	go func() {
		err := filter(opts.In, pw, out)
		pw.Close()
		filtered <- err
	}()
	var err error
	select {
	case <-s.conn.Done():
	case <-ctx.Done():
		err = ctx.Err()
	}
	s.shutdown(out.open)
	return err
}

// logger writes sanitised lines to the log (stderr); safe for
// concurrent use.
type logger struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *logger) line(s string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	fmt.Fprintln(l.w, termsafe.Text(s))
}

// logWriter gives the SDK's diagnostics to the logger.
type logWriter struct{ l *logger }

func (w *logWriter) Write(p []byte) (int, error) {
	l := w.l
	l.mu.Lock()
	defer l.mu.Unlock()
	return io.WriteString(l.w, termsafe.Text(string(p)))
}
