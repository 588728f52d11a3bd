package procguard

import (
	"encoding/binary"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// newNotifier is an inotify descriptor, -1 on the portable path (the
// guardian then polls, as on macOS) or when inotify is refused.
func newNotifier() int {
	if portable {
		return -1
	}
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC)
	if err != nil {
		return -1
	}
	return fd
}

// addWatch watches f for writes and closes after writing.
func addWatch(ino int, f *os.File) (int, error) {
	return unix.InotifyAddWatch(ino, "/proc/self/fd/"+strconv.Itoa(int(f.Fd())), unix.IN_MODIFY|unix.IN_CLOSE_WRITE)
}

func rmWatch(ino, wd int) { unix.InotifyRmWatch(ino, uint32(wd)) }

// readNotify sends the watch of every event, 0 after a queue overflow.
func readNotify(fd int, events chan<- uint32) {
	buf := make([]byte, 4096)
	for {
		n, err := unix.Read(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			wd := int32(binary.NativeEndian.Uint32(buf[off:]))
			mask := binary.NativeEndian.Uint32(buf[off+4:])
			nameLen := binary.NativeEndian.Uint32(buf[off+12:])
			off += unix.SizeofInotifyEvent + int(nameLen)
			if mask&unix.IN_Q_OVERFLOW != 0 || wd < 0 {
				wd = 0
			}
			if mask&unix.IN_IGNORED != 0 {
				continue
			}
			events <- uint32(wd)
		}
	}
}
