//go:build linux || darwin

package procguard

// The portable path (macOS's: no parent-death signal, no inotify, the
// guardian over SOCK_STREAM), forced on Linux so that it cannot rot
// unseen: through the portable variable in this process, through
// MM_PROCGUARD_PORTABLE=1 in a helper that plays mm.

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// tempOutput is an unlinked output file as the bash tool makes it: a
// write descriptor for the child, a read-only one kept.
func tempOutput(t *testing.T) (w, r *os.File) {
	t.Helper()
	w, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	r, err = os.Open(w.Name())
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(w.Name())
	t.Cleanup(func() { w.Close(); r.Close() })
	return w, r
}

func gone(pid int) bool {
	if syscall.Kill(pid, 0) == syscall.ESRCH {
		return true
	}
	return isZombie(pid)
}

func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("pid %d still runs", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func start(t *testing.T, out *os.File, env []string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(args[0], args[1:]...)
	cmd.Stdout, cmd.Env = out, env
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	return cmd
}

// helperVar makes the test binary play mm (see TestMain): it starts a
// tied `sleep 1000` and a bash call, prints their pids, and waits to be
// killed.
const helperVar = "MM_PROCGUARD_TEST_HELPER"

func TestMain(m *testing.M) {
	if dir := os.Getenv(helperVar); dir != "" {
		playMM(dir)
		return
	}
	os.Exit(m.Run())
}

func playMM(dir string) {
	fail := func(err error) { fmt.Println("error", err); os.Exit(1) }
	tied := exec.Command("sleep", "1000")
	Tie(tied)
	if err := StartTied(tied, make(chan struct{}), func(error) {}); err != nil {
		fail(err)
	}
	// A call as the bash tool runs it: its group, a setsid grandchild
	// that only the cookie finds, the shell started on a thread that
	// lives as long as it (Pdeathsig on Linux's own path).
	w, err := os.CreateTemp(dir, "out")
	if err != nil {
		fail(err)
	}
	r, err := os.Open(w.Name())
	if err != nil {
		fail(err)
	}
	os.Remove(w.Name())
	cookie := NewCookie()
	shell := exec.Command("bash", "-c", `setsid sleep 1000 > /dev/null 2>&1 & echo $! > setsid.pid; exec sleep 1000`)
	shell.Dir, shell.Env, shell.Stdout = dir, append(os.Environ(), cookie), w
	Tie(shell)
	job := Watch(cookie, r, 1<<20)
	runtime.LockOSThread()
	if err := shell.Start(); err != nil {
		fail(err)
	}
	job.Started(shell.Process.Pid)
	fmt.Println("pids", tied.Process.Pid, shell.Process.Pid)
	select {}
}

// mm killed by SIGKILL: its tied child, the running call's shell and the
// call's setsid grandchild die, on both paths.
func TestKill9KillsTiedAndCall(t *testing.T) {
	for _, portable := range []bool{false, true} {
		t.Run(map[bool]string{false: "native", true: "portable"}[portable], func(t *testing.T) {
			if !portable && !hasPdeathsig {
				t.Skip("no native path here")
			}
			dir := t.TempDir()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), helperVar+"="+dir, PortableVar+"=")
			if portable {
				cmd.Env[len(cmd.Env)-1] = PortableVar + "=1"
			}
			out, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() { cmd.Process.Kill(); cmd.Wait() }()
			line, _ := bufio.NewReader(out).ReadString('\n')
			var pids []int
			for _, f := range strings.Fields(line)[1:] {
				pid, _ := strconv.Atoi(f)
				pids = append(pids, pid)
				t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			}
			if !strings.HasPrefix(line, "pids ") || len(pids) != 2 {
				t.Fatalf("helper said %q", line)
			}
			pids = append(pids, waitPid(t, filepath.Join(dir, "setsid.pid")))
			cmd.Process.Kill()
			cmd.Wait()
			for i, pid := range pids {
				waitGoneAs(t, pid, []string{"the tied child", "the call's shell", "the call's setsid grandchild"}[i])
			}
		})
	}
}

func waitPid(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(path); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("%s: %q", path, b)
			}
			t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			return pid
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("no pid in %s", path)
	return 0
}

func waitGoneAs(t *testing.T, pid int, what string) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !gone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still runs after mm was killed", what, pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// A job left running by a finished call is killed once its output passes
// the cap, without inotify: the watcher polls.
func TestCapWithoutNotifier(t *testing.T) {
	old := portable
	portable = true
	t.Cleanup(func() { portable = old })
	w, r := tempOutput(t)
	cookie := NewCookie()
	yes := start(t, w, append(os.Environ(), cookie), "yes")
	w.Close()
	fd, err := unix.Dup(int(r.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	wt := newWatcher()
	if wt.ino >= 0 {
		t.Fatal("the portable watcher has a notifier")
	}
	msgs := make(chan msg)
	ran := make(chan struct{})
	go func() { wt.run(msgs); close(ran) }()
	msgs <- msg{kind: "add", id: cookie, n: 1 << 20, f: os.NewFile(uintptr(fd), "output")}
	msgs <- msg{kind: "pgid", id: cookie, n: int64(yes.Process.Pid)}
	msgs <- msg{kind: "done", id: cookie}
	waitGoneAs(t, yes.Process.Pid, "yes past the cap")
	// Once nobody writes, the watcher forgets the file, and returns when
	// mm is gone (msgs closed).
	close(msgs)
	<-ran
	if st, err := r.Stat(); err != nil || st.Size() < 1<<20 {
		t.Fatalf("output %v %v", st.Size(), err)
	}
}

// A frame is read whole over a stream, whatever the reads cut, and the
// descriptor comes with its "add".
func TestFramesOverStream(t *testing.T) {
	old := portable
	portable = true
	t.Cleanup(func() { portable = old })
	fds, err := socketpair()
	if err != nil {
		t.Fatal(err)
	}
	_, r := tempOutput(t)
	msgs := make(chan msg, 4)
	go func() {
		defer close(msgs)
		readMsgs(os.NewFile(uintptr(fds[1]), "procguard"), msgs)
	}()
	mu.Lock()
	saved := sock
	sock = fds[0]
	err1 := deliver(msg{kind: "add", id: "MM_CALL=ab", n: 7, f: r})
	err2 := deliver(msg{kind: "untie", id: "tie1"})
	sock = saved
	mu.Unlock()
	if err1 != nil || err2 != nil {
		t.Fatal(err1, err2)
	}
	unix.Close(fds[0])
	a, b := <-msgs, <-msgs
	if a.kind != "add" || a.id != "MM_CALL=ab" || a.n != 7 || a.f == nil || b.kind != "untie" || b.id != "tie1" || b.f != nil {
		t.Fatalf("%+v %+v", a, b)
	}
	a.f.Close()
	if _, ok := <-msgs; ok {
		t.Fatal("a message after EOF")
	}
}
