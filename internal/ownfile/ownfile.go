// Package ownfile creates and opens mm's own files (.mm/history,
// .mm/traces, .mm/sessions) inside a directory mm does not trust: the
// project. A cloned repository can ship `.mm` as a symbolic link to
// ~/.ssh, or `.mm/history` as a link to ~/.bashrc; mm must never follow
// such a link, nor write into a FIFO or a device it finds there. Every
// directory mm creates is 0700 and every file 0600: traces and sessions
// hold whole conversations.
package ownfile

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// DirPerm and FilePerm are the modes of what mm creates.
const (
	DirPerm  = 0o700
	FilePerm = 0o600
)

// Dir makes sure that dir exists and returns it cleaned. A relative dir
// is resolved under base, and none of its components below base may be a
// symbolic link (each is opened with O_NOFOLLOW, created 0700 when
// missing), so a repository cannot aim it elsewhere. An absolute dir is
// the user's choice and is created as is (0700). base itself is trusted:
// it is where mm was started.
func Dir(base, dir string) (string, error) {
	if filepath.IsAbs(dir) {
		dir = filepath.Clean(dir)
		if err := os.MkdirAll(dir, DirPerm); err != nil {
			return "", err
		}
		return dir, nil
	}
	if !filepath.IsLocal(dir) {
		return "", fmt.Errorf("%s leaves %s", dir, base)
	}
	fd, err := unix.Open(base, unix.O_DIRECTORY|unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return "", &os.PathError{Op: "open", Path: base, Err: err}
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
			return "", describe(at, err)
		}
		fd = next
	}
	unix.Close(fd)
	return filepath.Join(base, dir), nil
}

// MMDir is the name of mm's own directory in a project. When Dir creates
// it, it puts a .gitignore of "*" in it: what mm keeps there (history,
// traces, sessions) never shows in git status nor lands in a commit.
const MMDir = ".mm"

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
				return fmt.Errorf("%s is a symbolic link — mm does not follow links for its own files", path)
			}
			return fmt.Errorf("%s is not a directory", path)
		}
	}
	return &os.PathError{Op: "open", Path: path, Err: err}
}

// Create makes a new file at path, 0600. It fails when anything is there
// already, a symbolic link included (O_EXCL never follows one).
func Create(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL|syscall.O_NOFOLLOW|syscall.O_CLOEXEC, FilePerm)
}

// OpenAppend opens path for appending, creating it 0600 when missing. A
// symbolic link or anything but a regular file is refused.
func OpenAppend(path string) (*os.File, error) {
	return openRegular(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE)
}

// OpenLock opens path for reading and writing, creating it 0600 when
// missing: a lock file. A symbolic link or anything but a regular file
// is refused.
func OpenLock(path string) (*os.File, error) {
	return openRegular(path, os.O_RDWR|os.O_CREATE)
}

// ReadFile reads path whole, at most limit bytes (more is an error). A
// symbolic link or anything but a regular file is refused; a missing file
// gives an error that errors.Is(err, fs.ErrNotExist).
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := openRegular(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is over %d bytes", path, limit)
	}
	return data, nil
}

// ReadHead reads at most n bytes of path (more is no error: the caller
// cuts). Like ReadFile, a symbolic link or anything but a regular file is
// refused, and a FIFO never blocks it.
func ReadHead(path string, n int64) ([]byte, error) {
	f, err := openRegular(path, os.O_RDONLY)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, n))
}

// openRegular opens path without following a final symbolic link and
// without blocking on a FIFO, then checks that it is a regular file.
func openRegular(path string, flag int) (*os.File, error) {
	f, err := os.OpenFile(path, flag|syscall.O_NOFOLLOW|syscall.O_NONBLOCK|syscall.O_CLOEXEC, FilePerm)
	if err != nil {
		if errors.Is(err, syscall.ELOOP) {
			return nil, fmt.Errorf("%s is a symbolic link — mm does not follow links for its own files", path)
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
