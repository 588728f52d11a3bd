package userstate

import (
	"os"
	"path/filepath"
	"testing"
)

func TestDir(t *testing.T) {
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := Dir(getenv); got != "" {
		t.Errorf("nothing set: %q", got)
	}
	env["HOME"] = "/home/ann"
	if got := Dir(getenv); got != "/home/ann/.local/state/mm" {
		t.Errorf("HOME: %q", got)
	}
	env["XDG_STATE_HOME"] = "rel"
	if got := Dir(getenv); got != "/home/ann/.local/state/mm" {
		t.Errorf("a relative XDG_STATE_HOME is ignored: %q", got)
	}
	env["XDG_STATE_HOME"] = "/st"
	if got := Dir(getenv); got != "/st/mm" {
		t.Errorf("XDG: %q", got)
	}
}

func TestEnsure(t *testing.T) {
	base := t.TempDir()
	getenv := func(k string) string {
		if k == "XDG_STATE_HOME" {
			return filepath.Join(base, "state")
		}
		return ""
	}
	dir, err := Ensure(getenv)
	if err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(dir)
	if err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Fatalf("%v %v", fi, err)
	}
	if _, err := Ensure(getenv); err != nil {
		t.Errorf("again: %v", err)
	}
	// A link in place of the directory is refused.
	os.Remove(dir)
	os.Symlink(t.TempDir(), dir)
	if _, err := Ensure(getenv); err == nil {
		t.Error("a link is accepted")
	}
	if _, err := Ensure(func(string) string { return "" }); err != ErrNoDir {
		t.Errorf("no dir: %v", err)
	}
}
