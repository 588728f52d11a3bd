package procguard

import (
	"os/exec"
	"syscall"
)

// hasPdeathsig: macOS has no parent-death signal.
const hasPdeathsig = false

// Tie prepares cmd, before it starts, as a child that must not outlive
// mm: a process group of its own, which the guardian kills when mm dies
// (StartTied hands it over; the bash tool's group is the guardian's
// through Watch and Started).
func Tie(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}
