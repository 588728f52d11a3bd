package procguard

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// enterOnThread runs s.enter on a fresh locked thread, which dies with
// its goroutine, then runs after on it: the way the bash tool does.
func enterOnThread(s *Sandbox, after func()) error {
	done := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread is confined
		err := s.enter()
		if err == nil && after != nil {
			after()
		}
		done <- err
	}()
	return <-done
}

// The rules confine the thread that entered, and no other: mm's own
// goroutines write anywhere afterwards.
func TestEnterConfinesOneThread(t *testing.T) {
	if why := sandboxUnavailable(); why != "" {
		t.Skip(why)
	}
	base := outsideTemp(t, ".sandbox-unit-")
	s := &Sandbox{Mode: SandboxWorkspace, Network: true, Writable: TempDirs()}
	var inErr error
	if err := enterOnThread(s, func() { inErr = os.WriteFile(filepath.Join(base, "in"), nil, 0o644) }); err != nil {
		t.Fatal(err)
	}
	if inErr == nil {
		t.Error("the confined thread wrote outside the writable directories")
	}
	if err := os.WriteFile(filepath.Join(base, "after"), nil, 0o644); err != nil {
		t.Errorf("mm confined after a command: %v", err)
	}
	// Many commands at once, then many goroutines of mm's: none of
	// them runs on a confined thread (the runtime makes new threads
	// from a clean one, never from a locked thread).
	errs := make(chan error, 64)
	for range 32 {
		go func() { errs <- enterOnThread(s, nil) }()
	}
	for range 32 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	for i := range 64 {
		go func() { errs <- os.WriteFile(filepath.Join(base, fmt.Sprint("g", i)), nil, 0o644) }()
	}
	for range 64 {
		if err := <-errs; err != nil {
			t.Errorf("mm confined after commands: %v", err)
		}
	}
	// A writable file (not a directory) and a missing entry are fine.
	file := filepath.Join(base, "after")
	s.Writable = append(s.Writable, file, filepath.Join(base, "missing"))
	if err := enterOnThread(s, func() { inErr = os.WriteFile(file, []byte("x"), 0o644) }); err != nil || inErr != nil {
		t.Errorf("writable file: enter %v, write %v", err, inErr)
	}
}

// BenchmarkSandboxEnter is the sandbox's cost per command: the ruleset
// built for the shipped configuration (the default writable caches),
// enforced on a fresh thread (the thread's creation counted too).
func BenchmarkSandboxEnter(b *testing.B) {
	if why := sandboxUnavailable(); why != "" {
		b.Skip(why)
	}
	s := NewSandbox(SandboxWorkspace, false, nil, b.TempDir())
	for b.Loop() {
		if err := enterOnThread(s, nil); err != nil {
			b.Fatal(err)
		}
	}
}

// outsideTemp makes a fresh directory that no temp directory holds (a
// confined command may write those): the package's directory, unless the
// clone itself is under /tmp, else /var/tmp, else the home directory. A
// test of what the sandbox refuses needs one.
func outsideTemp(t testing.TB, pattern string) string {
	t.Helper()
	home, _ := os.UserHomeDir()
	for _, parent := range []string{".", "/var/tmp", home} {
		abs, err := filepath.Abs(parent)
		if parent == "" || err != nil || UnderTempDir(abs) {
			continue
		}
		d, err := os.MkdirTemp(abs, pattern)
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	t.Fatal("no writable directory outside the temp directories")
	return ""
}

// A denial the file's own permissions make (find in a directory the
// user cannot read, a file under it) is not taken for the sandbox's; one
// on a file the user may read is. Run as a user: root reads everything.
func TestRefusalOwnPermissions(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root: no file refuses it")
	}
	dir := t.TempDir()
	closed, open := filepath.Join(dir, "closed"), filepath.Join(dir, "open.txt")
	os.Mkdir(closed, 0o700)
	os.WriteFile(filepath.Join(closed, "f"), nil, 0o600)
	os.Chmod(closed, 0)
	t.Cleanup(func() { os.Chmod(closed, 0o700) })
	os.WriteFile(open, nil, 0o600)
	// None of dir is writable in this sandbox.
	s := &Sandbox{Mode: SandboxWorkspace, Network: true, Writable: []string{"/nonexistent-writable"}}
	for out, want := range map[string]string{
		"find: '" + closed + "': Permission denied":                      "",
		"cat: " + closed + "/f: Permission denied":                       "",
		"bash: " + filepath.Join(dir, "new.txt") + ": Permission denied": "[sandbox: writing outside the project is refused (sandbox.mode: workspace)]",
		"bash: " + open + ": Permission denied":                          "[sandbox: writing outside the project is refused (sandbox.mode: workspace)]",
	} {
		if got := s.Refusal(out, true, dir); got != want {
			t.Errorf("%q: %q, want %q", out, got, want)
		}
	}
}
