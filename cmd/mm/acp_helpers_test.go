package main_test

// A line-based JSON-RPC client for mm -acp: it writes raw lines (so a
// test can send what no SDK would) and records every line both ways; when
// the test ends, every line is checked against the ACP schema
// (validateACPTraffic), but for the bad input a test sends on purpose.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mm/internal/llmtest"
	"mm/internal/testdeps"
)

// acpWait is the ceiling of every wait: generous, never a pace.
const acpWait = 30 * time.Second

// acpLine is one line on the wire.
type acpLine struct {
	FromAgent bool
	Raw       []byte
	// Bad marks a line a test sent as bad input on purpose: the schema
	// check leaves it, and mm's answer to it, out.
	Bad bool
}

// acpMsg is one message mm sent.
type acpMsg struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *struct {
		Code    int             `json:"code"`
		Message string          `json:"message"`
		Data    json.RawMessage `json:"data"`
	} `json:"error"`
	Raw []byte `json:"-"`
}

// isResponse reports whether m answers request id.
func (m acpMsg) isResponse(id int) bool {
	return m.Method == "" && string(bytes.TrimSpace(m.ID)) == fmt.Sprint(id)
}

// update is a session/update's params.update, decoded.
func (m acpMsg) update() map[string]any {
	if m.Method != "session/update" {
		return nil
	}
	var p struct {
		SessionID string         `json:"sessionId"`
		Update    map[string]any `json:"update"`
	}
	json.Unmarshal(m.Params, &p)
	if p.Update != nil {
		p.Update["_session"] = p.SessionID
	}
	return p.Update
}

type acpClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stderr *lockedBuffer

	mu      sync.Mutex
	lines   []acpLine
	msgs    []acpMsg
	notify  chan struct{} // closed and replaced at each message
	eof     bool          // stdout ended
	nextID  int
	exited  chan struct{}
	exitErr error
	read1   chan struct{} // closed when stdout has been read to its end
	// killed: the test killed mm on purpose, so the requests it left
	// unanswered are no fault of mm's (the rest of its traffic is checked).
	killed bool
}

// kill9 kills mm with SIGKILL, as a test of what survives it does, and
// waits for it to be gone.
func (c *acpClient) kill9() {
	c.mu.Lock()
	c.killed = true
	c.mu.Unlock()
	c.cmd.Process.Signal(syscall.SIGKILL)
	<-c.exited
}

// startACP starts mm -acp in dir against srv (when given).
func startACP(t *testing.T, dir string, srv *llmtest.Server, env []string, args ...string) *acpClient {
	t.Helper()
	cmd := exec.Command(mmBin, append([]string{"-acp"}, args...)...)
	cmd.Dir = dir
	cmd.Env = cleanEnv()
	if srv != nil {
		cmd.Env = append(cmd.Env, "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	}
	cmd.Env = append(cmd.Env, env...)
	c := &acpClient{t: t, cmd: cmd, stderr: &lockedBuffer{}, notify: make(chan struct{}), exited: make(chan struct{}), read1: make(chan struct{})}
	cmd.Stderr = c.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c.stdin = stdin
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go c.read(stdout)
	go func() {
		// Wait closes stdout: read it to its end first, so that no last
		// line is lost (the ceiling only guards against a child that
		// kept mm's stdout open, itself a fault the check reports).
		select {
		case <-c.read1:
		case <-time.After(acpWait):
		}
		err := cmd.Wait()
		c.mu.Lock()
		c.exitErr = err
		c.mu.Unlock()
		close(c.exited)
	}()
	t.Cleanup(func() {
		c.stdin.Close()
		select {
		case <-c.exited:
		case <-time.After(acpWait):
			cmd.Process.Kill()
			<-c.exited
			t.Errorf("mm -acp did not end when its stdin closed")
		}
		if s := c.stderr.String(); strings.Contains(s, "panic:") || strings.Contains(s, "goroutine ") || strings.Contains(s, "DATA RACE") {
			t.Errorf("mm panicked:\n%s", s)
		}
		c.checkSchema()
	})
	return c
}

// read records mm's stdout: every line must be a JSON-RPC message.
func (c *acpClient) read(r io.Reader) {
	defer close(c.read1)
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			line = bytes.TrimSuffix(line, []byte("\n"))
			var m acpMsg
			var probe struct {
				JSONRPC string `json:"jsonrpc"`
			}
			if json.Unmarshal(line, &m) != nil || json.Unmarshal(line, &probe) != nil || probe.JSONRPC != "2.0" {
				c.t.Errorf("stdout carries something else than a JSON-RPC message: %q", line)
			}
			m.Raw = line
			c.mu.Lock()
			c.lines = append(c.lines, acpLine{FromAgent: true, Raw: line})
			c.msgs = append(c.msgs, m)
			close(c.notify)
			c.notify = make(chan struct{})
			c.mu.Unlock()
		}
		if err != nil {
			c.mu.Lock()
			c.eof = true
			close(c.notify)
			c.notify = make(chan struct{})
			c.mu.Unlock()
			return
		}
	}
}

// send writes one raw line.
func (c *acpClient) send(raw string) {
	c.t.Helper()
	c.sendRaw(raw, false)
}

// sendRaw writes one raw line; bad marks it as bad input on purpose.
func (c *acpClient) sendRaw(raw string, bad bool) {
	c.t.Helper()
	c.mu.Lock()
	c.lines = append(c.lines, acpLine{Raw: []byte(raw), Bad: bad})
	c.mu.Unlock()
	if _, err := io.WriteString(c.stdin, raw+"\n"); err != nil {
		c.t.Fatalf("writing to mm: %v", err)
	}
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// request sends a request and returns its id.
func (c *acpClient) request(method string, params any) int {
	c.t.Helper()
	return c.requestRaw(method, params, false)
}

// callBad sends a request the schema rejects on purpose (an unknown
// method, params without a required field) and waits for its answer.
func (c *acpClient) callBad(method string, params any) acpMsg {
	c.t.Helper()
	return c.response(c.requestRaw(method, params, true))
}

func (c *acpClient) requestRaw(method string, params any, bad bool) int {
	c.t.Helper()
	c.mu.Lock()
	c.nextID++
	id := c.nextID
	c.mu.Unlock()
	c.sendRaw(mustJSON(c.t, map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params}), bad)
	return id
}

// notifyMM sends a notification.
func (c *acpClient) notifyMM(method string, params any) {
	c.t.Helper()
	c.send(mustJSON(c.t, map[string]any{"jsonrpc": "2.0", "method": method, "params": params}))
}

// respond answers a request of mm's.
func (c *acpClient) respond(id json.RawMessage, result any) {
	c.t.Helper()
	c.send(mustJSON(c.t, map[string]any{"jsonrpc": "2.0", "id": id, "result": result}))
}

// call sends a request and waits for its answer.
func (c *acpClient) call(method string, params any) acpMsg {
	c.t.Helper()
	return c.response(c.request(method, params))
}

// response waits for the answer to request id.
func (c *acpClient) response(id int) acpMsg {
	c.t.Helper()
	_, m := c.waitFrom(0, fmt.Sprintf("the answer to request %d", id), func(m acpMsg) bool { return m.isResponse(id) })
	return m
}

// result decodes a successful answer.
func (c *acpClient) result(m acpMsg, v any) {
	c.t.Helper()
	if m.Error != nil {
		c.t.Fatalf("error answer: %s", m.Raw)
	}
	if err := json.Unmarshal(m.Result, v); err != nil {
		c.t.Fatalf("result %s: %v", m.Result, err)
	}
}

// mark is where the next message will be, for waits on what follows.
func (c *acpClient) mark() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.msgs)
}

// waitFrom waits for the first message at index >= from that matches,
// and returns its index.
func (c *acpClient) waitFrom(from int, what string, match func(acpMsg) bool) (int, acpMsg) {
	c.t.Helper()
	deadline := time.After(acpWait)
	for {
		c.mu.Lock()
		for i := from; i < len(c.msgs); i++ {
			if match(c.msgs[i]) {
				m := c.msgs[i]
				c.mu.Unlock()
				return i, m
			}
		}
		notify, eof := c.notify, c.eof
		c.mu.Unlock()
		if eof {
			c.t.Fatalf("mm's output ended before %s\nstderr:\n%s", what, c.stderr.String())
		}
		select {
		case <-notify:
		case <-deadline:
			c.t.Fatalf("no %s after %s\nstdout:\n%s\nstderr:\n%s", what, acpWait, c.transcript(), c.stderr.String())
		}
	}
}

// waitUpdate waits for a session/update of session sid that matches.
func (c *acpClient) waitUpdate(from int, sid, what string, match func(u map[string]any) bool) (int, map[string]any) {
	c.t.Helper()
	i, m := c.waitFrom(from, what, func(m acpMsg) bool {
		u := m.update()
		return u != nil && u["_session"] == sid && match(u)
	})
	return i, m.update()
}

// waitRequest waits for a request of mm's with that method.
func (c *acpClient) waitRequest(from int, method string) (int, acpMsg) {
	c.t.Helper()
	return c.waitFrom(from, "a "+method+" request", func(m acpMsg) bool { return m.Method == method && len(m.ID) > 0 })
}

// updates are the session/updates of sid in messages [from, to).
func (c *acpClient) updates(sid string, from, to int) []map[string]any {
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []map[string]any
	if to < 0 || to > len(c.msgs) {
		to = len(c.msgs)
	}
	for _, m := range c.msgs[from:to] {
		if u := m.update(); u != nil && u["_session"] == sid {
			out = append(out, u)
		}
	}
	return out
}

// transcript is mm's stdout so far.
func (c *acpClient) transcript() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	var b strings.Builder
	for _, m := range c.msgs {
		b.Write(m.Raw)
		b.WriteByte('\n')
	}
	return b.String()
}

// Lines is every line both ways, in order (for a schema validator).
func (c *acpClient) Lines() []acpLine {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]acpLine(nil), c.lines...)
}

// initialize runs the handshake with a client that has no fs/*.
func (c *acpClient) initialize() map[string]any {
	c.t.Helper()
	var res map[string]any
	c.result(c.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}), &res)
	return res
}

// newSession opens a session in cwd and returns its id.
func (c *acpClient) newSession(cwd string) string {
	c.t.Helper()
	var res struct {
		SessionID string `json:"sessionId"`
	}
	c.result(c.call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}), &res)
	if res.SessionID == "" {
		c.t.Fatal("session/new gave no sessionId")
	}
	return res.SessionID
}

// prompt sends a text prompt and returns its request id.
func (c *acpClient) prompt(sid, text string) int {
	c.t.Helper()
	return c.request("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": text}}})
}

// stopReason waits for a prompt's answer and returns its stop reason.
func (c *acpClient) stopReason(id int) string {
	c.t.Helper()
	var res struct {
		StopReason string `json:"stopReason"`
	}
	c.result(c.response(id), &res)
	return res.StopReason
}

// closeInput closes mm's stdin and waits for mm to end; it returns the
// exit code.
func (c *acpClient) closeInput() int {
	c.t.Helper()
	c.stdin.Close()
	select {
	case <-c.exited:
	case <-time.After(acpWait):
		c.t.Fatalf("mm -acp did not end after its stdin closed\nstderr:\n%s", c.stderr.String())
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if ee, ok := c.exitErr.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if c.exitErr != nil {
		c.t.Fatalf("mm: %v", c.exitErr)
	}
	return 0
}

// text joins the texts of the chunks of one kind in us.
func chunkText(us []map[string]any, kind string) string {
	var b strings.Builder
	for _, u := range us {
		if u["sessionUpdate"] == kind {
			if c, ok := u["content"].(map[string]any); ok {
				s, _ := c["text"].(string)
				b.WriteString(s)
			}
		}
	}
	return b.String()
}

// ofCall is the updates about one tool call, in order.
func ofCall(us []map[string]any, id string) []map[string]any {
	var out []map[string]any
	for _, u := range us {
		if u["toolCallId"] == id {
			out = append(out, u)
		}
	}
	return out
}

// conformant is the traffic the schema check sees: every line but the bad
// input sent on purpose and mm's answer to each bad request (the first
// response after it with its id; a line with no readable id is answered
// with id null, which the check already pairs with nothing).
func conformant(lines []acpLine) []acpMessage {
	var out []acpMessage
	badIDs := map[string]int{} // id → bad requests still unanswered
	for _, l := range lines {
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method *string         `json:"method"`
		}
		json.Unmarshal(l.Raw, &m)
		id := string(bytes.TrimSpace(m.ID))
		switch {
		case l.Bad:
			if !l.FromAgent && id != "" && id != "null" {
				badIDs[id]++
			}
			continue
		case l.FromAgent && m.Method == nil && badIDs[id] > 0:
			badIDs[id]--
			continue
		}
		out = append(out, acpMessage{FromAgent: l.FromAgent, Raw: l.Raw})
	}
	return out
}

// checkSchema validates the connection's traffic against the ACP schema
// (see acp_schema_helpers_test.go), at the end of the test.
func (c *acpClient) checkSchema() {
	c.t.Helper()
	v, err := loadACPSchema()
	if err != nil {
		testdeps.Unchecked(c.t, "ACP schema of the traffic ("+err.Error()+")")
		return
	}
	c.mu.Lock()
	killed := c.killed
	c.mu.Unlock()
	for _, p := range v.violations(conformant(c.Lines())) {
		if killed && strings.Contains(p, ": mm never answered this ") {
			continue
		}
		c.t.Errorf("ACP schema: %s", p)
	}
}
