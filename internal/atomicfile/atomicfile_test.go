//go:build unix

package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

func TestWriteCreatingDirs(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "a", "b", "out.md")
	if err := WriteCreatingDirs(target, "one"); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(target); string(b) != "one" {
		t.Fatalf("content %q", b)
	}
	// An existing file keeps its mode.
	os.Chmod(target, 0o640)
	if err := WriteCreatingDirs(target, "two"); err != nil {
		t.Fatal(err)
	}
	if info, _ := os.Stat(target); info.Mode().Perm() != 0o640 {
		t.Errorf("mode %v", info.Mode().Perm())
	}
	if b, _ := os.ReadFile(target); string(b) != "two" {
		t.Fatalf("content %q", b)
	}
	// A directory is refused and left alone.
	if err := WriteCreatingDirs(filepath.Join(dir, "a"), "x"); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("err = %v", err)
	}
	// No temporary file is left behind.
	entries, _ := os.ReadDir(filepath.Dir(target))
	if len(entries) != 1 {
		t.Errorf("files left: %v", entries)
	}
}

// When the final rename fails (here: the target is a directory), nothing is
// replaced and no temporary file is left.
func TestFailedRenameLeavesNothing(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "d")
	os.MkdirAll(target, 0o755)
	os.WriteFile(filepath.Join(target, "inside"), []byte("precious"), 0o644)
	if err := Write(target, "new", nil); err == nil {
		t.Fatal("replacing a directory succeeded")
	}
	if b, _ := os.ReadFile(filepath.Join(target, "inside")); string(b) != "precious" {
		t.Errorf("the directory's file changed: %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("temporary file left: %v", entries)
	}
}

// both runs f with unnamed temporary files (O_TMPFILE) and with named ones.
func both(t *testing.T, f func(t *testing.T)) {
	for _, named := range []bool{false, true} {
		t.Run(map[bool]string{false: "unnamed", true: "named"}[named], func(t *testing.T) {
			namedOnly = named
			defer func() { namedOnly = false }()
			f(t)
		})
	}
}

// The directory holds only the target once a write is over, whichever way
// it went.
func onlyFiles(t *testing.T, dir string, want ...string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	var got []string
	for _, e := range entries {
		got = append(got, e.Name())
	}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("files in the directory: %v, want %v", got, want)
	}
}

// A new file and a replaced one, by both ways: content, mode (0666 minus
// the umask for a new file, the old mode, set-user-ID included, for a
// replaced one), owner kept, nothing left beside.
func TestWriteBothWays(t *testing.T) {
	both(t, func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "f.txt")
		old := syscall.Umask(0o022)
		defer syscall.Umask(old)
		if err := Write(target, "one", nil); err != nil {
			t.Fatal(err)
		}
		info, _ := os.Stat(target)
		if b, _ := os.ReadFile(target); string(b) != "one" || info.Mode().Perm() != 0o644 {
			t.Errorf("new file: %q %v", b, info.Mode())
		}
		// Creating over a file that appeared meanwhile never replaces it.
		if err := Write(target, "two", nil); err == nil && !namedOnly {
			t.Error("a new file replaced an existing one")
		}
		os.WriteFile(target, []byte("one"), 0o644)
		os.Chmod(target, 0o4775)
		if os.Geteuid() == 0 {
			os.Chown(target, 65534, 65534)
		}
		info, _ = os.Stat(target)
		if err := Write(target, "three", info); err != nil {
			t.Fatal(err)
		}
		after, _ := os.Stat(target)
		if b, _ := os.ReadFile(target); string(b) != "three" {
			t.Errorf("content %q", b)
		}
		if after.Mode() != info.Mode() {
			t.Errorf("mode %v, want %v", after.Mode(), info.Mode())
		}
		if os.Geteuid() == 0 {
			if st := after.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 65534 {
				t.Errorf("owner %d:%d, want 65534:65534", st.Uid, st.Gid)
			}
		}
		onlyFiles(t, dir, "f.txt")
	})
}

// A file without any write bit is refused, to root too; nothing is
// written and nothing is left.
func TestReadOnlyRefused(t *testing.T) {
	both(t, func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "ro.txt")
		os.WriteFile(target, []byte("keep"), 0o444)
		info, _ := os.Stat(target)
		err := Write(target, "new", info)
		var re *RefusedError
		if !errors.As(err, &re) || re.Why != "is read-only (mode 0444)" {
			t.Fatalf("err = %v", err)
		}
		if b, _ := os.ReadFile(target); string(b) != "keep" {
			t.Errorf("content %q", b)
		}
		onlyFiles(t, dir, "ro.txt")
		// fetch_content's way: the same refusal.
		if err := WriteCreatingDirs(target, "new"); !errors.As(err, &re) {
			t.Errorf("WriteCreatingDirs: %v", err)
		}
		// A file with one write bit is not read-only (root writes it).
		os.Chmod(target, 0o644)
		info, _ = os.Stat(target)
		if err := CheckReplace(target, info); os.Geteuid() == 0 && err != nil {
			t.Errorf("0644 as root: %v", err)
		}
	})
}

// Stale temporary files of the name written (older than StaleAfter, mm's
// pattern, regular) are swept; young ones, other names, other patterns and
// links are not.
func TestSweep(t *testing.T) {
	both(t, func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "f.txt")
		long := time.Now().Add(-StaleAfter - time.Minute)
		mk := func(name string, old bool) {
			p := filepath.Join(dir, name)
			os.WriteFile(p, []byte("x"), 0o600)
			if old {
				os.Chtimes(p, long, long)
			}
		}
		mk(".f.txt.mm-3kq9z1x0abcd.tmp", true) // swept
		mk(".f.txt.mm-zz.tmp", true)           // swept
		mk(".f.txt.mm-young.tmp", false)       // a concurrent write: kept
		mk(".g.txt.mm-3kq9z1x0abcd.tmp", true) // another file's: kept
		mk(".f.txt.mm-NOPE.tmp", true)         // not mm's pattern: kept
		mk(".f.txt.mm-abc.tmp.orig", true)     // not mm's pattern: kept
		os.Mkdir(filepath.Join(dir, ".f.txt.mm-dir.tmp"), 0o700)
		os.Chtimes(filepath.Join(dir, ".f.txt.mm-dir.tmp"), long, long) // a directory: kept
		os.Symlink("f.txt", filepath.Join(dir, ".f.txt.mm-link.tmp"))   // a link: kept
		if err := Write(target, "new", nil); err != nil {
			t.Fatal(err)
		}
		onlyFiles(t, dir, ".f.txt.mm-NOPE.tmp", ".f.txt.mm-abc.tmp.orig", ".f.txt.mm-dir.tmp", ".f.txt.mm-link.tmp", ".f.txt.mm-young.tmp", ".g.txt.mm-3kq9z1x0abcd.tmp", "f.txt")
	})
}

func TestIsTempName(t *testing.T) {
	for name, want := range map[string]bool{
		".a.go.mm-1.tmp": true, ".a.go.mm-3w5e11264sgsg.tmp": true,
		".a.go.mm-.tmp": false, ".a.go.mm-3w5e11264sgsgx.tmp": false, ".a.go.mm-A.tmp": false,
		"a.go.mm-1.tmp": false, ".b.go.mm-1.tmp": false, ".a.go.mm-1.tmpx": false,
	} {
		if IsTempName(name, "a.go") != want {
			t.Errorf("IsTempName(%q) = %v", name, !want)
		}
	}
}
