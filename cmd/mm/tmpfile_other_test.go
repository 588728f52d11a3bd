//go:build !linux

package main_test

import "errors"

// tmpfileSupported: only Linux has O_TMPFILE; elsewhere atomicfile
// writes through named temporary files.
func tmpfileSupported(dir string) error {
	return errors.New("O_TMPFILE is Linux's")
}
