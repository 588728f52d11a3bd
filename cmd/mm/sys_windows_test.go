package main_test

import (
	"errors"
	"os"
	"testing"
)

// The few process and file mechanics the tests use, per platform: Windows
// has no signals to pause a process, no process groups and no FIFOs; the
// tests that need them skip there.

func pidGone(pid int) bool {
	p, err := os.FindProcess(pid)
	if err != nil {
		return true
	}
	p.Release()
	return false
}

func killPid(pid int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return err
	}
	return p.Kill()
}

func killGroup(pid int) { killPid(pid) }

func pausePid(t *testing.T, pid int) (resume func()) {
	t.Skip("no SIGSTOP on Windows")
	return func() {}
}

func makeFIFO(path string) error { return errors.ErrUnsupported }

func gone(pid int) bool { return pidGone(pid) }

// quitDump: Windows has no SIGQUIT.
func (s *ptySession) quitDump() {}
