//go:build unix

package config

import (
	"errors"
	"os"
	"syscall"
)

// readFile reads a configuration file once CheckFile allows it. The file
// may be swapped for a FIFO between the stat and the open: it is opened
// with O_NONBLOCK (a FIFO then opens at once, a pollable /proc file says
// EAGAIN rather than blocking), checked again on the descriptor, and read
// with raw calls (an *os.File would hand a pollable descriptor to the
// runtime's poller and wait all the same), at most MaxFileSize bytes (a
// /proc file says size 0 whatever it holds).
func readFile(path string) ([]byte, error) {
	if err := CheckFile(path); err != nil {
		return nil, err
	}
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
		return nil, errNotRegular
	}
	data := make([]byte, 0, min(max(st.Size, 0), MaxFileSize)+1)
	for len(data) <= MaxFileSize {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)]
		}
		n, err := syscall.Read(fd, data[len(data):min(cap(data), MaxFileSize+1)])
		switch {
		case err == syscall.EINTR:
			continue
		case err == syscall.EAGAIN:
			return nil, errors.New("its read would block")
		case err != nil:
			return nil, err
		case n == 0:
			return data, nil
		}
		data = data[:len(data)+n]
	}
	return nil, errTooLarge
}
