package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"net"
	"slices"
	"sync"
	"sync/atomic"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"mm/internal/config"
	"mm/internal/tools"
	"mm/internal/version"
)

// server is one configured MCP server and its current connection.
type server struct {
	cfg config.MCPServer
	m   *Manager

	// settled is closed when the first start has ended, ready or not.
	settled chan struct{}

	mu sync.Mutex
	// startErr is why the first start failed ("" = it did not).
	startErr string
	conn     *conn
	tools    []tools.MCPTool
	// restarted says the server was started again once after it
	// stopped; gone says it stopped again, or did not restart: its
	// calls fail from then on.
	restarted bool
	gone      string
}

// conn is one running session with a server.
type conn struct {
	cs   *sdk.ClientSession
	p    *proc     // nil over HTTP
	rt   *headerRT // nil over stdio
	done chan struct{}
	// broken: the HTTP session cannot serve another call (the server
	// forgot it, or did not answer); the next call opens a new one.
	broken atomic.Bool
}

// alive reports whether the session still runs (the stdio server has not
// exited, the connection is open).
func (c *conn) alive() bool {
	if c.broken.Load() {
		return false
	}
	select {
	case <-c.done:
		return false
	default:
	}
	if c.p != nil {
		select {
		case <-c.p.exited:
			return false
		default:
		}
	}
	return true
}

// close ends the session and stops the process.
func (c *conn) close() {
	if c.p != nil {
		// The process first: a session waits for its calls to end, and
		// a server that hangs would hold Close forever.
		c.p.stop()
	}
	c.cs.Close()
}

// connect starts the server (stdio) or opens the session (HTTP), does the
// handshake and lists the tools.
func (s *server) connect(ctx context.Context) (*conn, []tools.MCPTool, error) {
	sn := &schemas{}
	var p *proc
	var rt *headerRT
	var tr sdk.Transport
	if s.cfg.Command != "" {
		env := append([]string(nil), s.m.opts.Env...)
		for _, k := range slices.Sorted(maps.Keys(s.cfg.Env)) {
			env = append(env, k+"="+s.cfg.Env[k])
		}
		var err error
		p, tr, err = startProc(s.cfg.Command, s.cfg.Args, env, s.m.opts.Dir, sn)
		if err != nil {
			return nil, nil, err
		}
	} else {
		tr, rt = httpTransport(s.cfg.URL, s.cfg.Headers, sn)
	}
	client := sdk.NewClient(&sdk.Implementation{Name: "mm", Version: version.String()}, nil)
	fail := func(err error) (*conn, []tools.MCPTool, error) {
		if p != nil {
			p.stop()
			if line := p.stderr.LastLine(); line != "" {
				err = fmt.Errorf("%v (%s)", err, line)
			}
		}
		return nil, nil, err
	}
	cs, err := client.Connect(ctx, tr, nil)
	if err != nil {
		return fail(err)
	}
	c := &conn{cs: cs, p: p, rt: rt, done: make(chan struct{})}
	go func() {
		cs.Wait()
		close(c.done)
	}()
	var list []tools.MCPTool
	params := &sdk.ListToolsParams{}
	for range 100 { // pages; a server that pages forever gets 100
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			c.close()
			return fail(err)
		}
		for _, t := range res.Tools {
			schema := sn.text(t.Name)
			if schema == "" {
				// Not seen on the wire: the SDK's decoded form
				// (alphabetical properties) is the next best.
				b, _ := json.Marshal(t.InputSchema)
				schema = string(b)
			}
			list = append(list, tools.MCPTool{
				Server: s.cfg.Name, Name: t.Name, Description: t.Description,
				InputSchema: schema, ReadOnly: t.Annotations != nil && t.Annotations.ReadOnlyHint,
			})
		}
		if res.NextCursor == "" {
			break
		}
		params = &sdk.ListToolsParams{Cursor: res.NextCursor}
	}
	return c, list, nil
}

// first is the first start, on its own goroutine.
func (s *server) first(ctx context.Context) {
	defer close(s.settled)
	ctx, cancel := context.WithTimeout(ctx, s.m.opts.Timeout)
	defer cancel()
	c, list, err := s.connect(ctx)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s", s.m.opts.Timeout)
		}
		s.startErr = reason(err)
		return
	}
	if s.m.isClosed() {
		c.close()
		s.startErr = "mm is stopping"
		return
	}
	s.conn, s.tools = c, list
}

// live returns the running session, starting the server again once when
// it stopped; otherwise the text the model reads.
func (s *server) live(ctx context.Context) (*conn, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	name := s.cfg.Name
	switch {
	case s.startErr != "":
		return nil, fmt.Sprintf("[error: the MCP server %s did not start: %s]", name, s.startErr)
	case s.gone != "":
		return nil, fmt.Sprintf("[error: the MCP server %s %s: its tools cannot be used in this session]", name, s.gone)
	case s.conn != nil && s.conn.alive():
		return s.conn, ""
	case s.m.isClosed():
		return nil, "[error: mm is stopping]"
	case s.cfg.URL != "":
		// mm does not run an HTTP server: a new session costs a
		// handshake, and a server that restarted serves it.
		return s.reopen(ctx)
	}
	old := s.conn
	s.conn = nil
	if old != nil {
		old.close()
	}
	if s.restarted {
		s.gone = "stopped again after it was restarted once"
		s.m.warn(fmt.Sprintf("[warning: the MCP server %s stopped again after its restart — its tools fail until mm restarts]", name))
		return nil, fmt.Sprintf("[error: the MCP server %s %s: its tools cannot be used in this session]", name, s.gone)
	}
	s.restarted = true
	ctx, cancel := context.WithTimeout(ctx, s.m.opts.Timeout)
	defer cancel()
	c, _, err := s.connect(ctx)
	if err != nil {
		s.gone = "stopped and did not restart (" + err.Error() + ")"
		s.m.warn(fmt.Sprintf("[warning: the MCP server %s stopped and did not restart: %v]", name, err))
		return nil, fmt.Sprintf("[error: the MCP server %s %s: its tools cannot be used in this session]", name, s.gone)
	}
	// The tools stay those of the first start: the declarations, and so
	// the request prefix, do not change.
	s.conn = c
	return c, ""
}

// reconnect opens a new session with an HTTP server in place of old, whose
// session the server no longer has; otherwise the text the model reads.
func (s *server) reconnect(ctx context.Context, old *conn) (*conn, string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.m.isClosed():
		return nil, "[error: mm is stopping]"
	case s.conn != nil && s.conn != old && s.conn.alive():
		return s.conn, ""
	}
	return s.reopen(ctx)
}

// reopen replaces the HTTP session (s.mu held). The tools stay those of
// the first start.
func (s *server) reopen(ctx context.Context) (*conn, string) {
	if old := s.conn; old != nil {
		s.conn = nil
		// Its DELETE is not waited for: the server may be gone.
		go old.close()
	}
	ctx, cancel := context.WithTimeout(ctx, s.m.opts.Timeout)
	defer cancel()
	c, _, err := s.connect(ctx)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return nil, "[not run: the turn was cancelled]"
		}
		if errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("no answer within %s", s.m.opts.Timeout)
		}
		return nil, fmt.Sprintf("[error: the MCP server %s could not be connected again (%s); it is tried again at the next call]", s.cfg.Name, reason(err))
	}
	s.conn = c
	return c, ""
}

// reason is why a connection failed, in words: the network's own error
// ("connection refused"), not the SDK's layers around it.
func reason(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Err != nil {
		e := op.Err
		for errors.Unwrap(e) != nil {
			e = errors.Unwrap(e)
		}
		return e.Error()
	}
	return err.Error()
}

// stop ends the session for good.
func (s *server) stop() {
	s.mu.Lock()
	c := s.conn
	s.conn = nil
	s.mu.Unlock()
	if c != nil {
		c.close()
	}
}
