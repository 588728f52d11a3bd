package mcp

import (
	"bytes"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport is a streamable HTTP server with the configured headers
// on every request, its answers read for the tools' schema texts. The
// round tripper also keeps what the SDK's errors do not tell plainly:
// whether the server still knew the session, and whether it answered.
func httpTransport(url string, headers map[string]string, sn *schemas) (sdk.Transport, *headerRT) {
	rt := &headerRT{base: http.DefaultTransport, headers: headers, s: sn}
	client := &http.Client{Transport: rt}
	// MaxEventSize is set: the SDK documents 0 as its 16 MiB default but
	// passes it on as no bound at all. frames holds each data line to
	// maxMessage; the SDK's bound is for an event of several lines.
	return &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: client, DisableStandaloneSSE: true, MaxEventSize: 2 * maxMessage}, rt
}

type headerRT struct {
	base    http.RoundTripper
	headers map[string]string
	s       *schemas

	mu sync.Mutex
	// lost: the server answered 404 to a request of mm's session (or
	// 400 saying the session is not valid, or that it is not
	// initialised): it no longer knows the session (it restarted), and
	// ran nothing.
	lost bool
	// noAnswer is why a request got no answer at all (nothing listens,
	// the connection broke before an answer); unsent that it surely did
	// not reach the server: nothing listened. A kept-alive connection
	// that broke is no proof: net/http already sends a POST again on a
	// new connection when none of it was written, so a break that gets
	// here may have come after the server had the call (it ran it, then
	// died), and a tool need not be idempotent.
	noAnswer error
	unsent   bool
	// status is the last HTTP error the server answered ("500 Internal
	// Server Error").
	status string
}

func (h *headerRT) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := h.base.RoundTrip(req)
	if req.Method == http.MethodPost {
		// Read before the lock: it waits for the body.
		badSess := err == nil && resp.StatusCode == http.StatusBadRequest && req.Header.Get("Mcp-Session-Id") != "" && badSession(resp)
		h.mu.Lock()
		switch {
		case err != nil && req.Context().Err() != nil:
			// mm gave up on the request (a cancel, mcp.timeout): the
			// call may have reached the server.
		case err != nil:
			var op *net.OpError
			h.noAnswer = err
			h.unsent = errors.As(err, &op) && op.Op == "dial"
		case resp.StatusCode == http.StatusNotFound && req.Header.Get("Mcp-Session-Id") != "":
			h.lost = true
		case badSess:
			// The spec's answer is 404, but the TypeScript SDK's example
			// server, which server-everything and many others copy,
			// answers 400 "Bad Request: No valid session ID provided",
			// and the SDK's own transport, restarted, 400 "Bad Request:
			// Server not initialized".
			h.lost = true
		case resp.StatusCode >= 400:
			h.status = resp.Status
		}
		h.mu.Unlock()
	}
	if err == nil && resp.Body != nil {
		sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
		// A message over maxMessage fails its call and the session goes
		// on, as with a stdio server.
		var body io.ReadCloser = &limitedBody{r: resp.Body, limit: maxMessage}
		if sse {
			f := newFrames(resp.Body, nil, maxMessage)
			f.prefix = "data: "
			body = f
		}
		resp.Body = &bodyTee{r: body, s: h.s, sse: sse}
	}
	return resp, err
}

// badSession reports whether a 400 answer's body (its first 4 KiB, put
// back for the SDK) speaks of the session or of a server not initialised:
// a refused request ran nothing, but only one of a session the server
// does not know is worth a new session.
func badSession(resp *http.Response) bool {
	if resp.Body == nil {
		return false
	}
	head, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(head), resp.Body), resp.Body}
	head = bytes.ToLower(head)
	return bytes.Contains(head, []byte("session")) || bytes.Contains(head, []byte("not initialized"))
}

// reset forgets what the requests before a call met.
func (h *headerRT) reset() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.lost, h.noAnswer, h.unsent, h.status = false, nil, false, ""
}

func (h *headerRT) state() (lost bool, noAnswer error, status string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lost, h.noAnswer, h.status
}

// unrun reports whether a failed call did not run: the server did not
// know the session, or the request did not reach it. Such a call is sent
// again in a new session (a server that restarted); one that may have run
// is not.
func (h *headerRT) unrun() bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.lost || h.noAnswer != nil && h.unsent
}
