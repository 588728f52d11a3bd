package session

import (
	"errors"
	"os"

	"golang.org/x/sys/windows"

	"mm/internal/ownfile"
)

// lockFile opens path and takes an exclusive lock on its first byte
// without waiting (LockFileEx); Windows drops it when the handle closes,
// however the process ends. Release's removal of a file still open fails
// there: the file stays, and the next mm locks the same file, which is
// just as good. A removal that did happen meanwhile is caught as on Unix.
func lockFile(path string) (*os.File, error) {
	for range 10 {
		f, err := ownfile.OpenLock(path)
		if err != nil {
			return nil, err
		}
		var ol windows.Overlapped
		if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol); err != nil {
			f.Close()
			if errors.Is(err, windows.ERROR_LOCK_VIOLATION) {
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
