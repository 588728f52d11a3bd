// Package regularfile reads a file that must be a regular file of bounded
// size, without ever blocking on what an untrusted directory can swap in
// for it (a FIFO, a device, a pollable /proc file). The configuration
// loader and the file tools both read through it; each words the errors
// for its own reader.
package regularfile

import "errors"

var (
	// ErrNotRegular: the opened file is not a regular file.
	ErrNotRegular = errors.New("not a regular file")
	// ErrWouldBlock: a "regular" file whose read would block (/proc/kmsg).
	ErrWouldBlock = errors.New("its read would block")
	// ErrTooLarge: the file holds more than the limit.
	ErrTooLarge = errors.New("larger than the limit")
)
