package atomicfile

// Linux writes through an unnamed file (O_TMPFILE): a killed write leaves
// nothing behind, the kernel frees the file with its descriptor.

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"golang.org/x/sys/unix"
)

// writeUnnamed writes through an O_TMPFILE file. It returns errNoTmpfile,
// having changed nothing, when that way is not available.
func writeUnnamed(abs, data string, prev os.FileInfo) error {
	dir, base := filepath.Split(abs)
	fd, err := unix.Open(dir, unix.O_TMPFILE|unix.O_WRONLY|unix.O_CLOEXEC, uint32(perms(prev).Perm()))
	if err != nil {
		// EOPNOTSUPP: the file system has no O_TMPFILE; EISDIR and
		// EINVAL: the kernel does not know the flag.
		if errors.Is(err, unix.EOPNOTSUPP) || errors.Is(err, unix.EISDIR) || errors.Is(err, unix.EINVAL) {
			return errNoTmpfile
		}
		return &fs.PathError{Op: "open", Path: dir, Err: err}
	}
	f := os.NewFile(uintptr(fd), abs)
	defer f.Close() // until it is linked, the file vanishes with its descriptor
	if err := fill(f, data, prev); err != nil {
		return err
	}
	if prev == nil {
		// A new file takes its name at once: linkat never replaces.
		err := link(fd, abs)
		if errors.Is(err, unix.EEXIST) {
			return &fs.PathError{Op: "create", Path: abs, Err: fs.ErrExist}
		}
		return err
	}
	for try := 0; ; try++ {
		tmp := tempName(dir, base)
		err := link(fd, tmp)
		if errors.Is(err, unix.EEXIST) && try < 100 {
			continue
		}
		if err != nil {
			return err
		}
		if err := os.Rename(tmp, abs); err != nil {
			os.Remove(tmp)
			return err
		}
		return nil
	}
}

// link gives the unnamed file fd the name path. AT_EMPTY_PATH needs
// CAP_DAC_READ_SEARCH; /proc/self/fd works for everyone where /proc is
// mounted.
func link(fd int, path string) error {
	err := unix.Linkat(fd, "", unix.AT_FDCWD, path, unix.AT_EMPTY_PATH)
	if err == nil || errors.Is(err, unix.EEXIST) {
		return err
	}
	err = unix.Linkat(unix.AT_FDCWD, "/proc/self/fd/"+strconv.Itoa(fd), unix.AT_FDCWD, path, unix.AT_SYMLINK_FOLLOW)
	if err == nil || errors.Is(err, unix.EEXIST) {
		return err
	}
	// No /proc, or a file system that will not link an unnamed file:
	// the named way is tried (and gives its own error if it fails too).
	return errNoTmpfile
}
