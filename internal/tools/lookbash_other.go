//go:build !windows

package tools

import "os/exec"

func lookBash() (string, error) { return exec.LookPath("bash") }
