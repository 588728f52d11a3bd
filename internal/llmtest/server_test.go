package llmtest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestReplayEveryFixture replays every captured case and compares what a
// plain client receives with the capture: status, headers, body bytes.
func TestReplayEveryFixture(t *testing.T) {
	// Every case on disk with a response must be replayable.
	entries, err := os.ReadDir(filepath.Join("fixtures", "llamacpp"))
	if err != nil {
		t.Fatal(err)
	}
	names := FixtureNames()
	has := map[string]bool{}
	for _, n := range names {
		has[n] = true
	}
	for _, e := range entries {
		if n, ok := strings.CutSuffix(e.Name(), ".headers.txt"); ok && !has[n] {
			t.Errorf("case %s missing from FixtureNames", n)
		}
	}
	if len(names) < 30 || !has["j_client_disconnect"] || has["j2_client_disconnect_nonstream"] {
		t.Errorf("FixtureNames = %v", names)
	}

	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			onDisk, err := os.ReadFile(filepath.Join("fixtures", "llamacpp", name+".sse"))
			if errors.Is(err, os.ErrNotExist) {
				onDisk, err = os.ReadFile(filepath.Join("fixtures", "llamacpp", name+".json"))
			}
			if errors.Is(err, os.ErrNotExist) {
				onDisk, err = os.ReadFile(filepath.Join("fixtures", "llamacpp", name+".partial.sse"))
			}
			if err != nil {
				t.Fatal(err)
			}
			s := New(t, Turn{Fixture: name})
			resp, body := mustPost(t, s.URL()+"/chat/completions", `{"messages":[]}`)
			if !bytes.Equal(body, onDisk) {
				t.Errorf("body differs from the capture (%d bytes, want %d)", len(body), len(onDisk))
			}
			head := Fixture(name + ".headers.txt")
			if head == nil {
				if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
					t.Errorf("%s %v", resp.Status, resp.Header)
				}
				return
			}
			tp := bufio.NewReader(bytes.NewReader(head))
			want, err := http.ReadResponse(tp, nil)
			if err != nil {
				t.Fatal(err)
			}
			if resp.StatusCode != want.StatusCode {
				t.Errorf("status %d, capture %d", resp.StatusCode, want.StatusCode)
			}
			for k, v := range want.Header {
				if k == "Keep-Alive" || k == "Transfer-Encoding" {
					continue
				}
				if got := resp.Header[k]; strings.Join(got, "|") != strings.Join(v, "|") {
					t.Errorf("header %s = %q, capture %q", k, got, v)
				}
			}
			if _, ok := resp.Header["Date"]; ok {
				t.Error("Date header, llama-server sends none")
			}
		})
	}
}

func TestReplayWithMidStreamFault(t *testing.T) {
	s := New(t, Turn{Fixture: "k_sse_ping", Fault: FaultDrop, FaultAfter: 2})
	_, body, err := post(t, s.URL()+"/chat/completions", chatBody)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("want unexpected EOF, got %v", err)
	}
	// Keep-alive comments do not count: the cut comes after two data events
	// and the comment that follows the second one is not sent.
	evs := splitEvents(Fixture("k_sse_ping.sse"))
	want := bytes.Join(evs[:4], nil)
	if !bytes.Equal(body, want) {
		t.Errorf("got %q\nwant %q", body, want)
	}
}

func TestTurnsAndRequests(t *testing.T) {
	s := New(t, Turn{Text: "one"})
	s.Push(Turn{Text: "two"})
	if s.Pending() != 2 {
		t.Fatalf("pending %d", s.Pending())
	}
	get(t, s.URL()+"/models")
	bodies := []string{
		`{"messages":[{"role":"user","content":"1"}],"stream":true}`,
		`{"messages":[{"role":"user","content":"2"}],"stream":true}`,
		`{"messages":[{"role":"user","content":"3"}],"stream":true}`,
	}
	paths := []string{"/v1/chat/completions", "/engines/v1/chat/completions", "/chat/completions"}
	var texts []string
	for i, b := range bodies {
		resp, body := mustPost(t, s.Root()+paths[i], b)
		if i < 2 {
			texts = append(texts, assemble(t, parseStream(t, body), "reasoning_content").content)
			continue
		}
		if resp.StatusCode != 500 || !strings.Contains(string(body), "llmtest: no scripted turn left") {
			t.Errorf("after the script: %d %s", resp.StatusCode, body)
		}
	}
	if strings.Join(texts, ",") != "one,two" {
		t.Errorf("texts %q", texts)
	}
	reqs := s.Requests()
	if len(reqs) != 4 || reqs[0].Method != "GET" || reqs[0].Path != "/v1/models" {
		t.Fatalf("requests %+v", reqs)
	}
	chats := s.ChatRequests()
	if len(chats) != 3 {
		t.Fatalf("chat requests %d", len(chats))
	}
	for i, r := range chats {
		if r.Path != paths[i] || string(r.Body) != bodies[i] || r.At.IsZero() || r.Header.Get("Content-Type") != "application/json" {
			t.Errorf("request %d: %+v", i, r)
		}
		msgs := r.JSON["messages"].([]any)
		if msgs[0].(map[string]any)["content"] != strconv.Itoa(i+1) {
			t.Errorf("request %d JSON %v", i, r.JSON)
		}
	}
	if f := s.Failures(); len(f) != 1 || !strings.Contains(f[0], "no scripted turn left") {
		t.Errorf("failures %q", f)
	}
	if s.Pending() != 0 {
		t.Errorf("pending %d", s.Pending())
	}
}

func TestBadChatRequestsAreFailures(t *testing.T) {
	s := New(t, Turn{Text: "kept"})
	resp, _ := mustPost(t, s.URL()+"/chat/completions", `{"messages": [`)
	if resp.StatusCode != 500 {
		t.Errorf("malformed: %d", resp.StatusCode)
	}
	resp, body := mustPost(t, s.URL()+"/chat/completions", `{"model":"x"}`)
	if resp.StatusCode != 400 || string(body) != string(Fixture("g11_missing_messages.json")) {
		t.Errorf("missing messages: %d %s", resp.StatusCode, body)
	}
	if len(s.Failures()) != 2 || s.Pending() != 1 {
		t.Errorf("failures %q, pending %d", s.Failures(), s.Pending())
	}
	if s.ChatRequests()[0].JSON != nil {
		t.Error("JSON decoded from a malformed body")
	}
}

func TestExpect(t *testing.T) {
	var seen *Request
	s := New(t,
		Turn{Text: "ok", Expect: func(r *Request) error {
			seen = r
			if r.JSON["stream"] != true {
				return errors.New("want stream")
			}
			return nil
		}},
		Turn{Text: "never", Expect: func(r *Request) error { return errors.New("no tools declared") }},
	)
	resp, _ := mustPost(t, s.URL()+"/chat/completions", chatBody)
	if resp.StatusCode != 200 || seen == nil || string(seen.Body) != chatBody {
		t.Fatalf("%d, seen %+v", resp.StatusCode, seen)
	}
	resp, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	if resp.StatusCode != 500 || !strings.Contains(string(body), `"message":"no tools declared"`) {
		t.Errorf("%d %s", resp.StatusCode, body)
	}
	if f := s.Failures(); len(f) != 1 || !strings.Contains(f[0], "no tools declared") || !strings.Contains(f[0], "turn 2") {
		t.Errorf("failures %q", f)
	}
}

func TestModelsPropsHealth(t *testing.T) {
	s := NewWith(t, Options{ModelName: "qwen.gguf", NCtx: 8192})
	for _, p := range []string{"/v1/models", "/models", "/engines/v1/models"} {
		_, body := get(t, s.Root()+p)
		var m struct {
			Data []struct {
				ID   string
				Meta map[string]any
			}
			Models []struct{ Name string }
		}
		if err := json.Unmarshal(body, &m); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if len(m.Data) != 1 || m.Data[0].ID != "qwen.gguf" || m.Data[0].Meta["n_ctx"] != 8192.0 || m.Models[0].Name != "qwen.gguf" {
			t.Errorf("%s: %s", p, body)
		}
	}
	_, body := get(t, s.Root()+"/props")
	var props struct {
		DefaultGenerationSettings map[string]any `json:"default_generation_settings"`
		ModelPath                 string         `json:"model_path"`
		BuildInfo                 string         `json:"build_info"`
	}
	if err := json.Unmarshal(body, &props); err != nil {
		t.Fatal(err)
	}
	if props.DefaultGenerationSettings["n_ctx"] != 8192.0 || props.ModelPath != "qwen.gguf" || props.BuildInfo != fingerprint {
		t.Errorf("props %+v", props)
	}
	resp, body := get(t, s.Root()+"/health")
	if resp.StatusCode != 200 || string(body) != `{"status":"ok"}` {
		t.Errorf("health %d %s", resp.StatusCode, body)
	}
	resp, body = get(t, s.Root()+"/v1/nope")
	if resp.StatusCode != 404 || string(body) != string(Fixture("g9_not_found.json")) {
		t.Errorf("404 %d %s", resp.StatusCode, body)
	}
	// The model name is in the chunks too.
	s.Push(Turn{Text: "x"})
	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if parseStream(t, body).chunks[0]["model"] != "qwen.gguf" {
		t.Error("model name in chunks")
	}

	// NCtx -1: the window is unknown.
	u := NewWith(t, Options{NCtx: -1})
	for _, p := range []string{"/v1/models", "/props", "/slots"} {
		_, body := get(t, u.Root()+p)
		if !json.Valid(body) || strings.Contains(string(body), `"n_ctx":`) {
			t.Errorf("%s with NCtx -1: %.300s", p, body)
		}
	}
}

func TestAPIKey(t *testing.T) {
	s := NewWith(t, Options{APIKey: "sekret"}, Turn{Text: "hi"})
	resp, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	if resp.StatusCode != 401 || !json.Valid(body) {
		t.Errorf("without key: %d %s", resp.StatusCode, body)
	}
	if s.Pending() != 1 {
		t.Error("a refused request consumed a turn")
	}
	req, _ := http.NewRequest(http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(chatBody))
	req.Header.Set("Authorization", "Bearer sekret")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || assemble(t, parseStream(t, body), "reasoning_content").content != "hi" {
		t.Errorf("with key: %d %s", resp.StatusCode, body)
	}
}

func TestOllama(t *testing.T) {
	s := NewWith(t, Options{Provider: "ollama", NCtx: 4096, ModelName: "qwen3:0.6b"},
		Turn{Reasoning: "hmm, ok", Text: "Hi there", ToolCalls: []ToolCall{{Name: "bash", Arguments: `{"command":"ls"}`}}},
	)
	resp, body := mustPost(t, s.Root()+"/api/show", `{"model":"qwen3:0.6b"}`)
	var show struct {
		ModelInfo map[string]any `json:"model_info"`
	}
	if err := json.Unmarshal(body, &show); err != nil || resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	arch, _ := show.ModelInfo["general.architecture"].(string)
	if arch == "" || show.ModelInfo[arch+".context_length"] != 4096.0 {
		t.Errorf("model_info %v", show.ModelInfo)
	}
	_, body = get(t, s.URL()+"/models")
	if strings.Contains(string(body), "n_ctx") || !strings.Contains(string(body), `"id":"qwen3:0.6b"`) {
		t.Errorf("models %s", body)
	}
	if resp, _ := get(t, s.Root()+"/props"); resp.StatusCode != 404 {
		t.Errorf("/props on ollama: %d", resp.StatusCode)
	}

	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	st := parseStream(t, body)
	if strings.Contains(string(body), "reasoning_content") {
		t.Error("reasoning_content on ollama")
	}
	a := assemble(t, st, "reasoning")
	if a.reasoning != "hmm, ok" || a.content != "Hi there" || a.finish != "tool_calls" || !st.done {
		t.Errorf("%+v", a)
	}
	c := a.calls[0]
	if c == nil || c.deltas != 1 || c.args != `{"command":"ls"}` || !strings.HasPrefix(c.id, "call_") {
		t.Errorf("ollama call %+v", c)
	}
	if st.chunks[0]["system_fingerprint"] != "fp_ollama" {
		t.Errorf("envelope %v", st.chunks[0])
	}

	// NCtx -1: no context length at all.
	u := NewWith(t, Options{Provider: "ollama", NCtx: -1})
	_, body = mustPost(t, u.Root()+"/api/show", `{"model":"x"}`)
	if !json.Valid(body) || strings.Contains(string(body), "context_length") {
		t.Errorf("show with NCtx -1: %s", body)
	}
}

func TestStartRejectsBadScripts(t *testing.T) {
	if _, err := Start(Options{}, Turn{Fault: "explode"}); err == nil {
		t.Error("unknown fault accepted")
	}
	if _, err := Start(Options{}, Turn{Fixture: "nope"}); err == nil {
		t.Error("unknown fixture accepted")
	}
	if _, err := Start(Options{Provider: "vllm"}); err == nil {
		t.Error("unknown provider accepted")
	}
}

func TestLogf(t *testing.T) {
	var lines []string
	s := NewWith(t, Options{Logf: func(f string, a ...any) {
		lines = append(lines, strings.TrimSpace(strings.ReplaceAll(f, "%s", "")+a[0].(string)))
	}}, Turn{Text: "x", Fault: FaultHTTP503})
	mustPost(t, s.URL()+"/chat/completions", chatBody)
	s.Close()
	if len(lines) != 1 || !strings.Contains(lines[0], "POST /v1/chat/completions -> 503") || !strings.Contains(lines[0], "http-503") {
		t.Errorf("log %q", lines)
	}
}
