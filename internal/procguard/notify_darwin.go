package procguard

import (
	"errors"
	"os"
)

// macOS: no notifier, the guardian polls the files of finished calls
// every 20 ms (see pollNoNotify). kqueue's EVFILT_VNODE NOTE_WRITE would
// wake it on writes instead, but the poll is what the Linux tests run
// with MM_PROCGUARD_PORTABLE=1, so it cannot rot unseen, and it costs one
// fstat per file of a job left running.
func newNotifier() int { return -1 }

func addWatch(ino int, f *os.File) (int, error) { return -1, errors.ErrUnsupported }

func rmWatch(ino, wd int) {}

func readNotify(fd int, events chan<- uint32) {}
