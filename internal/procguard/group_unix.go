//go:build linux || darwin

package procguard

import "syscall"

// StopGroup asks the process group pgid (a tied child's: its pid) to end
// (SIGTERM).
func StopGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGTERM) }

// KillGroup kills the process group pgid (SIGKILL).
func KillGroup(pgid int) { syscall.Kill(-pgid, syscall.SIGKILL) }
