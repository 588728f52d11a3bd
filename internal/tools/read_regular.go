package tools

import (
	"context"
	"errors"
	"fmt"

	"mm/internal/regularfile"
)

// beforeOpen, when set, runs just before readRegular opens its file: the
// tests swap a FIFO in there, or block as a dead mount would.
var beforeOpen func(path string)

// readRegular reads a file the file tools load: a regular file of at most
// MaxFileSize bytes, read without blocking on a FIFO or a pollable /proc
// file swapped in after the stat (internal/regularfile).
func readRegular(path string) ([]byte, error) {
	if beforeOpen != nil {
		beforeOpen(path)
	}
	data, err := regularfile.Read(path, MaxFileSize)
	if errors.Is(err, regularfile.ErrTooLarge) {
		return nil, fmt.Errorf("larger than %d MiB", MaxFileSize>>20)
	}
	return data, err
}

// runCancellable runs a file tool's call so that cancelling the turn
// returns at once: a read that blocks anyway (a file on a dead mount, in
// uninterruptible sleep) keeps its goroutine, which ends with the read.
func runCancellable(ctx context.Context, run func() string) string {
	if ctx.Err() != nil {
		return fileCancelled
	}
	done := make(chan string, 1)
	go func() { done <- run() }()
	select {
	case s := <-done:
		return s
	case <-ctx.Done():
		return fileCancelled
	}
}

// fileCancelled is what a file tool cancelled by the turn returns.
const fileCancelled = "[error: cancelled]"
