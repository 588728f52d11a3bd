package ownfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// portable does the same checks with the os package alone, for a
// platform without openat and O_NOFOLLOW (Windows). Each check is a
// Lstat before the use and a comparison of what was opened with what was
// checked after it, so a link or a special file left in place is refused
// as on Unix; what it cannot close is the race of a link swapped in
// between the two by a process running at the same time (docs/platforms.md).
// ownfile_test.go runs it on Linux too.
var portable = ops{dirUnder: dirUnderPortable, create: createPortable, openRegular: openRegularPortable}

// notPlain is what a component of mm's own paths may not be: a symbolic
// link, or another reparse point (a Windows junction or mount point is
// ModeIrregular since Go 1.23).
const notPlain = fs.ModeSymlink | fs.ModeIrregular

func dirUnderPortable(base, dir string) error {
	at := base
	for _, comp := range strings.Split(filepath.Clean(dir), string(filepath.Separator)) {
		at = filepath.Join(at, comp)
		fi, err := os.Lstat(at)
		if errors.Is(err, fs.ErrNotExist) {
			err = os.Mkdir(at, DirPerm)
			if err == nil && comp == MMDir {
				ignoreAllPortable(at)
			}
			if err == nil || errors.Is(err, fs.ErrExist) {
				fi, err = os.Lstat(at)
			}
		}
		switch {
		case err != nil:
			return err
		case fi.Mode()&fs.ModeSymlink != 0:
			return symlinkRefused(at)
		case fi.Mode()&notPlain != 0 || !fi.IsDir():
			return fmt.Errorf("%s is not a directory", at)
		}
	}
	return nil
}

func ignoreAllPortable(dir string) {
	if f, err := createPortable(filepath.Join(dir, ".gitignore")); err == nil {
		f.WriteString("*\n")
		f.Close()
	}
}

// createPortable: O_EXCL fails on anything already there, a link included
// (Windows' CREATE_NEW as Unix's O_EXCL).
func createPortable(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, FilePerm)
}

// openRegularPortable refuses a link or a special file on its Lstat, then
// checks that the file it opened is the one it looked at.
func openRegularPortable(path string, flag int) (*os.File, error) {
	before, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && flag&os.O_CREATE != 0:
		// Created below with O_EXCL (nothing may appear meanwhile); a
		// file that appeared after all is opened as an existing one.
		f, err := os.OpenFile(path, flag|os.O_EXCL, FilePerm)
		if err == nil || !errors.Is(err, fs.ErrExist) {
			return f, err
		}
		if before, err = os.Lstat(path); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, err
	}
	if before.Mode()&fs.ModeSymlink != 0 {
		return nil, symlinkRefused(path)
	}
	if !before.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	f, err := os.OpenFile(path, flag&^os.O_CREATE, FilePerm)
	if err != nil {
		return nil, err
	}
	if after, err := f.Stat(); err != nil || !os.SameFile(before, after) || !after.Mode().IsRegular() {
		f.Close()
		if err != nil {
			return nil, err
		}
		return nil, fmt.Errorf("%s changed while mm opened it", path)
	}
	return f, nil
}
