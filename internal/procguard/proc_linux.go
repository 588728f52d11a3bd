package procguard

// What Linux tells of processes: /proc, and read leases.

import (
	"bytes"
	"errors"
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// fileID is what tells an open file from another: its device and inode,
// and the text of its /proc/<pid>/fd link, compared first because reading
// a link never touches the file system behind it (a process may hold a
// file on a dead mount, whose stat would block).
type fileID struct {
	dev, ino uint64
	link     string
}

func (id fileID) valid() bool { return id.link != "" }

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

// heldBy reports whether process pid has the file open.
func (id fileID) heldBy(pid int) bool {
	dir := "/proc/" + strconv.Itoa(pid) + "/fd/"
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

// allPids lists the processes.
func allPids() ([]int, error) {
	procs, err := os.ReadDir("/proc")
	if err != nil {
		return nil, err
	}
	var pids []int
	for _, p := range procs {
		if pid, err := strconv.Atoi(p.Name()); err == nil {
			pids = append(pids, pid)
		}
	}
	return pids, nil
}

// hasCookie reports whether the environment pid was started with holds
// cookie ("MM_CALL=<id>").
func hasCookie(pid int, cookie string) bool {
	env, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	c := []byte(cookie + "\x00")
	return bytes.HasPrefix(env, c) || bytes.Contains(env, append([]byte{0}, c...))
}

// isZombie reports whether pid is dead but not reaped: killing it again
// finds it again.
func isZombie(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'Z'
}

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

// stillWritten is the guardian's question for a finished call: is its
// file still written? Linux sees who holds it, whatever the path.
func stillWritten(f *os.File, t target) bool { return Writing(f) }

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
	pids, err := allPids()
	if err != nil {
		return false
	}
	self := os.Getpid()
	for _, pid := range pids {
		if pid == self || contains(skip, pid) {
			continue
		}
		if id.heldBy(pid) {
			return true
		}
	}
	return false
}
