//go:build linux

package procguard

import (
	"os"
	"testing"
)

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
