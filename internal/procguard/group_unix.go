//go:build linux || darwin

package procguard

import "syscall"

// StopGroup asks the process group pgid (a tied child's: its pid) to end
// (SIGTERM).
func StopGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGTERM) }

// KillGroup kills the process group pgid (SIGKILL).
func KillGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGKILL) }

// Exited reports whether pid, a child not yet waited for, has exited (it
// is a zombie, or gone): a hook that did, while a child of its own still
// holds its output open, is not late, only its pipes are.
func Exited(pid int) bool { return isZombie(pid) }
