package llmtest

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// quiet is how long a test watches a hanging answer to see that nothing
// comes. A slow machine can only make the check pass, never fail it.
const quiet = 300 * time.Millisecond

// waitIdle waits until no handler runs: the server really let go of the
// request (no goroutine left behind).
func waitIdle(t *testing.T, s *Server) {
	t.Helper()
	deadline := time.Now().Add(testTimeout)
	for s.active.Load() != 0 {
		if time.Now().After(deadline) {
			t.Fatalf("%d handlers still running", s.active.Load())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// open sends a streaming chat request and returns the response as soon as
// its headers are in.
func open(t *testing.T, ctx context.Context, s *Server) *http.Response {
	t.Helper()
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, s.URL()+"/chat/completions", strings.NewReader(chatBody))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// readEvents reads n SSE events (comments included) from r.
func readEvents(t *testing.T, r *bufio.Reader, n int) []string {
	t.Helper()
	var out []string
	for len(out) < n {
		var ev strings.Builder
		for {
			line, err := r.ReadString('\n')
			if err != nil {
				t.Fatalf("after %d events: %v", len(out), err)
			}
			ev.WriteString(line)
			if line == "\n" {
				break
			}
		}
		out = append(out, ev.String())
	}
	return out
}

// expectSilence checks that nothing more arrives on r for a while.
func expectSilence(t *testing.T, r io.Reader) {
	t.Helper()
	got := make(chan string, 1)
	go func() {
		b := make([]byte, 1)
		n, err := r.Read(b)
		got <- string(b[:n]) + " " + errString(err)
	}()
	select {
	case g := <-got:
		t.Fatalf("expected silence, read %q", g)
	case <-time.After(quiet):
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}

func TestFaultHangBeforeFirstByte(t *testing.T) {
	s := New(t, Turn{Fault: FaultHangBeforeFirstByte})
	c := &http.Client{Timeout: quiet}
	_, err := c.Post(s.URL()+"/chat/completions", "application/json", strings.NewReader(chatBody))
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("want a client timeout, got %v", err)
	}
	// The handler ends when the client goes away.
	waitIdle(t, s)
	if len(s.ChatRequests()) != 1 {
		t.Error("request not recorded")
	}
}

func TestFaultHangAfterHeaders(t *testing.T) {
	s := New(t, Turn{Text: "never sent", Fault: FaultHangAfterHeaders})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	resp := open(t, ctx, s)
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%s %v", resp.Status, resp.Header)
	}
	expectSilence(t, resp.Body)
	cancel()
	if _, err := io.ReadAll(resp.Body); err == nil {
		t.Error("body ended cleanly after a hang")
	}
	waitIdle(t, s)
}

func TestFaultHangMidStream(t *testing.T) {
	s := New(t, Turn{Reasoning: "a b c d", Text: "e f", Fault: FaultHangMidStream, FaultAfter: 2, KeepAlives: 1})
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	resp := open(t, ctx, s)
	r := bufio.NewReader(resp.Body)
	evs := readEvents(t, r, 3)
	if evs[0] != ":\n\n" || !strings.Contains(evs[1], `"role":"assistant"`) || !strings.Contains(evs[2], `"reasoning_content":"a"`) {
		t.Fatalf("events %q", evs)
	}
	expectSilence(t, r)
	cancel()
	waitIdle(t, s)
}

func TestFaultDrop(t *testing.T) {
	s := New(t,
		Turn{Reasoning: "a b c d", Text: "e f", Fault: FaultDrop, FaultAfter: 3},
		Turn{Text: "a b c d", Fault: FaultDrop, FaultAfter: 100},
		Turn{Text: "a b c d e f g h", Fault: FaultDrop}, // non-streaming
	)
	_, body, err := post(t, s.URL()+"/chat/completions", chatBody)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("want unexpected EOF, got %v", err)
	}
	st := parseStream(t, body)
	if len(st.chunks) != 3 || st.done {
		t.Errorf("%d chunks, done %v: %q", len(st.chunks), st.done, body)
	}

	// FaultAfter beyond the stream: everything but [DONE].
	_, body, err = post(t, s.URL()+"/chat/completions", chatBody)
	if !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("want unexpected EOF, got %v", err)
	}
	st = parseStream(t, body)
	if a := assemble(t, st, "reasoning_content"); st.done || a.finish != "stop" || a.content != "a b c d" {
		t.Errorf("done %v, %+v", st.done, a)
	}

	// Without a stream, half the announced body then the cut.
	_, body, err = post(t, s.URL()+"/chat/completions", `{"messages":[]}`)
	if !errors.Is(err, io.ErrUnexpectedEOF) || len(body) == 0 || json.Valid(body) {
		t.Errorf("err %v, body %q", err, body)
	}
}

func TestFaultHTTPErrors(t *testing.T) {
	s := New(t,
		Turn{Fault: FaultHTTP500},
		Turn{Fault: FaultHTTP500, ErrorMessage: "boom <now>"},
		Turn{Fault: FaultHTTP503},
		Turn{Fault: FaultHTTP400Context},
	)
	resp, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	var e struct {
		Error struct {
			Code    int
			Message string
			Type    string
		}
	}
	if err := json.Unmarshal(body, &e); err != nil || resp.StatusCode != 500 || e.Error.Code != 500 || e.Error.Type != "server_error" || e.Error.Message == "" {
		t.Errorf("500: %d %s", resp.StatusCode, body)
	}
	if resp.Header.Get("Content-Type") != "application/json; charset=utf-8" {
		t.Errorf("content type %q", resp.Header.Get("Content-Type"))
	}

	resp, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if resp.StatusCode != 500 || string(body) != `{"error":{"code":500,"message":"boom <now>","type":"server_error"}}` {
		t.Errorf("500 with message: %d %s", resp.StatusCode, body)
	}

	resp, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if resp.StatusCode != 503 || string(body) != string(Fixture("g10_chat_while_loading.json")) {
		t.Errorf("503: %d %s", resp.StatusCode, body)
	}

	resp, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if resp.StatusCode != 400 || string(body) != string(Fixture("g1_ctx_overflow.json")) || !resp.Close {
		t.Errorf("400: %d %s (close %v)", resp.StatusCode, body, resp.Close)
	}
}

func TestFaultMalformedLine(t *testing.T) {
	s := New(t, Turn{Text: "a b", Fault: FaultMalformedLine, FaultAfter: 1})
	_, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	evs := splitEvents(body)
	if len(evs) < 3 || string(evs[1]) != "data: {not json\n\n" {
		t.Fatalf("events %q", evs)
	}
	st := parseStream(t, body)
	if st.malformed != 1 || !st.done {
		t.Errorf("malformed %d, done %v", st.malformed, st.done)
	}
}

func TestFaultErrorEvent(t *testing.T) {
	s := New(t, Turn{Text: "a b c", Fault: FaultErrorEvent, FaultAfter: 2, ErrorMessage: "out of memory"})
	resp, body, err := post(t, s.URL()+"/chat/completions", chatBody)
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("%v %v", resp, err)
	}
	st := parseStream(t, body)
	if st.done || len(st.chunks) != 3 {
		t.Fatalf("done %v, %d chunks: %q", st.done, len(st.chunks), body)
	}
	if st.raw[2] != `{"error":{"code":500,"message":"out of memory","type":"server_error"}}` {
		t.Errorf("error event %s", st.raw[2])
	}
}

func TestFaultLengthInToolCall(t *testing.T) {
	args := `{"command":"grep -rn foo ."}`
	s := New(t,
		Turn{Text: "Let me search.", ToolCalls: []ToolCall{{Name: "bash", Arguments: args}}, Fault: FaultLengthInToolCall},
		Turn{Fault: FaultLengthInToolCall},
	)
	_, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	a := assemble(t, parseStream(t, body), "reasoning_content")
	c := a.calls[0]
	if a.finish != "length" || c == nil || c.args == "" || !strings.HasPrefix(args, c.args) || len(c.args) >= len(args) || json.Valid([]byte(c.args)) {
		t.Errorf("finish %q, call %+v", a.finish, c)
	}
	// Without a scripted call, the captured bash call is cut.
	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	a = assemble(t, parseStream(t, body), "reasoning_content")
	if a.finish != "length" || a.calls[0] == nil || a.calls[0].name != "bash" || !strings.HasPrefix(`{"command":"ls -la"}`, a.calls[0].args) {
		t.Errorf("finish %q, calls %v", a.finish, a.calls)
	}
}

func TestChunkDelayAndClose(t *testing.T) {
	// Close must end every kind of waiting handler, and cut the answers
	// instead of ending them cleanly.
	s, err := Start(Options{},
		Turn{Fault: FaultHangBeforeFirstByte},
		Turn{Fault: FaultHangAfterHeaders},
		Turn{Text: "a b c", Fault: FaultHangMidStream, FaultAfter: 1},
		Turn{Text: "a b c", ChunkDelay: time.Hour},
	)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	errs := make(chan error, 4)
	for range 4 {
		go func() {
			_, _, err := post(t, s.URL()+"/chat/completions", chatBody)
			errs <- err
		}()
	}
	deadline := time.Now().Add(testTimeout)
	for len(s.ChatRequests()) < 4 || s.active.Load() < 4 {
		if time.Now().After(deadline) {
			t.Fatal("requests did not arrive")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// Give the handlers time to reach their wait; too short only makes the
	// test weaker, never wrong.
	time.Sleep(quiet)
	s.Close()
	if n := s.active.Load(); n != 0 {
		t.Errorf("%d handlers still running after Close", n)
	}
	for range 4 {
		if err := <-errs; err == nil {
			t.Error("a hanging answer ended cleanly on Close")
		}
	}
}
