//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package session

import "os"

// lockFile: no lock where flock is not available, so every resumed
// session goes on in a new file (two mm never share one).
func lockFile(string) (*os.File, error) { return nil, errNoLocks }
