package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"sync"
)

// schemas keeps the input schemas of tools/list answers as the server
// wrote them. The SDK decodes a schema into a map, which loses the order
// of the properties; llama.cpp's grammar makes the model write them in
// the declared order, so mm declares the server's own text. The raw
// messages are read off the wire (the stdio stream, the HTTP bodies)
// beside the SDK, which still does the protocol.
type schemas struct {
	mu     sync.Mutex
	byName map[string]string
}

// take records the schemas of one JSON-RPC message if it answers
// tools/list.
func (s *schemas) take(msg []byte) {
	msg = bytes.TrimSpace(msg)
	if len(msg) == 0 || msg[0] != '{' || !bytes.Contains(msg, []byte(`"tools"`)) {
		return
	}
	var m struct {
		Result struct {
			Tools []struct {
				Name        string          `json:"name"`
				InputSchema json.RawMessage `json:"inputSchema"`
			} `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(msg, &m) != nil {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.byName == nil {
		s.byName = map[string]string{}
	}
	for _, t := range m.Result.Tools {
		var b bytes.Buffer
		if len(t.InputSchema) > 0 && json.Compact(&b, t.InputSchema) == nil {
			s.byName[t.Name] = b.String()
		}
	}
}

// text is the schema text of a tool, "" when none was seen.
func (s *schemas) text(name string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.byName[name]
}

// maxSniff bounds the bytes of one message kept to read its schemas.
const maxSniff = 4 << 20

// bodyTee reads an HTTP response body (JSON, or server-sent events whose
// data lines are the messages) and hands each message to take at its end.
type bodyTee struct {
	r    io.ReadCloser
	s    *schemas
	sse  bool
	buf  bytes.Buffer
	done bool
}

func (t *bodyTee) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if t.buf.Len()+n <= maxSniff {
		t.buf.Write(p[:n])
	}
	if t.sse {
		t.events()
	}
	if err != nil && !t.done {
		t.done = true
		if !t.sse {
			t.s.take(t.buf.Bytes())
		}
	}
	return n, err
}

// events hands over the complete data lines read so far.
func (t *bodyTee) events() {
	for {
		b := t.buf.Bytes()
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			return
		}
		line := strings.TrimRight(string(b[:i]), "\r")
		t.buf.Next(i + 1)
		if data, ok := strings.CutPrefix(line, "data:"); ok {
			t.s.take([]byte(data))
		}
	}
}

func (t *bodyTee) Close() error { return t.r.Close() }
