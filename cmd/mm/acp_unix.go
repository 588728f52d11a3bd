//go:build linux || darwin

package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// protocolOut keeps stdout for the protocol alone: the protocol gets a
// private copy of it, and descriptor 1 and os.Stdout become stderr, so
// that nothing else mm or a library prints (Genkit, a stray print, a
// child that inherits descriptor 1) can ever land between two messages.
func protocolOut(stdout, stderr *os.File) *os.File {
	os.Stdout = stderr
	if stdout.Fd() != 1 {
		return stdout
	}
	fd, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return stdout
	}
	if err := unix.Dup2(int(stderr.Fd()), 1); err != nil {
		unix.Close(fd)
		return stdout
	}
	return os.NewFile(uintptr(fd), "/dev/stdout")
}
