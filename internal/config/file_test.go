package config

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The bound is MaxFileSize bytes exactly: a file of that size is read, one
// byte more is refused without being parsed.
func TestLoadSizeBound(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "agent.yaml")
	head := "model: bound\n"
	os.WriteFile(p, []byte(head+strings.Repeat("#", MaxFileSize-len(head))), 0o644)
	if cfg, err := Load(p, env(nil)); err != nil || cfg.Model != "bound" {
		t.Fatalf("a file of exactly %d bytes: %v", MaxFileSize, err)
	}
	os.WriteFile(p, []byte(head+strings.Repeat("#", MaxFileSize-len(head)+1)), 0o644)
	if _, err := Load(p, env(nil)); err == nil || err.Error() != "[config error: "+p+": cannot read the file: it is larger than 1 MiB]" {
		t.Fatalf("one byte more: %v", err)
	}
	// CheckFile is the same check on the stat alone.
	if err := CheckFile(p); err == nil || err.Error() != "it is larger than 1 MiB" {
		t.Errorf("CheckFile: %v", err)
	}
	if err := CheckFile("/dev/zero"); err == nil || !strings.HasPrefix(err.Error(), "it is not a regular file") {
		t.Errorf("CheckFile /dev/zero: %v", err)
	}
}
