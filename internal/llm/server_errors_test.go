package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
)

// The server's own overflow error (g1_ctx_overflow, g1b) is said plainly:
// the figures, what to do, and marked as an overflow for the agent.
func TestOverflowFromServer(t *testing.T) {
	for _, name := range []string{"g1_ctx_overflow", "g1b_ctx_overflow_nonstream"} {
		srv, _ := replay(t, name, ".json")
		_, _, err := generate(t, srv.URL)
		var ee *EngineError
		if !errors.As(err, &ee) || !ee.Overflow || ee.Status != 400 {
			t.Fatalf("%s: err = %#v", name, err)
		}
		want := "[engine error: the conversation is 2383 tokens, more than the server's context window (2048 tokens). Compress it (/compact in line mode) or start a new conversation (/new), ask for less at once, or give the model a larger context: restart llama-server with -c 4096]"
		if err.Error() != want {
			t.Errorf("%s:\n got %s\nwant %s", name, err, want)
		}
	}
}

func TestParseOverflow(t *testing.T) {
	cases := []struct {
		body           string
		tokens, window int
	}{
		{`{"code":400,"message":"request (2383 tokens) exceeds the available context size (2048 tokens), try increasing it","type":"exceed_context_size_error","n_prompt_tokens":2383,"n_ctx":2048}`, 2383, 2048},
		{`{"message":"request (9000 tokens) exceeds the available context size (8192 tokens), try increasing it"}`, 9000, 8192},
		{`{"message":"This model's maximum context length is 4096 tokens. However, your messages resulted in 5000 tokens.","code":"context_length_exceeded"}`, 5000, 4096},
	}
	for _, tc := range cases {
		o, ok := parseOverflow([]byte(tc.body))
		if !ok || o.tokens != tc.tokens || o.window != tc.window {
			t.Errorf("%s: %v %v", tc.body, o, ok)
		}
	}
	if _, ok := parseOverflow([]byte(`{"message":"'messages' is required"}`)); ok {
		t.Error("another 400 taken for an overflow")
	}
}

func TestOverflowHints(t *testing.T) {
	for _, tc := range []struct{ provider, want string }{
		{"llamacpp", "restart llama-server with -c 8192"},
		{"llmman", "restart llama-server with -c 8192"},
		{"ollama", "restart Ollama with OLLAMA_CONTEXT_LENGTH=8192"},
		{"dmr", "docker model configure --context-size 8192 ai/qwen3"},
	} {
		p, _ := LookupProvider(tc.provider)
		if msg := OverflowMessage(p, "ai/qwen3", 5000, 4096, true); !strings.HasSuffix(msg, tc.want) || !strings.Contains(msg, "at least 5000 tokens") {
			t.Errorf("%s: %s", tc.provider, msg)
		}
	}
}

// A proxy's HTML page: its status and title, never the page.
func TestHTMLErrorBody(t *testing.T) {
	page := "<!DOCTYPE html>\n<html><head><title>\n  502 Bad &amp; Gateway\n</title><style>body{}</style></head><body><h1>oops</h1><script>x()</script></body></html>"
	for _, ctype := range []string{"text/html; charset=utf-8", ""} {
		h := http.Header{}
		if ctype != "" {
			h.Set("Content-Type", ctype)
		}
		e := httpError(Provider{}, "m", "http://h/v1/chat/completions", 502, h, []byte(page))
		want := `the server answered HTTP 502 to POST http://h/v1/chat/completions: an HTML page titled "502 Bad & Gateway" (a proxy between mm and the model server?)`
		if e.Msg != want {
			t.Errorf("Content-Type %q:\n got %s\nwant %s", ctype, e.Msg, want)
		}
	}
	e := httpError(Provider{}, "m", "http://h/v1", 502, http.Header{"Content-Type": {"text/html"}}, []byte("<html><body>down</body></html>"))
	if strings.Contains(e.Msg, "<") || !strings.Contains(e.Msg, "an HTML page (a proxy") {
		t.Errorf("no title: %s", e.Msg)
	}
}

func TestRetryAfter(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for v, want := range map[string]time.Duration{
		"":                              0,
		"3":                             3 * time.Second,
		"0":                             0,
		"-1":                            0,
		"soon":                          0,
		"Thu, 01 Jan 2026 00:00:05 GMT": 5 * time.Second,
		"Wed, 31 Dec 2025 23:00:00 GMT": 0,
		"999999":                        time.Hour,
	} {
		if got := retryAfter(v, now); got != want {
			t.Errorf("Retry-After %q = %s, want %s", v, got, want)
		}
	}
}

// loadingServer answers 503 `Loading model` (g10_chat_while_loading) to the
// first n requests, then the g_a stream capture.
func loadingServer(t *testing.T, n int32, header http.Header) (*httptest.Server, *atomic.Int32) {
	t.Helper()
	loading := fixture(t, "g10_chat_while_loading.json")
	answer := fixture(t, "a_stream_text.sse")
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if calls.Add(1) <= n {
			for k, v := range header {
				w.Header()[k] = v
			}
			w.Header().Set("Content-Type", "application/json; charset=utf-8")
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write(loading)
			return
		}
		w.Header().Set("Content-Type", "text/event-stream")
		w.Write(answer)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

func loadingClient(url string, limit time.Duration) *Client {
	return &Client{Provider: Provider{Name: "llamacpp", LlamaCpp: true}, BaseURL: url + "/v1", Model: "tiny", HTTP: NewHTTPClient(), LoadTimeout: limit}
}

// 503 `Loading model` is waited out: the call is asked again, the callback
// hears of the wait, and the answer comes.
func TestLoadingIsWaitedOut(t *testing.T) {
	srv, calls := loadingServer(t, 3, nil)
	s := &streamed{}
	loads := 0
	cb := func(ctx context.Context, c *ai.ModelResponseChunk) error {
		if p, ok := c.Custom.(Progress); ok && p.Loading {
			loads++
			return nil
		}
		return s.cb(ctx, c)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	_, err := loadingClient(srv.URL, time.Minute).Generate(ctx, &ai.ModelRequest{Messages: []*ai.Message{ai.NewUserTextMessage("hi")}}, cb)
	if err != nil || s.text.String() != hello || calls.Load() != 4 || loads != 3 {
		t.Fatalf("err %v, text %q, %d calls, %d loading reports", err, s.text.String(), calls.Load(), loads)
	}
}

// The wait ends at LoadTimeout with its own message, and at once when the
// call is cancelled.
func TestLoadingBounded(t *testing.T) {
	srv, calls := loadingServer(t, 1<<30, nil)
	req := &ai.ModelRequest{Messages: []*ai.Message{ai.NewUserTextMessage("hi")}}
	_, err := loadingClient(srv.URL, 600*time.Millisecond).Generate(context.Background(), req, nil)
	if err == nil || err.Error() != "[engine error: the server was still loading the model after 600ms (firstTokenTimeout) — ask again once it has loaded, or raise firstTokenTimeout]" {
		t.Fatalf("err = %v", err)
	}
	if n := calls.Load(); n > 6 {
		t.Errorf("%d requests in 600 ms: the backoff does not back off", n)
	}

	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := loadingClient(srv.URL, 0).Generate(ctx, req, func(context.Context, *ai.ModelResponseChunk) error {
			cancel() // the user presses Ctrl-C during the wait
			return nil
		})
		done <- err
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want the cancellation", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the wait did not end on cancellation")
	}
}

// Retry-After sets the wait; a 503 that is not loading and gives none is an
// error at once.
func TestLoadingRetryAfter(t *testing.T) {
	srv, calls := loadingServer(t, 1, http.Header{"Retry-After": {"1"}})
	start := time.Now()
	_, err := loadingClient(srv.URL, time.Minute).Generate(context.Background(), &ai.ModelRequest{Messages: []*ai.Message{ai.NewUserTextMessage("hi")}}, nil)
	if err != nil || calls.Load() != 2 {
		t.Fatalf("err %v, %d calls", err, calls.Load())
	}
	if d := time.Since(start); d < time.Second {
		t.Errorf("asked again after %s, before the server's Retry-After: 1", d)
	}

	busy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		io.WriteString(w, `{"error":"server busy, please try again.  maximum pending requests exceeded"}`)
	}))
	defer busy.Close()
	_, err = loadingClient(busy.URL, time.Minute).Generate(context.Background(), &ai.ModelRequest{Messages: []*ai.Message{ai.NewUserTextMessage("hi")}}, nil)
	if err == nil || !strings.Contains(err.Error(), "HTTP 503") || !strings.Contains(err.Error(), "server busy") {
		t.Errorf("err = %v", err)
	}
}

// The probe counts a server that is loading as there, and keeps its status.
func TestProbeLoadingServer(t *testing.T) {
	srv, _ := loadingServer(t, 1, nil)
	ep, err := ResolveEndpoint(context.Background(), EndpointOptions{Provider: Provider{Name: "llamacpp", BaseURL: srv.URL + "/v1"}})
	if err != nil || ep.ModelsStatus != 503 {
		t.Fatalf("%v %v", ep, err)
	}
	if w := ModelWarning(Provider{Name: "ollama"}, ep, "x"); w != "" {
		t.Errorf("a warning from a loading server's answer: %s", w)
	}
}

func TestParseModels(t *testing.T) {
	s, ok := ParseModels(fixture(t, "g4_get_models.json"))
	if !ok || !s.AnyName || len(s.IDs) != 1 || s.IDs[0] != "/srv/models/tinyqwen3.gguf" {
		t.Errorf("g4_get_models: %+v %v", s, ok)
	}
	if s, _ := ParseModels(fixture(t, "g7_get_models_nov1.json")); !s.AnyName {
		t.Error("g7_get_models_nov1 is llama-server's")
	}
	ollama := `{"object":"list","data":[{"id":"qwen3:latest","object":"model","created":1,"owned_by":"library"},{"id":"hf.co/org/m:Q4_K_M","object":"model","created":1,"owned_by":"library"}]}`
	s, ok = ParseModels([]byte(ollama))
	if !ok || s.AnyName || !s.Has("qwen3") || !s.Has("QWEN3:latest") || !s.Has("huggingface.co/org/m:Q4_K_M") || s.Has("qwen3:8b") {
		t.Errorf("ollama: %+v %v", s, ok)
	}
	if _, ok := ParseModels(fixture(t, "g10_chat_while_loading.json")); ok {
		t.Error("an error body taken for a list")
	}
}

func TestModelWarning(t *testing.T) {
	ep := &Endpoint{BaseURL: "http://h:11434/v1", ModelsStatus: 200, Models: []byte(`{"object":"list","data":[{"id":"qwen3:latest"}]}`)}
	ollama, _ := LookupProvider("ollama")
	want := "model \"gemma3\" is not among the models http://h:11434/v1 serves (qwen3:latest) — pick one with -m NAME, AGENT_MODEL or model: in the config (/model in line mode), or get it: `ollama pull gemma3`"
	if w := ModelWarning(ollama, ep, "gemma3"); w != want {
		t.Errorf("got  %s\nwant %s", w, want)
	}
	if w := ModelWarning(ollama, ep, "qwen3"); w != "" {
		t.Errorf("served: %s", w)
	}
	llamacpp, _ := LookupProvider("llamacpp")
	if w := ModelWarning(llamacpp, ep, "gemma3"); w != "" {
		t.Errorf("llamacpp: %s", w)
	}
	empty := &Endpoint{BaseURL: "http://h:11434/v1", ModelsStatus: 200, Models: []byte(`{"object":"list","data":[]}`)}
	if w := ModelWarning(ollama, empty, "gemma3"); w != "http://h:11434/v1 serves no model yet — pull one: `ollama pull gemma3`" {
		t.Errorf("empty: %s", w)
	}
}
