package procguard

// What macOS tells of processes, without cgo: the process table and each
// process's arguments and environment through sysctl (kern.proc.all,
// kern.procargs2; another user's are not readable, and mm's children are
// mm's user's). It does not tell which files a process holds (that is
// libproc's proc_pidinfo): a sweep finds the call's processes by their
// group and their cookie only, and a finished call's file counts as
// written while a process of its group or with its cookie lives.

import (
	"bytes"
	"os"

	"golang.org/x/sys/unix"
)

// fileID tells an open file from another: its device and inode.
type fileID struct{ dev, ino uint64 }

// valid is false: no process's files can be looked at, so a sweep does
// not look for the file.
func (id fileID) valid() bool { return false }

func idOf(f *os.File) (fileID, error) {
	var st unix.Stat_t
	if err := unix.Fstat(int(f.Fd()), &st); err != nil {
		return fileID{}, err
	}
	return fileID{dev: uint64(st.Dev), ino: st.Ino}, nil
}

func (id fileID) heldBy(pid int) bool { return false }

func procs() ([]unix.KinfoProc, error) { return unix.SysctlKinfoProcSlice("kern.proc.all") }

func allPids() ([]int, error) {
	ps, err := procs()
	if err != nil {
		return nil, err
	}
	pids := make([]int, 0, len(ps))
	for i := range ps {
		pids = append(pids, int(ps[i].Proc.P_pid))
	}
	return pids, nil
}

// hasCookie reports whether the environment pid was started with holds
// cookie ("MM_CALL=<id>"): kern.procargs2 is argc, the executable's path,
// the arguments and the environment, each NUL-terminated.
func hasCookie(pid int, cookie string) bool {
	b, err := unix.SysctlRaw("kern.procargs2", pid)
	if err != nil {
		return false
	}
	return bytes.Contains(b, []byte("\x00"+cookie+"\x00"))
}

const szomb = 5 // SZOMB, <sys/proc.h>

func isZombie(pid int) bool {
	kp, err := unix.SysctlKinfoProc("kern.proc.pid", pid)
	return err != nil || kp.Proc.P_pid != int32(pid) || kp.Proc.P_stat == szomb
}

// Writing cannot tell from the file alone on macOS (no leases, no view of
// other processes' descriptors): it says nobody writes. The guardian asks
// stillWritten instead.
func Writing(f *os.File) bool { return false }

// stillWritten reports whether a process of the call's group, or one
// carrying its cookie, still lives (us, the guardian and mm aside).
func stillWritten(f *os.File, t target) bool {
	ps, err := procs()
	if err != nil {
		return false
	}
	self, g := os.Getpid(), guardianPid()
	for i := range ps {
		pid := int(ps[i].Proc.P_pid)
		if pid <= 1 || pid == self || pid == g || pid == parentPid || ps[i].Proc.P_stat == szomb {
			continue
		}
		if (t.pgid > 0 && int(ps[i].Eproc.Pgid) == t.pgid) || (t.cookie != "" && hasCookie(pid, t.cookie)) {
			return true
		}
	}
	return false
}
