// Package project finds the root of the project mm runs in: the
// repository root when the working directory is inside a Git repository,
// else the working directory itself. mm's own directory (.mm: history,
// traces, sessions) and the project instructions (AGENTS.md) are looked
// up from there, so one project has one history whatever subdirectory mm
// starts in.
package project

import (
	"os"
	"path/filepath"
)

// Root is the project root of dir: the nearest directory at or above dir
// that holds a .git entry (a directory, or the file of a worktree or a
// submodule), else dir. dir is made absolute and cleaned first.
func Root(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return dir
	}
	for at := abs; ; {
		if _, err := os.Lstat(filepath.Join(at, ".git")); err == nil {
			return at
		}
		up := filepath.Dir(at)
		if up == at {
			return abs
		}
		at = up
	}
}
