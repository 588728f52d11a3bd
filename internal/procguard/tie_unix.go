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
	if cmd.SysProcAttr == nil || !cmd.SysProcAttr.Setpgid || cmd.Process == nil {
		return func() {}
	}
	id := "tie" + strconv.FormatInt(tieSeq.Add(1), 10)
	send(msg{kind: "tie", id: id, n: int64(cmd.Process.Pid)})
	return func() { send(msg{kind: "untie", id: id}) }
}
