// Package userstate places the user's own state: what mm remembers for
// the user across projects (trusted project files, the key that signs the
// user's sessions, the shadow repositories of /undo), as opposed to a
// project's .mm/ directory, which the project's owner controls.
package userstate

import (
	"errors"
	"os"
	"path/filepath"
)

// Dir is $XDG_STATE_HOME/mm, else ~/.local/state/mm (HOME; on Windows
// USERPROFILE when HOME is unset); "" when no variable gives an absolute
// directory (the XDG rule: a relative one is ignored). getenv nil means
// os.Getenv.
func Dir(getenv func(string) string) string {
	if getenv == nil {
		getenv = os.Getenv
	}
	if dir := getenv("XDG_STATE_HOME"); filepath.IsAbs(dir) {
		return filepath.Join(dir, "mm")
	}
	for _, v := range homeVars {
		if home := getenv(v); filepath.IsAbs(home) {
			return filepath.Join(home, ".local", "state", "mm")
		}
	}
	return ""
}

// ErrNoDir is Ensure's error when no directory can be placed.
var ErrNoDir = errors.New("no state directory: neither XDG_STATE_HOME nor HOME is set to an absolute path")

// Ensure returns Dir, created (with its parents) when missing, the last
// element private to the user (0700). A Dir that exists but is not a
// directory, or is a symbolic link, is an error: another user or a
// project must not be able to redirect what mm remembers.
func Ensure(getenv func(string) string) (string, error) {
	dir := Dir(getenv)
	if dir == "" {
		return "", ErrNoDir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o700); err != nil {
		return "", err
	}
	if err := os.Mkdir(dir, 0o700); err != nil && !errors.Is(err, os.ErrExist) {
		return "", err
	}
	fi, err := os.Lstat(dir)
	if err != nil {
		return "", err
	}
	if !fi.IsDir() {
		return "", &os.PathError{Op: "state directory", Path: dir, Err: errors.New("not a directory")}
	}
	return dir, nil
}
