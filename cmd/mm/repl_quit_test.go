package main_test

import (
	"path/filepath"
	"testing"

	"mm/internal/llmtest"
)

// Ctrl-D typed as soon as the prompt shows quits, start after start, also
// when an MCP server failed at start (mm once hung there in readline's
// Close, in about one start of three).
func TestCtrlDAtFirstPromptQuits(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "my.yaml"), "mcp:\n  servers:\n    - name: x\n      command: sh\n      args: [\"-c\", \"true\"]\n")
	srv := llmtest.New(t)
	for i := 0; i < 12; i++ {
		s := startPTY(t, dir, srv, nil, "-c", "my.yaml")
		s.expect("Ctrl-D quits")
		s.send("\x04")
		s.exit()
	}
}
