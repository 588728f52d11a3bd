package llm

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
)

// The real llama-server captures are the ground truth of the wire format:
// every one of them goes through the real HTTP path of Client.Generate (or
// the probe and window discovery) here.

const fixtureDir = "../llmtest/fixtures/llamacpp"

func fixture(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fixtureDir, name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// capturedHeaders reads a .headers.txt capture: the status and the
// Content-Type.
func capturedHeaders(t *testing.T, name string) (int, string) {
	t.Helper()
	resp, err := http.ReadResponse(bufio.NewReader(strings.NewReader(string(fixture(t, name+".headers.txt")))), nil)
	if err != nil {
		t.Fatalf("%s.headers.txt: %v", name, err)
	}
	return resp.StatusCode, resp.Header.Get("Content-Type")
}

// replay serves a capture (status, Content-Type and body bytes) on every
// path, and records the request bodies it got.
func replay(t *testing.T, name, body string) (*httptest.Server, *[][]byte) {
	t.Helper()
	status, ctype := capturedHeaders(t, name)
	data := fixture(t, name+body)
	var got [][]byte
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		got = append(got, b)
		w.Header().Set("Content-Type", ctype)
		w.WriteHeader(status)
		w.Write(data)
	}))
	t.Cleanup(srv.Close)
	return srv, &got
}

type streamed struct {
	text, reasoning          strings.Builder
	progress                 []Progress
	keepAlives, toolPieces   int
	keepAliveBeforeFirstData bool
	seenData                 bool
}

func (s *streamed) cb(_ context.Context, c *ai.ModelResponseChunk) error {
	switch v := c.Custom.(type) {
	case KeepAlive:
		if !v.Comment {
			s.seenData = true
			return nil
		}
		s.keepAlives++
		if !s.seenData {
			s.keepAliveBeforeFirstData = true
		}
		return nil
	case Progress:
		s.progress = append(s.progress, v)
		s.seenData = true
		return nil
	}
	s.seenData = true
	for _, p := range c.Content {
		switch {
		case p.IsReasoning():
			s.reasoning.WriteString(p.Text)
		case p.IsText():
			s.text.WriteString(p.Text)
		case p.IsToolRequest():
			s.toolPieces++
		}
	}
	return nil
}

func generate(t *testing.T, url string) (*ai.ModelResponse, *streamed, error) {
	t.Helper()
	c := &Client{Provider: Provider{Name: "llamacpp", LlamaCpp: true}, BaseURL: url + "/v1", Model: "tiny", HTTP: NewHTTPClient()}
	s := &streamed{}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp, err := c.Generate(ctx, &ai.ModelRequest{Messages: []*ai.Message{ai.NewUserTextMessage("hi")}}, s.cb)
	return resp, s, err
}

func partsOf(m *ai.Message) (reasoning, text string, calls []RawToolCall) {
	for _, p := range m.Content {
		switch {
		case p.IsReasoning():
			reasoning += p.Text
		case p.IsText():
			text += p.Text
		}
	}
	return reasoning, text, RawToolCalls(m)
}

const (
	thought = "Okay, the user said hello.\n"
	hello   = "Hello! I am a tiny test model."
)

func TestFixtureStreams(t *testing.T) {
	cases := []struct {
		name       string
		body       string
		reasoning  string
		text       string
		finish     string
		args       []string // tool-call arguments, in order
		inTokens   int      // from usage, or from timings without it
		outTokens  int
		cached     int
		progress   []int // processed values
		keepAlives int
	}{
		{name: "a_stream_text", reasoning: thought, text: hello, finish: "stop", inTokens: 85, outTokens: 20},
		{name: "a2_stream_length", reasoning: "Okay, the user", finish: "length", inTokens: 85, outTokens: 5, cached: 84},
		{name: "b_stream_usage", reasoning: thought, text: hello, finish: "stop", inTokens: 85, outTokens: 20, cached: 84},
		{name: "c_stream_progress", reasoning: thought, text: hello, finish: "stop", inTokens: 1570, outTokens: 20, progress: []int{0, 1570}},
		{name: "c2_stream_progress_batch512", reasoning: thought, text: hello, finish: "stop", inTokens: 1570, outTokens: 20, progress: []int{0, 512, 1024, 1536, 1570}},
		{name: "c3_stream_progress_cached", reasoning: thought, text: hello, finish: "stop", inTokens: 1570, outTokens: 20, cached: 1569, progress: []int{1569, 1570}},
		{name: "d_tools_required", reasoning: thought, text: hello, finish: "length", args: []string{`{"command":"ls -la"`}},
		{name: "d2_tools_required_complete", reasoning: thought, text: hello, finish: "tool_calls", args: []string{`{"command":"ls -la"}`}},
		{name: "e_tools_auto", reasoning: thought, text: hello, finish: "stop"},
		{name: "e2_tools_auto_biased", finish: "tool_calls", args: []string{`{"command":"ls -la"}`}},
		{name: "f_thinking_off", text: hello, finish: "stop"},
		{name: "f2_reasoning_format_none", text: "<think>\n" + thought + "</think>\n\n" + hello, finish: "stop"},
		{name: "g2_unknown_model", reasoning: thought, text: hello, finish: "stop"},
		{name: "i_tool_result_followup", reasoning: thought, text: hello, finish: "stop"},
		{name: "k_sse_ping", reasoning: "Okay,", finish: "length", keepAlives: 3},
		{name: "h_nonstream_text", body: ".json", reasoning: thought, text: hello, finish: "stop", inTokens: 85, outTokens: 20},
		{name: "h2_nonstream_tools_required", body: ".json", reasoning: thought, text: hello, finish: "tool_calls", args: []string{`{"command":"ls -la"}`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			body := tc.body
			if body == "" {
				body = ".sse"
			}
			srv, _ := replay(t, tc.name, body)
			resp, s, err := generate(t, srv.URL)
			if err != nil {
				t.Fatalf("Generate: %v", err)
			}
			reasoning, text, calls := partsOf(resp.Message)
			if reasoning != tc.reasoning || s.reasoning.String() != tc.reasoning {
				t.Errorf("reasoning = %q, streamed %q, want %q", reasoning, s.reasoning.String(), tc.reasoning)
			}
			if text != tc.text || s.text.String() != tc.text {
				t.Errorf("text = %q, streamed %q, want %q", text, s.text.String(), tc.text)
			}
			if resp.FinishMessage != tc.finish {
				t.Errorf("finish = %q, want %q", resp.FinishMessage, tc.finish)
			}
			var args []string
			for _, c := range calls {
				if c.Name != "bash" || len(c.ID) != 32 {
					t.Errorf("call name %q id %q: want bash with a 32-character id", c.Name, c.ID)
				}
				args = append(args, c.Arguments)
			}
			if !reflect.DeepEqual(args, tc.args) {
				t.Errorf("tool-call arguments = %q, want %q", args, tc.args)
			}
			if len(tc.args) > 0 && body == ".sse" && s.toolPieces < 2 {
				t.Errorf("tool-call pieces streamed = %d, want one per delta", s.toolPieces)
			}
			if tc.inTokens > 0 || tc.outTokens > 0 {
				if resp.Usage == nil {
					t.Fatalf("no usage")
				}
				if resp.Usage.InputTokens != tc.inTokens && tc.inTokens > 0 {
					t.Errorf("input tokens = %d, want %d", resp.Usage.InputTokens, tc.inTokens)
				}
				if resp.Usage.OutputTokens != tc.outTokens {
					t.Errorf("output tokens = %d, want %d", resp.Usage.OutputTokens, tc.outTokens)
				}
				if tc.cached > 0 && resp.Usage.CachedContentTokens != tc.cached {
					t.Errorf("cached tokens = %d, want %d", resp.Usage.CachedContentTokens, tc.cached)
				}
			}
			var processed []int
			for _, p := range s.progress {
				processed = append(processed, p.Processed)
				if p.Total != 1570 {
					t.Errorf("progress total = %d, want 1570", p.Total)
				}
			}
			if !reflect.DeepEqual(processed, tc.progress) {
				t.Errorf("progress = %v, want %v", processed, tc.progress)
			}
			if s.keepAlives != tc.keepAlives {
				t.Errorf("keep-alives = %d, want %d", s.keepAlives, tc.keepAlives)
			}
			if tc.keepAlives > 0 && !s.keepAliveBeforeFirstData {
				t.Errorf("the first keep-alive came before any data in the capture, but was not reported first")
			}
		})
	}
}

// Errors before the stream starts come back as an HTTP status with a JSON
// body even when stream:true was asked: the user must read the server's own
// message.
func TestFixtureHTTPErrors(t *testing.T) {
	cases := []struct {
		name, want string
		status     int
	}{
		// g1_ctx_overflow, g1b_ctx_overflow_nonstream and
		// g10_chat_while_loading: see server_errors_test.go.
		{"g11_missing_messages", "'messages' is required", 400},
		{"g3_malformed_json", "[json.exception.parse_error.101] parse error at line 2, column 1", 500},
		{"g9_not_found", "File Not Found", 404},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := replay(t, tc.name, ".json")
			_, _, err := generate(t, srv.URL)
			var ee *EngineError
			if !errors.As(err, &ee) {
				t.Fatalf("err = %v, want an EngineError", err)
			}
			if ee.Status != tc.status || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), "[engine error: ") {
				t.Errorf("err = %q (status %d), want status %d and %q", err, ee.Status, tc.status, tc.want)
			}
			if !strings.Contains(err.Error(), "HTTP "+strconv.Itoa(tc.status)) {
				t.Errorf("err = %q does not name the status", err)
			}
		})
	}
}

// j_client_disconnect.partial.sse is a stream cut in the middle of an
// event: the answer is incomplete and must not pass for a finished one.
func TestFixtureCutStream(t *testing.T) {
	data := fixture(t, "j_client_disconnect.partial.sse")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(data)
	}))
	defer srv.Close()
	_, s, err := generate(t, srv.URL)
	if err == nil || !strings.Contains(err.Error(), "closed the stream before the answer was complete") {
		t.Fatalf("err = %v", err)
	}
	if s.reasoning.String() != "Okay, the user" {
		t.Errorf("streamed reasoning before the cut = %q", s.reasoning.String())
	}
}

// The raw capture keeps llama-server's chunked framing (one HTTP chunk per
// event, [DONE] alone, then the last chunk); served byte for byte over TCP,
// it must read like the de-chunked body.
func TestFixtureRawChunked(t *testing.T) {
	headers := fixture(t, "a_stream_text.headers.txt")
	raw := fixture(t, "a_stream_text.raw-chunked.txt")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		conn, err := ln.Accept()
		if err != nil {
			return
		}
		defer conn.Close()
		req, err := http.ReadRequest(bufio.NewReader(conn))
		if err != nil {
			return
		}
		io.Copy(io.Discard, req.Body)
		conn.Write(headers)
		conn.Write(raw)
		// llama-server keeps the connection open after the stream: the
		// client must finish on [DONE] without waiting for a close.
		time.Sleep(5 * time.Second)
	}()
	done := make(chan struct{})
	var resp *ai.ModelResponse
	go func() {
		defer close(done)
		resp, _, err = generate(t, "http://"+ln.Addr().String())
	}()
	select {
	case <-done:
	case <-time.After(4 * time.Second):
		t.Fatal("Generate waited for the connection to close instead of ending on [DONE]")
	}
	if err != nil {
		t.Fatal(err)
	}
	if _, text, _ := partsOf(resp.Message); text != hello {
		t.Errorf("text = %q", text)
	}
}

// The models, props and slots captures give the context window; health and
// not-found answers still count as a server that answers the probe.
func TestFixtureWindowAndProbe(t *testing.T) {
	routes := map[string]string{
		"/v1/models": "g4_get_models",
		"/models":    "g7_get_models_nov1",
		"/props":     "g5_get_props",
		"/slots":     "g8_get_slots",
	}
	serve := func(enabled map[string]bool) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			name, ok := routes[r.URL.Path]
			if !ok || !enabled[r.URL.Path] {
				status, ctype := capturedHeaders(t, "g9_not_found")
				w.Header().Set("Content-Type", ctype)
				w.WriteHeader(status)
				w.Write(fixture(t, "g9_not_found.json"))
				return
			}
			w.Header().Set("Content-Type", "application/json")
			w.Write(fixture(t, name+".json"))
		}))
	}
	ctx := context.Background()
	p := Provider{Name: "llamacpp", LlamaCpp: true}
	for _, tc := range []struct {
		name    string
		enabled map[string]bool
		want    int
	}{
		{"props", map[string]bool{"/v1/models": true, "/props": true}, 2048},
		{"models meta", map[string]bool{"/v1/models": true}, 2048},
		{"slots", map[string]bool{"/slots": true}, 2048},
		{"nothing", map[string]bool{}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := serve(tc.enabled)
			defer srv.Close()
			ep, err := ResolveEndpoint(ctx, EndpointOptions{Provider: p, BaseURL: srv.URL + "/v1", Fallback: new(string)})
			if err != nil {
				t.Fatalf("the probe must accept any HTTP answer, got %v", err)
			}
			if got := DiscoverContextWindow(ctx, nil, p, ep, "tiny", ""); got != tc.want {
				t.Errorf("window = %d, want %d", got, tc.want)
			}
		})
	}
	// /models without /v1 is the same answer.
	var a, b any
	json.Unmarshal(fixture(t, "g4_get_models.json"), &a)
	json.Unmarshal(fixture(t, "g7_get_models_nov1.json"), &b)
	if !reflect.DeepEqual(a, b) {
		t.Error("g4 and g7 differ")
	}
	if modelsWindow(fixture(t, "g7_get_models_nov1.json"), "/srv/models/tinyqwen3.gguf") != 2048 {
		t.Error("models meta by id")
	}
}

// The request mm builds for a tool-result follow-up has the shape the real
// server accepted in i_tool_result_followup (messages and tools equal as
// JSON).
func TestRequestMatchesAcceptedCapture(t *testing.T) {
	var captured map[string]any
	if err := json.Unmarshal(fixture(t, "i_tool_result_followup.request.json"), &captured); err != nil {
		t.Fatal(err)
	}
	req := &ai.ModelRequest{
		Messages: []*ai.Message{
			ai.NewSystemTextMessage("You are a coding agent. Use the bash tool when you need to run commands."),
			ai.NewUserTextMessage("list files"),
			ai.NewModelMessage(ai.NewToolRequestPart(&ai.ToolRequest{Name: "bash", Ref: "call_1", Input: json.RawMessage(`{"command":"ls -la"}`)})),
			ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Name: "bash", Ref: "call_1", Output: "total 0\n-rw-r--r-- 1 root root 0 a.txt\n"})),
		},
		Tools: []*ai.ToolDefinition{{
			Name: "bash", Description: "Run a shell command and return its combined stdout/stderr.",
			InputSchema: map[string]any{"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string", "description": "The command to run."}}, "required": []any{"command"}},
		}},
	}
	body, err := BuildRequest(req, RequestOptions{Model: "tiny", Sampling: map[string]any{"max_tokens": 24, "temperature": 0}})
	if err != nil {
		t.Fatal(err)
	}
	var ours map[string]any
	if err := json.Unmarshal(body, &ours); err != nil {
		t.Fatalf("invalid JSON: %v\n%s", err, body)
	}
	for _, k := range []string{"model", "messages", "tools", "stream", "max_tokens", "temperature"} {
		if !reflect.DeepEqual(ours[k], captured[k]) {
			t.Errorf("%s differs:\n ours %v\n want %v", k, ours[k], captured[k])
		}
	}
}
