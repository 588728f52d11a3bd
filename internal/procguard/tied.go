package procguard

import (
	"os/exec"
	"runtime"
)

// StartTied starts a long-lived child (a language server, an asked
// agent, an MCP server) prepared by Tie, and waits for it on a goroutine
// locked to its OS thread: Linux ties a child's parent-death signal
// (SysProcAttr.Pdeathsig) to the thread that forked it, so that thread
// must live as long as the child, or the child would be killed when the
// Go runtime retires the thread. The child's process group is handed to
// the guardian until it is reaped: where there is no parent-death signal
// that is what kills the child when mm dies, and it kills what the child
// started in its group (Windows: the child joins mm's kill-on-close Job
// object).
// It returns once the child runs, or cmd.Start's error (exited is then
// closed at once). When the child ends, ended gets cmd.Wait's error and
// then exited is closed.
func StartTied(cmd *exec.Cmd, exited chan struct{}, ended func(error)) error {
	started := make(chan error, 1)
	go func() {
		runtime.LockOSThread() // never unlocked: the thread ends with the child
		if err := cmd.Start(); err != nil {
			started <- err
			close(exited)
			return
		}
		release := hold(cmd)
		started <- nil
		err := cmd.Wait()
		release()
		ended(err)
		close(exited)
	}()
	return <-started
}
