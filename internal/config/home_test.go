package config

import (
	"path/filepath"
	"testing"
)

// The user's file is under the first home variable that is set to an
// absolute path (HOME, then on Windows USERPROFILE); XDG_CONFIG_HOME first.
func TestUserPathHomeVars(t *testing.T) {
	defer func(v []string) { homeVars = v }(homeVars)
	homeVars = []string{"HOME", "USERPROFILE"}
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	if got := UserPath(getenv); got != "" {
		t.Errorf("nothing set: %q", got)
	}
	env["USERPROFILE"] = "/users/ann"
	if got, want := UserPath(getenv), filepath.Join("/users/ann", ".config", "mm", ImplicitPath); got != want {
		t.Errorf("profile: %q, want %q", got, want)
	}
	env["HOME"] = "relative"
	if got, want := UserPath(getenv), filepath.Join("/users/ann", ".config", "mm", ImplicitPath); got != want {
		t.Errorf("a relative HOME is skipped: %q, want %q", got, want)
	}
	env["HOME"] = "/home/ann"
	if got, want := UserPath(getenv), filepath.Join("/home/ann", ".config", "mm", ImplicitPath); got != want {
		t.Errorf("HOME first: %q, want %q", got, want)
	}
	env["XDG_CONFIG_HOME"] = "/cfg"
	if got, want := UserPath(getenv), filepath.Join("/cfg", "mm", ImplicitPath); got != want {
		t.Errorf("XDG first: %q, want %q", got, want)
	}
}
