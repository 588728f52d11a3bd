//go:build unix

package regularfile

import (
	"os"
	"syscall"
)

// Read reads path, at most limit bytes. A check before it (os.Stat) can
// be outrun: a FIFO swapped in after it would block the read forever. So
// the file is opened with O_NONBLOCK (a FIFO with no writer opens at once;
// /proc/kmsg, a "regular" file, says EAGAIN instead of blocking when
// drained), the opened descriptor is checked again, and no more than
// limit bytes are read: a /proc or /sys file says size 0 whatever it
// holds.
func Read(path string, limit int) ([]byte, error) {
	// Raw descriptor calls, not an *os.File: os would hand a pollable
	// descriptor (/proc/kmsg) to the runtime's poller and wait for it to
	// be readable, blocking all the same.
	fd, err := syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		return nil, err
	}
	if st.Mode&syscall.S_IFMT != syscall.S_IFREG {
		return nil, ErrNotRegular
	}
	data := make([]byte, 0, int(min(max(st.Size, 0)+1, int64(limit)+1)))
	for len(data) <= limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := syscall.Read(fd, data[len(data):min(cap(data), limit+1)])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return nil, ErrWouldBlock
		case err != nil:
			return nil, err
		case n == 0:
			return data, nil
		}
		data = data[:len(data)+n]
	}
	return nil, ErrTooLarge
}
