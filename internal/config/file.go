package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"

	"mm/internal/regularfile"
)

// MaxFileSize is the largest configuration file mm reads: far above any
// real one (the shipped files are a few KB), and a bound on what a wrong
// -c (a log, a disk image) costs.
const MaxFileSize = 1 << 20

// errNotRegular and errTooLarge word the refusals; the *Error's prefix
// gives the path.
var (
	errNotRegular = errors.New("it is not a regular file (a configuration is a file of at most 1 MiB)")
	errTooLarge   = fmt.Errorf("it is larger than %d MiB", MaxFileSize>>20)
)

// CheckFile says whether path (a link is followed) can be a configuration
// file: a regular file of at most MaxFileSize bytes. A device (/dev/zero,
// /dev/urandom) would be read for ever and a FIFO would block mm's start,
// so they are refused on their stat, before anything opens them.
func CheckFile(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return err
	}
	return checkInfo(fi.Mode(), fi.Size())
}

func checkInfo(mode fs.FileMode, size int64) error {
	switch {
	case mode.IsDir():
		return errors.New("it is a directory")
	case !mode.IsRegular():
		return errNotRegular
	case size > MaxFileSize:
		return errTooLarge
	}
	return nil
}

// readFile reads a configuration file once CheckFile allows it. The file
// may be swapped for a FIFO or a device between the stat and the open:
// regularfile.Read opens it without blocking, checks the descriptor again
// and reads at most MaxFileSize bytes (a /proc file says size 0 whatever
// it holds).
func readFile(path string) ([]byte, error) {
	if err := CheckFile(path); err != nil {
		return nil, err
	}
	data, err := regularfile.Read(path, MaxFileSize)
	switch {
	case errors.Is(err, regularfile.ErrNotRegular):
		return nil, errNotRegular
	case errors.Is(err, regularfile.ErrTooLarge):
		return nil, errTooLarge
	}
	return data, err
}
