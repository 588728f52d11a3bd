//go:build !windows

package main_test

import (
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// A warning the engine raises while the window runs (here: the trace
// directory cannot be made) is a notice in the conversation, not a line
// written on stderr over the window's rows.
func TestTUILateWarningIsANotice(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, ".mm", "traces"), "a file where the directory goes\n")
	cfg := writeConfig(t, t.TempDir(), "trace:\n  enabled: true\n")
	s := startTUI(t, dir, llmtest.New(t, llmtest.Turn{Text: "traced answer"}), nil, "-c", cfg)
	s.wait("Ctrl-D quits")
	s.send("hello\r")
	s.wait("traced answer")
	// The notice's "· " mark says the window drew it (wrapped in the
	// conversation); on stderr it would come bare, over the rows.
	s.waitFor("the warning as a notice", func(scr string) bool {
		return strings.Contains(strings.Join(strings.Fields(scr), " "), "· [trace: cannot write to "+filepath.Join(dir, ".mm", "traces"))
	})
	if got := s.row(0); !strings.HasPrefix(got, "mm · ") {
		t.Errorf("the header row after the warning: %q", got)
	}
	s.send("\x04")
	s.exit()
}
