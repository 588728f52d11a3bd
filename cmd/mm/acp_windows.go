package main

import (
	"os"

	"golang.org/x/sys/windows"
)

// protocolOut keeps stdout for the protocol alone: os.Stdout and the
// process's standard output handle (what a child started without its own
// is given) become stderr's, the protocol keeps the original handle.
func protocolOut(stdout, stderr *os.File) *os.File {
	os.Stdout = stderr
	if h, err := windows.GetStdHandle(windows.STD_OUTPUT_HANDLE); err != nil || h != windows.Handle(stdout.Fd()) {
		return stdout
	}
	windows.SetStdHandle(windows.STD_OUTPUT_HANDLE, windows.Handle(stderr.Fd()))
	return stdout
}
