package tools

import (
	"fmt"
	"io"
	"os"
)

// readRegular on Windows: no FIFO nor /proc in its file system, so a
// plain open, the check again on the handle, and at most MaxFileSize
// bytes.
func readRegular(path string) ([]byte, error) {
	if beforeOpen != nil {
		beforeOpen(path)
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, fmt.Errorf("larger than %d MiB", MaxFileSize>>20)
	}
	return data, nil
}
