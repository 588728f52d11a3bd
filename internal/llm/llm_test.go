package llm

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
)

func TestBuildRequestSamplingAndOrder(t *testing.T) {
	req := &ai.ModelRequest{
		Messages: []*ai.Message{ai.NewSystemTextMessage("sys"), ai.NewUserTextMessage("a <b> & c")},
		Tools: []*ai.ToolDefinition{
			{Name: "zeta", Description: "z", InputSchema: map[string]any{"type": "object"}},
			{Name: "alpha", Description: "a", InputSchema: map[string]any{"type": "object"}},
		},
	}
	sampling := map[string]any{
		"temperature": 0, "top_p": 0.9, "max_tokens": 4096.0, "parallel_tool_calls": false,
		"chat_template_kwargs": map[string]any{"enable_thinking": false},
		"messages":             "ignored", "tools": "ignored", "tool_choice": "required", "functions": 1, "function_call": 2,
	}
	body, err := BuildRequest(req, RequestOptions{Model: "m", Sampling: sampling, Progress: true})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"model":"m","messages":[{"role":"system","content":"sys"},{"role":"user","content":"a <b> & c"}],` +
		`"tools":[{"type":"function","function":{"name":"zeta","description":"z","parameters":{"type":"object"}}},` +
		`{"type":"function","function":{"name":"alpha","description":"a","parameters":{"type":"object"}}}],` +
		`"stream":true,"stream_options":{"include_usage":true},"return_progress":true,` +
		`"chat_template_kwargs":{"enable_thinking":false},"max_tokens":4096,"parallel_tool_calls":false,"temperature":0,"top_p":0.9}`
	if string(body) != want {
		t.Errorf("body:\n got %s\nwant %s", body, want)
	}
	// The same conversation gives the same bytes every time (prompt cache).
	for i := 0; i < 20; i++ {
		again, _ := BuildRequest(req, RequestOptions{Model: "m", Sampling: sampling, Progress: true})
		if string(again) != string(body) {
			t.Fatal("request bytes are not stable")
		}
	}
	// Ollama gets no return_progress.
	body, _ = BuildRequest(req, RequestOptions{Model: "m", Sampling: sampling})
	if strings.Contains(string(body), "return_progress") {
		t.Error("return_progress sent without Progress")
	}
	// A per-request override (the summary request) wins, nil removes.
	req.Config = map[string]any{"max_tokens": 1200, "top_p": nil}
	body, _ = BuildRequest(req, RequestOptions{Model: "m", Sampling: sampling})
	if !strings.Contains(string(body), `"max_tokens":1200`) || strings.Contains(string(body), "top_p") {
		t.Errorf("override not applied: %s", body)
	}
}

func TestBuildRequestRejectsMistypedOpenAIKey(t *testing.T) {
	_, err := BuildRequest(&ai.ModelRequest{}, RequestOptions{Sampling: map[string]any{"max_tokens": "many"}})
	if err == nil || !strings.Contains(err.Error(), "sampling.max_tokens") {
		t.Fatalf("err = %v", err)
	}
	_, err = BuildRequest(&ai.ModelRequest{}, RequestOptions{Sampling: map[string]any{"max_tokens": 10.5}})
	if err == nil {
		t.Fatal("a fractional max_tokens was sent")
	}
}

func TestBuildRequestAssistantAndToolMessages(t *testing.T) {
	req := &ai.ModelRequest{Messages: []*ai.Message{
		ai.NewModelMessage(ai.NewReasoningPart("hidden", nil), ai.NewTextPart("let me look"),
			ai.NewToolRequestPart(&ai.ToolRequest{Name: "bash", Ref: "c1", Input: map[string]any{"command": "ls"}}),
			ai.NewToolRequestPart(&ai.ToolRequest{Name: "bash", Ref: "c2", Input: `{"command":"pwd"}`})),
		ai.NewMessage(ai.RoleTool, nil,
			ai.NewToolResponsePart(&ai.ToolResponse{Name: "bash", Ref: "c1", Output: "a\nb"}),
			ai.NewToolResponsePart(&ai.ToolResponse{Name: "bash", Ref: "c2", Output: "/x"})),
		ai.NewModelTextMessage(""),
	}}
	body, err := BuildRequest(req, RequestOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	want := `"messages":[{"role":"assistant","content":"let me look","tool_calls":[` +
		`{"id":"c1","type":"function","function":{"name":"bash","arguments":"{\"command\":\"ls\"}"}},` +
		`{"id":"c2","type":"function","function":{"name":"bash","arguments":"{\"command\":\"pwd\"}"}}]},` +
		`{"role":"tool","content":"a\nb","tool_call_id":"c1"},{"role":"tool","content":"/x","tool_call_id":"c2"},` +
		`{"role":"assistant","content":""}]`
	if !strings.Contains(string(body), want) {
		t.Errorf("body %s\nwant %s", body, want)
	}
	if strings.Contains(string(body), "hidden") {
		t.Error("reasoning was sent back")
	}
}

// sseServer answers every chat request with the given handler and records
// the requests.
type recorder struct {
	mu      sync.Mutex
	headers []http.Header
	bodies  [][]byte
}

func sseServer(t *testing.T, h func(w http.ResponseWriter, r *http.Request)) (*httptest.Server, *recorder) {
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		rec.mu.Lock()
		rec.headers = append(rec.headers, r.Header.Clone())
		rec.bodies = append(rec.bodies, b)
		rec.mu.Unlock()
		h(w, r)
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

func writeEvents(w http.ResponseWriter, events ...string) {
	w.Header().Set("Content-Type", "text/event-stream")
	for _, e := range events {
		io.WriteString(w, e)
		w.(http.Flusher).Flush()
	}
}

const (
	evText = `data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}` + "\n\n"
	evStop = `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n"
	evDone = "data: [DONE]\n\n"
)

func TestStreamFaults(t *testing.T) {
	cases := []struct {
		name   string
		events []string
		want   string
	}{
		{"error event", []string{evText, `data: {"error":{"code":500,"message":"out of memory","type":"server_error"}}` + "\n\n"}, "the server reported an error mid-stream: out of memory"},
		{"malformed line", []string{evText, "data: {not json\n\n"}, "the server sent a malformed stream event: {not json"},
		{"closed early", []string{evText}, "the server closed the stream before the answer was complete"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) { writeEvents(w, tc.events...) })
			_, s, err := generate(t, srv.URL)
			var ee *EngineError
			if !errors.As(err, &ee) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			if s.text.String() != "hi" {
				t.Errorf("text before the fault was not streamed: %q", s.text.String())
			}
		})
	}
	t.Run("finish without DONE", func(t *testing.T) {
		srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) { writeEvents(w, evText, evStop) })
		if _, _, err := generate(t, srv.URL); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("ollama reasoning and whole-object arguments without index", func(t *testing.T) {
		srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
			writeEvents(w,
				`data: {"choices":[{"index":0,"delta":{"reasoning":"hmm"}}]}`+"\n\n",
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"a","function":{"name":"bash","arguments":{"command":"ls"}}}]}}]}`+"\n\n",
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"id":"b","function":{"name":"bash","arguments":"{\"command\":"}}]}}]}`+"\n\n",
				`data: {"choices":[{"index":0,"delta":{"tool_calls":[{"function":{"arguments":"\"pwd\"}"}}]}}]}`+"\n\n",
				`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}`+"\n\n", evDone)
		})
		resp, _, err := generate(t, srv.URL)
		if err != nil {
			t.Fatal(err)
		}
		reasoning, _, calls := partsOf(resp.Message)
		if reasoning != "hmm" || len(calls) != 2 || calls[0].Arguments != `{"command":"ls"}` || calls[1].Arguments != `{"command":"pwd"}` || calls[1].ID != "b" {
			t.Errorf("reasoning %q calls %+v", reasoning, calls)
		}
	})
}

// Cancelling the context ends a stream that hangs, at once.
func TestCancelEndsHangingStream(t *testing.T) {
	release := make(chan struct{})
	defer close(release)
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
		writeEvents(w, evText)
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "m", HTTP: NewHTTPClient()}
	ctx, cancel := context.WithCancel(context.Background())
	got := make(chan error, 1)
	go func() {
		_, err := c.Generate(ctx, &ai.ModelRequest{}, func(context.Context, *ai.ModelResponseChunk) error { cancel(); return nil })
		got <- err
	}()
	select {
	case err := <-got:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v, want context.Canceled", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Generate did not return after cancel")
	}
}

// A stream callback that returns an error stops the stream with it (the
// agent uses this to stop a runaway tool call).
func TestCallbackErrorStopsStream(t *testing.T) {
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) { writeEvents(w, evText, evText, evStop, evDone) })
	c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "m"}
	stop := errors.New("stop here")
	n := 0
	_, err := c.Generate(context.Background(), &ai.ModelRequest{}, func(context.Context, *ai.ModelResponseChunk) error { n++; return stop })
	if !errors.Is(err, stop) || n != 1 {
		t.Errorf("err = %v after %d chunks", err, n)
	}
}

func TestAPIKeyOnlyWhenGiven(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "sk-must-never-be-sent")
	srv, rec := sseServer(t, func(w http.ResponseWriter, r *http.Request) { writeEvents(w, evText, evStop, evDone) })
	for _, key := range []string{"", "local-key"} {
		c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "m", APIKey: key}
		if _, err := c.Generate(context.Background(), &ai.ModelRequest{}, nil); err != nil {
			t.Fatal(err)
		}
	}
	if got := rec.headers[0].Get("Authorization"); got != "" {
		t.Errorf("without a key, Authorization = %q", got)
	}
	if got := rec.headers[1].Get("Authorization"); got != "Bearer local-key" {
		t.Errorf("with a key, Authorization = %q", got)
	}
}

func TestResolveEndpointFallback(t *testing.T) {
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/models" {
			t.Errorf("probe path %s", r.URL.Path)
		}
		io.WriteString(w, `{"data":[]}`)
	}))
	defer up.Close()
	// A closed port: connection refused at once.
	ln, _ := net.Listen("tcp", "127.0.0.1:0")
	dead := "http://" + ln.Addr().String() + "/v1"
	ln.Close()
	ctx := context.Background()
	p := Provider{Name: "llamacpp", BaseURL: dead, StartHint: "start it with `llama-server`"}

	fb := up.URL + "/v1"
	ep, err := ResolveEndpoint(ctx, EndpointOptions{Provider: p, Fallback: &fb})
	if err != nil || ep.BaseURL != fb {
		t.Fatalf("fallback not used: %v %v", ep, err)
	}
	// The provider's own fallback when the key is absent.
	p.Fallback = fb
	if ep, err = ResolveEndpoint(ctx, EndpointOptions{Provider: p}); err != nil || ep.BaseURL != fb {
		t.Fatalf("provider fallback not used: %v %v", ep, err)
	}
	// fallback: "" means none.
	none := ""
	_, err = ResolveEndpoint(ctx, EndpointOptions{Provider: p, Fallback: &none})
	var ee *EngineError
	if !errors.As(err, &ee) {
		t.Fatalf("err = %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"[engine error: no model server answered", dead + "/models", "connection refused", "llama-server", "go run ./cmd/llmtest -background"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message %q lacks %q", msg, want)
		}
	}
	if strings.Contains(msg, fb) {
		t.Errorf("fallback \"\" still tried: %s", msg)
	}
	// baseUrl wins over the provider's.
	if ep, err = ResolveEndpoint(ctx, EndpointOptions{Provider: p, BaseURL: up.URL + "/v1/"}); err != nil || ep.BaseURL != up.URL+"/v1" {
		t.Fatalf("baseUrl: %v %v", ep, err)
	}
}

func TestResolveEndpointSilentServerTimesOut(t *testing.T) {
	release := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	defer silent.Close()
	defer close(release)
	start := time.Now()
	none := ""
	_, err := ResolveEndpoint(context.Background(), EndpointOptions{Provider: Provider{Name: "llamacpp", BaseURL: silent.URL + "/v1"}, Fallback: &none})
	if err == nil || !strings.Contains(err.Error(), "no answer within 2s") {
		t.Fatalf("err = %v", err)
	}
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("probe took %s", d)
	}
}

func TestUnknownProvider(t *testing.T) {
	_, err := LookupProvider("x")
	if err == nil || err.Error() != `[engine error: unknown provider "x" (known: dmr, llamacpp, llmman, ollama)]` {
		t.Fatalf("err = %v", err)
	}
	for _, tc := range []struct{ name, base, fallback, key string }{
		{"dmr", "http://localhost:12434/engines/v1", "http://host.docker.internal:12434/engines/v1", ""},
		{"llamacpp", "http://127.0.0.1:8080/v1", "", "LLAMA_API_KEY"},
		{"llmman", "http://127.0.0.1:17434/v1", "http://host.docker.internal:17434/v1", "LLMMAN_API_KEY"},
		{"ollama", "http://localhost:11434/v1", "http://host.docker.internal:11434/v1", "OLLAMA_API_KEY"},
	} {
		p, err := LookupProvider(tc.name)
		if err != nil || p.BaseURL != tc.base || p.Fallback != tc.fallback || p.APIKeyEnv != tc.key {
			t.Errorf("%s: %+v %v", tc.name, p, err)
		}
	}
}

// Ollama's window is the loaded model's (/api/ps); until it is loaded,
// the Modelfile's num_ctx or Ollama's smallest default, never past the
// trained length: not the trained length itself, which Ollama does not
// give.
func TestOllamaWindow(t *testing.T) {
	for _, tc := range []struct {
		ps, show string
		want     int
		assumed  bool
	}{
		{`{"models":[{"name":"gemma3:4b","model":"gemma3:4b","context_length":2048},{"name":"qwen3:latest","model":"qwen3:latest","context_length":16384}]}`,
			`{"parameters":"num_ctx 8192","model_info":{"qwen3.context_length":40960}}`, 16384, false},
		{`{"models":[]}`, `{"parameters":"stop \"<|im_end|>\"\nnum_ctx 8192","model_info":{"qwen3.context_length":40960}}`, 8192, true},
		{`{"models":[]}`, `{"parameters":"","model_info":{"qwen3.context_length":40960}}`, 4096, true},
		{"", `{"parameters":"","model_info":{"qwen3.context_length":2048}}`, 2048, true},
		{`{"models":[{"name":"qwen3:latest","model":"qwen3:latest"}]}`, `{}`, 4096, true},
		{"", "", 0, false},
	} {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			switch {
			case r.URL.Path == "/api/ps" && r.Method == http.MethodGet && tc.ps != "":
				io.WriteString(w, tc.ps)
			case r.URL.Path == "/api/show" && r.Method == http.MethodPost && tc.show != "":
				var body map[string]string
				json.NewDecoder(r.Body).Decode(&body)
				if body["model"] != "qwen3" {
					http.NotFound(w, r)
					return
				}
				io.WriteString(w, tc.show)
			default:
				http.NotFound(w, r)
			}
		}))
		got, assumed := DiscoverWindow(context.Background(), nil, Provider{Name: "ollama"}, &Endpoint{BaseURL: srv.URL + "/v1"}, "qwen3", "")
		srv.Close()
		if got != tc.want || assumed != tc.assumed {
			t.Errorf("ps %s show %s: window %d (assumed %v), want %d (%v)", tc.ps, tc.show, got, assumed, tc.want, tc.assumed)
		}
	}
}

func TestTraceFiles(t *testing.T) {
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(r.Header.Get("Authorization"), "fail") {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(400)
			io.WriteString(w, `{"error":{"message":"bad"}}`)
			return
		}
		writeEvents(w, ":\n\n", evText, evStop, evDone)
	})
	dir := t.TempDir()
	tr := &Tracer{Dir: "traces", Name: "bob", Cwd: func() string { return dir }}
	c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "m", APIKey: "secret-key", Trace: tr}
	req := &ai.ModelRequest{Messages: []*ai.Message{ai.NewUserTextMessage("hi")}}
	if _, err := c.Generate(context.Background(), req, nil); err != nil {
		t.Fatal(err)
	}
	c.APIKey = "fail"
	c.Generate(context.Background(), req, nil)
	c.BaseURL = "http://127.0.0.1:1/v1" // nothing listens on port 1
	c.APIKey = ""
	c.Generate(context.Background(), req, nil)

	entries, _ := os.ReadDir(filepath.Join(dir, "traces"))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	re := regexp.MustCompile(`^\d{8}-\d{6}\.\d{3}-bob-(\d{4})\.(request\.json|response-200\.sse|response-400\.json|response-error\.txt)$`)
	want := map[string]string{"0001": "", "0002": "", "0003": ""}
	kinds := map[string][]string{}
	for _, n := range names {
		m := re.FindStringSubmatch(n)
		if m == nil {
			t.Fatalf("unexpected trace file %q", n)
		}
		kinds[m[1]] = append(kinds[m[1]], m[2])
	}
	if len(kinds) != len(want) {
		t.Fatalf("files %v", names)
	}
	for n, k := range map[string]string{"0001": "response-200.sse", "0002": "response-400.json", "0003": "response-error.txt"} {
		if strings.Join(kinds[n], ",") != "request.json,"+k {
			t.Errorf("call %s: files %v", n, kinds[n])
		}
	}
	for _, n := range names {
		b, _ := os.ReadFile(filepath.Join(dir, "traces", n))
		if strings.Contains(string(b), "secret-key") || strings.Contains(string(b), "Authorization") {
			t.Errorf("%s holds a header", n)
		}
		switch {
		case strings.HasSuffix(n, ".sse"):
			if string(b) != ":\n\n"+evText+evStop+evDone {
				t.Errorf("sse trace is not the bytes received: %q", b)
			}
		case strings.HasSuffix(n, "request.json"):
			if !strings.Contains(string(b), "\n  \"messages\": [") {
				t.Errorf("request not indented: %s", b)
			}
		case strings.HasSuffix(n, "error.txt"):
			if !strings.HasPrefix(string(b), "POST http://127.0.0.1:1/v1/chat/completions\n") {
				t.Errorf("error trace: %s", b)
			}
		}
	}
}

func TestTraceUnwritableDirWarnsOnce(t *testing.T) {
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) { writeEvents(w, evText, evStop, evDone) })
	blocker := filepath.Join(t.TempDir(), "file")
	os.WriteFile(blocker, nil, 0o644)
	var warnings []string
	tr := &Tracer{Dir: filepath.Join(blocker, "traces"), Name: "bob", Warn: func(s string) { warnings = append(warnings, s) }}
	c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "m", Trace: tr}
	for i := 0; i < 3; i++ {
		if _, err := c.Generate(context.Background(), &ai.ModelRequest{}, nil); err != nil {
			t.Fatalf("calls must go on: %v", err)
		}
	}
	if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "[trace: cannot write to "+filepath.Join(blocker, "traces")+": ") || !strings.HasSuffix(warnings[0], " — nothing is traced]") {
		t.Errorf("warnings = %q", warnings)
	}
}

// Through Genkit: the model is registered and answers; Genkit's side effects
// on a user's directory and environment are neutralised.
func TestGenkitModel(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "prompts"), 0o755)
	// A prompt file Genkit would load (and panic on) from ./prompts.
	os.WriteFile(filepath.Join(dir, "prompts", "broken.prompt"), []byte("---\nmodel: [unclosed\n---\n{{"), 0o644)
	t.Chdir(dir)
	t.Setenv("GENKIT_ENV", "dev")
	t.Setenv("GENKIT_TELEMETRY_SERVER", "http://127.0.0.1:1")
	g := NewGenkit(context.Background())
	if os.Getenv("GENKIT_ENV") != "" || os.Getenv("GENKIT_TELEMETRY_SERVER") != "" {
		t.Error("Genkit variables left in mm's environment")
	}
	found := 0
	for _, kv := range ChildEnv() {
		if kv == "GENKIT_ENV=dev" || kv == "GENKIT_TELEMETRY_SERVER=http://127.0.0.1:1" {
			found++
		}
	}
	if found != 2 {
		t.Error("ChildEnv does not give the Genkit variables back")
	}
	if conn, err := net.DialTimeout("tcp", "127.0.0.1:3100", 200*time.Millisecond); err == nil {
		conn.Close()
		t.Error("a reflection server listens on :3100")
	}
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) { writeEvents(w, evText, evStop, evDone) })
	m := DefineModel(g, &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "tiny"})
	resp, err := m.Generate(context.Background(), &ai.ModelRequest{Messages: []*ai.Message{ai.NewSystemTextMessage("s"), ai.NewUserTextMessage("hi")}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Text() != "hi" || resp.Request == nil {
		t.Errorf("text %q, request set %v", resp.Text(), resp.Request != nil)
	}
}
