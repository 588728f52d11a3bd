package repl

import "golang.org/x/sys/unix"

// The termios requests: Linux's names (the BSDs' and macOS' are TIOCGETA).
const (
	ioctlGetTermios = unix.TCGETS
	ioctlSetTermios = unix.TCSETS
)
