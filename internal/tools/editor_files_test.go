package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// fakeEditor is an editor holding buffers that may differ from the disk.
// A path it holds no buffer for is read from the disk, as an editor opens
// a file it was asked for; writes change the buffers only, so a test sees
// that mm left the disk alone.
type fakeEditor struct {
	mu       sync.Mutex
	buffers  map[string]string
	reads    []string
	writes   []string // absolute paths, in order
	readErr  error
	writeErr error // fails every write
	block    bool  // every call waits for its context to end
}

func newFakeEditor() *fakeEditor { return &fakeEditor{buffers: map[string]string{}} }

func (e *fakeEditor) ReadTextFile(ctx context.Context, abs string) (string, error) {
	if e.block {
		<-ctx.Done()
		return "", ctx.Err()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.reads = append(e.reads, abs)
	if e.readErr != nil {
		return "", e.readErr
	}
	if text, ok := e.buffers[abs]; ok {
		return text, nil
	}
	data, err := os.ReadFile(abs)
	return string(data), err
}

func (e *fakeEditor) WriteTextFile(ctx context.Context, abs, content string) error {
	if e.block {
		<-ctx.Done()
		return ctx.Err()
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if e.writeErr != nil {
		return e.writeErr
	}
	e.writes = append(e.writes, abs)
	e.buffers[abs] = content
	return nil
}

func (e *fakeEditor) buffer(abs string) (string, bool) {
	e.mu.Lock()
	defer e.mu.Unlock()
	s, ok := e.buffers[abs]
	return s, ok
}

// editorDir is fileDir with an editor holding the given unsaved buffers
// (names relative to the directory).
func editorDir(t *testing.T, disk, buffers map[string]string) (FileOptions, *fakeEditor) {
	t.Helper()
	o := fileDir(t, disk)
	e := newFakeEditor()
	for name, text := range buffers {
		e.buffers[filepath.Join(o.Dir, name)] = text
	}
	o.Editor = e
	return o, e
}

func planOf(t *testing.T, tool *Tool, args any) Planned {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Plan(raw)
}

func TestEditorReadFileShowsTheUnsavedBuffer(t *testing.T) {
	o, _ := editorDir(t, map[string]string{"main.go": "saved\n"}, map[string]string{"main.go": "saved\nunsaved\n"})
	if got := runFileTool(t, NewReadFile(o), map[string]any{"path": "main.go"}); got != "saved\nunsaved\n" {
		t.Fatalf("read_file = %q, want the buffer", got)
	}
	if got := runFileTool(t, NewReadFile(o), map[string]any{"path": "main.go", "start": 2, "numbered": true}); got != "2│ unsaved\n" {
		t.Fatalf("read_file lines = %q", got)
	}
}

func TestEditorEditFileEditsTheBufferThroughTheEditor(t *testing.T) {
	disk := "package main\n\nfunc f() {}\n"
	buf := "package main\n\n// unsaved comment\nfunc f() {}\n"
	o, e := editorDir(t, map[string]string{"main.go": disk}, map[string]string{"main.go": buf})
	var changed []string
	o.Changed = func(p ...string) { changed = append(changed, p...) }
	abs := filepath.Join(o.Dir, "main.go")

	args := editArgsOf("main.go", fileEdit{"func f() {}", "func g() {}"})
	p := planOf(t, NewEditFile(o), args)
	if p.Done != "" || p.Apply == nil {
		t.Fatalf("plan decided at once: %q", p.Done)
	}
	want := "package main\n\n// unsaved comment\nfunc g() {}\n"
	if p.Diff == nil || p.Diff.Old != buf || p.Diff.New != want || !p.Diff.Existed || p.Diff.Path != abs {
		t.Fatalf("diff = %+v", p.Diff)
	}
	// The diff is the one the disk path makes of the same text.
	ref := fileDir(t, map[string]string{"main.go": buf})
	refPlan := planOf(t, NewEditFile(ref), args)
	if p.Preview != refPlan.Preview {
		t.Fatalf("preview through the editor:\n%s\nwant, as from the disk:\n%s", p.Preview, refPlan.Preview)
	}
	// The preview says what would apply; the output, what did.
	out := p.Apply(context.Background())
	if out != strings.Replace(refPlan.Preview, "1 edit would apply", "1 edit applied", 1) || !p.Diff.Applied {
		t.Fatalf("apply = %q (applied %v)", out, p.Diff.Applied)
	}
	if got, _ := e.buffer(abs); got != want {
		t.Fatalf("buffer = %q, want %q", got, want)
	}
	if got := fileText(t, o, "main.go"); got != disk {
		t.Fatalf("mm wrote the disk: %q", got)
	}
	noTempFiles(t, o.Dir)
	if len(changed) != 1 || changed[0] != abs {
		t.Fatalf("Changed got %v, want [%s]", changed, abs)
	}
}

func TestEditorRefusesAStaleBuffer(t *testing.T) {
	o, e := editorDir(t, map[string]string{"a.txt": "one\n"}, map[string]string{"a.txt": "one\ntwo\n"})
	abs := filepath.Join(o.Dir, "a.txt")
	p := planOf(t, NewEditFile(o), editArgsOf("a.txt", fileEdit{"two", "TWO"}))
	if p.Apply == nil {
		t.Fatalf("plan: %q", p.Done)
	}
	// The user types while the permission question is on screen.
	e.mu.Lock()
	e.buffers[abs] = "one\ntwo\nthree\n"
	e.mu.Unlock()
	out := p.Apply(context.Background())
	if out != "a.txt changed in the editor since it was read — nothing written; read it again" {
		t.Fatalf("apply on a stale buffer = %q", out)
	}
	if len(e.writes) != 0 || p.Diff.Applied {
		t.Fatalf("written anyway: %v", e.writes)
	}
	if got, _ := e.buffer(abs); got != "one\ntwo\nthree\n" {
		t.Fatalf("the user's typing was lost: %q", got)
	}
}

func TestEditorKeepsCRLFAndBOM(t *testing.T) {
	buf := utf8BOM + "a\r\nb\r\n"
	o, e := editorDir(t, map[string]string{"w.txt": "a\r\n"}, map[string]string{"w.txt": buf})
	abs := filepath.Join(o.Dir, "w.txt")
	out := runFileTool(t, NewWriteFile(o), map[string]any{"path": "w.txt", "content": "a\nc\n"})
	if !strings.HasPrefix(out, "w.txt: replaced, +1 -1 lines, first change at line 2 (CRLF line endings kept)\n") {
		t.Fatalf("write_file = %q", out)
	}
	if got, _ := e.buffer(abs); got != utf8BOM+"a\r\nc\r\n" {
		t.Fatalf("buffer = %q, want CRLF and the BOM kept", got)
	}
	out = runFileTool(t, NewEditFile(o), editArgsOf("w.txt", fileEdit{"c\n", "d\n"}))
	if !strings.HasPrefix(out, "w.txt: 1 edit applied") {
		t.Fatalf("edit_file = %q", out)
	}
	if got, _ := e.buffer(abs); got != utf8BOM+"a\r\nd\r\n" {
		t.Fatalf("buffer = %q", got)
	}
}

func TestEditorDiskChecksComeFirst(t *testing.T) {
	o, e := editorDir(t, map[string]string{"bin.dat": "ab\x00cd", "latin1.txt": "caf\xe9\n", "sub/x": "x"}, map[string]string{
		"bin.dat": "looks like text\n", "latin1.txt": "café\n",
	})
	if err := os.Symlink("nowhere", filepath.Join(o.Dir, "dangling")); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{"bin.dat", "bin.dat is a binary file (it contains NUL bytes) — edit_file edits UTF-8 text only"},
		{"latin1.txt", "latin1.txt is not UTF-8 text — edit_file edits UTF-8 text only"},
		{"sub", "sub is a directory, not a file"},
		{"dangling", "dangling is a symbolic link to nowhere, which does not exist"},
		{"sub/x/y", "sub/x/y cannot exist: part of its directory path is a file"},
	} {
		if got := runFileTool(t, NewEditFile(o), editArgsOf(c.path, fileEdit{"t", "T"})); got != c.want {
			t.Errorf("edit_file %s = %q, want %q", c.path, got, c.want)
		}
	}
	if got := runFileTool(t, NewReadFile(o), map[string]any{"path": "bin.dat"}); got != "bin.dat is a binary file (it contains NUL bytes) — read_file reads text files only" {
		t.Errorf("read_file bin.dat = %q", got)
	}
	if len(e.reads) != 0 || len(e.writes) != 0 {
		t.Fatalf("the editor was asked about files the disk refuses: reads %v writes %v", e.reads, e.writes)
	}
	// A buffer that is not text is refused the same way.
	e.buffers[filepath.Join(o.Dir, "ok.txt")] = "nul\x00here"
	os.WriteFile(filepath.Join(o.Dir, "ok.txt"), []byte("fine\n"), 0o644)
	if got := runFileTool(t, NewReadFile(o), map[string]any{"path": "ok.txt"}); got != "ok.txt is a binary file (it contains NUL bytes) — read_file reads text files only" {
		t.Errorf("read_file of a binary buffer = %q", got)
	}
}

func TestEditorReadOnlyFileRefusedBeforeAsking(t *testing.T) {
	o, e := editorDir(t, map[string]string{"ro.txt": "x\n"}, map[string]string{"ro.txt": "x\ny\n"})
	if err := os.Chmod(filepath.Join(o.Dir, "ro.txt"), 0o444); err != nil {
		t.Fatal(err)
	}
	p := planOf(t, NewEditFile(o), editArgsOf("ro.txt", fileEdit{"y", "z"}))
	if p.Done != "ro.txt is read-only (mode 0444) — nothing written" {
		t.Fatalf("plan = %+v", p)
	}
	if len(e.writes) != 0 {
		t.Fatal("written through the editor")
	}
}

func TestEditorFailuresAreTextsForTheModel(t *testing.T) {
	o, e := editorDir(t, map[string]string{"f.txt": "a\n"}, nil)
	e.readErr = errors.New("the editor refused: buffer is locked")
	for _, tool := range []*Tool{NewReadFile(o), NewEditFile(o), NewWriteFile(o)} {
		got := runFileTool(t, tool, map[string]any{"path": "f.txt", "content": "b\n", "edits": []fileEdit{{"a", "b"}}})
		if got != "cannot read f.txt: the editor refused: buffer is locked" {
			t.Errorf("%s = %q", tool.Name, got)
		}
	}
	e.readErr = nil
	e.writeErr = errors.New("the editor refused: disk full")
	if got := runFileTool(t, NewWriteFile(o), map[string]any{"path": "f.txt", "content": "b\n"}); got != "cannot write f.txt: the editor refused: disk full" {
		t.Errorf("write_file = %q", got)
	}
	if got := fileText(t, o, "f.txt"); got != "a\n" {
		t.Fatalf("disk = %q", got)
	}
}

func TestEditorThatNeverAnswersIsBounded(t *testing.T) {
	defer func(d time.Duration) { EditorTimeout = d }(EditorTimeout)
	EditorTimeout = 50 * time.Millisecond
	o, e := editorDir(t, map[string]string{"f.txt": "a\n"}, nil)
	e.block = true
	got := runWithin(t, func() string { return runFileTool(t, NewReadFile(o), map[string]any{"path": "f.txt"}) })
	if got != "cannot read f.txt: the editor did not answer within 50ms" {
		t.Fatalf("read_file = %q", got)
	}
	got = runWithin(t, func() string {
		return planOf(t, NewEditFile(o), editArgsOf("f.txt", fileEdit{"a", "b"})).Done
	})
	if got != "cannot read f.txt: the editor did not answer within 50ms" {
		t.Fatalf("edit_file plan = %q", got)
	}
}

func TestEditorNewFile(t *testing.T) {
	o, e := editorDir(t, nil, nil)
	abs := filepath.Join(o.Dir, "pkg", "new.go")
	e.readErr = errors.New("the editor refused: not found")
	p := planOf(t, NewWriteFile(o), map[string]any{"path": "pkg/new.go", "content": "package pkg\n"})
	if p.Apply == nil || p.Diff.Existed || !strings.HasPrefix(p.Preview, "pkg/new.go: would be created, 1 line\n") {
		t.Fatalf("plan = %+v", p)
	}
	e.readErr = nil
	if out := p.Apply(context.Background()); out != strings.Replace(p.Preview, "would be created", "created", 1) {
		t.Fatalf("apply = %q", out)
	}
	if got, _ := e.buffer(abs); got != "package pkg\n" {
		t.Fatalf("buffer = %q", got)
	}
	if _, err := os.Stat(abs); err == nil {
		t.Fatal("mm wrote the new file on disk itself")
	}

	// A buffer that appears with text while the question is on screen
	// is not overwritten.
	abs2 := filepath.Join(o.Dir, "other.go")
	p = planOf(t, NewWriteFile(o), map[string]any{"path": "other.go", "content": "mine\n"})
	if p.Apply == nil || p.Diff.Existed {
		t.Fatalf("plan = %+v", p)
	}
	e.mu.Lock()
	e.buffers[abs2] = "theirs\n"
	e.mu.Unlock()
	if out := p.Apply(context.Background()); out != "other.go was created by someone else meanwhile — nothing written; read it first" {
		t.Fatalf("apply = %q", out)
	}
	if got, _ := e.buffer(abs2); got != "theirs\n" {
		t.Fatalf("buffer = %q", got)
	}
}

func TestEditorBufferOfAFileNotOnDisk(t *testing.T) {
	// The editor holds a buffer for a path not on disk (never saved, or
	// deleted under it): that text is the file.
	o, e := editorDir(t, nil, map[string]string{"draft.md": "# Draft\n"})
	if got := runFileTool(t, NewReadFile(o), map[string]any{"path": "draft.md"}); got != "# Draft\n" {
		t.Fatalf("read_file = %q", got)
	}
	out := runFileTool(t, NewEditFile(o), editArgsOf("draft.md", fileEdit{"Draft", "Title"}))
	if !strings.HasPrefix(out, "draft.md: 1 edit applied") {
		t.Fatalf("edit_file = %q", out)
	}
	if got, _ := e.buffer(filepath.Join(o.Dir, "draft.md")); got != "# Title\n" {
		t.Fatalf("buffer = %q", got)
	}
	// An empty answer for a path not on disk is no file.
	e.buffers[filepath.Join(o.Dir, "empty.md")] = ""
	if got := runFileTool(t, NewReadFile(o), map[string]any{"path": "empty.md"}); got != notExistText("empty.md") {
		t.Fatalf("read_file of an empty answer = %q", got)
	}
}
