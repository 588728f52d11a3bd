package tools

import (
	"errors"
	"os"
	"testing"
)

// Windows has no inode numbers, FIFOs or umask: the tests that need them
// skip there.
func fileInode(t *testing.T, path string) uint64 {
	t.Skip("no inode numbers on Windows")
	return 0
}

func makeFIFO(path string) error { return errors.ErrUnsupported }

func setUmask(m int) int { return 0 }

// processGone reports whether pid no longer runs.
func processGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	p.Release()
	return false
}

// killPid kills process pid (a test's stray).
func killPid(pid int) {
	if p, err := os.FindProcess(pid); err == nil {
		p.Kill()
	}
}
