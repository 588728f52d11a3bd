package ownfile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestDirCreatesPrivateDirectories(t *testing.T) {
	base := t.TempDir()
	got, err := Dir(base, ".mm/traces")
	if err != nil {
		t.Fatal(err)
	}
	if got != filepath.Join(base, ".mm", "traces") {
		t.Errorf("Dir = %q", got)
	}
	for _, d := range []string{".mm", ".mm/traces"} {
		fi, err := os.Stat(filepath.Join(base, d))
		if err != nil || !fi.IsDir() || fi.Mode().Perm() != DirPerm {
			t.Errorf("%s: %v %v", d, fi.Mode(), err)
		}
	}
	// Again: the directories exist, fine.
	if _, err := Dir(base, ".mm/traces"); err != nil {
		t.Error(err)
	}
}

// A repository that ships .mm (or .mm/traces) as a link must not aim
// mm's files elsewhere.
func TestDirRefusesSymbolicLinks(t *testing.T) {
	for _, link := range []string{".mm", ".mm/traces"} {
		base, elsewhere := t.TempDir(), t.TempDir()
		os.MkdirAll(filepath.Join(base, filepath.Dir(link)), 0o755)
		if err := os.Symlink(elsewhere, filepath.Join(base, link)); err != nil {
			t.Fatal(err)
		}
		_, err := Dir(base, ".mm/traces")
		if err == nil || !strings.Contains(err.Error(), "is a symbolic link") {
			t.Errorf("%s as a link: %v", link, err)
		}
		if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
			t.Errorf("%s as a link: something was created in its target", link)
		}
	}
	base := t.TempDir()
	os.WriteFile(filepath.Join(base, ".mm"), nil, 0o644)
	if _, err := Dir(base, ".mm/traces"); err == nil || !strings.Contains(err.Error(), "not a directory") {
		t.Errorf(".mm as a file: %v", err)
	}
	if _, err := Dir(base, "../x"); err == nil {
		t.Error("a directory outside base was accepted")
	}
}

func TestFilesRefuseLinksAndSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "bashrc")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	link := filepath.Join(dir, "history")
	os.Symlink(target, link)
	if f, err := OpenAppend(link); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		f.Close()
		t.Errorf("OpenAppend through a link: %v", err)
	}
	if _, err := ReadFile(link, 1<<20); err == nil {
		t.Error("ReadFile through a link")
	}
	if f, err := Create(link); err == nil {
		f.Close()
		t.Error("Create over a link")
	}
	if b, _ := os.ReadFile(target); string(b) != "keep\n" {
		t.Errorf("the link's target changed: %q", b)
	}
	fifo := filepath.Join(dir, "fifo")
	if mkfifo(t, fifo) {
		if f, err := OpenAppend(fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			f.Close()
			t.Errorf("OpenAppend on a FIFO: %v", err)
		}
		if _, err := ReadFile(fifo, 1<<20); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("ReadFile on a FIFO: %v", err)
		}
	}
	// A regular file: created 0600, appended, read back.
	h := filepath.Join(dir, "h")
	f, err := OpenAppend(h)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("one\n")
	f.Close()
	if fi, _ := os.Stat(h); fi.Mode().Perm() != FilePerm {
		t.Errorf("mode %v", fi.Mode())
	}
	if b, err := ReadFile(h, 100); err != nil || string(b) != "one\n" {
		t.Errorf("ReadFile = %q, %v", b, err)
	}
	if _, err := ReadFile(h, 2); err == nil {
		t.Error("the limit was not applied")
	}
	if _, err := ReadFile(filepath.Join(dir, "none"), 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestDirIgnoresTheMMDirectoryItCreates(t *testing.T) {
	base := t.TempDir()
	if _, err := Dir(base, ".mm/traces"); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(base, ".mm", ".gitignore"))
	if err != nil || string(data) != "*\n" {
		t.Fatalf(".mm/.gitignore = %q, %v; want \"*\\n\"", data, err)
	}
	// A .mm the user made keeps what it holds: no .gitignore is added.
	other := t.TempDir()
	os.Mkdir(filepath.Join(other, ".mm"), 0o700)
	if _, err := Dir(other, ".mm"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(filepath.Join(other, ".mm", ".gitignore")); err == nil {
		t.Error("a .gitignore was added to an existing .mm")
	}
}

// TestPortableChecks runs the same tests on the portable implementation
// (Windows' one), forced on here so that it is exercised on Linux too.
func TestPortableChecks(t *testing.T) {
	saved := impl
	impl = portable
	defer func() { impl = saved }()
	t.Run("Dir", TestDirCreatesPrivateDirectories)
	t.Run("DirLinks", TestDirRefusesSymbolicLinks)
	t.Run("Files", TestFilesRefuseLinksAndSpecialFiles)
	t.Run("Ignore", TestDirIgnoresTheMMDirectoryItCreates)
}
