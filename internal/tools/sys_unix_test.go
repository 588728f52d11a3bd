//go:build !windows

package tools

import (
	"errors"
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

func fileInode(t *testing.T, path string) uint64 {
	t.Helper()
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return info.Sys().(*syscall.Stat_t).Ino
}

func makeFIFO(path string) error {
	return syscall.Mkfifo(path, 0o644)
}

// setUmask sets the process's umask and returns the one before.
func setUmask(m int) int { return syscall.Umask(m) }

// processGone reports whether pid no longer runs. A killed child whose
// parent died too may stay a zombie when PID 1 does not reap: it is dead
// all the same.
func processGone(pid int) bool {
	if err := syscall.Kill(pid, 0); errors.Is(err, syscall.ESRCH) {
		return true
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	// "pid (comm) S ...": the state follows the last ')'.
	i := strings.LastIndexByte(string(stat), ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

// killPid kills process pid (a test's stray).
func killPid(pid int) { syscall.Kill(pid, syscall.SIGKILL) }
