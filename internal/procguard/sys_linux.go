package procguard

import (
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

const (
	sendFlags = unix.MSG_NOSIGNAL | unix.MSG_DONTWAIT
	recvFlags = unix.MSG_CMSG_CLOEXEC
)

// socketpair is the guardian's socket: SOCK_SEQPACKET, or on the portable
// path the SOCK_STREAM macOS has (its AF_UNIX has no SEQPACKET).
func socketpair() ([2]int, error) {
	if portable {
		return streamPair()
	}
	return unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
}

// streamPair is a close-on-exec SOCK_STREAM pair where SOCK_CLOEXEC may
// not exist: ForkLock keeps a concurrent exec from inheriting it in
// between.
func streamPair() ([2]int, error) {
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_STREAM, 0)
	if err == nil {
		unix.CloseOnExec(fds[0])
		unix.CloseOnExec(fds[1])
	}
	return fds, err
}

// selfExe is what re-executes mm: /proc/self/exe is mm's binary even if
// its path was replaced since; the portable path asks os.Executable as
// macOS does.
func selfExe() (string, error) {
	if portable {
		return os.Executable()
	}
	return "/proc/self/exe", nil
}
