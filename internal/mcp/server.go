package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

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
	p    *proc // nil over HTTP
	done chan struct{}
}

// alive reports whether the session still runs (the stdio server has not
// exited, the connection is open).
func (c *conn) alive() bool {
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
		tr = httpTransport(s.cfg.URL, s.cfg.Headers, sn)
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
	c := &conn{cs: cs, p: p, done: make(chan struct{})}
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
		s.startErr = err.Error()
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
