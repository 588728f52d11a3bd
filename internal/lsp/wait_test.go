package lsp

import (
	"strings"
	"testing"
	"time"
)

// diagnosticsCeiling bounds how long a test waits for a real server's
// diagnostics: generous, since a loaded machine can be slow.
const diagnosticsCeiling = 2 * time.Minute

const asLast = " (as last published)"

// diagnosticsUntil waits for the server's diagnostics the way a model
// told "call again in a moment" does: the tool waits at most
// DiagnosticsWait (3 s, fixed by the reference) for a publication, which
// a loaded machine can miss, so the call is made again until its answer,
// without " (as last published)", satisfies ok, or diagnosticsCeiling
// passes. It returns the last answer as the tool gave it.
func diagnosticsUntil(t *testing.T, m *Manager, path string, ok func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(diagnosticsCeiling)
	for {
		got := run(m, Request{Action: "diagnostics", Path: path})
		if ok(strings.Replace(got, asLast, "", 1)) || time.Now().After(deadline) {
			return got
		}
		// Past its 3 s the tool answers at once with the last
		// publication: poll, do not spin.
		time.Sleep(50 * time.Millisecond)
	}
}

// isAnswer is an answer that is not "no diagnostics received": anything
// the server published.
func isAnswer(s string) bool { return !strings.HasPrefix(s, "no diagnostics received") }

// waitLog polls the fake server's log until cond holds on it or a
// generous ceiling passes, and returns it: the fake logs what it is told
// asynchronously.
func waitLog(t *testing.T, logPath string, cond func(string) bool) string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		log := fakeLog(t, logPath)
		if cond(log) || time.Now().After(deadline) {
			return log
		}
		time.Sleep(10 * time.Millisecond)
	}
}
