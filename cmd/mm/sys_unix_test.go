//go:build !windows

package main_test

import (
	"bytes"
	"errors"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// The few process and file mechanics the tests use, per platform.

// pidGone reports whether no process pid exists (a zombie still does).
func pidGone(pid int) bool { return errors.Is(syscall.Kill(pid, 0), syscall.ESRCH) }

// killPid kills process pid; killGroup its process group.
func killPid(pid int) error { return syscall.Kill(pid, syscall.SIGKILL) }
func killGroup(pgid int)    { syscall.Kill(-pgid, syscall.SIGKILL) }

// pausePid stops process pid until the returned function resumes it.
func pausePid(t *testing.T, pid int) (resume func()) {
	syscall.Kill(pid, syscall.SIGSTOP)
	return func() { syscall.Kill(pid, syscall.SIGCONT) }
}

func makeFIFO(path string) error { return syscall.Mkfifo(path, 0o644) }

// gone reports whether pid no longer runs (a zombie is dead too: a
// reparented child may wait for a PID 1 that does not reap).
func gone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// quitDump makes the hung mm print its goroutines (SIGQUIT) on the
// terminal and waits, boundedly, for it to end.
func (s *ptySession) quitDump() {
	s.cmd.Process.Signal(syscall.SIGQUIT)
	select {
	case <-s.done:
	case <-time.After(3 * time.Second):
	}
}
