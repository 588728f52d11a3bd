package tools

import (
	"context"
	"errors"
)

// errNotRegular is readRegular's refusal of what turned out, once opened,
// not to be a regular file.
var errNotRegular = errors.New("not a regular file")

// beforeOpen, when set, runs just before readRegular opens its file: the
// tests swap a FIFO in there, or block as a dead mount would.
var beforeOpen func(path string)

// errWouldBlock is readRegular's answer for a file whose read would wait
// (/proc/kmsg once drained).
var errWouldBlock = errors.New("its read would block")

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
