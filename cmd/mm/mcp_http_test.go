package main_test

import (
	"bytes"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"mm/internal/llmtest"
)

// httpMCP is a streamable-HTTP MCP server on 127.0.0.1 (the Go SDK's)
// with one tool, ping, that the test stops and starts again on the same
// port: a restarted server knows none of the sessions of the one before.
type httpMCP struct {
	t    *testing.T
	addr string
	// jsonMissing answers a request of an unknown session 404 with a
	// JSON-RPC error body, as the TypeScript SDK's servers do (the Go
	// SDK's answer is plain text).
	jsonMissing bool
	// badRequestMissing, when set, answers it 400 with this JSON-RPC
	// error message: server-everything's `Bad Request: No valid session
	// ID provided` (the TypeScript SDK's README example, which many
	// servers copy), or the TypeScript SDK transport's `Bad Request:
	// Server not initialized` (a server of one transport, restarted).
	badRequestMissing string

	mu    sync.Mutex
	srv   *http.Server
	known map[string]bool // this run's session ids
	inits int
	hangs int
	// crashes counts the runs of crash.
	crashes int
}

func startHTTPMCP(t *testing.T, jsonMissing bool) *httpMCP {
	return startHTTPMCPWith(t, &httpMCP{jsonMissing: jsonMissing})
}

func startHTTPMCPWith(t *testing.T, h *httpMCP) *httpMCP {
	h.t, h.addr = t, "127.0.0.1:0"
	h.start()
	t.Cleanup(h.stop)
	return h
}

func (h *httpMCP) url() string { return "http://" + h.addr + "/mcp" }

// start runs a fresh server (no sessions) on the address.
func (h *httpMCP) start() {
	ln, err := net.Listen("tcp", h.addr)
	if err != nil {
		h.t.Fatal(err)
	}
	h.addr = ln.Addr().String()
	s := sdk.NewServer(&sdk.Implementation{Name: "web", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "ping", Description: "Answers pong."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "hang", Description: "Never answers."}, func(ctx context.Context, _ *sdk.CallToolRequest, _ struct{}) (*sdk.CallToolResult, any, error) {
		h.mu.Lock()
		h.hangs++
		h.mu.Unlock()
		<-ctx.Done()
		return nil, nil, ctx.Err()
	})
	sdk.AddTool(s, &sdk.Tool{Name: "crash", Description: "Runs, then the server restarts before it answers."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		h.mu.Lock()
		h.crashes++
		h.mu.Unlock()
		// The call ran; the server dies (its connections with it) and a
		// new one listens on the port, as a supervised server would.
		h.restart()
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "ran"}}}, nil, nil
	})
	inner := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil)
	known := map[string]bool{}
	mux := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if id := r.Header.Get("Mcp-Session-Id"); id != "" && (h.jsonMissing || h.badRequestMissing != "") {
			h.mu.Lock()
			ok := known[id]
			h.mu.Unlock()
			if !ok && h.badRequestMissing != "" {
				w.Header().Set("Content-Type", "application/json; charset=utf-8")
				w.WriteHeader(http.StatusBadRequest)
				w.Write([]byte(`{"jsonrpc":"2.0","error":{"code":-32000,"message":"` + h.badRequestMissing + `"},"id":null}`))
				return
			}
			if !ok {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(http.StatusNotFound)
				w.Write([]byte(`{"jsonrpc":"2.0","error":{"code":-32001,"message":"Session not found"},"id":null}`))
				return
			}
		}
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if strings.Contains(string(body), `"method":"initialize"`) {
				h.mu.Lock()
				h.inits++
				h.mu.Unlock()
			}
		}
		inner.ServeHTTP(&sessionRecorder{ResponseWriter: w, h: h, known: known}, r)
	})
	srv := &http.Server{Handler: mux}
	// Each request on a connection of its own. A stopped server's closed
	// connections are noticed by mm's client a moment later (its reading
	// goroutine must run); a call in that moment, on a loaded machine,
	// breaks on the old connection (EOF, told as a call that may have
	// run, as it should be) instead of meeting the closed port. What the
	// tests see must not depend on that moment.
	srv.SetKeepAlivesEnabled(false)
	h.mu.Lock()
	h.srv, h.known = srv, known
	h.mu.Unlock()
	go srv.Serve(ln)
}

func (h *httpMCP) stop() {
	h.mu.Lock()
	srv := h.srv
	h.srv = nil
	h.mu.Unlock()
	if srv != nil {
		srv.Close()
	}
}

func (h *httpMCP) restart() {
	h.stop()
	h.start()
}

func (h *httpMCP) initializes() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.inits
}

// sessionRecorder notes the session ids the server hands out.
type sessionRecorder struct {
	http.ResponseWriter
	h     *httpMCP
	known map[string]bool
}

func (s *sessionRecorder) WriteHeader(code int) {
	s.record()
	s.ResponseWriter.WriteHeader(code)
}

func (s *sessionRecorder) Write(b []byte) (int, error) {
	s.record()
	return s.ResponseWriter.Write(b)
}

func (s *sessionRecorder) record() {
	if id := s.Header().Get("Mcp-Session-Id"); id != "" {
		s.h.mu.Lock()
		s.known[id] = true
		s.h.mu.Unlock()
	}
}

func (s *sessionRecorder) Flush() {
	if f, ok := s.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

// A streamable-HTTP server that restarted between two calls knows nothing
// of mm's session: mm initialises again and sends the call again, once,
// and the model reads its answer. A server that is gone is told in words
// like the stdio servers' failures, not the transport's; once it is back,
// the next call works. The restarted server tells the unknown session
// with a 404 (the spec; plain as the Go SDK's, or JSON-RPC as the
// TypeScript SDK's) or with a 400 that says so (server-everything's, the
// TypeScript SDK transport's).
func TestMCPStreamableHTTPRestart(t *testing.T) {
	bad := map[string]string{
		"400 no valid session":       "Bad Request: No valid session ID provided",
		"400 server not initialized": "Bad Request: Server not initialized",
	}
	for _, name := range []string{"plain 404", "json 404", "400 no valid session", "400 server not initialized"} {
		t.Run(name, func(t *testing.T) {
			web := startHTTPMCPWith(t, &httpMCP{jsonMissing: name == "json 404", badRequestMissing: bad[name]})
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "mcp:\n  servers:\n    - name: web\n      url: "+web.url()+"\n")
			srv := llmtest.New(t,
				llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("web_ping", `{}`)}},
				llmtest.Turn{Text: "first done"},
				llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("web_ping", `{}`)}},
				llmtest.Turn{Text: "second done"},
				llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("web_ping", `{}`)}},
				llmtest.Turn{Text: "third done"},
				llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("web_ping", `{}`)}},
				llmtest.Turn{Text: "fourth done"},
			)
			s := startREPL(t, dir, srv, nil, "-c", cfg)
			s.ask("one")
			s.expect("first done")
			web.restart()
			s.ask("two")
			s.expect("second done")
			web.stop()
			s.ask("three")
			s.expect("third done")
			web.start()
			s.ask("four")
			s.expect("fourth done")
			reqs := srv.ChatRequests()
			if len(reqs) != 8 {
				t.Fatalf("%d requests", len(reqs))
			}
			last := func(i int) string {
				res := mcpResults(t, reqs[i])
				if len(res) == 0 {
					return ""
				}
				return res[len(res)-1]
			}
			if got := last(1); got != "pong" {
				t.Errorf("first call: %q", got)
			}
			if got := last(3); got != "pong" {
				t.Errorf("the call after the restart: %q", got)
			}
			// At the start, after the restart, once back.
			if n := web.initializes(); n != 3 {
				t.Errorf("%d initialize requests, want 3", n)
			}
			want := "[error: the MCP server web could not be connected again (connection refused); it is tried again at the next call]"
			if got := last(5); got != want {
				t.Errorf("the server gone: %q", got)
			}
			if got := last(7); got != "pong" {
				t.Errorf("the call once the server is back: %q", got)
			}
		})
	}
}

// An HTTP server that nothing answers for at start-up is reported with
// the network's reason, not the SDK's layers around it.
func TestMCPStreamableHTTPNotThereAtStart(t *testing.T) {
	web := startHTTPMCP(t, false)
	web.stop()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n    - name: web\n      url: "+web.url()+"\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if want := "[warning: the MCP server web did not start: connection refused]"; !strings.Contains(r.stderr, want) {
		t.Errorf("want %q in:\n%s", want, r.stderr)
	}
}

// A call that an HTTP server never answers fails after mcp.timeout, is
// not sent again (it reached the server), and the session goes on.
func TestMCPStreamableHTTPTimeout(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	web := startHTTPMCP(t, false)
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  timeout: 1s\n  servers:\n    - name: web\n      url: "+web.url()+"\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("web_hang", `{}`), mcpCall("web_ping", `{}`)}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	res := mcpResults(t, srv.ChatRequests()[1])
	want := "[error: the MCP server web did not answer the call of hang within 1s (mcp.timeout)]\npong"
	if strings.Join(res, "\n") != want {
		t.Errorf("results: %q", res)
	}
	web.mu.Lock()
	defer web.mu.Unlock()
	if web.hangs != 1 || web.inits != 1 {
		t.Errorf("hang sent %d times, %d sessions", web.hangs, web.inits)
	}
}

// A call whose HTTP connection breaks once the server has it (the server
// ran it, then died and came back) is never sent again: the tool may not
// be idempotent. The model reads that the server stopped during the call.
func TestMCPStreamableHTTPBrokenAfterSent(t *testing.T) {
	web := startHTTPMCP(t, false)
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n    - name: web\n      url: "+web.url()+"\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("web_crash", `{}`)}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("web_ping", `{}`)}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	web.mu.Lock()
	crashes := web.crashes
	web.mu.Unlock()
	if crashes != 1 {
		t.Errorf("the call ran %d times", crashes)
	}
	res := mcpResults(t, srv.ChatRequests()[1])
	if len(res) != 1 || res[0] == "ran" || !strings.Contains(res[0], "web") {
		t.Errorf("the broken call: %q", res)
	}
	// The next call opens a new session with the server that came back.
	if res := mcpResults(t, srv.ChatRequests()[2]); len(res) != 2 || res[1] != "pong" {
		t.Errorf("the next call: %q", res)
	}
}
