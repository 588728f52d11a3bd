package lsp

// A JSON-RPC 2.0 connection with the Language Server Protocol's framing:
// each message is a `Content-Length: N` header block, a blank line and N
// bytes of JSON. Written here rather than imported: it is small, and the
// servers mm talks to need nothing more.

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/textproto"
	"strconv"
	"strings"
	"sync"
)

// maxMessage bounds one incoming message: a server that announces more is
// broken, and mm would rather drop the connection than the memory.
const maxMessage = 256 << 20

// errConnClosed is what a pending call gets when the server goes away.
var errConnClosed = errors.New("the connection to the server is closed")

// rpcError is a JSON-RPC error object, as a Go error.
type rpcError struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *rpcError) Error() string { return e.Message }

// JSON-RPC and LSP error codes mm sends or tells apart.
const (
	codeMethodNotFound   = -32601
	codeRequestCancelled = -32800
)

// incoming is any message the server sends: a response (ID, no Method), a
// request (ID and Method) or a notification (Method, no ID).
type incoming struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

// conn is one JSON-RPC connection. Calls may come from several goroutines;
// the reader goroutine delivers responses and runs the handlers.
type conn struct {
	wmu sync.Mutex
	w   io.Writer

	mu      sync.Mutex
	nextID  int64
	pending map[int64]chan *incoming
	err     error // set once the reader stops
	done    chan struct{}

	// onRequest answers a request from the server; it runs on its own
	// goroutine so a slow answer never stalls the reader.
	onRequest func(method string, params json.RawMessage) (any, *rpcError)
	// onNotify handles a notification on the reader goroutine, in order:
	// it must be quick.
	onNotify func(method string, params json.RawMessage)
}

func newConn(r io.Reader, w io.Writer, onRequest func(string, json.RawMessage) (any, *rpcError), onNotify func(string, json.RawMessage)) *conn {
	c := &conn{w: w, pending: map[int64]chan *incoming{}, done: make(chan struct{}), onRequest: onRequest, onNotify: onNotify}
	go c.read(bufio.NewReaderSize(r, 64<<10))
	return c
}

// Done is closed when the reader stops: the server closed its output or
// sent something that is not the protocol.
func (c *conn) Done() <-chan struct{} { return c.done }

// Err is why the reader stopped.
func (c *conn) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

func (c *conn) read(r *bufio.Reader) {
	var err error
	for {
		var body []byte
		body, err = readFrame(r)
		if err != nil {
			break
		}
		var m incoming
		if json.Unmarshal(body, &m) != nil {
			// One unreadable message is not worth the session: skip it.
			continue
		}
		c.dispatch(&m)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		err = errConnClosed
	}
	c.mu.Lock()
	c.err = err
	pending := c.pending
	c.pending = map[int64]chan *incoming{}
	c.mu.Unlock()
	for _, ch := range pending {
		close(ch)
	}
	close(c.done)
}

func (c *conn) dispatch(m *incoming) {
	hasID := len(m.ID) > 0 && string(m.ID) != "null"
	switch {
	case m.Method != "" && hasID:
		id := m.ID
		go func() {
			result, rerr := c.onRequest(m.Method, m.Params)
			c.reply(id, result, rerr)
		}()
	case m.Method != "":
		if c.onNotify != nil {
			c.onNotify(m.Method, m.Params)
		}
	case hasID:
		id, err := strconv.ParseInt(string(m.ID), 10, 64)
		if err != nil {
			return // not one of ours: mm only sends numeric ids
		}
		c.mu.Lock()
		ch := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if ch != nil {
			ch <- m
		}
	}
}

// readFrame reads one message: headers up to a blank line, then the body.
func readFrame(r *bufio.Reader) ([]byte, error) {
	tp := textproto.NewReader(r)
	length := -1
	for {
		line, err := tp.ReadLine()
		if err != nil {
			return nil, err
		}
		if line == "" {
			if length < 0 {
				continue // a stray blank line between messages
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, fmt.Errorf("bad header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.Atoi(strings.TrimSpace(value))
			if err != nil || n < 0 || n > maxMessage {
				return nil, fmt.Errorf("bad Content-Length %q", value)
			}
			length = n
		}
	}
	body := make([]byte, length)
	if _, err := io.ReadFull(r, body); err != nil {
		return nil, err
	}
	return body, nil
}

// write sends one message with its header.
func (c *conn) write(v any) error {
	body, err := json.Marshal(v)
	if err != nil {
		return err
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	// One Write for header and body: a server reading byte by byte never
	// sees a header without its body for long.
	msg := make([]byte, 0, len(body)+32)
	msg = append(msg, "Content-Length: "...)
	msg = strconv.AppendInt(msg, int64(len(body)), 10)
	msg = append(msg, "\r\n\r\n"...)
	msg = append(msg, body...)
	_, err = c.w.Write(msg)
	return err
}

func (c *conn) reply(id json.RawMessage, result any, rerr *rpcError) {
	if rerr != nil {
		c.write(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Error   *rpcError       `json:"error"`
		}{"2.0", id, rerr})
		return
	}
	// "result" must be present, null included: a response without it is
	// not a response.
	c.write(struct {
		JSONRPC string          `json:"jsonrpc"`
		ID      json.RawMessage `json:"id"`
		Result  any             `json:"result"`
	}{"2.0", id, result})
}

// Notify sends a notification.
func (c *conn) Notify(method string, params any) error {
	return c.write(struct {
		JSONRPC string `json:"jsonrpc"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", method, params})
}

// Call sends a request and decodes the result into result (nil: ignored).
// When ctx ends first, the server is told with $/cancelRequest.
func (c *conn) Call(ctx context.Context, method string, params, result any) error {
	ch := make(chan *incoming, 1)
	c.mu.Lock()
	if c.err != nil {
		err := c.err
		c.mu.Unlock()
		return err
	}
	c.nextID++
	id := c.nextID
	c.pending[id] = ch
	c.mu.Unlock()

	err := c.write(struct {
		JSONRPC string `json:"jsonrpc"`
		ID      int64  `json:"id"`
		Method  string `json:"method"`
		Params  any    `json:"params,omitempty"`
	}{"2.0", id, method, params})
	if err != nil {
		c.forget(id)
		return err
	}
	select {
	case m, ok := <-ch:
		if !ok {
			return c.Err()
		}
		if m.Error != nil {
			return m.Error
		}
		if result == nil || len(m.Result) == 0 {
			return nil
		}
		return json.Unmarshal(m.Result, result)
	case <-ctx.Done():
		c.forget(id)
		c.Notify("$/cancelRequest", map[string]int64{"id": id})
		return ctx.Err()
	}
}

func (c *conn) forget(id int64) {
	c.mu.Lock()
	delete(c.pending, id)
	c.mu.Unlock()
}
