package undo

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func needGit(t testing.TB) string {
	t.Helper()
	git, err := exec.LookPath("git")
	if err != nil {
		t.Skip("git is not on PATH")
	}
	return git
}

func put(t testing.TB, root, name, text string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// tracker is a Tracker of root with its state in a temp directory.
func tracker(t *testing.T, root string) *Tracker {
	t.Helper()
	needGit(t)
	state := t.TempDir()
	return New(root, func(k string) string {
		if k == "XDG_STATE_HOME" {
			return state
		}
		return ""
	})
}

// Ignored files, files over 10 MB, nested repositories and .git are left
// out of a snapshot; the big file and the nested repository are named.
func TestSnapshotLeavesOut(t *testing.T) {
	root := t.TempDir()
	put(t, root, ".gitignore", "*.log\n")
	put(t, root, "keep.txt", "k\n")
	put(t, root, "x.log", "ignored\n")
	put(t, root, ".git/config", "[core]\n")
	put(t, root, "sub/file", "nested\n")
	if out, err := exec.Command(needGit(t), "init", "-q", filepath.Join(root, "sub")).CombinedOutput(); err != nil {
		t.Fatalf("%v %s", err, out)
	}
	put(t, root, "big.bin", strings.Repeat("b", MaxFileSize+1))
	tr := tracker(t, root)
	notice := tr.Before("q")
	if !strings.Contains(notice, "over 10 MB: big.bin") || !strings.Contains(notice, "repositories of their own: sub") {
		t.Errorf("notice %q", notice)
	}
	out, err := tr.repo.run(nil, "ls-tree", "-r", "--name-only", tr.turn.before.Commit)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Fields(string(out)); strings.Join(got, " ") != ".gitignore keep.txt" {
		t.Errorf("snapshot holds %v", got)
	}
	tr.After()
	// Said once.
	if n := tr.Before("q2"); n != "" {
		t.Errorf("said again: %q", n)
	}
}

// A directory the turn replaced by a link out of the project: /undo
// removes the link and makes the directory again; nothing is written
// through the link.
func TestUndoNeverWritesThroughALink(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	put(t, root, "d/f", "mine\n")
	put(t, outside, "f", "outside\n")
	tr := tracker(t, root)
	tr.Before("replace d")
	os.RemoveAll(filepath.Join(root, "d"))
	os.Symlink(outside, filepath.Join(root, "d"))
	tr.After()
	rep, err := tr.Undo(nil)
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "f")); string(got) != "outside\n" {
		t.Errorf("written through the link: %q", got)
	}
	fi, err := os.Lstat(filepath.Join(root, "d"))
	if err != nil || !fi.IsDir() {
		t.Fatalf("d: %v %v", fi, err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "d", "f")); string(got) != "mine\n" {
		t.Errorf("d/f = %q (%+v)", got, rep)
	}
}

// A parent the user made a link after the turn: even when told to put
// the file back, mm does not remove or write through it.
func TestUndoRefusesALinkedParent(t *testing.T) {
	root, outside := t.TempDir(), t.TempDir()
	tr := tracker(t, root)
	tr.Before("make x/new.txt")
	put(t, root, "x/new.txt", "model\n")
	tr.After()
	os.RemoveAll(filepath.Join(root, "x"))
	put(t, outside, "new.txt", "outside\n")
	os.Symlink(outside, filepath.Join(root, "x"))
	asked := false
	rep, err := tr.Undo(func(changed []string) bool { asked = true; return true })
	if err != nil {
		t.Fatal(err)
	}
	if !asked {
		t.Errorf("not asked about x/new.txt")
	}
	if got, _ := os.ReadFile(filepath.Join(outside, "new.txt")); string(got) != "outside\n" {
		t.Errorf("outside/new.txt = %q", got)
	}
	if len(rep.Failed) != 1 || !strings.Contains(rep.Failed[0], "x is a symbolic link") {
		t.Errorf("report %+v", rep)
	}
}

// Paths a restore may write: never .git, never out of the root.
func TestSafePath(t *testing.T) {
	for p, want := range map[string]bool{"a/b": true, ".gitignore": true, ".git/config": false, "a/.GIT/x": false, "../x": false, "/etc/x": false, "": false} {
		if got := safePath(p); got != want {
			t.Errorf("safePath(%q) = %v", p, got)
		}
	}
}

// A project's .gitattributes changes nothing: a CRLF file comes back
// byte for byte.
func TestUndoKeepsBytes(t *testing.T) {
	root := t.TempDir()
	put(t, root, ".gitattributes", "* text=auto eol=lf\n")
	put(t, root, "w.txt", "a\r\nb\r\n")
	tr := tracker(t, root)
	tr.Before("q")
	put(t, root, "w.txt", "changed\n")
	tr.After()
	if _, err := tr.Undo(nil); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(root, "w.txt")); string(got) != "a\r\nb\r\n" {
		t.Errorf("w.txt = %q", got)
	}
}

// A snapshot of a 5,000-file project where one file changed (issue 22:
// ≤ 50 ms). The index kept between snapshots makes git stat the files
// instead of reading them.
func BenchmarkSnapshot5000(b *testing.B) {
	git := needGit(b)
	root := b.TempDir()
	for d := 0; d < 50; d++ {
		for f := 0; f < 100; f++ {
			put(b, root, fmt.Sprintf("d%02d/f%03d.go", d, f), fmt.Sprintf("package d%d\n\n// file %d\n", d, f))
		}
	}
	r, err := Open(b.TempDir(), root, git)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := r.Snapshot("first"); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		put(b, root, "d07/f042.go", fmt.Sprintf("package d7\n\n// edit %d\n", i))
		if _, err := r.Snapshot("bench"); err != nil {
			b.Fatal(err)
		}
	}
}

// The lock file of an mm killed in the middle of a snapshot does not stop
// the snapshots for good; a fresh one (another mm at work) is respected.
func TestStaleIndexLock(t *testing.T) {
	root := t.TempDir()
	put(t, root, "a", "a\n")
	tr := tracker(t, root)
	tr.Before("q")
	tr.After()
	lock := filepath.Join(tr.repo.dir, "index.lock")
	put(t, tr.repo.dir, "index.lock", "")
	put(t, root, "a", "b\n")
	if _, err := tr.repo.Snapshot("fresh lock"); err == nil {
		t.Errorf("a fresh lock is ignored")
	}
	old := time.Now().Add(-2 * staleLock)
	os.Chtimes(lock, old, old)
	if _, err := tr.repo.Snapshot("stale lock"); err != nil {
		t.Errorf("a stale lock stops the snapshots: %v", err)
	}
}
