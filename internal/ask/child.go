package ask

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/acp"
	"mm/internal/config"
	"mm/internal/procguard"
	"mm/internal/version"
)

// startWait bounds a child's start (its engine finds the model server)
// and its initialize answer.
const startWait = 60 * time.Second

// child is one running `mm -acp` and its connection.
type child struct {
	name   string
	cmd    *exec.Cmd
	stdin  *os.File
	conn   *acpsdk.ClientSideConnection
	stderr *procguard.Tail
	exited chan struct{}
	pgid   int
	// Title is the child's agentInfo.title.
	title string

	order *order // requests behind the notifications before them

	mu    sync.Mutex
	calls map[acpsdk.SessionId]*call
	// waitErr is how the process ended, once exited is closed.
	waitErr error
}

// startError is a child that did not start: code is mm's exit code when
// it exited (1 a configuration error, 3 no model server), reason the last
// line it wrote on stderr.
type startError struct {
	code   int
	reason string
}

func (e *startError) Error() string { return e.reason }

// reasonOf is an error as the reason of a failed text: one line, without
// brackets of its own.
func reasonOf(err error) string {
	s := strings.Join(strings.Fields(err.Error()), " ")
	return strings.Trim(s, "[]")
}

// childEnv is this process's environment for a child: its own settings
// come from its file, so this agent's AGENT_PROVIDER, AGENT_MODEL and
// AGENT_BASE_URL are left out; AGENT_YOLO is false, as the reference
// has it: the child submits each call that changes something to this
// agent, whose rule (its entry's yolo, else this agent's) answers it
// (call.permission); MM_ASK_DEPTH is one deeper. AGENT_TRACE is
// inherited.
func (p *Pool) childEnv() []string {
	drop := map[string]bool{"AGENT_PROVIDER": true, "AGENT_MODEL": true, "AGENT_BASE_URL": true, "AGENT_YOLO": true, DepthVar: true, "MM_PROCGUARD": true}
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !drop[k] {
			env = append(env, kv)
		}
	}
	return append(env, "AGENT_YOLO=false", DepthVar+"="+strconv.Itoa(p.depth+1))
}

// start runs the child of agent name and initializes the connection.
func (p *Pool) start(ctx context.Context, name string, w *watch) (*child, error) {
	bin := p.opts.Binary
	if bin == "" {
		var err error
		if bin, err = os.Executable(); err != nil {
			return nil, fmt.Errorf("cannot find mm's own executable: %v", err)
		}
	}
	// Not a file (a device, a directory): the child would read a device
	// for ever, so it is not started.
	if fi, err := os.Stat(p.entries[name].Path); err == nil && !fi.Mode().IsRegular() {
		return nil, &startError{code: exitConfig, reason: fmt.Sprintf("config error: %s is not a file", p.entries[name].Path)}
	}
	cmd := exec.Command(bin, "-acp", "-config", p.entries[name].Path)
	cmd.Env = p.childEnv()
	// A process group of its own: Ctrl-C in mm's terminal is mm's to
	// handle (it cancels the ask), and Close kills the group. Tied to mm:
	// killed with it, even by SIGKILL (Pdeathsig on Linux, which fires
	// when the thread that started the child exits, hence StartTied).
	procguard.Tie(cmd)
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin = stdinR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		stdinR.Close()
		stdin.Close()
		return nil, err
	}
	c := &child{name: name, cmd: cmd, stdin: stdin, stderr: &procguard.Tail{Max: 8 << 10}, exited: make(chan struct{}), calls: map[acpsdk.SessionId]*call{}, order: newOrder()}
	cmd.Stderr = c.stderr
	err = procguard.StartTied(cmd, c.exited, func(err error) {
		c.mu.Lock()
		c.waitErr = err
		c.mu.Unlock()
	})
	stdinR.Close()
	if err != nil {
		stdin.Close()
		return nil, fmt.Errorf("cannot start %s: %v", bin, err)
	}
	c.pgid = cmd.Process.Pid
	c.conn = acpsdk.NewClientSideConnection(&client{c: c}, &lockedWriter{w: stdin}, filterUpdates(stdout, c.order))
	c.conn.SetLogger(slog.New(slog.NewTextHandler(io.Discard, nil)))

	ictx, cancel := context.WithTimeout(ctx, startWait)
	defer cancel()
	type result struct {
		resp acpsdk.InitializeResponse
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := c.conn.Initialize(ictx, acpsdk.InitializeRequest{
			ProtocolVersion: acpsdk.ProtocolVersionNumber,
			// Forms for its questions; _mm/progress for the signs of life
			// its session updates do not show (acp.ProgressMethod).
			ClientCapabilities: acpsdk.ClientCapabilities{
				Elicitation: &acpsdk.ElicitationCapabilities{Form: &acpsdk.ElicitationFormCapabilities{}},
				Meta:        map[string]any{acp.ProgressCapability: true},
			},
			ClientInfo: &acpsdk.Implementation{Name: "mm", Version: version.String()},
		})
		got <- result{resp, err}
	}()
	select {
	case r := <-got:
		if r.err == nil {
			w.alive()
			if r.resp.AgentInfo != nil && r.resp.AgentInfo.Title != nil {
				c.title = *r.resp.AgentInfo.Title
			}
			return c, nil
		}
		if ctx.Err() != nil {
			c.stop(time.Second)
			return nil, ctx.Err()
		}
		select {
		case <-c.exited:
		case <-time.After(2 * time.Second):
		}
		c.stop(time.Second)
		return nil, c.endError(r.err)
	case <-c.exited:
		return nil, c.endError(nil)
	case <-w.fired:
		c.stop(time.Second)
		return nil, fmt.Errorf("it did not start within %s (watchdogTimeout)", config.FormatDuration(w.d))
	}
}

// endError says why a child ended (or failed to answer): its exit code
// and the last line it wrote on stderr.
func (c *child) endError(err error) error {
	select {
	case <-c.exited:
	default:
		if err != nil {
			return err
		}
	}
	c.mu.Lock()
	werr := c.waitErr
	c.mu.Unlock()
	code := -1
	var ee *exec.ExitError
	if errors.As(werr, &ee) {
		code = ee.ExitCode()
	}
	reason := c.stderr.LastLine()
	if reason == "" {
		reason = "its process ended"
		if werr != nil {
			reason += " (" + werr.Error() + ")"
		}
	}
	return &startError{code: code, reason: reason}
}

// lost reports whether the connection to the child is gone (it died, or
// closed its stdout); the process is then given a moment to end, and
// killed.
func (c *child) lost() bool {
	select {
	case <-c.conn.Done():
	default:
		return false
	}
	select {
	case <-c.exited:
	case <-time.After(cancelWait):
		if c.pgid > 0 {
			procguard.KillGroup(c.pgid)
		}
	}
	return true
}

// death is the reason of an ask whose child ended while it ran.
func (c *child) death() string {
	<-c.exited
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.waitErr == nil {
		return "its process ended"
	}
	return "its process ended (" + c.waitErr.Error() + ")"
}

// closed reports whether the connection has ended.
func (c *child) closed() bool {
	select {
	case <-c.conn.Done():
		return true
	default:
		return false
	}
}

// gone reports whether the process has ended.
func (c *child) gone() bool {
	select {
	case <-c.exited:
		return true
	default:
		return false
	}
}

// stop closes the child's stdin (mm -acp then stops its turns and exits)
// and kills its process group if it is still there after wait.
func (c *child) stop(wait time.Duration) {
	c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(wait):
	}
	if c.pgid > 0 {
		procguard.KillGroup(c.pgid)
	}
	<-c.exited
}

func (c *child) callOf(id acpsdk.SessionId) *call {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.calls[id]
}

// lockedWriter writes each message whole: the SDK writes one message a
// Write, from several goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// filterUpdates passes the child's messages to the SDK, except the
// session/update variants the SDK does not know: it would decode them
// into the wrong known one (acp.DecodeSessionNotification), so they are
// dropped, as the protocol asks of a client that does not know them. An
// elicitation/create gets its sessionId copied into _meta, where the
// SDK's request type keeps it.
func filterUpdates(r io.Reader, o *order) io.Reader {
	pr, pw := io.Pipe()
	go func() {
		br := bufio.NewReaderSize(r, 64<<10)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				line = rewrite(line, o)
				if line != nil {
					if _, werr := pw.Write(line); werr != nil {
						return
					}
				}
			}
			if err != nil {
				pw.CloseWithError(err)
				return
			}
		}
	}()
	return pr
}

// sessionMetaKey carries an elicitation's sessionId through the SDK.
const sessionMetaKey = "mm/sessionId"

func rewrite(line []byte, o *order) []byte {
	if !bytes.Contains(line, []byte(`"session/`)) && !bytes.Contains(line, []byte(`"elicitation/create"`)) {
		return line
	}
	var msg map[string]json.RawMessage
	if json.Unmarshal(line, &msg) != nil {
		return line
	}
	var method string
	json.Unmarshal(msg["method"], &method)
	switch method {
	case acpsdk.ClientMethodSessionUpdate:
		if _, known, err := acp.DecodeSessionNotification(msg["params"]); err == nil && !known {
			return nil
		}
		o.read(method, msg["params"])
	case acpsdk.ClientMethodSessionRequestPermission:
		o.read(method, msg["params"])
	case acpsdk.ClientMethodElicitationCreate:
		o.read(method, msg["params"])
		req, err := acp.DecodeElicitation(msg["params"])
		if err != nil {
			return line
		}
		var params map[string]any
		if json.Unmarshal(msg["params"], &params) != nil {
			return line
		}
		meta, _ := params["_meta"].(map[string]any)
		if meta == nil {
			meta = map[string]any{}
		}
		meta[sessionMetaKey] = string(req.SessionId)
		params["_meta"] = meta
		b, err := json.Marshal(params)
		if err != nil {
			return line
		}
		msg["params"] = b
		out, err := json.Marshal(msg)
		if err != nil {
			return line
		}
		return append(out, '\n')
	}
	return line
}
