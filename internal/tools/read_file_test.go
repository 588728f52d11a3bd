package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestReadFile(t *testing.T) {
	ten := ""
	for _, w := range []string{"one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"} {
		ten += w + "\n"
	}
	o := fileDir(t, map[string]string{
		"f.txt":     "a\nb\nc\n",
		"nofinal":   "a\nb",
		"ten.txt":   ten,
		"empty":     "",
		"blank.txt": "a\n\nc\n",
		"crlf.txt":  "a\r\nb\r\nc\r\n",
		"bin":       "ab\x00cd\n",
		"latin1":    "caf\xe9\n",
		"sub/x.txt": "x\n",
	})
	r := NewReadFile(o)
	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"whole file keeps its final newline", map[string]any{"path": "f.txt"}, "a\nb\nc\n"},
		{"no final newline is added", map[string]any{"path": "nofinal"}, "a\nb"},
		{"a range short of the end drops the final newline", map[string]any{"path": "f.txt", "start": 1, "end": 2}, "a\nb"},
		{"a range reaching the end keeps it", map[string]any{"path": "f.txt", "start": 2, "end": 3}, "b\nc\n"},
		{"start alone runs to the end", map[string]any{"path": "f.txt", "start": 3}, "c\n"},
		{"end alone starts at line 1", map[string]any{"path": "f.txt", "end": 1}, "a"},
		{"0 means the start and the end", map[string]any{"path": "f.txt", "start": 0, "end": 0}, "a\nb\nc\n"},
		{"negative means 0", map[string]any{"path": "f.txt", "start": -3, "end": -1}, "a\nb\nc\n"},
		{"end past the last line is the last line", map[string]any{"path": "f.txt", "start": 2, "end": 99}, "b\nc\n"},
		{"one line", map[string]any{"path": "f.txt", "start": 2, "end": 2}, "b"},
		{"numbered", map[string]any{"path": "f.txt", "numbered": true}, "1│ a\n2│ b\n3│ c\n"},
		{"numbered range", map[string]any{"path": "f.txt", "start": 2, "end": 2, "numbered": true}, "2│ b"},
		{"numbered widths align", map[string]any{"path": "ten.txt", "start": 8, "numbered": true}, " 8│ eight\n 9│ nine\n10│ ten\n"},
		{"numbered empty line has no trailing space", map[string]any{"path": "blank.txt", "numbered": true}, "1│ a\n2│\n3│ c\n"},
		{"CRLF shown as it is", map[string]any{"path": "crlf.txt", "start": 1, "end": 2}, "a\r\nb"},
		{"start past the end", map[string]any{"path": "f.txt", "start": 9}, "start 9 is past the end of f.txt (3 lines)"},
		{"end before start", map[string]any{"path": "f.txt", "start": 3, "end": 2}, "end 2 is before start 3 (f.txt has 3 lines)"},
		{"missing file", map[string]any{"path": "nope.go"}, "nope.go does not exist. Create it with write_file"},
		{"directory", map[string]any{"path": "sub"}, "sub is a directory, not a file"},
		{"binary", map[string]any{"path": "bin"}, "bin is a binary file (it contains NUL bytes) — read_file reads text files only"},
		{"not UTF-8", map[string]any{"path": "latin1"}, "latin1 is not UTF-8 text — read_file reads text files only"},
		{"empty file", map[string]any{"path": "empty"}, "empty is empty"},
		{"nested relative path", map[string]any{"path": "sub/x.txt"}, "x\n"},
		{"absolute path", map[string]any{"path": filepath.Join(o.Dir, "f.txt"), "end": 1}, "a"},
		{"no path", map[string]any{"path": ""}, "[error: read_file needs a path]"},
	} {
		if got := runFileTool(t, r, tc.args); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestReadFileTruncatesToMaxOutput(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 5000; i++ {
		b.WriteString("line of some length\n")
	}
	o := fileDir(t, map[string]string{"big.txt": b.String()})
	o.MaxOutput = 1000
	got := runFileTool(t, NewReadFile(o), map[string]any{"path": "big.txt"})
	if !strings.Contains(got, " characters cut ...]") || len([]rune(got)) > 1100 {
		t.Fatalf("not truncated to about 1000 characters: %d, %q…", len(got), got[:min(len(got), 80)])
	}
	if !strings.HasPrefix(got, "line of some length\n") || !strings.HasSuffix(got, "line of some length\n") {
		t.Fatal("truncation lost the start or the end")
	}
	// A range inside MaxOutput is whole.
	got = runFileTool(t, NewReadFile(o), map[string]any{"path": "big.txt", "start": 10, "end": 12})
	if got != "line of some length\nline of some length\nline of some length" {
		t.Fatalf("range: %q", got)
	}
}

func TestReadFileRefusesWhatIsNotAFile(t *testing.T) {
	o := fileDir(t, nil)
	fifo := filepath.Join(o.Dir, "pipe")
	if err := makeFIFO(fifo); err != nil {
		t.Fatal(err)
	}
	// Reading a FIFO would block forever: it must be refused at once.
	if got := runFileTool(t, NewReadFile(o), map[string]any{"path": "pipe"}); got != "pipe is not a regular file" {
		t.Fatalf("got %q", got)
	}
	big := filepath.Join(o.Dir, "huge")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	if got := runFileTool(t, NewReadFile(o), map[string]any{"path": "huge"}); !strings.HasPrefix(got, "huge is too large (67108865 bytes; the file tools stop at 64 MiB)") {
		t.Fatalf("got %q", got)
	}
}

// A FIFO swapped in after the stat check (here: just before the open) is
// refused once opened, instead of blocking the read forever.
func TestReadFileFIFOSwappedAfterStat(t *testing.T) {
	o := fileDir(t, map[string]string{"f.txt": "a\n"})
	beforeOpen = func(path string) {
		os.Remove(path)
		if err := makeFIFO(path); err != nil {
			t.Error(err)
		}
	}
	defer func() { beforeOpen = nil }()
	got := runWithin(t, func() string { return runFileTool(t, NewReadFile(o), map[string]any{"path": "f.txt"}) })
	if got != "cannot read f.txt: not a regular file" {
		t.Fatalf("got %q", got)
	}
}

// A read that blocks whatever mm does (a dead mount) does not hold the
// turn: cancelling it returns at once.
func TestReadFileCancelledWhileBlocked(t *testing.T) {
	o := fileDir(t, map[string]string{"f.txt": "a\n"})
	blocked, release := make(chan struct{}), make(chan struct{})
	beforeOpen = func(string) { close(blocked); <-release }
	defer func() { close(release); beforeOpen = nil }()
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-blocked; cancel() }()
	got := runWithin(t, func() string { return NewReadFile(o).Run(ctx, json.RawMessage(`{"path":"f.txt"}`)) })
	if got != "[error: cancelled]" {
		t.Fatalf("got %q", got)
	}
	// Already cancelled: nothing is read.
	if got := NewReadFile(o).Run(ctx, json.RawMessage(`{"path":"f.txt"}`)); got != "[error: cancelled]" {
		t.Fatalf("cancelled before: got %q", got)
	}
}

// /proc/kmsg is a "regular" file of size 0 whose read blocks until the
// kernel logs something (root only): read_file returns at once.
func TestReadFileProcKmsg(t *testing.T) {
	f, err := os.Open("/proc/kmsg")
	if err != nil {
		t.Skipf("/proc/kmsg: %v", err)
	}
	f.Close()
	got := runWithin(t, func() string { return runFileTool(t, NewReadFile(FileOptions{}), map[string]any{"path": "/proc/kmsg"}) })
	if !strings.HasPrefix(got, "cannot read /proc/kmsg: ") {
		t.Fatalf("got %.200q", got)
	}
}

// runWithin runs f and fails if it has not returned within bashPromptly.
func runWithin(t *testing.T, f func() string) string {
	t.Helper()
	done := make(chan string, 1)
	go func() { done <- f() }()
	select {
	case s := <-done:
		return s
	case <-time.After(bashPromptly):
		t.Fatalf("still blocked after %s", bashPromptly)
		return ""
	}
}
