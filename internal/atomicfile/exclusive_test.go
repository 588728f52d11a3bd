package atomicfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// CreateExclusive makes the file with exactly its mode, whatever the
// umask, and never replaces one that is there; nothing is left beside it.
func TestCreateExclusive(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "key")
	if err := CreateExclusive(path, []byte("one"), 0o600); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil || (runtime.GOOS != "windows" && fi.Mode().Perm() != 0o600) {
		t.Fatalf("%v %v", fi, err)
	}
	if err := CreateExclusive(path, []byte("two"), 0o600); !errors.Is(err, fs.ErrExist) {
		t.Errorf("an existing file: %v", err)
	}
	if b, _ := os.ReadFile(path); string(b) != "one" {
		t.Errorf("replaced: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 1 {
		t.Errorf("left behind: %v", ents)
	}
	if runtime.GOOS != "windows" {
		// A link in its place is not followed.
		target := filepath.Join(dir, "target")
		os.Symlink(target, filepath.Join(dir, "link"))
		if err := CreateExclusive(filepath.Join(dir, "link"), []byte("x"), 0o600); !errors.Is(err, fs.ErrExist) {
			t.Errorf("through a dangling link: %v", err)
		}
		if _, err := os.Lstat(target); err == nil {
			t.Errorf("written through the link")
		}
	}
}
