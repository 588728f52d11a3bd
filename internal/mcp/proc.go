package mcp

import (
	"os"
	"os/exec"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"mm/internal/procguard"
)

// proc is one running stdio server.
type proc struct {
	cmd    *exec.Cmd
	stdin  *os.File
	stdout *os.File
	pgid   int
	exited chan struct{}
	stderr *procguard.Tail
}

// startProc runs a stdio server in dir, in its own process group (npx
// starts node under it: stopping the group stops both) and tied to mm:
// if mm is killed, the server dies too (procguard.Tie: Pdeathsig on
// Linux, on a thread that lives as long as the child, procguard.StartTied).
func startProc(command string, args, env []string, dir string, sn *schemas) (*proc, sdk.Transport, error) {
	cmd := exec.Command(command, args...)
	cmd.Dir = dir
	cmd.Env = env
	procguard.Tie(cmd)
	// Pipes of our own, not StdoutPipe: Wait would close the read end as
	// soon as the server exits, under the SDK's feet.
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, nil, err
	}
	p := &proc{cmd: cmd, stdin: inW, stdout: outR, exited: make(chan struct{}), stderr: &procguard.Tail{Max: 4096}}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, p.stderr
	cmd.WaitDelay = time.Second
	err = procguard.StartTied(cmd, p.exited, func(error) {})
	inR.Close() // the child has its copies
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, nil, err
	}
	p.pgid = cmd.Process.Pid
	// frames bounds a message to maxMessage itself; the SDK's own bound,
	// past which it would stop reading the server, is only a backstop.
	return p, &sdk.IOTransport{Reader: newFrames(outR, sn, maxMessage), Writer: inW, MaxLineLength: 2 * maxMessage}, nil
}

// stop ends the server's process group: SIGTERM, then SIGKILL for what is
// still there after a moment. It returns once the server has exited.
func (p *proc) stop() {
	p.stdin.Close()
	procguard.StopGroup(p.pgid)
	select {
	case <-p.exited:
	case <-time.After(2 * time.Second):
	}
	// The group may outlive its leader (npx's node): kill what is left.
	procguard.KillGroup(p.pgid)
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
	}
	p.stdout.Close()
}
