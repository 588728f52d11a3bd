package procguard

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// No MSG_NOSIGNAL on macOS: the socket gets SO_NOSIGPIPE (and the Go
// runtime ignores a SIGPIPE on a descriptor other than stdout/stderr).
const (
	sendFlags = unix.MSG_DONTWAIT
	recvFlags = 0
)

// socketpair is the guardian's socket: SOCK_STREAM, macOS's AF_UNIX has
// no SOCK_SEQPACKET (messages are fixed-size frames).
func socketpair() ([2]int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err == nil {
		for _, fd := range fds {
			unix.CloseOnExec(fd)
			unix.SetsockoptInt(fd, unix.SOL_SOCKET, unix.SO_NOSIGPIPE, 1)
		}
	}
	return fds, err
}

func selfExe() (string, error) { return os.Executable() }
