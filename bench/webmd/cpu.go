package webmdbench

import (
	"syscall"
	"time"
)

// CPUTime is the CPU time the process has used (user and system, all
// threads): throughput per CPU-second counts the collector's work on other
// threads too, which wall time on an idle machine would hide.
func CPUTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
