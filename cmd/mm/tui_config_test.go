//go:build !windows

package main_test

import (
	"regexp"
	"testing"

	"mm/internal/llmtest"
)

// /config in a window the -tui flag opened says so: tui true, from the
// flag (it said false, built-in).
func TestTUIConfigNamesTheFlag(t *testing.T) {
	s := startTUI(t, t.TempDir(), llmtest.New(t), nil)
	s.wait("Ctrl-D quits")
	s.send("/config\r")
	s.waitFor("tui true from the flag", func(scr string) bool {
		return regexp.MustCompile(`\btui +true +\(flag -tui\)`).MatchString(scr)
	})
	s.send("\x04")
	s.exit()
}
