// Package procguard keeps what the bash tool starts from outliving its
// welcome (Linux):
//
//   - Sweep kills what a timed-out or cancelled command left, including
//     what escaped its process group (setsid): every process that holds
//     the call's output file open, and every process whose environment
//     carries the call's cookie (MM_CALL=<id>, the way Jenkins'
//     ProcessTreeKiller finds a build's processes);
//   - Writing tells whether anyone still holds the output file open for
//     writing (a job left running), from a read lease: O(1), no /proc scan;
//   - a guardian process (mm itself re-executed, see guardian.go) holds the
//     output files of the calls and their process groups: it kills a
//     running call's processes when mm dies, even by SIGKILL, and kills a
//     job left running once its output passes the cap, even after mm has
//     exited.
package procguard

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"os"
	"strconv"
	"syscall"

	"golang.org/x/sys/unix"
)

// CookieVar is the variable each call's environment gets: MM_CALL=<id>.
const CookieVar = "MM_CALL"

// NewCookie returns a fresh "MM_CALL=<id>" for one call.
func NewCookie() string {
	var b [12]byte
	rand.Read(b[:])
	return CookieVar + "=" + hex.EncodeToString(b[:])
}

// fileID is what tells an open file from another: its device and inode,
// and the text of its /proc/<pid>/fd link, compared first because reading
// a link never touches the file system behind it (a process may hold a
// file on a dead mount, whose stat would block).
type fileID struct {
	dev, ino uint64
	link     string
}

func idOf(f *os.File) (fileID, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileID{}, err
	}
	link, err := os.Readlink("/proc/self/fd/" + strconv.Itoa(int(f.Fd())))
	if err != nil {
		return fileID{}, err
	}
	return fileID{dev: st.Dev, ino: st.Ino, link: link}, nil
}

// holds reports whether process pid has the file open.
func (id fileID) heldBy(pid string) bool {
	dir := "/proc/" + pid + "/fd/"
	fds, err := os.ReadDir(dir)
	if err != nil {
		return false
	}
	for _, fd := range fds {
		if l, err := os.Readlink(dir + fd.Name()); err != nil || l != id.link {
			continue
		}
		var st unix.Stat_t
		if unix.Stat(dir+fd.Name(), &st) == nil && st.Dev == id.dev && st.Ino == id.ino {
			return true
		}
	}
	return false
}

// hasCookie reports whether the environment pid was started with holds
// cookie ("MM_CALL=<id>").
func hasCookie(pid, cookie string) bool {
	env, err := os.ReadFile("/proc/" + pid + "/environ")
	if err != nil {
		return false
	}
	c := []byte(cookie + "\x00")
	return bytes.HasPrefix(env, c) || bytes.Contains(env, append([]byte{0}, c...))
}

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
		procs, err := os.ReadDir("/proc")
		if err != nil {
			break
		}
		self := os.Getpid()
		for _, p := range procs {
			pid, err := strconv.Atoi(p.Name())
			if err != nil || pid <= 1 || pid == self || contains(skip, pid) {
				continue
			}
			for _, t := range targets {
				if (t.cookie != "" && hasCookie(p.Name(), t.cookie)) || (t.file.link != "" && t.file.heldBy(p.Name())) {
					// A zombie is dead already: finding it again is no reason
					// for another round.
					if !isZombie(p.Name()) && syscall.Kill(pid, syscall.SIGKILL) == nil && !killed[pid] {
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

// isZombie reports whether pid is dead but not reaped: killing it again
// finds it again.
func isZombie(pid string) bool {
	stat, err := os.ReadFile("/proc/" + pid + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
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

// errNoLease is Writing's answer where leases do not work (a file system
// without them, fs.leases-enable=0): the caller scans /proc instead.
var errNoLease = errors.New("no lease")

// Writing reports whether a process still holds f's file open for
// writing. f must be open read-only (a read lease is refused on a file
// open for writing, our own descriptor included). The kernel grants a
// read lease only when nobody has the file open for writing.
func Writing(f *os.File) bool {
	w, err := leaseWriting(f)
	if err == nil {
		return w
	}
	id, err := idOf(f)
	if err != nil {
		return false
	}
	return heldElsewhere(id, guardianPid(), parentPid)
}

func leaseWriting(f *os.File) (bool, error) {
	fd := int(f.Fd())
	_, err := unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_RDLCK)
	switch {
	case err == nil:
		unix.FcntlInt(uintptr(fd), unix.F_SETLEASE, unix.F_UNLCK)
		return false, nil
	case errors.Is(err, unix.EAGAIN):
		return true, nil
	}
	return false, errNoLease
}

// heldElsewhere reports whether a process other than us and skip holds
// the file.
func heldElsewhere(id fileID, skip ...int) bool {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return false
	}
	self := os.Getpid()
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil || pid == self || contains(skip, pid) {
			continue
		}
		if id.heldBy(p.Name()) {
			return true
		}
	}
	return false
}
