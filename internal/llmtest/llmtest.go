// Package llmtest is a scripted OpenAI-compatible chat server for tests.
//
// No language model runs where mm is tested, so this server stands in for
// one. It answers POST .../chat/completions with scripted turns, streamed
// the way llama.cpp's llama-server streams them (chunk envelope, role chunk
// first, reasoning_content before content, tool-call deltas, finish chunk,
// optional usage chunk, [DONE]); see fixtures/llamacpp/README.md for the
// captured wire facts it copies. It can also replay those captures byte for
// byte, inject faults (hangs, drops, HTTP errors, broken events), pretend to
// be Ollama, and run a tiny rule-based demo "model" for trying mm by hand.
package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// ToolCall is one scripted function call.
type ToolCall struct {
	ID        string // "" = generated 32 alnum chars
	Name      string
	Arguments string // raw argument text, sent as-is in pieces (may be invalid JSON on purpose)
}

// Usage is the token accounting reported in the usage chunk, in timings and
// in non-streaming answers.
type Usage struct{ PromptTokens, CompletionTokens, CachedTokens int }

// Fault is a scripted misbehaviour of the server for one turn.
type Fault string

// The faults. "Data events" are the `data:` lines of a stream; keep-alive
// comments are not counted.
const (
	FaultNone                Fault = ""
	FaultHangBeforeFirstByte Fault = "hang-before-first-byte" // accept the request, send no header/byte until the client goes away
	FaultHangAfterHeaders    Fault = "hang-after-headers"     // send 200 + headers (flushed), then nothing
	FaultHangMidStream       Fault = "hang-mid-stream"        // send FaultAfter chunks, then nothing (connection kept open)
	FaultDrop                Fault = "drop"                   // send FaultAfter chunks, then close the TCP connection abruptly (hijack), no [DONE]
	FaultHTTP500             Fault = "http-500"               // 500 with {"error":{"code":500,"message":"...","type":"server_error"}}
	FaultHTTP503             Fault = "http-503"               // 503 {"error":{"message":"Loading model","type":"unavailable_error","code":503}}
	FaultHTTP400Context      Fault = "http-400-context"       // the g1_ctx_overflow body
	FaultMalformedLine       Fault = "malformed-line"         // after FaultAfter chunks, a `data: {not json` line, then the rest of the stream
	FaultErrorEvent          Fault = "error-event"            // after FaultAfter chunks, `data: {"error":{...}}\n\n` then the end of the body without [DONE]
	FaultLengthInToolCall    Fault = "length-in-tool-call"    // stream the tool call's arguments cut in the middle, finish_reason "length"

	// Hostile or broken servers: what mm must survive without hanging or
	// filling its memory.
	FaultPingOnly      Fault = "ping-only"       // 200, then only `:` comments forever (every ChunkDelay, default 50ms), never a data event
	FaultPingMidStream Fault = "ping-mid-stream" // FaultAfter data events, then `:` comments and empty chunks forever, never another token
	FaultHugeLine      Fault = "huge-line"       // after FaultAfter data events, one content event FaultBytes long (default 64 MiB) on a single line
	FaultHugeAnswer    Fault = "huge-answer"     // after FaultAfter data events, 64 KiB content events up to FaultBytes (default 64 MiB), then the end of the stream
	FaultEmptyData     Fault = "empty-data"      // after FaultAfter data events, empty `data:` events (no data: skipped by the SSE rules), then the rest
	FaultCREndings     Fault = "cr-endings"      // every line of the stream ends with a lone "\r"
	FaultCRLFEndings   Fault = "crlf-endings"    // every line ends with "\r\n", each flushed between the "\r" and the "\n"
	FaultTruncatedJSON Fault = "truncated-json"  // a JSON answer (even to stream:true) announced whole by Content-Length, half sent, connection closed
	FaultShortJSON     Fault = "short-json"      // a JSON answer without Content-Length that ends cleanly after half of it
	FaultHugeJSON      Fault = "huge-json"       // a JSON answer whose content is FaultBytes long (default 40 MiB)
)

// Faults lists every fault but FaultNone, for validation and documentation.
var Faults = []Fault{
	FaultHangBeforeFirstByte, FaultHangAfterHeaders, FaultHangMidStream, FaultDrop,
	FaultHTTP500, FaultHTTP503, FaultHTTP400Context, FaultMalformedLine,
	FaultErrorEvent, FaultLengthInToolCall,
	FaultPingOnly, FaultPingMidStream, FaultHugeLine, FaultHugeAnswer, FaultEmptyData,
	FaultCREndings, FaultCRLFEndings, FaultTruncatedJSON, FaultShortJSON, FaultHugeJSON,
	FaultHTTP502HTML,
}

func (f Fault) valid() bool {
	if f == FaultNone {
		return true
	}
	for _, g := range Faults {
		if f == g {
			return true
		}
	}
	return false
}

// midStream reports whether the fault happens after FaultAfter data events.
func (f Fault) midStream() bool {
	switch f {
	case FaultHangMidStream, FaultDrop, FaultMalformedLine, FaultErrorEvent,
		FaultPingMidStream, FaultHugeLine, FaultHugeAnswer, FaultEmptyData:
		return true
	}
	return false
}

// Turn is the scripted answer to one chat request.
type Turn struct {
	Reasoning string     // streamed as reasoning_content deltas (one piece per word)
	Text      string     // streamed as content deltas
	ToolCalls []ToolCall // streamed after the text
	Finish    string     // "" = "tool_calls" when ToolCalls, else "stop"; may be forced ("length")
	Usage     *Usage     // nil = computed roughly from the request/answer sizes
	// Progress are the prompt_progress "processed" values. They are sent
	// only when the request had return_progress:true, as llama-server does.
	// The first value is also the "cache" value and the last one the
	// "total". When the request asked and Progress is empty, two chunks are
	// sent: processed = cached tokens, then processed = prompt tokens.
	Progress       []int
	KeepAlives     int           // number of `:\n\n` comments before the first data event
	ChunkDelay     time.Duration // pause between events (and between keep-alives)
	FirstByteDelay time.Duration // pause before the headers
	Fault          Fault
	FaultAfter     int    // number of data events sent before a mid-stream fault
	ErrorMessage   string // message for HTTP/error-event faults ("" = a sensible default)
	// FaultBytes is the size of huge-line, huge-answer and huge-json
	// (0 = their default).
	FaultBytes int
	// Fixture replays a capture by case name (see FixtureNames): status
	// line and headers from <name>.headers.txt (except Transfer-Encoding and
	// Keep-Alive, which Go's server manages itself), body bytes of
	// <name>.sse or <name>.json verbatim. Text, ToolCalls, etc. are ignored.
	Fixture string
	// Expect optionally checks the request; a non-nil error makes the server
	// answer HTTP 500 with that message and records it in Failures().
	Expect func(r *Request) error
}

// Request is one request the server received.
type Request struct {
	Method, Path string
	Query        string // the raw query of the URL ("" when none)
	Header       http.Header
	Body         []byte         // exactly as received
	JSON         map[string]any // decoded body (nil if not a JSON object)
	At           time.Time      // arrival time
	// Done is when the server finished answering (zero while it still is):
	// the time between one request's Done and the next one's At is the
	// client's own time, which the benchmarks measure.
	Done time.Time
}

// Options configures a Server.
type Options struct {
	ModelName string // the model id in /models and in the chunks (default "tiny.gguf")
	// NCtx is n_ctx in /props default_generation_settings and /models
	// data[].meta (0 = DefaultNCtx; -1 = leave it out so the window is
	// unknown).
	NCtx int
	// Provider is "llamacpp" (default) or "ollama": ollama also serves POST
	// /api/show with model_info "<arch>.context_length", and streams like
	// Ollama (reasoning as delta.reasoning, every delta with role and
	// content, whole tool calls in one delta).
	Provider string
	// APIKey, when set, makes every request need "Authorization: Bearer
	// <key>", else 401 JSON error (no turn is consumed).
	APIKey string

	// Addr is the listen address ("" = "127.0.0.1:0"), for cmd/llmtest.
	Addr string
	// Demo answers chat requests with the rule-based demo model (DemoTurn)
	// once the scripted turns are used up, instead of failing.
	Demo bool
	// Logf, when set, receives one line per request once it is answered.
	Logf func(format string, args ...any)

	// Models are more models /models lists after ModelName (see serving.go).
	Models []string
	// Loading makes the server look like a llama-server still loading its
	// model: every request gets the 503 `Loading model` until Loading chat
	// requests have had it (those consume no turn).
	Loading int
	// Summaries answers mm's summary requests (IsSummaryRequest) with
	// SummaryTurn, without consuming a scripted turn (summary.go).
	Summaries bool

	// Ollama's running window (ollama_window.go). RunningNCtx is the
	// context_length GET /api/ps reports for the loaded model (0 = NCtx);
	// Loaded lists the model as loaded from the start (else from the
	// first chat request or load); Truncate cuts a prompt over the
	// running window, as Ollama does: the usage reports at most
	// RunningNCtx prompt tokens.
	RunningNCtx int
	Loaded      bool
	Truncate    bool
}

// Server is a running scripted server.
type Server struct {
	opts Options
	ln   net.Listener
	srv  *http.Server
	done chan struct{} // closed by Close: every wait in a handler selects on it

	serveDone chan struct{}
	closeOnce sync.Once
	handlers  sync.WaitGroup
	active    atomic.Int32 // handlers running now, so tests can see them end

	mu       sync.Mutex
	closed   bool
	turns    []Turn
	next     int
	requests []Request
	failures []string
	loaded   int // chat requests answered 503 while "loading"
	// modelLoaded: an Ollama chat request or load came (ollama_window.go).
	modelLoaded bool
}

// Start listens on Options.Addr (default 127.0.0.1:0) and serves in the
// background until Close.
func Start(opts Options, turns ...Turn) (*Server, error) {
	if opts.ModelName == "" {
		opts.ModelName = "tiny.gguf"
	}
	if opts.NCtx == 0 {
		opts.NCtx = DefaultNCtx
	}
	switch opts.Provider {
	case "":
		opts.Provider = "llamacpp"
	case "llamacpp", "ollama":
	default:
		return nil, fmt.Errorf("llmtest: unknown provider %q (want llamacpp or ollama)", opts.Provider)
	}
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if err := checkTurns(turns); err != nil {
		return nil, fmt.Errorf("llmtest: %w", err)
	}
	ln, err := net.Listen("tcp", opts.Addr)
	if err != nil {
		return nil, fmt.Errorf("llmtest: %w", err)
	}
	s := &Server{
		opts:      opts,
		ln:        ln,
		done:      make(chan struct{}),
		serveDone: make(chan struct{}),
		turns:     append([]Turn(nil), turns...),
	}
	s.srv = &http.Server{Handler: http.HandlerFunc(s.serveHTTP), ReadHeaderTimeout: time.Minute}
	go func() {
		defer close(s.serveDone)
		_ = s.srv.Serve(ln)
	}()
	return s, nil
}

// checkTurns catches script mistakes at Start or Push instead of in the
// middle of a test.
func checkTurns(turns []Turn) error {
	for i, t := range turns {
		if !t.Fault.valid() {
			return fmt.Errorf("turn %d: unknown fault %q", i+1, t.Fault)
		}
		if t.Fixture != "" && !hasCase(t.Fixture) {
			return fmt.Errorf("turn %d: unknown fixture %q (see FixtureNames)", i+1, t.Fixture)
		}
	}
	return nil
}

// New starts a server with default options, closes it when the test ends
// and fails the test if it cannot start.
func New(t testing.TB, turns ...Turn) *Server {
	t.Helper()
	return NewWith(t, Options{}, turns...)
}

// NewWith is New with options.
func NewWith(t testing.TB, opts Options, turns ...Turn) *Server {
	t.Helper()
	s, err := Start(opts, turns...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s
}

// URL is the base URL the way mm's config wants it: "http://127.0.0.1:PORT/v1".
func (s *Server) URL() string { return s.Root() + "/v1" }

// Root is "http://127.0.0.1:PORT", without a path.
func (s *Server) Root() string { return "http://" + s.ln.Addr().String() }

// Addr is the address the server listens on.
func (s *Server) Addr() string { return s.ln.Addr().String() }

// Push appends turns to the script. An invalid turn (unknown fault or
// fixture) panics, since it is a mistake in the test itself.
func (s *Server) Push(turns ...Turn) {
	if err := checkTurns(turns); err != nil {
		panic(fmt.Errorf("llmtest: %w", err))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.turns = append(s.turns, turns...)
}

// Pending is the number of scripted turns not consumed yet.
func (s *Server) Pending() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.turns) - s.next
}

// Requests is every request received, in order (GETs included).
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// ChatRequests is only the POST .../chat/completions requests.
func (s *Server) ChatRequests() []Request {
	var out []Request
	for _, r := range s.Requests() {
		if r.Method == http.MethodPost && isChatPath(r.Path) {
			out = append(out, r)
		}
	}
	return out
}

// Failures are the Expect failures and "no scripted turn left" events, and
// chat requests the server could not read, in order.
func (s *Server) Failures() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.failures...)
}

func (s *Server) fail(msg string) {
	s.mu.Lock()
	s.failures = append(s.failures, msg)
	s.mu.Unlock()
}

// closeWait bounds how long Close waits for handlers: they all watch
// s.done, so they end at once unless the process is badly overloaded, and
// Close must never block a test forever.
const closeWait = 10 * time.Second

// Close unblocks hanging handlers, closes the listener and every
// connection, and waits (boundedly) for the handlers to return.
func (s *Server) Close() {
	s.closeOnce.Do(func() {
		s.mu.Lock()
		s.closed = true
		s.mu.Unlock()
		close(s.done)
		_ = s.srv.Close()
		finished := make(chan struct{})
		go func() {
			s.handlers.Wait()
			<-s.serveDone
			close(finished)
		}()
		select {
		case <-finished:
		case <-time.After(closeWait):
		}
	})
}

// hang sends nothing more until the client goes away or the server
// closes, then cuts the connection: a hung answer must never look like a
// complete one, which net/http would make of it by ending the body cleanly.
func (s *Server) hang(w http.ResponseWriter, ctx context.Context) error {
	select {
	case <-ctx.Done():
	case <-s.done:
	}
	_ = s.drop(w)
	return errGone
}

// sleep pauses for d; false means the client went away or the server
// closed, and the handler should stop.
func (s *Server) sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	case <-s.done:
		return false
	}
}

// statusWriter remembers the status for the log line. Unwrap lets
// http.ResponseController reach the real writer's Flush and Hijack.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(code int) {
	if w.status == 0 {
		w.status = code
	}
	w.ResponseWriter.WriteHeader(code)
}

func (w *statusWriter) Write(b []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(b)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }

func (s *Server) serveHTTP(rw http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		rw.WriteHeader(http.StatusServiceUnavailable)
		return
	}
	// Added under the lock that Close takes before waiting, so Wait never
	// races with a late Add.
	s.handlers.Add(1)
	s.mu.Unlock()
	defer s.handlers.Done()
	s.active.Add(1)
	defer s.active.Add(-1)

	// Reading the whole body first records it exactly, and lets net/http
	// watch the connection so r.Context() ends when the client goes away.
	body, _ := io.ReadAll(r.Body)
	req := Request{Method: r.Method, Path: r.URL.Path, Query: r.URL.RawQuery, Header: r.Header.Clone(), Body: body, At: time.Now()}
	var obj map[string]any
	if json.Unmarshal(body, &obj) == nil {
		req.JSON = obj
	}
	s.mu.Lock()
	s.requests = append(s.requests, req)
	n := len(s.requests)
	s.mu.Unlock()

	w := &statusWriter{ResponseWriter: rw}
	// llama-server sends no Date header; leaving it out keeps replayed
	// headers identical to the captures.
	w.Header()["Date"] = nil
	note := s.route(w, r, &req, n)
	s.mu.Lock()
	s.requests[n-1].Done = time.Now()
	s.mu.Unlock()
	if s.opts.Logf != nil {
		line := fmt.Sprintf("%s %s -> %d", r.Method, r.URL.Path, w.status)
		if w.status == 0 {
			line = fmt.Sprintf("%s %s -> (no answer)", r.Method, r.URL.Path)
		}
		if note != "" {
			line += " " + note
		}
		s.opts.Logf("%s", line)
	}
}

func isChatPath(p string) bool { return strings.HasSuffix(p, "/chat/completions") }

// route answers one request and returns a short note for the log.
func (s *Server) route(w *statusWriter, r *http.Request, req *Request, n int) string {
	if s.opts.APIKey != "" && r.Header.Get("Authorization") != "Bearer "+s.opts.APIKey {
		writeJSONError(w, http.StatusUnauthorized, `{"error":{"code":401,"message":"Invalid API Key","type":"authentication_error"}}`)
		return "(bad or missing API key)"
	}
	if note, ok := s.whileLoading(w, r); ok {
		return note
	}
	p := r.URL.Path
	ollama := s.opts.Provider == "ollama"
	switch {
	case isChatPath(p) && r.Method == http.MethodPost:
		if ollama {
			s.markLoaded() // Ollama loads the model a request names
		}
		return s.chat(w, r, req, n)
	case strings.HasSuffix(p, "/models") && r.Method == http.MethodGet:
		if ollama {
			s.writeJSON(w, http.StatusOK, s.ollamaModels())
		} else {
			s.writeJSON(w, http.StatusOK, s.llamaModels())
		}
	case ollama && strings.HasSuffix(p, "/api/show") && r.Method == http.MethodPost:
		s.writeJSON(w, http.StatusOK, s.ollamaShow())
	case ollama && strings.HasSuffix(p, "/api/ps") && r.Method == http.MethodGet:
		s.writeJSON(w, http.StatusOK, s.ollamaPS())
	case ollama && strings.HasSuffix(p, "/api/generate") && r.Method == http.MethodPost && req.JSON != nil && req.JSON["prompt"] == nil:
		s.ollamaLoad(w)
	case ollama && strings.HasSuffix(p, "/api/tags") && r.Method == http.MethodGet:
		s.writeJSON(w, http.StatusOK, s.ollamaTags())
	case ollama && strings.HasSuffix(p, "/api/version") && r.Method == http.MethodGet:
		s.writeJSON(w, http.StatusOK, []byte(`{"version":"0.12.6"}`))
	case ollama && p == "/" && r.Method == http.MethodGet:
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.WriteHeader(http.StatusOK)
		_, _ = io.WriteString(w, "Ollama is running")
	case ollama:
		// Ollama (gin) answers unknown routes with a plain-text 404.
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "404 page not found")
	case strings.HasSuffix(p, "/props") && r.Method == http.MethodGet:
		s.writeJSON(w, http.StatusOK, s.llamaProps())
	case strings.HasSuffix(p, "/slots") && r.Method == http.MethodGet:
		s.writeJSON(w, http.StatusOK, s.llamaSlots())
	case strings.HasSuffix(p, "/health") && r.Method == http.MethodGet:
		s.writeJSON(w, http.StatusOK, []byte(`{"status":"ok"}`))
	default:
		writeJSONError(w, http.StatusNotFound, string(Fixture("g9_not_found.json")))
	}
	return ""
}

// llamaHeaders are the headers llama-server puts on every answer.
func llamaHeaders(h http.Header) {
	h.Set("Server", "llama.cpp")
	h["Access-Control-Allow-Origin"] = []string{""}
}

func (s *Server) writeJSON(w http.ResponseWriter, code int, body []byte) {
	if s.opts.Provider == "ollama" {
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	} else {
		llamaHeaders(w.Header())
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
	}
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.WriteHeader(code)
	_, _ = w.Write(body)
}

// writeJSONError writes an error the way llama-server does: JSON body and
// Connection: close.
func writeJSONError(w http.ResponseWriter, code int, body string) {
	llamaHeaders(w.Header())
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Content-Length", fmt.Sprint(len(body)))
	w.Header().Set("Connection", "close")
	w.WriteHeader(code)
	_, _ = io.WriteString(w, body)
}

// errorBody is llama-server's {"error":{code,message,type}} with the
// message escaped properly.
func errorBody(code int, message, typ string) string {
	return fmt.Sprintf(`{"error":{"code":%d,"message":%s,"type":%s}}`, code, jsonString(message), jsonString(typ))
}

// jsonString encodes s as a JSON string without Go's HTML escaping, like
// llama-server's nlohmann::json (so "<" stays "<").
func jsonString(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// chat answers one POST .../chat/completions.
func (s *Server) chat(w *statusWriter, r *http.Request, req *Request, n int) string {
	where := fmt.Sprintf("request %d (%s %s)", n, req.Method, req.Path)
	if req.JSON == nil {
		// llama-server answers a body it cannot parse with 500 server_error
		// (g3_malformed_json); a test sending one has a bug worth reporting.
		msg := "llmtest: request body is not a JSON object"
		s.fail(where + ": " + msg)
		writeJSONError(w, http.StatusInternalServerError, errorBody(500, msg, "server_error"))
		return "(body is not JSON)"
	}
	if _, ok := req.JSON["messages"]; !ok {
		s.fail(where + ": 'messages' is required")
		writeJSONError(w, http.StatusBadRequest, string(Fixture("g11_missing_messages.json")))
		return "(no messages)"
	}

	s.mu.Lock()
	var turn Turn
	summary := s.opts.Summaries && IsSummaryRequest(req)
	have := !summary && s.next < len(s.turns)
	index := s.next
	if have {
		turn = s.turns[s.next]
		s.next++
	}
	s.mu.Unlock()
	note := fmt.Sprintf("turn %d", index+1)
	if summary {
		turn, note = SummaryTurn(req), "summary"
	} else if !have {
		if !s.opts.Demo {
			msg := "llmtest: no scripted turn left"
			s.fail(where + ": " + msg)
			writeJSONError(w, http.StatusInternalServerError, errorBody(500, msg, "server_error"))
			return "(no scripted turn left)"
		}
		turn = DemoTurn(req)
		note = "demo"
		if len(turn.ToolCalls) > 0 {
			note += fmt.Sprintf(": %s %s", turn.ToolCalls[0].Name, turn.ToolCalls[0].Arguments)
		}
	}

	if turn.Expect != nil {
		if err := turn.Expect(req); err != nil {
			s.fail(fmt.Sprintf("%s, turn %d: %v", where, index+1, err))
			writeJSONError(w, http.StatusInternalServerError, errorBody(500, err.Error(), "server_error"))
			return note + " (expect failed: " + err.Error() + ")"
		}
	}
	if turn.Fixture != "" {
		note += " fixture " + turn.Fixture
	}
	if turn.Fault != FaultNone {
		note += " fault " + string(turn.Fault)
	}

	ctx := r.Context()
	if !s.sleep(ctx, turn.FirstByteDelay) {
		_ = s.drop(w)
		return note + " (client gone)"
	}
	switch turn.Fault {
	case FaultHangBeforeFirstByte:
		_ = s.hang(w, ctx)
		return note
	case FaultHTTP500:
		msg := turn.ErrorMessage
		if msg == "" {
			msg = "llmtest: scripted internal server error"
		}
		writeJSONError(w, http.StatusInternalServerError, errorBody(500, msg, "server_error"))
		return note
	case FaultHTTP503:
		body := string(Fixture("g10_chat_while_loading.json"))
		if turn.ErrorMessage != "" {
			body = fmt.Sprintf(`{"error":{"message":%s,"type":"unavailable_error","code":503}}`, jsonString(turn.ErrorMessage))
		}
		writeJSONError(w, http.StatusServiceUnavailable, body)
		return note
	case FaultHTTP502HTML:
		writeProxyPage(w)
		return note
	case FaultHTTP400Context:
		body := string(Fixture("g1_ctx_overflow.json"))
		if turn.ErrorMessage != "" {
			body = errorBody(400, turn.ErrorMessage, "exceed_context_size_error")
		}
		writeJSONError(w, http.StatusBadRequest, body)
		return note
	}

	var err error
	switch {
	case turn.Fault.jsonFault():
		err = s.jsonFault(w, ctx, req, &turn)
	case turn.Fixture != "":
		err = s.replay(w, ctx, &turn)
	case boolAt(req.JSON, "stream"):
		err = s.stream(w, ctx, req, &turn)
	default:
		err = s.nonStream(w, ctx, req, &turn)
	}
	if errors.Is(err, errGone) {
		note += " (client gone)"
	}
	return note
}

// errGone means the client disconnected or the server closed mid-answer.
var errGone = errors.New("llmtest: client gone or server closed")

// boolAt reads a boolean at a dotted path of a decoded JSON object.
func boolAt(m map[string]any, path ...string) bool {
	var cur any = m
	for _, k := range path {
		obj, ok := cur.(map[string]any)
		if !ok {
			return false
		}
		cur = obj[k]
	}
	b, _ := cur.(bool)
	return b
}
