//go:build unix

package atomicfile

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// killSize is the size of each version the child writes: large enough
// that a kill lands in the middle of a write.
const killSize = 8 << 20

// TestMain lets the test binary play a mm that writes one file over and
// over through the named temporary files of macOS and Windows (the way
// every platform but Linux writes), until it is killed.
func TestMain(m *testing.M) {
	if target := os.Getenv("ATOMICFILE_TEST_WRITER"); target != "" {
		namedOnly = true
		for i := 0; ; i++ {
			c := strings.Repeat(string(rune('A'+i%2)), killSize)
			prev, _ := os.Stat(target)
			if err := Write(target, c, prev); err != nil {
				os.Exit(3)
			}
		}
	}
	os.Exit(m.Run())
}

// A write killed by SIGKILL leaves the target whole, old or new, never
// half; its temporary file, once StaleAfter old, is swept by the next
// write. The named way, as on macOS and Windows.
func TestKill9DuringNamedWrite(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "f.txt")
	for round := 0; round < 3; round++ {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), "ATOMICFILE_TEST_WRITER="+target)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		// Wait for a temporary file to appear: a write in progress.
		deadline := time.Now().Add(30 * time.Second)
		for len(temps(t, dir)) == 0 {
			if time.Now().After(deadline) {
				cmd.Process.Kill()
				t.Fatal("no write was seen in progress")
			}
			time.Sleep(time.Millisecond)
		}
		cmd.Process.Signal(syscall.SIGKILL)
		cmd.Wait()
		if data, err := os.ReadFile(target); err == nil {
			if len(data) != killSize || strings.Trim(string(data), string(data[:1])) != "" {
				t.Fatalf("round %d: the target holds %d bytes, not one whole version", round, len(data))
			}
		} else if !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	left := temps(t, dir)
	if len(left) == 0 {
		t.Fatal("no temporary file was left by a kill: the test saw no kill mid-write")
	}
	old := time.Now().Add(-2 * StaleAfter)
	for _, p := range left {
		os.Chtimes(p, old, old)
	}
	prev, _ := os.Stat(target)
	namedOnly = true
	defer func() { namedOnly = false }()
	if err := Write(target, "last", prev); err != nil {
		t.Fatal(err)
	}
	if left := temps(t, dir); len(left) != 0 {
		t.Errorf("temporary files left after the sweep: %v", left)
	}
	if data, _ := os.ReadFile(target); string(data) != "last" {
		t.Errorf("target %q", data)
	}
}

func temps(t *testing.T, dir string) []string {
	t.Helper()
	names, err := filepath.Glob(filepath.Join(dir, ".f.txt.mm-*.tmp"))
	if err != nil {
		t.Fatal(err)
	}
	return names
}
