package repl

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A paste is one line of the file, and reads back as the same text.
func TestHistoryKeepsPastesOneLineEach(t *testing.T) {
	dir := t.TempDir()
	h, warning := openHistory(dir)
	if warning != "" {
		t.Fatal(warning)
	}
	for _, q := range []string{"plain question", "a paste\n\tindented\nend", "⏎ starts like a quoted line", `"quoted" by the user`} {
		h.add(q)
	}
	h.close()
	b, _ := os.ReadFile(filepath.Join(dir, ".mm", "history"))
	if n := strings.Count(string(b), "\n"); n != 4 {
		t.Fatalf("%d lines for 4 questions:\n%s", n, b)
	}
	h, _ = openHistory(dir)
	defer h.close()
	want := []string{"plain question", "a paste\n\tindented\nend", "⏎ starts like a quoted line", `"quoted" by the user`}
	if strings.Join(h.lines, "|") != strings.Join(want, "|") {
		t.Errorf("read back %q", h.lines)
	}
}

// An older file reads as before (a line that only looks quoted is taken
// as typed), and what a quoted line holds is made inert.
func TestHistoryReadsOldFilesAndSanitises(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".mm"), 0o700)
	old := "an old question\n⏎ not quoted at all\n" + histQuoted + `"evil \x1b]52;c;QQ==\x07\nsecond line"` + "\n"
	os.WriteFile(filepath.Join(dir, ".mm", "history"), []byte(old), 0o600)
	h, warning := openHistory(dir)
	if warning != "" {
		t.Fatal(warning)
	}
	defer h.close()
	want := []string{"an old question", "⏎ not quoted at all", "evil ^[]52;c;QQ==^G\nsecond line"}
	if strings.Join(h.lines, "|") != strings.Join(want, "|") {
		t.Errorf("read %q, want %q", h.lines, want)
	}
}

// Cut to historyLimit, the file keeps the pastes quoted.
func TestHistoryRewriteKeepsPastes(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, ".mm"), 0o700)
	var b strings.Builder
	for i := 0; i < historyLimit; i++ {
		b.WriteString("q\n")
	}
	b.WriteString(encodeEntry("last\npaste") + "\n")
	os.WriteFile(filepath.Join(dir, ".mm", "history"), []byte(b.String()), 0o600)
	h, _ := openHistory(dir)
	h.close()
	if len(h.lines) != historyLimit || h.lines[historyLimit-1] != "last\npaste" {
		t.Fatalf("%d lines, last %q", len(h.lines), h.lines[len(h.lines)-1])
	}
	data, _ := os.ReadFile(filepath.Join(dir, ".mm", "history"))
	if n := strings.Count(string(data), "\n"); n != historyLimit || !strings.HasSuffix(string(data), histQuoted+`"last\npaste"`+"\n") {
		t.Errorf("%d lines, ends %q", n, string(data)[len(data)-30:])
	}
}
