package repl

import "golang.org/x/sys/unix"

// flushInput drops what was typed before a question appears: a key typed
// ahead (or pasted) must not answer it.
func flushInput(fd int) { _ = unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH) }
