//go:build linux || darwin

package procguard

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// ownDenial tells whether the file's own permissions keep p from mm
// itself, which is not confined: then a "Permission denied" on it is
// not the sandbox's ("find: '/root': Permission denied", "cat:
// /etc/shadow: …" for a user). The sandbox refuses no read: a file mm
// cannot read, or cannot even look at (a directory above it is closed),
// was refused without it. A write where the user may not write either
// (/etc/x) keeps the line: it is refused all the same.
func ownDenial(p string) bool {
	if _, err := os.Lstat(p); err != nil {
		return !errors.Is(err, os.ErrNotExist)
	}
	return unix.Access(p, unix.R_OK) != nil
}
