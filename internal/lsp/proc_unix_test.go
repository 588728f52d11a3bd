//go:build !windows

package lsp

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"
)

// processAlive reports whether pid is a live process (a zombie waiting for
// init to reap it is dead). The check waits a little: reparenting and
// reaping take a moment.
func processAlive(pid int) bool {
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			return false
		}
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if err != nil {
			return false
		}
		if i := strings.LastIndexByte(string(stat), ')'); i > 0 && strings.HasPrefix(string(stat[i+1:]), " Z") {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
	return true
}
