package lsp

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mm/internal/config"
)

// fakeManager runs the fake server (this test binary) for .fk files in a
// new project directory, in the given modes. The log lists what the server
// received, one line per message.
func fakeManager(t *testing.T, modes string, files map[string]string) (m *Manager, dir, logPath string) {
	t.Helper()
	dir = t.TempDir()
	writeFiles(t, dir, files)
	logPath = filepath.Join(t.TempDir(), "fake.log")
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "MM_FAKE_LSP=on,"+modes, "MM_FAKE_LOG="+logPath)
	m, warnings := New([]config.LSPServer{{Name: "fake", Command: exe, Extensions: []string{".fk"}}}, Options{Root: dir, Env: env})
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	t.Cleanup(m.Close)
	return m, dir, logPath
}

func fakeLog(t *testing.T, path string) string {
	t.Helper()
	b, _ := os.ReadFile(path)
	return string(b)
}

func run(m *Manager, r Request) string { return m.Run(context.Background(), r) }

func expect(t *testing.T, m *Manager, r Request, want string) {
	t.Helper()
	if got := run(m, r); got != want {
		t.Errorf("%+v:\n got %q\nwant %q", r, got, want)
	}
}

const greetFile = "// greet is in a comment first\nx = greet NULL\nü😀 def greet\n  field name\ny = \"é😀\" + greet\n"

// The symbol's occurrences are tried in order, code lines first and
// comment lines last, until the server answers; the answer's position is
// converted back from UTF-16 to characters.
func TestFakeOccurrencesInOrder(t *testing.T) {
	m, _, logPath := fakeManager(t, "", map[string]string{"a.fk": greetFile})
	for _, sym := range []string{"greet", "'greet', ", "obj.greet", "greet()", "`greet`"} {
		expect(t, m, Request{Action: "definition", Path: "a.fk", Symbol: sym}, "a.fk:3:8 ü😀 def greet")
	}
	log := fakeLog(t, logPath)
	first := strings.Index(log, `textDocument/definition 1:4 "greet"`)
	second := strings.Index(log, `textDocument/definition 2:8 "greet"`)
	if first < 0 || second < first {
		t.Errorf("occurrences not tried in order (line 2, then line 3):\n%s", log)
	}
	if strings.Contains(log, "definition 0:") {
		t.Errorf("the comment line was tried although a code line answered:\n%s", log)
	}
	// A position on the line with non-ASCII text, in characters: column 12
	// is the g of greet after `y = "é😀" + `; on the wire it is 12 too (😀
	// is two UTF-16 units, é one).
	expect(t, m, Request{Action: "hover", Path: "a.fk", Line: 5, Column: 12}, "**greet** at 4:12")
	// line restricts the symbol's search to that line.
	expect(t, m, Request{Action: "hover", Path: "a.fk", Symbol: "greet", Line: 5}, "**greet** at 4:12")
	// A miscounted column with a symbol on its line: the symbol wins.
	expect(t, m, Request{Action: "hover", Path: "a.fk", Symbol: "greet", Line: 5, Column: 2}, "**greet** at 4:12")
	// A multi-word symbol outside rename: the first identifier the file
	// holds, keywords aside.
	expect(t, m, Request{Action: "hover", Path: "a.fk", Symbol: "func greet", Line: 5}, "**greet** at 4:12")
}

func TestFakeTexts(t *testing.T) {
	m, _, _ := fakeManager(t, "", map[string]string{"a.fk": greetFile, "b.fk": "z = greet\n", "dir/c.fk": "failing\n", "sym.fk": "def one\n  field a\n  field b\ndef two\n"})
	for _, c := range []struct {
		req  Request
		want string
	}{
		{Request{Action: "jump", Path: "a.fk"}, `[lsp: unknown action "jump" — use one of definition, references, hover, symbols, diagnostics, rename]`},
		{Request{Action: "hover"}, `[lsp: hover needs a path: the file, relative to the working directory]`},
		{Request{Action: "hover", Path: "x.md", Symbol: "x"}, `[lsp: no language server for "x.md" — configured: fake (.fk)]`},
		{Request{Action: "hover", Path: "nope.fk", Symbol: "x"}, `[lsp: nope.fk does not exist]`},
		{Request{Action: "hover", Path: "dir", Symbol: "x"}, `[lsp: no language server for "dir" — configured: fake (.fk)]`},
		{Request{Action: "hover", Path: "a.fk", Symbol: "foo"}, `[lsp: "foo" not found in a.fk]`},
		{Request{Action: "hover", Path: "a.fk", Symbol: "greet", Line: 4}, `[lsp: "greet" not found on line 4 of a.fk — it is on line 1, 2, 3, 5]`},
		{Request{Action: "hover", Path: "a.fk", Line: 3, Column: 40}, `[lsp: column 40 is past the end of line 3 (12 characters)]`},
		{Request{Action: "hover", Path: "a.fk", Line: 9, Column: 1}, `[lsp: line 9 is past the end of a.fk (5 lines)]`},
		{Request{Action: "hover", Path: "a.fk"}, `[lsp: hover needs a symbol (the identifier as written in the code), or a line and a column]`},
		{Request{Action: "hover", Path: "dir/c.fk", Symbol: "failing"}, `[lsp: fake: hover failed: internal error: failing]`},
		{Request{Action: "definition", Path: "b.fk", Symbol: "z"}, `[lsp: no definition found for the symbol at b.fk:1:1]`},
		{Request{Action: "definition", Path: "a.fk", Line: 2, Column: 5}, `[lsp: no definition found for the symbol at a.fk:2:5]`},
		{Request{Action: "rename", Path: "a.fk", Symbol: "greet"}, `[lsp: rename needs new_name — call lsp again with {"action": "rename", "path": "a.fk", "symbol": "greet", "new_name": "<the new identifier>"}; do not use edit_file for a rename]`},
		{Request{Action: "rename", Path: "a.fk", Line: 3, Column: 9}, `[lsp: rename needs new_name — call lsp again with {"action": "rename", "path": "a.fk", "line": 3, "column": 9, "new_name": "<the new identifier>"}; do not use edit_file for a rename]`},
		{Request{Action: "Symbols", Path: "sym.fk"}, "function one [func()] line 1\n  field a line 2\n  field b line 3\nfunction two [func()] line 4"},
		{Request{Action: "symbols", Path: "b.fk"}, "no symbols in b.fk"},
	} {
		if got := run(m, c.req); got != c.want {
			t.Errorf("%+v:\n got %q\nwant %q", c.req, got, c.want)
		}
	}
	// references: every open file, sorted by path then position, each
	// place once, with the header.
	run(m, Request{Action: "symbols", Path: "b.fk"})
	expect(t, m, Request{Action: "references", Path: "a.fk", Symbol: "greet"},
		"5 reference(s):\na.fk:1:4 // greet is in a comment first\na.fk:2:5 x = greet NULL\na.fk:3:8 ü😀 def greet\na.fk:5:12 y = \"é😀\" + greet\nb.fk:1:5 z = greet")
}

func TestFakeDiagnostics(t *testing.T) {
	m, dir, _ := fakeManager(t, "", map[string]string{"a.fk": "ok\n😀 ERROR here\n", "b.fk": "fine\n"})
	want := "1 diagnostic(s) in a.fk:\nerror a.fk:2:3 bad thing\n  second line [fake]"
	expect(t, m, Request{Action: "diagnostics", Path: "a.fk"}, want)
	// Nothing changed since: what was last published, at once.
	expect(t, m, Request{Action: "diagnostics", Path: "a.fk"}, strings.Replace(want, "a.fk:", "a.fk (as last published):", 1))
	expect(t, m, Request{Action: "diagnostics", Path: "b.fk"}, "no diagnostics: b.fk is clean")
	// The file changes on disk: it is sent again and the new publication
	// is awaited.
	writeFiles(t, dir, map[string]string{"a.fk": "ok now\n"})
	expect(t, m, Request{Action: "diagnostics", Path: "a.fk"}, "no diagnostics: a.fk is clean")
	expect(t, m, Request{Action: "diagnostics", Path: "a.fk"}, "no diagnostics: a.fk is clean (as last published)")
}

func TestFakeDiagnosticsNeverPublished(t *testing.T) {
	m, _, _ := fakeManager(t, "silent", map[string]string{"a.fk": "ERROR\n"})
	expect(t, m, Request{Action: "diagnostics", Path: "a.fk"}, "no diagnostics received for a.fk within 3s (the server may still be loading the project, or it does not publish diagnostics for this file; call again in a moment)")
}

// Before each request the file is read from disk: didOpen the first time,
// didChange when it moved, nothing when it did not. Changed tells the
// server about writes with didChangeWatchedFiles.
func TestFakeSync(t *testing.T) {
	m, dir, logPath := fakeManager(t, "", map[string]string{"a.fk": "def greet\n", "b.fk": "x\n"})
	run(m, Request{Action: "symbols", Path: "a.fk"})
	run(m, Request{Action: "symbols", Path: "a.fk"})
	writeFiles(t, dir, map[string]string{"a.fk": "def greet2\n"})
	expect(t, m, Request{Action: "symbols", Path: "a.fk"}, "function greet2 [func()] line 1")
	log := fakeLog(t, logPath)
	if strings.Count(log, "open a.fk") != 1 || strings.Count(log, "change a.fk") != 1 {
		t.Errorf("want one didOpen and one didChange:\n%s", log)
	}
	writeFiles(t, dir, map[string]string{"a.fk": "def greet3\n"})
	m.Changed(filepath.Join(dir, "a.fk"), filepath.Join(dir, "b.fk"), filepath.Join(dir, "gone.fk"))
	wants := []string{"change a.fk", "watched a.fk 2", "watched b.fk 2", "watched gone.fk 3"}
	// The notifications are asynchronous: wait for them.
	log = waitLog(t, logPath, func(log string) bool {
		for _, want := range wants {
			if !strings.Contains(log[strings.LastIndex(log, "documentSymbol"):], want) {
				return false
			}
		}
		return true
	})
	for _, want := range wants {
		if !strings.Contains(log[strings.LastIndex(log, "documentSymbol"):], want) {
			t.Errorf("after Changed, the server did not receive %q:\n%s", want, log)
		}
	}
}

func TestFakeRenameChanges(t *testing.T) {
	m, dir, logPath := fakeManager(t, "", map[string]string{"a.fk": greetFile, "b.fk": "z = greet\n"})
	os.Chmod(filepath.Join(dir, "b.fk"), 0o600)
	run(m, Request{Action: "symbols", Path: "b.fk"})
	expect(t, m, Request{Action: "rename", Path: "a.fk", Symbol: "greet", NewName: "hello"},
		"renamed to hello: 5 edit(s) in 2 file(s)\na.fk: 4 edit(s)\nb.fk: 1 edit(s)")
	if got := readFile(t, filepath.Join(dir, "a.fk")); got != strings.ReplaceAll(greetFile, "greet", "hello") {
		t.Errorf("a.fk = %q", got)
	}
	if st, _ := os.Stat(filepath.Join(dir, "b.fk")); st.Mode().Perm() != 0o600 {
		t.Errorf("b.fk lost its mode: %v", st.Mode())
	}
	// The server heard of the new content (asynchronously: wait for it).
	told := func(log string) bool {
		return strings.Contains(log, "change a.fk") && strings.Contains(log, "watched b.fk 2")
	}
	if log := waitLog(t, logPath, told); !told(log) {
		t.Errorf("the server was not told:\n%s", log)
	}
	// The multi-word form: symbol, line, column and new name in one string.
	expect(t, m, Request{Action: "rename", Path: "b.fk", Symbol: "hello 1 5 greet"},
		"renamed to greet: 5 edit(s) in 2 file(s)\na.fk: 4 edit(s)\nb.fk: 1 edit(s)")
	expect(t, m, Request{Action: "rename", Path: "b.fk", Symbol: "greet", NewName: "greet"}, `[lsp: "greet" is already called greet: nothing to rename]`)
}

func TestFakeRenameDocumentChanges(t *testing.T) {
	m, dir, _ := fakeManager(t, "document-changes", map[string]string{"greet.fk": "def greet\n", "b.fk": "greet\n"})
	run(m, Request{Action: "symbols", Path: "b.fk"})
	expect(t, m, Request{Action: "rename", Path: "greet.fk", Symbol: "greet", NewName: "hello"},
		"renamed to hello: 2 edit(s) in 2 file(s)\nb.fk: 1 edit(s)\nhello.fk: 1 edit(s)\ngreet.fk → hello.fk: file renamed")
	if _, err := os.Stat(filepath.Join(dir, "greet.fk")); err == nil {
		t.Error("greet.fk still exists")
	}
	if got := readFile(t, filepath.Join(dir, "hello.fk")); got != "def hello\n" {
		t.Errorf("hello.fk = %q", got)
	}
	// The renamed file is served from its new name.
	expect(t, m, Request{Action: "definition", Path: "hello.fk", Symbol: "hello"}, "hello.fk:1:5 def hello")
}

func TestFakeRenameOutsideRefused(t *testing.T) {
	m, dir, _ := fakeManager(t, "document-changes,outside", map[string]string{"a.fk": "def greet\n"})
	got := run(m, Request{Action: "rename", Path: "a.fk", Symbol: "greet", NewName: "hello"})
	if got != "[lsp: fake: rename failed: the server wants to change /etc/hostname, outside the project — nothing written]" {
		t.Errorf("got %q", got)
	}
	if readFile(t, filepath.Join(dir, "a.fk")) != "def greet\n" {
		t.Error("a.fk was written")
	}
}

func TestFakeNoCapability(t *testing.T) {
	m, _, _ := fakeManager(t, "no-rename", map[string]string{"a.fk": "def greet\n"})
	expect(t, m, Request{Action: "rename", Path: "a.fk", Symbol: "greet", NewName: "x"}, "[lsp: fake: rename failed: the server does not provide rename]")
}

// A server that dies is reported with its exit status and last stderr
// line, and is started again on the next call.
func TestFakeCrashRestart(t *testing.T) {
	m, _, _ := fakeManager(t, "", map[string]string{"a.fk": "crash\ndef greet\n"})
	expect(t, m, Request{Action: "symbols", Path: "a.fk"}, "function greet [func()] line 2")
	first := m.Process("fake")
	// The call is made again once on a new server, which crashes too.
	expect(t, m, Request{Action: "definition", Path: "a.fk", Symbol: "crash"}, "[lsp: fake: definition failed: the server exited (exit status 3): fake: crashing on purpose]")
	expect(t, m, Request{Action: "definition", Path: "a.fk", Symbol: "greet"}, "a.fk:2:5 def greet")
	if p := m.Process("fake"); p.Starts != 3 || p.PID == first.PID || p.PID == 0 {
		t.Errorf("after the crash: %+v, before %+v", p, first)
	}
}

// Stopping a server stops what it started (its process group), even when
// it never answers shutdown; its stderr is drained meanwhile.
func TestFakeStopKillsGroup(t *testing.T) {
	m, _, logPath := fakeManager(t, "child,hang-shutdown,stderr", map[string]string{"a.fk": "def greet\n"})
	expect(t, m, Request{Action: "symbols", Path: "a.fk"}, "function greet [func()] line 1")
	pid := m.Process("fake").PID
	var child int
	for _, line := range strings.Split(fakeLog(t, logPath), "\n") {
		if s, ok := strings.CutPrefix(line, "child "); ok {
			child, _ = strconv.Atoi(s)
		}
	}
	if child == 0 {
		t.Fatal("the fake did not start its child")
	}
	done := make(chan struct{})
	go func() { m.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("Close hangs on a server that never answers shutdown")
	}
	for _, p := range []int{pid, child} {
		if processAlive(p) {
			t.Errorf("process %d survived Close", p)
		}
	}
	expect(t, m, Request{Action: "symbols", Path: "a.fk"}, "[lsp: fake: could not start "+m.servers[0].Command+": mm is stopping]")
}

func TestMissingServerWarning(t *testing.T) {
	m, warnings := New([]config.LSPServer{{Name: "ghost", Command: "mm-no-such-language-server", Extensions: []string{".go"}}}, Options{Root: t.TempDir()})
	want := []string{
		"[warning: lsp server ghost (mm-no-such-language-server) not found on the PATH — skipped]",
		"[warning: no lsp server found on the PATH — the lsp tool is not declared]",
	}
	if strings.Join(warnings, "\n") != strings.Join(want, "\n") || len(m.Servers()) != 0 {
		t.Errorf("warnings %q, servers %v", warnings, m.Servers())
	}
	m, warnings = New([]config.LSPServer{
		{Name: "ghost", Command: "mm-no-such-language-server", Extensions: []string{".go"}},
		{Name: "sh", Command: "sh", Extensions: []string{".sh", ".BASH"}},
	}, Options{Root: t.TempDir()})
	if len(warnings) != 1 || m.Describe() != "sh (.sh, .BASH)" || m.serverFor("x.bash") == nil {
		t.Errorf("warnings %q, describe %q", warnings, m.Describe())
	}
	if m, w := New(nil, Options{}); len(w) != 0 || len(m.Servers()) != 0 {
		t.Errorf("no servers configured: %q", w)
	}
}

// A server that stops reading its input cannot block mm: the write gives
// up, the server is taken for dead, started again, and the call reports
// it when the new one is deaf too.
func TestFakeDeafServer(t *testing.T) {
	defer func(d time.Duration) { writeTimeout = d }(writeTimeout)
	writeTimeout = 200 * time.Millisecond
	big := "def greet\n" + strings.Repeat("// padding to fill the pipe\n", 40000)
	m, _, _ := fakeManager(t, "deaf", map[string]string{"a.fk": big})
	got := run(m, Request{Action: "symbols", Path: "a.fk"})
	if got != "[lsp: fake: cannot send a.fk: the server read nothing for 200ms]" {
		t.Errorf("got %q", got)
	}
	if p := m.Process("fake"); p.Starts != 2 {
		t.Errorf("not restarted once: %+v", p)
	}
}
