package procguard

import (
	"os"
	"os/exec"
	"path/filepath"
)

var platformTempDirs = []string{"/tmp"}

// seatbeltExec is macOS's sandbox runner (deprecated in name, used by
// Codex and Claude Code alike, and by the system's own tools).
const seatbeltExec = "/usr/bin/sandbox-exec"

func sandboxUnavailable() string {
	if _, err := os.Stat(seatbeltExec); err != nil {
		return "no " + seatbeltExec
	}
	return ""
}

// confine runs the shell under sandbox-exec with s's profile. Seatbelt
// matches resolved paths, so the writable directories are given with
// their links resolved (/tmp is /private/tmp, $TMPDIR under
// /private/var/folders).
func confine(cmd *exec.Cmd, s *Sandbox) (func() error, error) {
	var dirs []string
	for _, w := range s.Writable {
		dirs = append(dirs, w)
		if r, err := filepath.EvalSymlinks(w); err == nil && r != w {
			dirs = append(dirs, r)
		}
	}
	cmd.Args = append([]string{"sandbox-exec", "-p", SeatbeltProfile(s, dirs), cmd.Path}, cmd.Args[1:]...)
	cmd.Path = seatbeltExec
	return nil, nil
}
