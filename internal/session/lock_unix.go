//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package session

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"

	"mm/internal/ownfile"
)

// lockFile opens path and takes an exclusive flock on it without
// waiting. A lock taken on a file its holder removed meanwhile (Release)
// is no lock: it tries again on the new file.
func lockFile(path string) (*os.File, error) {
	for range 10 {
		f, err := ownfile.OpenLock(path)
		if err != nil {
			return nil, err
		}
		if err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); err != nil {
			f.Close()
			if errors.Is(err, unix.EWOULDBLOCK) {
				return nil, ErrInUse
			}
			return nil, err
		}
		fi, err1 := f.Stat()
		li, err2 := os.Lstat(path)
		if err1 == nil && err2 == nil && os.SameFile(fi, li) {
			return f, nil
		}
		f.Close()
	}
	return nil, ErrInUse
}
