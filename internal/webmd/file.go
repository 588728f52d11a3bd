package webmd

import (
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
)

// WriteFile writes data to abs through a temporary file in the same
// directory, renamed over it: a reader (or a crash) sees the old file or
// the new one, never half of it. Parent directories are created.
func WriteFile(abs, data string) error {
	dir := filepath.Dir(abs)
	if err := os.MkdirAll(dir, 0o777); err != nil {
		return err
	}
	if info, err := os.Stat(abs); err == nil && info.IsDir() {
		return fmt.Errorf("it is a directory")
	}
	perm := os.FileMode(0o666)
	if info, err := os.Stat(abs); err == nil {
		perm = info.Mode().Perm()
	}
	var f *os.File
	var err error
	for try := 0; try < 100; try++ {
		name := filepath.Join(dir, "."+filepath.Base(abs)+".mm-"+strconv.FormatUint(rand.Uint64(), 36)+".tmp")
		f, err = os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
		if !errors.Is(err, fs.ErrExist) {
			break
		}
	}
	if err != nil {
		return err
	}
	tmp := f.Name()
	if _, err := f.WriteString(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, abs); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}
