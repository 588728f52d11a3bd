package procguard

// The guardian is mm itself, re-executed with MM_PROCGUARD=<mm's pid> and
// caught by init before main runs. mm hands it, over a socket, each call's
// output file (a read-only descriptor, SCM_RIGHTS), its cookie and, once
// started, its process group. The guardian
//
//   - kills a running call's processes (Sweep) when the socket closes
//     without the call being finished: mm died, even by SIGKILL, and only
//     its shell had a parent-death signal;
//   - watches the output file of a finished call for as long as a job left
//     running holds it open for writing, and kills what holds it once it
//     passes the cap: that file is unlinked and nobody reads it, so
//     without the guardian `yes &` would fill the disk, after mm's exit
//     too;
//   - exits when mm is gone and no file is left to watch.
//
// It is in its own session (Ctrl-C in mm's terminal does not reach it),
// has an environment of one variable, stdio on /dev/null (a caller
// reading mm's output through a pipe is not kept waiting) and / as its
// directory. It wakes on inotify events of the files (a write, a close
// after writing), and once a second to check again; without inotify it
// polls every 20 ms.

import (
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// guardianVar is the variable that turns mm into its guardian; its value
// is mm's pid.
const guardianVar = "MM_PROCGUARD"

// parentPid is, in the guardian, mm's pid: never killed by a sweep (mm
// holds the files it reads back).
var parentPid int

func init() {
	v := os.Getenv(guardianVar)
	if v == "" {
		return
	}
	pid, err := strconv.Atoi(v)
	sock := os.NewFile(3, "procguard")
	var st unix.Stat_t
	if err != nil || unix.Fstat(3, &st) != nil || st.Mode&unix.S_IFMT != unix.S_IFSOCK {
		fmt.Fprintln(os.Stderr, "mm: "+guardianVar+" is mm's own variable")
		os.Exit(2)
	}
	parentPid = pid
	runGuardian(sock)
	os.Exit(0)
}

// msg is one message from mm: "add <id> <cap>" (with the file), "pgid <id>
// <pgid>", "done <id>".
type msg struct {
	kind, id string
	n        int64
	f        *os.File
}

// entry is one call the watcher follows.
type entry struct {
	id      string // the cookie
	f       *os.File
	file    fileID
	cap     int64
	pgid    int
	running bool
	wd      int // inotify watch, -1 = none
}

func (e *entry) target() target { return target{pgid: e.pgid, cookie: e.id, file: e.file} }

// watcher is the guardian's state; it runs in mm itself when the guardian
// cannot be started (then it cannot outlive mm).
type watcher struct {
	entries map[string]*entry
	byWd    map[int]*entry
	ino     int // inotify descriptor, -1 = none
	skip    []int
}

func newWatcher(skip ...int) *watcher {
	w := &watcher{entries: map[string]*entry{}, byWd: map[int]*entry{}, ino: -1, skip: skip}
	if fd, err := unix.InotifyInit1(unix.IN_CLOEXEC); err == nil {
		w.ino = fd
	}
	return w
}

// run handles messages until msgs is closed (mm is gone) and no file is
// left, or forever in mm (msgs never closed).
func (w *watcher) run(msgs <-chan msg) {
	events := make(chan uint32, 64) // inotify wd, or 0 for "check all"
	poll := 20 * time.Millisecond
	if w.ino >= 0 {
		poll = time.Second
		go readInotify(w.ino, events)
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				// mm is gone: what was running dies with it.
				msgs = nil
				var ts []target
				for _, e := range w.entries {
					if e.running {
						ts = append(ts, e.target())
						w.finished(e)
					}
				}
				if len(ts) > 0 {
					sweep(ts, w.skip...)
				}
				w.checkAll()
			} else {
				w.handle(m)
			}
		case wd := <-events:
			if e := w.byWd[int(wd)]; e != nil {
				w.check(e)
			} else if wd == 0 {
				w.checkAll()
			}
		case <-tick.C:
			w.checkAll()
		}
		if msgs == nil && len(w.entries) == 0 {
			return
		}
	}
}

func (w *watcher) handle(m msg) {
	switch m.kind {
	case "add":
		if m.f == nil {
			return
		}
		e := &entry{id: m.id, f: m.f, cap: m.n, running: true, wd: -1}
		e.file, _ = idOf(m.f)
		w.entries[m.id] = e
	case "pgid":
		if e := w.entries[m.id]; e != nil {
			e.pgid = int(m.n)
		}
	case "done":
		if e := w.entries[m.id]; e != nil {
			w.finished(e)
			w.check(e)
		}
	}
}

// finished marks a call as returned, and watches its file from now on:
// not before, since mm watches it while the call runs, and a command that
// prints a lot would wake the guardian at every write.
func (w *watcher) finished(e *entry) {
	e.running = false
	if w.ino >= 0 && e.wd < 0 {
		wd, err := unix.InotifyAddWatch(w.ino, "/proc/self/fd/"+strconv.Itoa(int(e.f.Fd())), unix.IN_MODIFY|unix.IN_CLOSE_WRITE)
		if err == nil {
			e.wd = wd
			w.byWd[wd] = e
		}
	}
}

func (w *watcher) checkAll() {
	for _, e := range w.entries {
		w.check(e)
	}
}

// check kills the writers of a finished call's file past its cap, and
// forgets the file once nobody writes it. A running call is mm's: it
// reads the output back and says why the command was killed.
func (w *watcher) check(e *entry) {
	if e.running {
		return
	}
	var st unix.Stat_t
	if unix.Fstat(int(e.f.Fd()), &st) == nil && st.Size > e.cap {
		sweep([]target{e.target()}, w.skip...)
	}
	if !Writing(e.f) {
		w.remove(e)
	}
}

func (w *watcher) remove(e *entry) {
	if e.wd >= 0 {
		unix.InotifyRmWatch(w.ino, uint32(e.wd))
		delete(w.byWd, e.wd)
	}
	delete(w.entries, e.id)
	e.f.Close()
}

// readInotify sends the watch of every event, 0 after a queue overflow.
func readInotify(fd int, events chan<- uint32) {
	buf := make([]byte, 4096)
	for {
		n, err := unix.Read(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil || n <= 0 {
			return
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			wd := int32(binary.NativeEndian.Uint32(buf[off:]))
			mask := binary.NativeEndian.Uint32(buf[off+4:])
			nameLen := binary.NativeEndian.Uint32(buf[off+12:])
			off += unix.SizeofInotifyEvent + int(nameLen)
			if mask&unix.IN_Q_OVERFLOW != 0 || wd < 0 {
				wd = 0
			}
			if mask&unix.IN_IGNORED != 0 {
				continue
			}
			events <- uint32(wd)
		}
	}
}

// runGuardian is the guardian's main: messages from sock until mm is gone.
func runGuardian(sock *os.File) {
	w := newWatcher(parentPid)
	msgs := make(chan msg, 16)
	go func() {
		defer close(msgs)
		buf := make([]byte, 256)
		oob := make([]byte, unix.CmsgSpace(4))
		for {
			n, oobn, _, _, err := unix.Recvmsg(int(sock.Fd()), buf, oob, unix.MSG_CMSG_CLOEXEC)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n == 0 {
				return // EOF: mm is gone
			}
			m := parseMsg(string(buf[:n]))
			if cms, err := unix.ParseSocketControlMessage(oob[:oobn]); err == nil && len(cms) > 0 {
				if fds, err := unix.ParseUnixRights(&cms[0]); err == nil && len(fds) > 0 {
					m.f = os.NewFile(uintptr(fds[0]), "output")
					for _, fd := range fds[1:] {
						unix.Close(fd)
					}
				}
			}
			if m.kind != "add" && m.f != nil {
				m.f.Close()
				m.f = nil
			}
			msgs <- m
		}
	}()
	w.run(msgs)
}

func parseMsg(s string) msg {
	f := strings.Fields(s)
	var m msg
	if len(f) >= 2 {
		m.kind, m.id = f[0], f[1]
	}
	if len(f) >= 3 {
		m.n, _ = strconv.ParseInt(f[2], 10, 64)
	}
	return m
}

// The client side, in mm.

var (
	mu       sync.Mutex
	sock     int      = -1 // our end of the guardian's socket
	gpid     int           // the guardian's pid
	local    chan msg      // the in-process watcher when no guardian runs
	starts   int
	maxStart = 3 // guardians started at most per mm process (one that keeps dying is not worth more)
)

func guardianPid() int {
	mu.Lock()
	defer mu.Unlock()
	return gpid
}

// startGuardian starts one, with mu held.
func startGuardian() error {
	fds, err := unix.Socketpair(unix.AF_UNIX, unix.SOCK_SEQPACKET|unix.SOCK_CLOEXEC, 0)
	if err != nil {
		return err
	}
	child := os.NewFile(uintptr(fds[1]), "procguard")
	defer child.Close()
	cmd := exec.Command("/proc/self/exe")
	cmd.Args = []string{"mm-procguard"}
	cmd.Env = []string{guardianVar + "=" + strconv.Itoa(os.Getpid())}
	cmd.Dir = "/"
	cmd.ExtraFiles = []*os.File{child}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		unix.Close(fds[0])
		return err
	}
	go cmd.Wait() // reaped if it ever dies before mm
	sock, gpid = fds[0], cmd.Process.Pid
	return nil
}

// send delivers m to the guardian (starting one when needed), else to the
// in-process watcher.
func send(m msg) {
	mu.Lock()
	defer mu.Unlock()
	text := m.kind + " " + m.id
	if m.kind != "done" {
		text += " " + strconv.FormatInt(m.n, 10)
	}
	for local == nil {
		if sock < 0 {
			if m.kind != "add" || starts >= maxStart {
				break // a guardian started now would not know the call
			}
			starts++
			if startGuardian() != nil {
				break
			}
		}
		var oob []byte
		if m.f != nil {
			oob = unix.UnixRights(int(m.f.Fd()))
		}
		err := unix.Sendmsg(sock, []byte(text), oob, nil, unix.MSG_NOSIGNAL|unix.MSG_DONTWAIT)
		if err == unix.EINTR {
			continue
		}
		if err == nil {
			return
		}
		// The guardian died, or is stuck with its queue full: another one.
		unix.Close(sock)
		sock, gpid = -1, 0
	}
	if local == nil {
		if m.kind != "add" {
			return
		}
		local = make(chan msg, 16)
		go newWatcher().run(local)
	}
	if m.f != nil {
		fd, err := unix.Dup(int(m.f.Fd()))
		if err != nil {
			return
		}
		unix.CloseOnExec(fd)
		m.f = os.NewFile(uintptr(fd), "output")
	}
	local <- m
}

// Job is one call as the guardian knows it.
type Job struct{ id string }

// Watch tells the guardian about a call before it starts: its cookie
// ("MM_CALL=<id>"), its output file open read-only, and the output size
// past which a job the call leaves running is killed.
func Watch(cookie string, out *os.File, limit int64) *Job {
	j := &Job{id: cookie}
	send(msg{kind: "add", id: cookie, n: limit, f: out})
	return j
}

// Started gives the call's process group.
func (j *Job) Started(pgid int) { send(msg{kind: "pgid", id: j.id, n: int64(pgid)}) }

// Finished says the call has returned: what it left running may go on,
// under the cap, after mm's exit too.
func (j *Job) Finished() { send(msg{kind: "done", id: j.id}) }
