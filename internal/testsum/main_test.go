package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeGo is a `go` that prints testdata/events.jsonl (what `go test -json`
// printed on a package with a failed subtest, skips for want of `make
// test-deps` and others, a test that left a check out) and exits code.
func fakeGo(t *testing.T, code string) string {
	t.Helper()
	events, _ := filepath.Abs(filepath.Join("testdata", "events.jsonl"))
	p := filepath.Join(t.TempDir(), "go")
	script := "#!/bin/sh\n[ \"$1 $2\" = 'test -json' ] || exit 9\ncat '" + events + "'\necho 'go: a word of its own' >&2\nexit " + code + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return p
}

// What plain go test prints, then the count; the exit code is go test's.
func TestSummaryOfAFailedRun(t *testing.T) {
	var out, errb bytes.Buffer
	code := run([]string{"-go", fakeGo(t, "1"), "-count=1", "./p"}, &out, &errb)
	want := `--- FAIL: TestA (0.00s)
    p_test.go:4: a log
    --- FAIL: TestA/bad (0.00s)
        p_test.go:6: bad log
        p_test.go:6: bad err
FAIL
FAIL	t2j/p	0.00s
test: 4 passed, 2 failed, 3 skipped (2 of them, and a check in 1 passing test, need what ` + "`make test-deps`" + ` installs)
`
	if code != 1 || out.String() != want {
		t.Errorf("exit %d, stdout:\n%s\nwant:\n%s", code, out.String(), want)
	}
	if errb.String() != "go: a word of its own\n" {
		t.Errorf("stderr %q", errb.String())
	}
}

func TestExitCodeIsGoTests(t *testing.T) {
	for _, code := range []string{"0", "1", "2"} {
		var out bytes.Buffer
		if got := run([]string{"-go", fakeGo(t, code), "./..."}, &out, &bytes.Buffer{}); got != int(code[0]-'0') {
			t.Errorf("go test exits %s: testsum exits %d", code, got)
		}
		if !strings.HasPrefix(lastLine(out.String()), "test: 4 passed, 2 failed, 3 skipped") {
			t.Errorf("last line %q", lastLine(out.String()))
		}
	}
	if got := run([]string{"-go", filepath.Join(t.TempDir(), "no-go")}, &bytes.Buffer{}, &bytes.Buffer{}); got != 2 {
		t.Errorf("no go command: exit %d", got)
	}
}

// The closing line in each case: what CI reads ("N passed, N failed",
// then ", N skipped").
func TestClosingLine(t *testing.T) {
	for _, c := range []struct {
		s    summary
		want string
	}{
		{summary{passed: 10}, "test: 10 passed, 0 failed, 0 skipped"},
		{summary{passed: 10, skipped: 3}, "test: 10 passed, 0 failed, 3 skipped"},
		{summary{passed: 10, skipped: 3, skippedDeps: 1}, "test: 10 passed, 0 failed, 3 skipped (1 of them needs what `make test-deps` installs)"},
		{summary{passed: 10, skipped: 3, skippedDeps: 3}, "test: 10 passed, 0 failed, 3 skipped (3 of them need what `make test-deps` installs)"},
		{summary{passed: 10, passedDeps: 4}, "test: 10 passed, 0 failed, 0 skipped (a check in 4 passing tests needs what `make test-deps` installs)"},
	} {
		if got := c.s.line(); got != c.want {
			t.Errorf("got  %q\nwant %q", got, c.want)
		}
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return lines[len(lines)-1]
}

// A subtest whose own name holds a slash (t.Run("session/new")) belongs
// to its test: when another test of the package fails, the passing one
// is not printed as if it had never ended. Real go test, on a module
// made here.
func TestSlashInSubtestName(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"go.mod": "module slash\n\ngo 1.21\n",
		"s_test.go": `package slash

import "testing"

func TestGood(t *testing.T) {
	t.Run("session/new", func(t *testing.T) { t.Log("good log") })
}

func TestBad(t *testing.T) { t.Error("bad error") }
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	cwd, _ := os.Getwd()
	if err := os.Chdir(dir); err != nil {
		t.Fatal(err)
	}
	defer os.Chdir(cwd)
	code := run([]string{"-count=1", "."}, &out, &bytes.Buffer{})
	if code != 1 {
		t.Errorf("exit %d", code)
	}
	if strings.Contains(out.String(), "good log") || !strings.Contains(out.String(), "bad error") {
		t.Errorf("stdout:\n%s", out.String())
	}
	if got := lastLine(out.String()); got != "test: 2 passed, 1 failed, 0 skipped" {
		t.Errorf("last line %q", got)
	}
}
