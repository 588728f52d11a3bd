package procguard

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
	"testing"
	"time"
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
	return isZombie(strconv.Itoa(pid))
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

// Writing follows who holds the file open for writing, our own read-only
// descriptor aside.
func TestWriting(t *testing.T) {
	w, r := tempOutput(t)
	if !Writing(r) {
		t.Fatal("our own write descriptor is not seen")
	}
	cmd := start(t, w, nil, "sleep", "300")
	w.Close()
	if !Writing(r) {
		t.Fatal("a child holding the file is not seen")
	}
	cmd.Process.Kill()
	cmd.Wait()
	if Writing(r) {
		t.Fatal("nobody writes, Writing says otherwise")
	}
	if _, err := leaseWriting(r); err != nil {
		t.Logf("no leases here (%v): the /proc scan answered", err)
	}
}

// Sweep finds what left the group: by the cookie, by the file held.
func TestSweep(t *testing.T) {
	w, r := tempOutput(t)
	cookie := NewCookie()
	devnull, _ := os.Open(os.DevNull)
	defer devnull.Close()
	byCookie := start(t, devnull, append(os.Environ(), cookie), "sleep", "300")
	byFile := start(t, w, nil, "sleep", "300")
	other := start(t, devnull, append(os.Environ(), NewCookie()), "sleep", "300")
	if n := Sweep(0, cookie, r); n != 2 {
		t.Errorf("Sweep killed %d processes, want 2", n)
	}
	waitGone(t, byCookie.Process.Pid)
	waitGone(t, byFile.Process.Pid)
	if gone(other.Process.Pid) {
		t.Error("a process with another cookie was killed")
	}
	if gone(os.Getpid()) {
		t.Fatal("unreachable")
	}
}

func TestParseMsg(t *testing.T) {
	m := parseMsg("add MM_CALL=ab12 67108864")
	if m.kind != "add" || m.id != "MM_CALL=ab12" || m.n != 64<<20 {
		t.Fatalf("%+v", m)
	}
	if m := parseMsg("done MM_CALL=ab12"); m.kind != "done" || m.n != 0 {
		t.Fatalf("%+v", m)
	}
}
