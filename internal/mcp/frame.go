package mcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxMessage is the most one message of a stdio server may take: the SDK's
// own bound (sdk.DefaultMaxLineLength, 16 MiB), which mm now applies
// itself. Past it the SDK stops reading the server for good, and mm took
// that for a server that died; mm drops the message instead and the call
// fails on its own (tooLarge), the server goes on.
const maxMessage = sdk.DefaultMaxLineLength

// codeTooLarge is the JSON-RPC error code of the answer mm gives the SDK
// in place of a message over maxMessage (in the range JSON-RPC leaves to
// implementations); its data is {"size": <bytes>}.
const codeTooLarge = -32099

// frames reads a stdio server's newline-delimited JSON-RPC stream one
// message at a time and passes each on to the SDK whole, after handing it
// to the schema sniffer. A message over limit is not kept: it is read to
// its end, and when it answers a request of mm's (it has an id and no
// method) the SDK gets an error answer to that request in its place.
type frames struct {
	r     io.ReadCloser
	br    *bufio.Reader
	s     *schemas // nil: no sniffing (bodyTee does it over HTTP)
	limit int
	// prefix starts the line that stands for a message over the limit:
	// "data: " in a streamable-HTTP server's SSE answer, whose data lines
	// frames reads the same way (each message is one data line).
	prefix  string
	line    []byte
	pending []byte // what the SDK reads next
	err     error
}

func newFrames(r io.ReadCloser, s *schemas, limit int) *frames {
	return &frames{r: r, br: bufio.NewReaderSize(r, 64<<10), s: s, limit: limit}
}

func (f *frames) Read(p []byte) (int, error) {
	for len(f.pending) == 0 {
		if f.err != nil {
			return 0, f.err
		}
		f.next()
	}
	n := copy(p, f.pending)
	f.pending = f.pending[n:]
	return n, nil
}

func (f *frames) Close() error { return f.r.Close() }

// next reads the next message into pending (or the error that ends the
// stream into err).
func (f *frames) next() {
	if cap(f.line) > 1<<20 {
		f.line = nil // a large message's buffer is not kept for good
	}
	f.line = f.line[:0]
	for {
		chunk, err := f.br.ReadSlice('\n')
		f.line = append(f.line, chunk...)
		if len(f.line) > f.limit {
			f.pending = f.skip(err)
			return
		}
		switch {
		case err == nil:
			if f.s != nil && len(f.line) <= maxSniff {
				f.s.take(f.line)
			}
			f.pending = f.line
			return
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			f.pending, f.err = f.line, err
			return
		}
	}
}

// skip reads the rest of a message over the limit, keeping only what its
// answer needs, and returns what the SDK reads instead.
func (f *frames) skip(err error) []byte {
	var z idScan
	z.feed(f.line)
	size := int64(len(f.line))
	f.line = nil
	for errors.Is(err, bufio.ErrBufferFull) {
		var chunk []byte
		chunk, err = f.br.ReadSlice('\n')
		z.feed(chunk)
		size += int64(len(chunk))
	}
	if err != nil {
		f.err = err
	}
	id := bytes.TrimSpace(z.id)
	if z.method || !validID(id) {
		// A request or notification of the server's, or no id to answer:
		// nothing waits for it on mm's side.
		return nil
	}
	return append([]byte(f.prefix), tooLargeAnswer(id, f.limit, size)...)
}

// tooLargeAnswer is the error answer to request id that stands for its
// answer of size bytes, over limit.
func tooLargeAnswer(id []byte, limit int, size int64) []byte {
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":%d,"message":"the message is over the limit of %d bytes","data":{"size":%d}}}`+"\n",
		id, codeTooLarge, limit, size)
}

// limitedBody is a streamable-HTTP server's answer in JSON (one message)
// held to the limit of a stdio server's messages: the SDK reads such an
// answer whole into memory, so a server could send gigabytes. Past the
// limit the body is read to its end without being kept, and the SDK
// reads an error answer to the request in its place (tooLarge), so the
// call fails with the reason and the session goes on. (An SSE answer's
// data lines go through frames.)
type limitedBody struct {
	r     io.ReadCloser
	limit int
	out   *bytes.Reader // what the SDK reads; nil before the first Read
	err   error         // the body's own error, once out is read
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.out == nil {
		b.out = bytes.NewReader(b.fill())
	}
	n, err := b.out.Read(p)
	if err == io.EOF && b.err != nil {
		err = b.err
	}
	return n, err
}

func (b *limitedBody) Close() error { return b.r.Close() }

// fill reads the body, or what stands for it when it is over the limit.
func (b *limitedBody) fill() []byte {
	buf, err := io.ReadAll(io.LimitReader(b.r, int64(b.limit)+1))
	if err != nil || len(buf) <= b.limit {
		b.err = err
		return buf
	}
	var z idScan
	z.feed(buf)
	size := int64(len(buf))
	buf = nil
	chunk := make([]byte, 64<<10)
	for {
		n, err := b.r.Read(chunk)
		z.feed(chunk[:n])
		size += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			b.err = err
			return nil
		}
	}
	id := bytes.TrimSpace(z.id)
	if z.method || !validID(id) {
		b.err = fmt.Errorf("a message of %d bytes, over the limit of %d", size, b.limit)
		return nil
	}
	return tooLargeAnswer(id, b.limit, size)
}

func validID(id []byte) bool {
	if len(id) == 0 || !json.Valid(id) {
		return false
	}
	return id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9'
}

// tooLarge reports the size of the message that answered a call when it
// was over the limit (the error frames put in its place).
func tooLarge(err error) (int64, bool) {
	var we *jsonrpc.Error
	if !errors.As(err, &we) || we.Code != codeTooLarge {
		return 0, false
	}
	var d struct{ Size int64 }
	json.Unmarshal(we.Data, &d)
	return d.Size, true
}

// idScan finds the top-level "id" of a JSON object read in pieces, and
// whether it has a "method", without keeping the rest (a result of
// hundreds of megabytes goes through it).
type idScan struct {
	depth          int
	inStr, esc     bool
	wantKey, inKey bool
	key            []byte
	inID           bool
	id             []byte
	method         bool
}

func (z *idScan) feed(b []byte) {
	for _, c := range b {
		if z.inID {
			if !z.inStr && z.depth == 1 && (c == ',' || c == '}') {
				z.inID = false
			} else if len(z.id) < 256 {
				z.id = append(z.id, c)
			} else {
				z.id, z.inID = nil, false // no id is that long
			}
		}
		if z.inStr {
			switch {
			case z.esc:
				z.esc = false
			case c == '\\':
				z.esc = true
			case c == '"':
				z.inStr, z.inKey = false, false
				continue
			}
			if z.inKey && len(z.key) < 32 {
				z.key = append(z.key, c)
			}
			continue
		}
		switch c {
		case '"':
			z.inStr = true
			if z.depth == 1 && z.wantKey {
				z.inKey, z.wantKey = true, false
				z.key = z.key[:0]
			}
		case '{', '[':
			z.depth++
			if z.depth == 1 {
				z.wantKey = true
			}
		case '}', ']':
			z.depth--
		case ':':
			if z.depth == 1 {
				switch string(z.key) {
				case "id":
					z.inID, z.id = true, z.id[:0]
				case "method":
					z.method = true
				}
			}
		case ',':
			if z.depth == 1 {
				z.wantKey = true
			}
		}
	}
}
