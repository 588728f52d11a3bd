// Package mcp runs the Model Context Protocol servers of mcp.servers (and
// of an ACP session's mcpServers) and calls their tools: the
// tools.MCPServers behind the declared MCP tools (docs/mcp.md).
package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"mm/internal/config"
	"mm/internal/tools"
)

// Options are what the servers of one session need.
type Options struct {
	Servers []config.MCPServer
	// Dir is the working directory of the stdio servers; Env their
	// environment (mm's, without its secrets), before each server's env.
	Dir string
	Env []string
	// Timeout bounds one call, and one start (handshake and tool list).
	Timeout time.Duration
	// MaxOutput cuts a result's text.
	MaxOutput int
	// Warn reports what happens after start-up (a server ready late, one
	// that stopped for good). nil drops it.
	Warn func(string)
}

// callCancelled is what the model reads of a call the turn's cancel
// stopped once the server had it.
const callCancelled = "[error: cancelled while it ran]"

// Manager is the servers of one session.
type Manager struct {
	opts    Options
	servers []*server
	byName  map[string]*server
	started time.Time

	ctx    context.Context
	cancel context.CancelFunc
	wg     sync.WaitGroup

	mu      sync.Mutex
	closed  bool
	waited  bool
	pending map[string]bool // servers not settled when Wait returned
}

var _ tools.MCPServers = (*Manager)(nil)

// Start starts every server at once, each on its own goroutine, and
// returns without waiting for them (Wait does).
func Start(opts Options) *Manager {
	if opts.Timeout <= 0 {
		opts.Timeout = time.Minute
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &Manager{opts: opts, byName: map[string]*server{}, started: time.Now(), ctx: ctx, cancel: cancel}
	for _, c := range opts.Servers {
		s := &server{cfg: c, m: m, settled: make(chan struct{})}
		m.servers = append(m.servers, s)
		m.byName[c.Name] = s
		m.wg.Add(1)
		go func() {
			defer m.wg.Done()
			s.first(ctx)
			m.late(s)
		}()
	}
	return m
}

// Wait waits until every server is ready or failed, or until grace has
// passed since Start, and returns the banner's warnings: the servers
// that did not start, and those not ready yet (their tools come when they
// are, see Pending).
func (m *Manager) Wait(grace time.Duration) []string {
	timer := time.NewTimer(time.Until(m.started.Add(grace)))
	defer timer.Stop()
	var warnings []string
	m.mu.Lock()
	m.pending = map[string]bool{}
	m.mu.Unlock()
	for _, s := range m.servers {
		select {
		case <-s.settled:
		case <-timer.C:
			// Fired once: the later servers are looked at without waiting.
			timer.Reset(0)
		}
		select {
		case <-s.settled:
			if e := s.startError(); e != "" {
				warnings = append(warnings, fmt.Sprintf("[warning: the MCP server %s did not start: %s]", s.cfg.Name, e))
			}
		default:
			m.mu.Lock()
			m.pending[s.cfg.Name] = true
			m.mu.Unlock()
			warnings = append(warnings, fmt.Sprintf("[warning: the MCP server %s is not ready after %s — its tools come when it is]", s.cfg.Name, grace.Round(time.Second)))
		}
	}
	m.mu.Lock()
	m.waited = true
	m.mu.Unlock()
	return warnings
}

// late reports the end of a start that Wait did not see.
func (m *Manager) late(s *server) {
	m.mu.Lock()
	pending := m.pending[s.cfg.Name]
	closed := m.closed
	m.mu.Unlock()
	// A start cut short by Close is mm stopping, not a failed start.
	if !pending || closed {
		return
	}
	if e := s.startError(); e != "" {
		m.warn(fmt.Sprintf("[warning: the MCP server %s did not start: %s]", s.cfg.Name, e))
	} else {
		m.warn(fmt.Sprintf("[the MCP server %s is ready — its tools are declared from the next prompt on]", s.cfg.Name))
	}
}

// Pending reports whether a server is still starting.
func (m *Manager) Pending() bool {
	for _, s := range m.servers {
		select {
		case <-s.settled:
		default:
			return true
		}
	}
	return false
}

func (s *server) startError() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.startErr
}

// Tools lists the ready servers' tools: the servers in configuration
// order, each server's tools in its own order.
func (m *Manager) Tools() []tools.MCPTool {
	var out []tools.MCPTool
	for _, s := range m.servers {
		select {
		case <-s.settled:
		default:
			continue
		}
		s.mu.Lock()
		out = append(out, s.tools...)
		s.mu.Unlock()
	}
	return out
}

// Call runs one tool and returns what the model reads.
func (m *Manager) Call(ctx context.Context, server, tool string, args json.RawMessage) (string, bool) {
	s := m.byName[server]
	if s == nil {
		return fmt.Sprintf("[error: there is no MCP server named %q]", server), true
	}
	timeout := m.opts.Timeout
	wait := time.NewTimer(timeout)
	defer wait.Stop()
	select {
	case <-s.settled:
	case <-ctx.Done():
		return "[not run: the turn was cancelled]", true
	case <-wait.C:
		return fmt.Sprintf("[error: the MCP server %s is still starting after %s]", server, timeout), true
	}
	c, msg := s.live(ctx)
	if c == nil {
		return msg, true
	}
	if len(args) == 0 {
		args = json.RawMessage("{}")
	}
	res, err, late := m.callOnce(ctx, c, tool, args)
	if err != nil && !late && c.rt != nil && ctx.Err() == nil && c.rt.unrun() {
		// The HTTP server did not run the call: it no longer knows the
		// session (it restarted), or the request did not reach it. A
		// new session, and the call once more.
		if c, msg = s.reconnect(ctx, c); c == nil {
			return msg, true
		}
		res, err, late = m.callOnce(ctx, c, tool, args)
	}
	if err != nil {
		return s.callError(ctx, c, err, late, tool), true
	}
	out := tools.Truncate(resultText(res), m.opts.MaxOutput)
	if res.IsError {
		if out == "" {
			out = "(no message)"
		}
		return fmt.Sprintf("[error: %s/%s failed] %s", server, tool, out), true
	}
	return out, false
}

// callOnce sends one call; late says it ran out of mcp.timeout.
func (m *Manager) callOnce(ctx context.Context, c *conn, tool string, args json.RawMessage) (*sdk.CallToolResult, error, bool) {
	cctx, cancel := context.WithTimeout(ctx, m.opts.Timeout)
	defer cancel()
	if c.p != nil {
		// A server that dies during the call ends the call at once.
		go func() {
			select {
			case <-c.p.exited:
				cancel()
			case <-cctx.Done():
			}
		}()
	}
	if c.rt != nil {
		c.rt.reset()
	}
	res, err := c.cs.CallTool(cctx, &sdk.CallToolParams{Name: tool, Arguments: args})
	return res, err, errors.Is(cctx.Err(), context.DeadlineExceeded)
}

// callError is what the model reads of a call that failed without an
// answer of the server's.
func (s *server) callError(ctx context.Context, c *conn, err error, late bool, tool string) string {
	server, timeout := s.cfg.Name, s.m.opts.Timeout
	if ctx.Err() != nil {
		// The server had the call (the SDK tells it the call is
		// cancelled): it may have done part of it, as a cancelled bash
		// command may (bash's "[error: cancelled]").
		return callCancelled
	}
	if n, ok := tooLarge(err); ok {
		return fmt.Sprintf("[error: the result of %s/%s is over the limit of %d MiB for one MCP message (it is %.1f MiB)]", server, tool, maxMessage>>20, float64(n)/(1<<20))
	}
	if late {
		return fmt.Sprintf("[error: the MCP server %s did not answer the call of %s within %s (mcp.timeout)]", server, tool, timeout)
	}
	if c.rt != nil {
		if msg := s.httpError(c, tool); msg != "" {
			return msg
		}
	} else if !c.alive() || c.dying(err) {
		s.mu.Lock()
		again := s.restarted
		s.mu.Unlock()
		if again {
			return fmt.Sprintf("[error: the MCP server %s stopped during the call of %s, after it was restarted once: its tools cannot be used in this session]", server, tool)
		}
		return fmt.Sprintf("[error: the MCP server %s stopped during the call of %s; it is started again at the next call]", server, tool)
	}
	return fmt.Sprintf("[error: %s/%s: %v]", server, tool, err)
}

// dying reports whether a stdio call failed because the server is
// exiting: its output ended (EOF) a moment before the kernel reaped it.
func (c *conn) dying(err error) bool {
	var we *jsonrpc.Error
	if c.p == nil || errors.As(err, &we) {
		return false // an answer of the server's
	}
	select {
	case <-c.p.exited:
		return true
	case <-time.After(time.Second):
		return false
	}
}

// httpError words an HTTP server's failed call as a stdio server's are
// worded, from what the requests met; "" when they met nothing of note.
// A session that cannot serve another call is left for a new one.
func (s *server) httpError(c *conn, tool string) string {
	server := s.cfg.Name
	lost, noAnswer, status := c.rt.state()
	switch {
	case lost:
		c.broken.Store(true)
		return fmt.Sprintf("[error: the MCP server %s did not know the session mm opened for the call of %s; it is connected again at the next call]", server, tool)
	case noAnswer != nil:
		c.broken.Store(true)
		return fmt.Sprintf("[error: the MCP server %s did not answer the call of %s (%s); it is connected again at the next call]", server, tool, reason(noAnswer))
	case status != "":
		return fmt.Sprintf("[error: the MCP server %s answered the call of %s with HTTP %s]", server, tool, status)
	case !c.alive():
		return fmt.Sprintf("[error: the MCP server %s closed the connection during the call of %s; it is connected again at the next call]", server, tool)
	}
	return ""
}

// Close stops every server and waits until they have exited.
func (m *Manager) Close() {
	if m == nil {
		return
	}
	m.mu.Lock()
	if m.closed {
		m.mu.Unlock()
		return
	}
	m.closed = true
	m.mu.Unlock()
	m.cancel()
	m.wg.Wait()
	var wg sync.WaitGroup
	for _, s := range m.servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s.stop()
		}()
	}
	wg.Wait()
}

func (m *Manager) isClosed() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.closed
}

func (m *Manager) warn(msg string) {
	if m.opts.Warn != nil {
		m.opts.Warn(msg)
	}
}
