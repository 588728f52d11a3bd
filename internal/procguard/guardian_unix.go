//go:build linux || darwin

package procguard

// The guardian is mm itself, re-executed with MM_PROCGUARD=<mm's pid> and
// caught by init before main runs. mm hands it, over a socket, each call's
// output file (a read-only descriptor, SCM_RIGHTS), its cookie and, once
// started, its process group. The guardian
//
//   - kills a running call's processes (Sweep) when the socket closes
//     without the call being finished: mm died, even by SIGKILL (only mm
//     holds the other end, so its death is the socket's EOF), and only
//     its shell had a parent-death signal (none on macOS);
//   - kills the process groups of the children tied to mm (Tie,
//     StartTied) when mm dies, where there is no parent-death signal
//     (macOS, MM_PROCGUARD_PORTABLE=1);
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
// after writing), and once a second to check again; without inotify
// (macOS, the portable path) it polls every 20 ms: at about 1 GB/s
// (`yes`) that lets some 20 MiB past the cap, as mm's own poll does while
// the call runs.
//
// Messages are frames of frameSize bytes, so that they read the same
// over SOCK_SEQPACKET (Linux) and SOCK_STREAM (macOS has no SEQPACKET
// for AF_UNIX); the descriptor of an "add" comes with its frame.

import (
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
	portable = portable || os.Getenv(PortableVar) == "1"
	runGuardian(sock)
	os.Exit(0)
}

// msg is one message from mm: "add <id> <cap>" (with the file), "pgid <id>
// <pgid>", "done <id>", "tie <id> <pgid>", "untie <id>".
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
	tied    map[string]int // process groups of the tied children
}

func newWatcher(skip ...int) *watcher {
	return &watcher{entries: map[string]*entry{}, byWd: map[int]*entry{}, ino: newNotifier(), skip: skip, tied: map[string]int{}}
}

// run handles messages until msgs is closed (mm is gone) and no file is
// left, or forever in mm (msgs never closed).
func (w *watcher) run(msgs <-chan msg) {
	events := make(chan uint32, 64) // inotify wd, or 0 for "check all"
	poll := 20 * time.Millisecond
	if w.ino >= 0 {
		poll = time.Second
		go readNotify(w.ino, events)
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	for {
		select {
		case m, ok := <-msgs:
			if !ok {
				// mm is gone: what was running dies with it, and the
				// children tied to it.
				msgs = nil
				for id, pgid := range w.tied {
					syscall.Kill(-pgid, syscall.SIGKILL)
					delete(w.tied, id)
				}
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
	case "tie":
		if m.n > 1 {
			w.tied[m.id] = int(m.n)
		}
	case "untie":
		delete(w.tied, m.id)
	}
}

// finished marks a call as returned, and watches its file from now on:
// not before, since mm watches it while the call runs, and a command that
// prints a lot would wake the guardian at every write.
func (w *watcher) finished(e *entry) {
	e.running = false
	if w.ino >= 0 && e.wd < 0 {
		wd, err := addWatch(w.ino, e.f)
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
	if !stillWritten(e.f, e.target()) {
		w.remove(e)
	}
}

func (w *watcher) remove(e *entry) {
	if e.wd >= 0 {
		rmWatch(w.ino, e.wd)
		delete(w.byWd, e.wd)
	}
	delete(w.entries, e.id)
	e.f.Close()
}

// runGuardian is the guardian's main: messages from sock until mm is gone.
func runGuardian(sock *os.File) {
	w := newWatcher(parentPid)
	msgs := make(chan msg, 16)
	go func() {
		defer close(msgs)
		readMsgs(sock, msgs)
	}()
	w.run(msgs)
}

// readMsgs sends the messages read from sock until its EOF.
func readMsgs(sock *os.File, msgs chan<- msg) {
	buf := make([]byte, frameSize)
	oob := make([]byte, unix.CmsgSpace(4))
	for {
		// One frame, in as many reads as a stream takes; the
		// descriptor comes with one of them.
		var m msg
		for got := 0; got < frameSize; {
			n, oobn, _, _, err := unix.Recvmsg(int(sock.Fd()), buf[got:], oob, recvFlags)
			if err == unix.EINTR {
				continue
			}
			if err != nil || n == 0 {
				if m.f != nil {
					m.f.Close()
				}
				return // EOF: mm is gone
			}
			got += n
			if cms, err := unix.ParseSocketControlMessage(oob[:oobn]); err == nil && len(cms) > 0 {
				if fds, err := unix.ParseUnixRights(&cms[0]); err == nil {
					for _, fd := range fds {
						if m.f == nil {
							unix.CloseOnExec(fd)
							m.f = os.NewFile(uintptr(fd), "output")
						} else {
							unix.Close(fd)
						}
					}
				}
			}
		}
		f := m.f
		m = parseMsg(string(buf))
		m.f = f
		if m.kind != "add" && m.f != nil {
			m.f.Close()
			m.f = nil
		}
		msgs <- m
	}
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

// frameSize is the size of every message: "add MM_CALL=<24 hex> <cap>"
// fits with room to spare; the rest is spaces.
const frameSize = 128

// The client side, in mm.

var (
	mu       sync.Mutex
	sock     int      = -1 // our end of the guardian's socket
	gpid     int           // the guardian's pid
	local    chan msg      // the in-process watcher when no guardian runs
	starts   int
	maxStart = 3 // guardians started at most per mm process (one that keeps dying is not worth more)
)

// ties are the tied children's groups, told again to a new guardian.
var ties = map[string]int{}

func guardianPid() int {
	mu.Lock()
	defer mu.Unlock()
	return gpid
}

// startGuardian starts one, with mu held.
func startGuardian() error {
	exe, err := selfExe()
	if err != nil {
		return err
	}
	fds, err := socketpair()
	if err != nil {
		return err
	}
	child := os.NewFile(uintptr(fds[1]), "procguard")
	defer child.Close()
	cmd := exec.Command(exe)
	cmd.Args = []string{"mm-procguard"}
	cmd.Env = []string{guardianVar + "=" + strconv.Itoa(os.Getpid())}
	if portable {
		cmd.Env = append(cmd.Env, PortableVar+"=1")
	}
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
	switch m.kind {
	case "tie":
		ties[m.id] = int(m.n)
	case "untie":
		delete(ties, m.id)
	}
	for local == nil {
		if sock < 0 {
			if (m.kind != "add" && m.kind != "tie") || starts >= maxStart {
				break // a guardian started now would not know the call
			}
			starts++
			if startGuardian() != nil {
				break
			}
			// A new guardian learns the children still tied (a tie that
			// does not get through fails the message below too).
			for id, pgid := range ties {
				if id != m.id {
					deliver(msg{kind: "tie", id: id, n: int64(pgid)})
				}
			}
		}
		err := deliver(m)
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

// deliver sends m to the guardian as one frame, with mu held. A frame
// sent in part (a stream socket's buffer full) is an error: the stream is
// out of step, the guardian is replaced.
func deliver(m msg) error {
	text := m.kind + " " + m.id
	if m.kind != "done" && m.kind != "untie" {
		text += " " + strconv.FormatInt(m.n, 10)
	}
	if len(text) > frameSize {
		return unix.EMSGSIZE
	}
	frame := []byte(text + strings.Repeat(" ", frameSize-len(text)))
	var oob []byte
	if m.f != nil {
		oob = unix.UnixRights(int(m.f.Fd()))
	}
	n, err := unix.SendmsgN(sock, frame, oob, nil, sendFlags)
	if err == nil && n != frameSize {
		err = unix.EAGAIN
	}
	return err
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
