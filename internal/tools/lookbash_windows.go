package tools

import (
	"os"

	"golang.org/x/sys/windows"
)

// lookBash walks PATH itself, as exec.LookPath would, but passes over the
// WSL launchers: System32's bash.exe (before Git's in a default PATH) and
// the WindowsApps execution alias.
func lookBash() (string, error) {
	sys, _ := windows.GetSystemDirectory()
	return firstBash(os.Getenv("PATH"), "bash.exe", func(dir string) bool { return skipWSL(dir, sys) })
}
