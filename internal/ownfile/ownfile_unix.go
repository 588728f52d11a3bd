//go:build unix

package ownfile

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// native: every component opened with O_NOFOLLOW relative to its parent's
// descriptor (openat), so nothing can be swapped between a check and a use.
var native = ops{dirUnder: dirUnderAt, create: createNoFollow, openRegular: openRegularNoFollow}

// dirUnderAt is Dir for a relative dir: each component is opened with
// O_NOFOLLOW under the descriptor of its parent, and created 0700 when
// missing.
func dirUnderAt(base, dir string) error {
	fd, err := unix.Open(base, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return &os.PathError{Op: "open", Path: base, Err: err}
	}
	at := base
	for _, comp := range strings.Split(filepath.Clean(dir), string(filepath.Separator)) {
		at = filepath.Join(at, comp)
		next, err := openDirAt(fd, comp)
		if errors.Is(err, unix.ENOENT) {
			created := false
			if err = unix.Mkdirat(fd, comp, DirPerm); err == nil || errors.Is(err, unix.EEXIST) {
				created = err == nil
				next, err = openDirAt(fd, comp)
			}
			if created && err == nil && comp == MMDir {
				ignoreAll(next)
			}
		}
		unix.Close(fd)
		if err != nil {
			return describe(at, err)
		}
		fd = next
	}
	unix.Close(fd)
	return nil
}

// ignoreAll writes the .gitignore of a .mm just created (best effort: a
// missing one only makes git status noisier).
func ignoreAll(dirfd int) {
	fd, err := unix.Openat(dirfd, ".gitignore", unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, FilePerm)
	if err != nil {
		return
	}
	unix.Write(fd, []byte("*\n"))
	unix.Close(fd)
}

func openDirAt(dirfd int, name string) (int, error) {
	return unix.Openat(dirfd, name, unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_RDONLY|unix.O_CLOEXEC, 0)
}

// describe turns the errors of a refused component into words.
func describe(path string, err error) error {
	if errors.Is(err, unix.ELOOP) || errors.Is(err, unix.ENOTDIR) {
		if fi, lerr := os.Lstat(path); lerr == nil {
			if fi.Mode()&os.ModeSymlink != 0 {
				return symlinkRefused(path)
			}
			return fmt.Errorf("%s is not a directory", path)
		}
	}
	return &os.PathError{Op: "open", Path: path, Err: err}
}

func createNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, FilePerm)
}

// openRegularNoFollow opens path without following a final symbolic link and
// without blocking on a FIFO, then checks that it is a regular file.
func openRegularNoFollow(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, FilePerm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, symlinkRefused(path)
		}
		if errors.Is(err, syscall.ENXIO) {
			// O_WRONLY|O_NONBLOCK on a FIFO without a reader.
			return nil, fmt.Errorf("%s is not a regular file", path)
		}
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	// Back to blocking reads and writes for a regular file (O_NONBLOCK
	// means nothing for one, but leave no surprise).
	if err := unix.SetNonblock(int(f.Fd()), false); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}
