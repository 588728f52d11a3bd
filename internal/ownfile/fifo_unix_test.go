//go:build unix

package ownfile

import (
	"syscall"
	"testing"
)

func mkfifo(t *testing.T, path string) bool {
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
	return true
}
