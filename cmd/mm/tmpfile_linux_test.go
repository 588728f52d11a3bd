package main_test

import "golang.org/x/sys/unix"

// tmpfileSupported says whether dir's file system makes unnamed files
// (O_TMPFILE), the way atomicfile writes on Linux.
func tmpfileSupported(dir string) error {
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY, 0o600)
	if err == nil {
		unix.Close(fd)
	}
	return err
}
