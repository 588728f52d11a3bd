package procguard

import (
	"os/exec"
	"syscall"
)

// hasPdeathsig: Linux kills a child when the thread that forked it dies.
const hasPdeathsig = true

// Tie prepares cmd, before it starts, as a child that must not outlive
// mm: a process group of its own (stopping the group stops what the
// child started; Ctrl-C in mm's terminal is mm's to handle) and, on
// Linux, a parent-death SIGKILL (start it on a thread that lives as long
// as the child: StartTied). The guardian kills the whole group when mm
// dies (StartTied hands it over; the bash tool's group is the
// guardian's through Watch and Started): on the portable path (macOS, or
// MM_PROCGUARD_PORTABLE=1) that is all there is.
func Tie(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if !portable {
		cmd.SysProcAttr.Pdeathsig = syscall.SIGKILL
	}
}
