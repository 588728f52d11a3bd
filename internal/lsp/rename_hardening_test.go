package lsp

import (
	"os"
	"path/filepath"
	"testing"
)

// A rename that would replace a read-only file is refused before anything
// is written: no file of the plan changes.
func TestFakeRenameReadOnlyRefused(t *testing.T) {
	m, dir, _ := fakeManager(t, "", map[string]string{"a.fk": greetFile, "b.fk": "z = greet\n"})
	os.Chmod(filepath.Join(dir, "b.fk"), 0o444)
	run(m, Request{Action: "symbols", Path: "b.fk"})
	expect(t, m, Request{Action: "rename", Path: "a.fk", Symbol: "greet", NewName: "hello"},
		"[lsp: fake: rename refused: b.fk is read-only (mode 0444) — nothing written]")
	if got := readFile(t, filepath.Join(dir, "a.fk")); got != greetFile {
		t.Errorf("a.fk was written: %q", got)
	}
	if got := readFile(t, filepath.Join(dir, "b.fk")); got != "z = greet\n" {
		t.Errorf("b.fk was written: %q", got)
	}
}
