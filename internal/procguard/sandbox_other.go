//go:build !linux && !darwin

package procguard

import "os/exec"

var platformTempDirs []string

// sandboxUnavailable: there is no sandbox for bash on this system yet
// (Windows: docs/platforms.md).
func sandboxUnavailable() string { return "no sandbox for bash on this system" }

func confine(cmd *exec.Cmd, s *Sandbox) (func() error, error) { return nil, nil }

func ownDenial(string) bool { return false }
