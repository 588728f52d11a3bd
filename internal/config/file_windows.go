package config

import (
	"io"
	"os"
)

// readFile reads a configuration file once CheckFile allows it. Windows
// has no FIFO nor /proc in the file system: the file is opened, checked
// again on the handle (a regular file) and read at most MaxFileSize bytes.
func readFile(path string) ([]byte, error) {
	if err := CheckFile(path); err != nil {
		return nil, err
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, errNotRegular
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileSize+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileSize {
		return nil, errTooLarge
	}
	return data, nil
}
