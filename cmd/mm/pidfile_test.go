package main_test

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// waitPidFile waits for a pid the command writes (`echo $! > file`), and
// makes sure the process is killed when the test ends whatever happens.
func waitPidFile(t *testing.T, path string, within time.Duration) int {
	t.Helper()
	deadline := time.Now().Add(within)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("%s: %q", path, b)
			}
			t.Cleanup(func() { killPid(pid) })
			return pid
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no pid in %s after %s", path, within)
	return 0
}
