package tools

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileCreates(t *testing.T) {
	o := fileDir(t, nil)
	w := NewWriteFile(o)
	if got := runFileTool(t, w, map[string]any{"path": "a/b/c.txt", "content": "one\ntwo\n"}); got != "a/b/c.txt: created, 2 lines\n1 +│ one\n2 +│ two" {
		t.Fatalf("got %q", got)
	}
	if got := fileText(t, o, "a/b/c.txt"); got != "one\ntwo\n" {
		t.Fatalf("content %q", got)
	}
	// A new file gets the mode any program would give it: 0666 minus the
	// umask, like os.Create.
	ref := filepath.Join(o.Dir, "ref")
	f, err := os.Create(ref)
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	want, _ := os.Stat(ref)
	got, _ := os.Stat(filepath.Join(o.Dir, "a/b/c.txt"))
	if got.Mode() != want.Mode() {
		t.Errorf("new file mode %v, want %v", got.Mode(), want.Mode())
	}
	for _, tc := range []struct{ content, want string }{
		{"", "empty.txt: created, 0 lines"},
		{"no newline", "empty.txt: created, 1 line\n1 +│ no newline\n\\ No newline at end of file"},
	} {
		os.Remove(filepath.Join(o.Dir, "empty.txt"))
		if got := runFileTool(t, w, map[string]any{"path": "empty.txt", "content": tc.content}); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
		if fileText(t, o, "empty.txt") != tc.content {
			t.Error("content differs")
		}
	}
	abs := filepath.Join(o.Dir, "abs.txt")
	if got := runFileTool(t, w, map[string]any{"path": abs, "content": "x"}); !strings.HasPrefix(got, abs+": created, 1 line\n1 +│ x") {
		t.Errorf("absolute path: %q", got)
	}
	noTempFiles(t, o.Dir)
}

func TestWriteFileReplaces(t *testing.T) {
	o := fileDir(t, map[string]string{"f.txt": "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"})
	got := runFileTool(t, NewWriteFile(o), map[string]any{"path": "f.txt", "content": "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\n"})
	want := "f.txt: replaced, +2 -1 lines, first change at line 2\n" +
		" 1  │ a\n" +
		" 2 -│ b\n" +
		" 2 +│ B\n" +
		" 3  │ c\n" +
		" 4  │ d\n" +
		"…\n" +
		" 9  │ i\n" +
		"10  │ j\n" +
		"11 +│ k"
	if got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
	if fileText(t, o, "f.txt") != "a\nB\nc\nd\ne\nf\ng\nh\ni\nj\nk\n" {
		t.Fatal("content")
	}
}

func TestWriteFileIdenticalWritesNothing(t *testing.T) {
	o := fileDir(t, map[string]string{"f.txt": "same\n"})
	p := filepath.Join(o.Dir, "f.txt")
	before := fileInode(t, p)
	if got := runFileTool(t, NewWriteFile(o), map[string]any{"path": "f.txt", "content": "same\n"}); got != "f.txt: content identical to the file — nothing written" {
		t.Fatalf("got %q", got)
	}
	if fileInode(t, p) != before {
		t.Fatal("the file was rewritten")
	}
}

func TestWriteFileRefusals(t *testing.T) {
	o := fileDir(t, map[string]string{"bin": "\x7fELF\x00\x01", "latin1": "caf\xe9\n", "dir/x": "x"})
	w := NewWriteFile(o)
	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "dir", "content": "x"}, "dir is a directory, not a file"},
		{map[string]any{"path": "bin", "content": "x"}, "bin is a binary file (it contains NUL bytes) — write_file will not overwrite it"},
		{map[string]any{"path": "latin1", "content": "x"}, "latin1 is not UTF-8 text — write_file will not overwrite it"},
		{map[string]any{"path": "", "content": "x"}, "[error: write_file needs a path]"},
		{map[string]any{"path": "y"}, `[error: write_file needs content: the whole text of the file ("" for an empty file)]`},
	} {
		if got := runFileTool(t, w, tc.args); got != tc.want {
			t.Errorf("%v: got %q, want %q", tc.args, got, tc.want)
		}
	}
	if fileText(t, o, "bin") != "\x7fELF\x00\x01" || fileText(t, o, "latin1") != "caf\xe9\n" {
		t.Fatal("a refused file changed")
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "y")); err == nil {
		t.Fatal("a file was created without content")
	}
	if got := w.Run(t.Context(), json.RawMessage(`{"path": 3}`)); !strings.HasPrefix(got, "[error: write_file: bad arguments: ") {
		t.Errorf("bad JSON: %q", got)
	}
}

func TestWriteFileKeepsCRLFAndBOM(t *testing.T) {
	o := fileDir(t, map[string]string{"w.txt": "\uFEFFa\r\nb\r\n"})
	got := runFileTool(t, NewWriteFile(o), map[string]any{"path": "w.txt", "content": "a\nB\n"})
	if !strings.HasPrefix(got, "w.txt: replaced, +1 -1 lines, first change at line 2 (CRLF line endings kept)\n") {
		t.Fatalf("got %q", got)
	}
	if got := fileText(t, o, "w.txt"); got != "\uFEFFa\r\nB\r\n" {
		t.Fatalf("content %q", got)
	}
	// The same text with LF is the same file.
	if got := runFileTool(t, NewWriteFile(o), map[string]any{"path": "w.txt", "content": "a\nB\n"}); got != "w.txt: content identical to the file — nothing written" {
		t.Fatalf("got %q", got)
	}
}
