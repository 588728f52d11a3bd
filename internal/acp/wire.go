package acp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"
)

// The SDK reads its input with a bufio.Scanner whose buffer stops at
// 10 MiB: a longer line would end its read loop, and with it the
// connection. The filter answers such a line itself and drops it.
const (
	sdkMaxLine = 10<<20 - 1 // the longest line (without "\n") the SDK reads
	// keepMax is how much of a longer line is kept to find its id; beyond
	// it the line is skipped unread and answered with a null id.
	keepMax = 64 << 20
)

// lineWriter is the one way to stdout: the SDK writes each message as one
// Write of a whole line, and the filter's errors go through the same
// lock, so lines never interleave.
type lineWriter struct {
	mu sync.Mutex
	w  io.Writer
	// open counts the client's requests not answered yet: at the end of
	// the input, mm answers them all before it exits.
	open *inflight
	// after is what runs once a response holding its text is written.
	after []afterHook
}

type afterHook struct {
	match []byte
	run   func()
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	n, err := l.w.Write(p)
	if isResponse(p) {
		if l.open != nil {
			l.open.add(-1)
		}
		kept := l.after[:0]
		for _, h := range l.after {
			if bytes.Contains(p, h.match) {
				go h.run() // it writes through l
			} else {
				kept = append(kept, h)
			}
		}
		l.after = kept
	}
	return n, err
}

// afterResponse runs fn once a response whose line holds match has been
// written: what must reach the client after an answer (a session's first
// update, once the client knows the session's id).
func (l *lineWriter) afterResponse(match []byte, fn func()) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.after = append(l.after, afterHook{match, fn})
}

// isResponse reports whether a line the SDK writes answers a request:
// the SDK writes "jsonrpc", "id", then "method" for a request of its
// own, "result" or "error" for a response.
func isResponse(line []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(line))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	hasID := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return false
		}
		switch t {
		case "id":
			hasID = true
		case "result", "error":
			return hasID
		case "method":
			return false
		}
		var skip json.RawMessage
		if dec.Decode(&skip) != nil {
			return false
		}
	}
	return false
}

// inflight counts requests; wait returns once none is left.
type inflight struct {
	mu      sync.Mutex
	n       int
	waiters []chan struct{}
}

func (f *inflight) add(d int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n += d
	if f.n <= 0 {
		f.n = 0
		for _, w := range f.waiters {
			close(w)
		}
		f.waiters = nil
	}
}

// wait waits until every request is answered, at most d.
func (f *inflight) wait(d time.Duration) bool {
	f.mu.Lock()
	if f.n == 0 {
		f.mu.Unlock()
		return true
	}
	ch := make(chan struct{})
	f.waiters = append(f.waiters, ch)
	f.mu.Unlock()
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}

// writeError sends a JSON-RPC error response (id nil: null).
func (l *lineWriter) writeError(id json.RawMessage, e *acpsdk.RequestError) {
	if len(id) == 0 {
		id = json.RawMessage("null")
	}
	b, err := json.Marshal(struct {
		JSONRPC string               `json:"jsonrpc"`
		ID      json.RawMessage      `json:"id"`
		Error   *acpsdk.RequestError `json:"error"`
	}{"2.0", id, e})
	if err != nil {
		return
	}
	// Not through Write: this answers no request the SDK was given.
	l.mu.Lock()
	defer l.mu.Unlock()
	l.w.Write(append(b, '\n'))
}

// filter copies the client's lines to the SDK, and answers itself the
// lines the SDK would only log (not JSON, not a message) or could not
// read (too long): the SDK drops the first silently, and the second ends
// its read loop. It returns at the end of in.
func filter(in io.Reader, sdk io.Writer, out *lineWriter) error {
	r := bufio.NewReaderSize(in, 64<<10)
	for {
		line, tooLong, err := readLine(r)
		if len(line) > 0 || tooLong {
			rej, request := check(line, tooLong)
			switch {
			case rej != nil:
				out.writeError(rej.id, rej.err)
			default:
				if request && out.open != nil {
					out.open.add(1)
				}
				if _, werr := sdk.Write(append(line, '\n')); werr != nil {
					return werr
				}
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
	}
}

// readLine reads one line without its "\n". A line over sdkMaxLine is
// reported tooLong, with its first keepMax bytes (or none beyond that).
func readLine(r *bufio.Reader) (line []byte, tooLong bool, err error) {
	var buf []byte
	dropped := false
	for {
		chunk, err := r.ReadSlice('\n')
		if !dropped {
			if len(buf)+len(chunk) > keepMax {
				buf, dropped = nil, true
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		return buf, dropped || len(buf) > sdkMaxLine, err
	}
}

// rejected is the error answer to one line.
type rejected struct {
	id  json.RawMessage
	err *acpsdk.RequestError
}

// check decides whether the SDK can take line; nil means it can, and
// request says whether the line is a request the SDK will answer.
func check(line []byte, tooLong bool) (rej *rejected, request bool) {
	trimmed := bytes.TrimSpace(line)
	if !tooLong && len(trimmed) == 0 {
		return nil, false // the SDK skips blank lines
	}
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method *string         `json:"method"`
		Result json.RawMessage `json:"result"`
		Error  json.RawMessage `json:"error"`
	}
	if tooLong {
		// Its id, when it can be read, lets the client match the answer.
		if len(line) > 0 && json.Unmarshal(line, &msg) == nil && validID(msg.ID) {
			return &rejected{msg.ID, acpsdk.NewInvalidRequest(map[string]any{"error": fmt.Sprintf("the message is longer than %d bytes, the most mm reads in one line", sdkMaxLine)})}, false
		}
		return &rejected{nil, acpsdk.NewInvalidRequest(map[string]any{"error": fmt.Sprintf("a line longer than %d bytes, the most mm reads in one line, was dropped", sdkMaxLine)})}, false
	}
	if !json.Valid(trimmed) {
		return &rejected{nil, acpsdk.NewParseError(map[string]any{"error": "the line is not valid JSON"})}, false
	}
	if trimmed[0] != '{' || json.Unmarshal(trimmed, &msg) != nil {
		return &rejected{nil, acpsdk.NewInvalidRequest(map[string]any{"error": "a message must be a JSON object (batches are not supported)"})}, false
	}
	hasID := len(msg.ID) > 0 && !bytes.Equal(msg.ID, []byte("null"))
	switch {
	case msg.Method == nil && !hasID:
		return &rejected{nil, acpsdk.NewInvalidRequest(map[string]any{"error": "a message needs a method or an id"})}, false
	case hasID && !validID(msg.ID):
		return &rejected{nil, acpsdk.NewInvalidRequest(map[string]any{"error": "an id must be a string or a number"})}, false
	case msg.Method != nil && *msg.Method == "" && msg.Result == nil && msg.Error == nil:
		return &rejected{msg.ID, acpsdk.NewInvalidRequest(map[string]any{"error": "the method is empty"})}, false
	}
	return nil, msg.Method != nil && *msg.Method != "" && hasID
}

// validID reports whether id is a JSON-RPC id: a string or a number.
func validID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	if len(id) == 0 {
		return false
	}
	var v any
	if json.Unmarshal(id, &v) != nil {
		return false
	}
	switch v.(type) {
	case string, float64:
		return true
	}
	return false
}
