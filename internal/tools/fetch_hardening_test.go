package tools

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fetch_content's output never replaces a read-only file.
func TestFetchOutputReadOnlyRefused(t *testing.T) {
	srv := fetchServer(t)
	dir := t.TempDir()
	p := filepath.Join(dir, "doc.md")
	os.WriteFile(p, []byte("keep"), 0o444)
	got := NewFetchContent(FetchOptions{Dir: dir}).Run(context.Background(), callJSON(map[string]any{"url": srv.URL + "/doc", "output": "doc.md"}))
	if !strings.Contains(got, "cannot write doc.md: the file is read-only (mode 0444)") {
		t.Errorf("got %q", got)
	}
	if b, _ := os.ReadFile(p); string(b) != "keep" {
		t.Errorf("doc.md = %q", b)
	}
	noTempFiles(t, dir)
}
