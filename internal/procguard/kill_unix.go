//go:build linux || darwin

package procguard

import (
	"errors"
	"os"
	"syscall"
)

// target is one call's processes as a sweep finds them.
type target struct {
	pgid   int    // 0 = unknown
	cookie string // "" = none
	file   fileID // zero = none
}

// sweepRounds bounds a sweep: each round kills what the previous one
// found; a process that forks faster than that is not worth more.
const sweepRounds = 8

// sweep SIGKILLs the targets' process groups, then, round after round,
// every process (but skip) that holds one of their files or carries one of
// their cookies, until a round finds none (one that was killed but is not
// dead yet is killed again, and not counted). It returns how many
// processes it killed outside the groups.
func sweep(targets []target, skip ...int) int {
	killed := map[int]bool{}
	for round := 0; round < sweepRounds; round++ {
		for _, t := range targets {
			if t.pgid > 0 {
				syscall.Kill(-t.pgid, syscall.SIGKILL)
			}
		}
		found := 0
		procs, err := allPids()
		if err != nil {
			break
		}
		self := os.Getpid()
		for _, pid := range procs {
			if pid <= 1 || pid == self || contains(skip, pid) {
				continue
			}
			for _, t := range targets {
				if (t.cookie != "" && hasCookie(pid, t.cookie)) || (t.file.valid() && t.file.heldBy(pid)) {
					// A zombie is dead already: finding it again is no reason
					// for another round.
					if !isZombie(pid) && syscall.Kill(pid, syscall.SIGKILL) == nil && !killed[pid] {
						found++
						killed[pid] = true
					}
					break
				}
			}
		}
		if found == 0 {
			break
		}
	}
	return len(killed)
}

func contains(list []int, v int) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

// Sweep kills one call's processes: its process group, then whatever holds
// out (the call's output file, read-only here) or carries cookie. It
// returns how many processes outside the group it killed.
func Sweep(pgid int, cookie string, out *os.File) int {
	t := target{pgid: pgid, cookie: cookie}
	if out != nil {
		t.file, _ = idOf(out)
	}
	return sweep([]target{t}, guardianPid())
}

// errNoLease is leaseWriting's answer where leases do not work (a file
// system without them, fs.leases-enable=0, macOS): the caller looks at
// the processes instead.
var errNoLease = errors.New("no lease")
