// Package ownfile creates and opens mm's own files (.mm/history,
// .mm/traces, .mm/sessions) inside a directory mm does not trust: the
// project. A cloned repository can ship `.mm` as a symbolic link to
// ~/.ssh, or `.mm/history` as a link to ~/.bashrc; mm must never follow
// such a link, nor write into a FIFO or a device it finds there. Every
// directory mm creates is 0700 and every file 0600: traces and sessions
// hold whole conversations.
package ownfile

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
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
	if err := impl.dirUnder(base, dir); err != nil {
		return "", err
	}
	return filepath.Join(base, dir), nil
}

// MMDir is the name of mm's own directory in a project. When Dir creates
// it, it puts a .gitignore of "*" in it: what mm keeps there (history,
// traces, sessions) never shows in git status nor lands in a commit.
const MMDir = ".mm"

// Create makes a new file at path, 0600. It fails when anything is there
// already, a symbolic link included (O_EXCL never follows one).
func Create(path string) (*os.File, error) { return impl.create(path) }

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

// impl is the platform's way of doing the checks (ownfile_unix.go,
// ownfile_windows.go); the tests also run the portable one on Linux so
// that it cannot rot unseen.
var impl = native

type ops struct {
	dirUnder    func(base, dir string) error
	create      func(path string) (*os.File, error)
	openRegular func(path string, flag int) (*os.File, error)
}

func openRegular(path string, flag int) (*os.File, error) { return impl.openRegular(path, flag) }

// symlinkRefused words the refusal of a link where mm's own file should be.
func symlinkRefused(path string) error {
	return fmt.Errorf("%s is a symbolic link — mm does not follow links for its own files", path)
}
