//go:build !windows

package project

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// repo makes root/.git and root/a/b, and returns both.
func repo(t *testing.T) (root, sub string) {
	root = t.TempDir()
	sub = filepath.Join(root, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	return root, sub
}

func put(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestReadInstructionsNearest(t *testing.T) {
	root, sub := repo(t)
	if in, w := ReadInstructions(sub, root); in.Path != "" || len(w) != 0 {
		t.Errorf("no file: %+v %v", in, w)
	}
	// Above the root is not the project's.
	put(t, filepath.Join(filepath.Dir(root), "AGENTS.md"), "outside")
	if in, _ := ReadInstructions(sub, root); in.Path != "" {
		t.Errorf("a file above the root was read: %+v", in)
	}
	put(t, filepath.Join(root, "AGENTS.md"), "root rules\n")
	in, w := ReadInstructions(sub, root)
	if in.Path != filepath.Join(root, "AGENTS.md") || in.Shown != "../../AGENTS.md" || in.Text != "root rules\n" || in.Cut || len(w) != 0 {
		t.Errorf("root file: %+v %v", in, w)
	}
	put(t, filepath.Join(root, "a", "AGENTS.md"), "nearer\n")
	if in, _ := ReadInstructions(sub, root); in.Text != "nearer\n" || in.Shown != "../AGENTS.md" {
		t.Errorf("nearest: %+v", in)
	}
	if in, _ := ReadInstructions(root, root); in.Text != "root rules\n" || in.Shown != "AGENTS.md" {
		t.Errorf("at the root: %+v", in)
	}
	// Blank: nothing to add, nothing to show.
	put(t, filepath.Join(root, "a", "AGENTS.md"), " \n\n")
	if in, w := ReadInstructions(sub, root); in.Path != "" || len(w) != 0 {
		t.Errorf("blank file: %+v %v", in, w)
	}
}

func TestReadInstructionsCut(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "AGENTS.md")

	// Exactly the limit is not cut.
	put(t, path, strings.Repeat("x", MaxInstructions-1)+"\n")
	if in, w := ReadInstructions(root, root); in.Cut || len(in.Text) != MaxInstructions || len(w) != 0 {
		t.Errorf("at the limit: cut %v, %d bytes, %v", in.Cut, len(in.Text), w)
	}
	// Lines: cut after the last whole line.
	put(t, path, strings.Repeat("abcdefghi\n", 1000))
	in, w := ReadInstructions(root, root)
	if !in.Cut || len(in.Text) != 8190 || !strings.HasSuffix(in.Text, "\n") {
		t.Errorf("lines: cut %v, %d bytes", in.Cut, len(in.Text))
	}
	if len(w) != 1 || w[0] != "[warning: AGENTS.md is over 8 KB: only its first 819 lines go to the model]" {
		t.Errorf("warning %v", w)
	}
	// One long line of 3-byte characters: cut on a character.
	put(t, path, strings.Repeat("€", 5000))
	in, w = ReadInstructions(root, root)
	if !in.Cut || len(in.Text) != 8190 || strings.ContainsRune(in.Text, '\uFFFD') || w[0] != "[warning: AGENTS.md is over 8 KB: only its first 1 lines go to the model]" {
		t.Errorf("long line: %d bytes, %v", len(in.Text), w)
	}
	// Invalid UTF-8 reaches the model as replacement characters.
	put(t, path, "ok \xff\xfe done\n")
	if in, _ := ReadInstructions(root, root); in.Text != "ok \uFFFD done\n" {
		t.Errorf("invalid UTF-8: %q", in.Text)
	}
}

func TestReadInstructionsRefuses(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "AGENTS.md")

	outside := filepath.Join(t.TempDir(), "x.md")
	put(t, outside, "secret\n")
	os.Symlink(outside, path)
	in, w := ReadInstructions(root, root)
	if in.Text != "" || len(w) != 1 || w[0] != "[warning: AGENTS.md is a symbolic link out of the project — not read]" {
		t.Errorf("link out: %+v %v", in, w)
	}
	os.Remove(path)
	os.Symlink(filepath.Join(root, "missing.md"), path)
	if in, w := ReadInstructions(root, root); in.Text != "" || len(w) != 1 || !strings.HasPrefix(w[0], "[warning: AGENTS.md is a symbolic link that cannot be followed: ") {
		t.Errorf("dangling link: %+v %v", in, w)
	}
	os.Remove(path)
	put(t, filepath.Join(root, "real.md"), "inside\n")
	os.Symlink("real.md", path)
	if in, w := ReadInstructions(root, root); in.Text != "inside\n" || len(w) != 0 || in.Shown != "AGENTS.md" {
		t.Errorf("link inside: %+v %v", in, w)
	}
	os.Remove(path)
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if in, w := ReadInstructions(root, root); in.Text != "" || len(w) != 1 || w[0] != "[warning: AGENTS.md is not a regular file — not read]" {
		t.Errorf("FIFO: %+v %v", in, w)
	}
	os.Remove(path)
	os.Mkdir(path, 0o755)
	if in, w := ReadInstructions(root, root); in.Text != "" || len(w) != 1 || w[0] != "[warning: AGENTS.md is not a regular file — not read]" {
		t.Errorf("directory: %+v %v", in, w)
	}
	os.Remove(path)
	// A link to a FIFO inside the project is not opened either.
	syscall.Mkfifo(filepath.Join(root, "pipe"), 0o644)
	os.Symlink("pipe", path)
	if in, w := ReadInstructions(root, root); in.Text != "" || len(w) != 1 || w[0] != "[warning: AGENTS.md is not a regular file — not read]" {
		t.Errorf("link to FIFO: %+v %v", in, w)
	}
	if os.Getuid() != 0 {
		os.Remove(path)
		put(t, path, "x")
		os.Chmod(path, 0)
		if in, w := ReadInstructions(root, root); in.Text != "" || len(w) != 1 || w[0] != "[warning: AGENTS.md cannot be read: permission denied — not read]" {
			t.Errorf("unreadable: %+v %v", in, w)
		}
	}
}
