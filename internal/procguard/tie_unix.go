//go:build linux || darwin

package procguard

import (
	"os/exec"
	"strconv"
	"sync/atomic"
)

var tieSeq atomic.Int64

// hold hands a started child's process group to the guardian, which kills
// it if mm dies before the returned function says the child was reaped:
// where there is no parent-death signal, that is what kills the child;
// with one (Linux), it kills what the child started in its group and
// the parent-death signal does not reach (tsserver under
// typescript-language-server, node under npx). The group's id is
// the child's pid: it cannot be reused while the child is unreaped, and
// the guardian is told as soon as Wait returns (a group that is reused in
// between and mm dying in that instant would be killed: a narrow window
// that Pdeathsig does not have).
func hold(cmd *exec.Cmd) (release func()) {
	if cmd.SysProcAttr == nil || !(cmd.SysProcAttr.Setpgid || cmd.SysProcAttr.Setsid) || cmd.Process == nil {
		return func() {}
	}
	id := "tie" + strconv.FormatInt(tieSeq.Add(1), 10)
	send(msg{kind: "tie", id: id, n: int64(cmd.Process.Pid)})
	return func() { send(msg{kind: "untie", id: id}) }
}

// NoTerminal makes a Tie'd cmd the leader of a session of its own
// (setsid) instead of a process group of mm's session: it has no
// controlling terminal, so /dev/tty does not open (ENXIO). The model's
// commands run so: one that writes to /dev/tty would put its bytes on
// mm's screen past every sanitiser (over the window mode's rows), and
// one that reads it (git's or ssh's password prompt, sudo) would be
// stopped as a background job until its timeout; without a terminal they
// fail at once, in their own words. The session's id is the child's pid,
// as the group's was: the group is stopped and handed to the guardian
// the same way.
func NoTerminal(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		return
	}
	cmd.SysProcAttr.Setpgid, cmd.SysProcAttr.Setsid = false, true
}
