package tools

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// firstBash takes the first regular file of the name in the absolute
// directories of the list that skip does not pass over (the WSL launcher's
// on Windows).
func TestFirstBash(t *testing.T) {
	wsl, git, empty := t.TempDir(), t.TempDir(), t.TempDir()
	for _, d := range []string{wsl, git} {
		os.WriteFile(filepath.Join(d, "bash.exe"), []byte("x"), 0o755)
	}
	os.Mkdir(filepath.Join(empty, "bash.exe"), 0o755) // a directory is no bash
	list := strings.Join([]string{"rel", empty, wsl, git}, string(os.PathListSeparator))
	none := func(string) bool { return false }
	if got, err := firstBash(list, "bash.exe", none); err != nil || got != filepath.Join(wsl, "bash.exe") {
		t.Errorf("no skip: %q %v", got, err)
	}
	skip := func(d string) bool { return d == wsl }
	if got, err := firstBash(list, "bash.exe", skip); err != nil || got != filepath.Join(git, "bash.exe") {
		t.Errorf("skipping the launcher: %q %v", got, err)
	}
	if _, err := firstBash(strings.Join([]string{"rel", empty}, string(os.PathListSeparator)), "bash.exe", none); err == nil {
		t.Error("found a bash where there is none")
	}
}

func TestSkipWSL(t *testing.T) {
	for dir, want := range map[string]bool{
		`C:\Windows\System32`:                              true,
		`c:\windows\system32\`:                             true,
		`C:\Users\ann\AppData\Local\Microsoft\WindowsApps`: true,
		`C:\Program Files\Git\bin`:                         false,
		`C:\Program Files\Git\usr\bin`:                     false,
	} {
		if got := skipWSL(dir, `C:\Windows\System32`); got != want {
			t.Errorf("%s: %v", dir, got)
		}
	}
}
