package atomicfile

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
