//go:build !windows

package main_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"mm/internal/llmtest"
)

var (
	hooksOnce sync.Once
	hooksBin  string
	hooksErr  error
)

// hooksBuild is mm built with -tags mmtesthooks (internal/tui/testhooks_on.go):
// a question can make the window panic where a bug would.
func hooksBuild(t *testing.T) string {
	t.Helper()
	hooksOnce.Do(func() {
		hooksBin = filepath.Join(filepath.Dir(mmBin), "mm-hooks")
		out, err := exec.Command("go", "build", "-tags", "mmtesthooks", "-o", hooksBin, ".").CombinedOutput()
		if err != nil {
			hooksErr = err
			t.Logf("%s", out)
		}
	})
	if hooksErr != nil {
		t.Fatalf("building mm with its test hooks: %v", hooksErr)
	}
	return hooksBin
}

// A panic, in a turn's goroutine or while the window draws, leaves the
// terminal as it was (the alternate screen left, the cursor shown, the
// modes reset) and is reported, status 2.
func TestTUIPanicRestoresTerminal(t *testing.T) {
	bin := hooksBuild(t)
	for _, where := range []string{"turn", "view"} {
		t.Run(where, func(t *testing.T) {
			s := startTUIBin(t, bin, t.TempDir(), llmtest.New(t), nil)
			s.wait("Ctrl-D quits")
			s.waitFor("the alternate screen", func(string) bool { s.mu.Lock(); defer s.mu.Unlock(); return s.alt })
			s.send("panic in the " + where + "\r")
			err := s.exit()
			code := -1
			if ee, ok := err.(*exec.ExitError); ok {
				code = ee.ExitCode()
			}
			s.mu.Lock()
			alt, hidden, raw := s.alt, s.emu.CursorHidden(), s.raw.String()
			s.mu.Unlock()
			if alt || hidden {
				t.Errorf("terminal not restored after a panic in the %s: alternate screen %v, cursor hidden %v", where, alt, hidden)
			}
			for _, mode := range []string{"\x1b[?1049l", "\x1b[?2004l"} {
				if !strings.Contains(raw, mode) {
					t.Errorf("after a panic in the %s, mode %q was never reset", where, mode)
				}
			}
			if !strings.Contains(raw, "a test's panic in the "+where) {
				t.Errorf("the panic is not reported:\n%s", s.screen())
			}
			if code != 2 {
				t.Errorf("a panic in the %s ended with %v, want status 2", where, err)
			}
		})
	}
}
