package procguard

import "os/exec"

// Confine is the seam for the bash tool's sandbox (a later issue): it is
// called on the shell's command just before it starts, after Tie, and
// would wrap it per platform (Landlock rules applied in the child on
// Linux; `sandbox-exec -p <Seatbelt profile>` prepended to cmd.Args on
// macOS). There is no sandbox yet: it leaves cmd as it is.
func Confine(cmd *exec.Cmd) error { return nil }
