//go:build unix

package atomicfile

// The owner and permission checks of Unix systems (Linux, macOS, the
// BSDs): access(2) as the effective user, and the owner's uid.

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// CheckReplace says whether the existing file abs, whose info is prev, may
// be replaced: the user must be allowed to write it, and the rename must
// not change its owner. Replacing goes through a new file renamed over the
// old one, which only needs write permission on the directory, so without
// this check a read-only file, or another user's file in a directory the
// user may write, would be silently replaced (the second one becoming the
// user's). Root bypasses the mode bits, but a file with no write bit at
// all has been made read-only on purpose, and root is refused it too.
func CheckReplace(abs string, prev os.FileInfo) error {
	perm := prev.Mode().Perm()
	if perm&0o222 == 0 {
		return &RefusedError{Why: fmt.Sprintf("is read-only (mode %04o)", perm)}
	}
	euid := os.Geteuid()
	if euid == 0 {
		return nil // root may write it, and gives it its owner back
	}
	st, _ := prev.Sys().(*syscall.Stat_t)
	err := unix.Faccessat(unix.AT_FDCWD, abs, unix.W_OK, unix.AT_EACCESS)
	switch {
	case errors.Is(err, unix.EACCES) || errors.Is(err, unix.EPERM):
		if st != nil {
			return &RefusedError{Why: fmt.Sprintf("is not writable by you (mode %04o, owner uid %d)", perm, st.Uid)}
		}
		return &RefusedError{Why: fmt.Sprintf("is not writable by you (mode %04o)", perm)}
	case errors.Is(err, unix.EROFS):
		return &RefusedError{Why: "is on a read-only file system"}
	}
	if st != nil && int(st.Uid) != euid {
		// A user cannot give a file away: the new file would be theirs.
		return &RefusedError{Why: fmt.Sprintf("belongs to another user (uid %d), and replacing it would make it yours", st.Uid)}
	}
	return nil
}

// keepOwner gives f prev's owner and group, when allowed (best effort).
func keepOwner(f *os.File, prev os.FileInfo) {
	if st, ok := prev.Sys().(*syscall.Stat_t); ok {
		_ = f.Chown(int(st.Uid), int(st.Gid))
	}
}

// ownedByMe says whether the file is the effective user's: the sweep
// removes no one else's file.
func ownedByMe(_ string, info os.FileInfo) bool {
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && int(st.Uid) == os.Geteuid()
}
