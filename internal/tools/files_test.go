package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fileDir makes a temporary working directory holding the given files.
func fileDir(t *testing.T, files map[string]string) FileOptions {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return FileOptions{Dir: dir}
}

// runFileTool runs tool with args marshalled to JSON.
func runFileTool(t *testing.T, tool *Tool, args any) string {
	t.Helper()
	raw, err := json.Marshal(args)
	if err != nil {
		t.Fatal(err)
	}
	return tool.Run(context.Background(), raw)
}

func fileText(t *testing.T, o FileOptions, name string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(o.Dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// noTempFiles fails when a temporary file of writeAtomic is left in dir.
func noTempFiles(t *testing.T, dir string) {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.Contains(e.Name(), ".mm-") {
			t.Errorf("temporary file left behind: %s", e.Name())
		}
	}
}

type fileEdit struct {
	Old string `json:"old"`
	New string `json:"new"`
}

func editArgsOf(path string, edits ...fileEdit) map[string]any {
	return map[string]any{"path": path, "edits": edits}
}

func TestDescriptionsStayShort(t *testing.T) {
	// A small model reads these on every request.
	o := FileOptions{}
	for _, tool := range []*Tool{NewReadFile(o), NewWriteFile(o), NewEditFile(o)} {
		schema, err := json.Marshal(tool.Schema)
		if err != nil {
			t.Fatal(err)
		}
		if n := len(tool.Description) + len(schema); n > 600 {
			t.Errorf("%s: description + schema = %d bytes, want at most 600", tool.Name, n)
		}
		if strings.TrimSpace(tool.Description) != tool.Description || tool.Description == "" {
			t.Errorf("%s: description %q is empty or not trimmed", tool.Name, tool.Description)
		}
	}
}

func TestFileToolsDeclaration(t *testing.T) {
	o := FileOptions{}
	r, w, e := NewReadFile(o), NewWriteFile(o), NewEditFile(o)
	for _, tc := range []struct {
		tool     *Tool
		kind     Kind
		required []any
		props    []string
	}{
		{r, KindRead, []any{"path"}, []string{"path", "start", "end", "numbered"}},
		{w, KindEdit, []any{"path", "content"}, []string{"path", "content"}},
		{e, KindEdit, []any{"path", "edits"}, []string{"path", "edits", "dry_run"}},
	} {
		if tc.tool.Kind != tc.kind {
			t.Errorf("%s: kind %s, want %s", tc.tool.Name, tc.tool.Kind, tc.kind)
		}
		req, _ := tc.tool.Schema["required"].([]any)
		if len(req) != len(tc.required) {
			t.Errorf("%s: required %v, want %v", tc.tool.Name, req, tc.required)
		}
		for i := range req {
			if i < len(tc.required) && req[i] != tc.required[i] {
				t.Errorf("%s: required %v, want %v", tc.tool.Name, req, tc.required)
			}
		}
		props, _ := tc.tool.Schema["properties"].(map[string]any)
		if len(props) != len(tc.props) {
			t.Errorf("%s: properties %v, want %v", tc.tool.Name, props, tc.props)
		}
		for _, p := range tc.props {
			if _, ok := props[p]; !ok {
				t.Errorf("%s: no property %s", tc.tool.Name, p)
			}
		}
	}
	items := e.Schema["properties"].(map[string]any)["edits"].(map[string]any)["items"].(map[string]any)
	if _, ok := items["properties"].(map[string]any)["old"]; !ok {
		t.Error("edit_file: edits items have no old")
	}

	if r.NeedsPermission(json.RawMessage(`{"path":"a"}`)) {
		t.Error("read_file asks for permission")
	}
	if !w.NeedsPermission(json.RawMessage(`{"path":"a","content":""}`)) {
		t.Error("write_file does not ask for permission")
	}
	if !e.NeedsPermission(json.RawMessage(`{"path":"a","edits":[{"old":"x","new":"y"}]}`)) {
		t.Error("edit_file does not ask for permission")
	}
	if e.NeedsPermission(json.RawMessage(`{"path":"a","edits":[{"old":"x","new":"y"}],"dry_run":true}`)) {
		t.Error("edit_file asks for permission for a dry run")
	}

	for _, tc := range []struct {
		tool *Tool
		args string
		want string
	}{
		{r, `{"path":"main.go"}`, "main.go"},
		{r, `{"path":"main.go","start":10,"end":20}`, "main.go lines 10-20"},
		{r, `{"path":"main.go","start":10}`, "main.go from line 10"},
		{r, `{"path":"main.go","end":20}`, "main.go lines 1-20"},
		{w, `{"path":"a/b.txt","content":"x"}`, "a/b.txt"},
		{e, `{"path":"main.go","edits":[{"old":"x","new":"y"}]}`, "main.go (1 edit)"},
		{e, `{"path":"main.go","edits":[{"old":"x","new":"y"},{"old":"z","new":""}],"dry_run":true}`, "main.go (2 edits, dry run)"},
	} {
		if got := tc.tool.SummaryOf(json.RawMessage(tc.args)); got != tc.want {
			t.Errorf("%s summary of %s = %q, want %q", tc.tool.Name, tc.args, got, tc.want)
		}
	}
}

func TestResolve(t *testing.T) {
	o := FileOptions{Dir: "/work/p"}
	for in, want := range map[string]string{
		"main.go":      "/work/p/main.go",
		"a/../b.go":    "/work/p/b.go",
		"/etc/hosts":   "/etc/hosts",
		"~/x":          "/work/p/~/x", // not expanded
		"./sub/./c.go": "/work/p/sub/c.go",
	} {
		got, err := o.Resolve(in)
		if err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", in, got, err, want)
		}
	}
	cwd, _ := os.Getwd()
	if got, _ := (FileOptions{}).Resolve("x.go"); got != filepath.Join(cwd, "x.go") {
		t.Errorf("Resolve with no Dir = %q, want it under the process cwd %q", got, cwd)
	}
}

func TestApplyRefusesAFileChangedSincePlanned(t *testing.T) {
	o := fileDir(t, map[string]string{"main.go": "a\nb\n"})
	raw, _ := json.Marshal(editArgsOf("main.go", fileEdit{"b", "B"}))
	c, failure := PlanEdit(o, raw)
	if failure != "" {
		t.Fatal(failure)
	}
	if c.Old != "a\nb\n" || c.New != "a\nB\n" || !c.Existed || c.AbsPath != filepath.Join(o.Dir, "main.go") {
		t.Fatalf("plan = %+v", c)
	}
	// The user edits the file while the permission question is on screen.
	if err := os.WriteFile(filepath.Join(o.Dir, "main.go"), []byte("a\nb\nuser's line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := c.Apply()
	if err == nil || !strings.Contains(err.Error(), "main.go changed on disk since it was read — nothing written") {
		t.Fatalf("Apply on a changed file: %v", err)
	}
	if got := fileText(t, o, "main.go"); got != "a\nb\nuser's line\n" {
		t.Fatalf("the user's change was lost: %q", got)
	}

	// A file created meanwhile is not overwritten either.
	raw, _ = json.Marshal(map[string]any{"path": "new.txt", "content": "mine"})
	c, failure = PlanWrite(o, raw)
	if failure != "" || c.Existed {
		t.Fatalf("plan: %q %+v", failure, c)
	}
	if err := os.WriteFile(filepath.Join(o.Dir, "new.txt"), []byte("theirs"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := c.Apply(); err == nil || !strings.Contains(err.Error(), "new.txt was created by someone else meanwhile") {
		t.Fatalf("Apply over a file created meanwhile: %v", err)
	}
	if got := fileText(t, o, "new.txt"); got != "theirs" {
		t.Fatalf("new.txt = %q, want theirs", got)
	}

	// And a file deleted meanwhile is not recreated from a stale plan.
	raw, _ = json.Marshal(editArgsOf("main.go", fileEdit{"user's line", "x"}))
	c, failure = PlanEdit(o, raw)
	if failure != "" {
		t.Fatal(failure)
	}
	os.Remove(filepath.Join(o.Dir, "main.go"))
	if err := c.Apply(); err == nil || !strings.Contains(err.Error(), "main.go was deleted meanwhile") {
		t.Fatalf("Apply on a deleted file: %v", err)
	}
	if _, err := os.Stat(filepath.Join(o.Dir, "main.go")); err == nil {
		t.Fatal("a deleted file was recreated")
	}
}

func TestWritesAreAtomicAndKeepTheMode(t *testing.T) {
	o := fileDir(t, map[string]string{"run.sh": "echo a\n", "data.txt": "x\n"})
	script := filepath.Join(o.Dir, "run.sh")
	// A umask that strips group and other bits from any created file: the
	// temporary file's mode must be set, not left to creation.
	defer setUmask(setUmask(0o077))
	for _, mode := range []os.FileMode{0o751, 0o775, 0o600} {
		if err := os.Chmod(script, mode); err != nil {
			t.Fatal(err)
		}
		before := fileInode(t, script)
		out := runFileTool(t, NewEditFile(o), editArgsOf("run.sh", fileEdit{"echo a", "echo b"}))
		if !strings.HasPrefix(out, "run.sh: 1 edit applied") {
			t.Fatalf("edit: %s", out)
		}
		info, _ := os.Stat(script)
		if info.Mode().Perm() != mode {
			t.Errorf("edit_file: mode %v, want %v", info.Mode().Perm(), mode)
		}
		if fileInode(t, script) == before {
			t.Error("edit_file wrote in place instead of renaming a new file over the old one")
		}
		out = runFileTool(t, NewWriteFile(o), map[string]any{"path": "run.sh", "content": "echo a\n"})
		if !strings.HasPrefix(out, "run.sh: replaced") {
			t.Fatalf("write: %s", out)
		}
		if info, _ := os.Stat(script); info.Mode().Perm() != mode {
			t.Errorf("write_file: mode %v, want %v", info.Mode().Perm(), mode)
		}
	}
	noTempFiles(t, o.Dir)
}

func TestWriteFollowsSymlinks(t *testing.T) {
	o := fileDir(t, map[string]string{"real.go": "a\n"})
	link := filepath.Join(o.Dir, "link.go")
	if err := os.Symlink("real.go", link); err != nil {
		t.Fatal(err)
	}
	out := runFileTool(t, NewEditFile(o), editArgsOf("link.go", fileEdit{"a", "b"}))
	if !strings.HasPrefix(out, "link.go: 1 edit applied") {
		t.Fatal(out)
	}
	if info, err := os.Lstat(link); err != nil || info.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("the link was replaced by a file: %v %v", info, err)
	}
	if got := fileText(t, o, "real.go"); got != "b\n" {
		t.Fatalf("real.go = %q, want the edit there", got)
	}
	out = runFileTool(t, NewWriteFile(o), map[string]any{"path": "link.go", "content": "c\n"})
	if !strings.HasPrefix(out, "link.go: replaced") || fileText(t, o, "real.go") != "c\n" {
		t.Fatalf("write through a link: %s / %q", out, fileText(t, o, "real.go"))
	}
	if info, _ := os.Lstat(link); info.Mode()&os.ModeSymlink == 0 {
		t.Fatal("write_file replaced the link by a file")
	}

	// A link to nothing is not overwritten as if the path were free.
	if err := os.Symlink("missing.go", filepath.Join(o.Dir, "dangling.go")); err != nil {
		t.Fatal(err)
	}
	out = runFileTool(t, NewWriteFile(o), map[string]any{"path": "dangling.go", "content": "x"})
	if out != "dangling.go is a symbolic link to missing.go, which does not exist" {
		t.Fatalf("dangling link: %q", out)
	}
}

func TestFailedWriteLeavesNothing(t *testing.T) {
	o := fileDir(t, map[string]string{"file": "x"})
	// The parent "directory" is a file: the write fails, with a text.
	out := runFileTool(t, NewWriteFile(o), map[string]any{"path": "file/sub.txt", "content": "y"})
	if out != "file/sub.txt cannot exist: part of its directory path is a file" {
		t.Fatalf("got %q", out)
	}
	if fileText(t, o, "file") != "x" {
		t.Fatal("file changed")
	}
	noTempFiles(t, o.Dir)
}

func TestNormalizeRoundTrip(t *testing.T) {
	for _, s := range []string{
		"", "a", "a\nb\n", "a\r\nb\r\n", "a\r\nb", "\uFEFFa\r\nb\r\n", "a\r\r\nb\r\n", "a\rb\r\n", "mixed\r\nlf\n",
	} {
		text, n := normalize(s)
		if n.denormalize(text) != s {
			t.Errorf("normalize/denormalize(%q) = %q", s, n.denormalize(text))
		}
		if n.ending == endingCRLF && strings.Contains(text, "\r\n") && !strings.Contains(s, "\r\r\n") {
			t.Errorf("normalize(%q) kept CRLF: %q", s, text)
		}
	}
	if detectEnding("a\r\nb\n") != endingMixed || detectEnding("a\r\n") != endingCRLF || detectEnding("a\n") != endingLF {
		t.Error("detectEnding")
	}
}

// write_file and edit_file refuse a file without any write bit, root
// included: nothing written, a one-line text for the model.
func TestReadOnlyFileRefused(t *testing.T) {
	o := fileDir(t, map[string]string{"ro.txt": "keep\n"})
	p := filepath.Join(o.Dir, "ro.txt")
	if err := os.Chmod(p, 0o444); err != nil {
		t.Fatal(err)
	}
	out := runFileTool(t, NewWriteFile(o), map[string]any{"path": "ro.txt", "content": "new\n"})
	if out != "ro.txt is read-only (mode 0444) — nothing written" {
		t.Errorf("write_file: %q", out)
	}
	out = runFileTool(t, NewEditFile(o), editArgsOf("ro.txt", fileEdit{"keep", "gone"}))
	if out != "ro.txt is read-only (mode 0444) — nothing written" {
		t.Errorf("edit_file: %q", out)
	}
	if got := fileText(t, o, "ro.txt"); got != "keep\n" {
		t.Errorf("content %q", got)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o444 {
		t.Errorf("mode %v", info.Mode())
	}
	noTempFiles(t, o.Dir)
}
