//go:build unix

package regularfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

func TestRead(t *testing.T) {
	dir := t.TempDir()
	exact := filepath.Join(dir, "exact")
	os.WriteFile(exact, []byte(strings.Repeat("x", 100)), 0o644)
	if data, err := Read(exact, 100); err != nil || len(data) != 100 {
		t.Errorf("a file of the limit: %d bytes, %v", len(data), err)
	}
	if _, err := Read(exact, 99); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a file over the limit: %v", err)
	}
	// A FIFO with no writer: refused at once, never waited on.
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Read(fifo, 100); !errors.Is(err, ErrNotRegular) {
		t.Errorf("a FIFO: %v", err)
	}
	if _, err := Read(filepath.Join(dir, "missing"), 100); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("a missing file: %v", err)
	}
}
