package llm

import (
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"
)

// A model server is untrusted input: these tests send what a broken or
// hostile one can.

func contentEvent(s string) string {
	return `data: {"choices":[{"index":0,"delta":{"content":"` + s + `"}}]}` + "\n\n"
}

func wantEngineError(t *testing.T, err error, want string) {
	t.Helper()
	var ee *EngineError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), want) {
		t.Fatalf("err = %v, want an engine error with %q", err, want)
	}
}

// One line longer than MaxEvent ends the call at once, whether or not the
// line would ever end.
func TestEventOverLimit(t *testing.T) {
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
		writeEvents(w, evText, `data: {"choices":[{"index":0,"delta":{"content":"`)
		block := strings.Repeat("x", 64<<10)
		for n := 0; n < MaxEvent+(1<<20); n += len(block) {
			if _, err := io.WriteString(w, block); err != nil {
				return
			}
		}
		w.(http.Flusher).Flush()
		<-r.Context().Done() // the line never ends
	})
	_, _, err := generate(t, srv.URL)
	wantEngineError(t, err, "the server sent a stream event over 4 MiB")
}

// Many data lines joined into one event are capped the same way.
func TestEventOfManyLinesOverLimit(t *testing.T) {
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		line := "data: " + strings.Repeat("x", 64<<10) + "\n"
		for n := 0; n < MaxEvent+(1<<20); n += len(line) {
			if _, err := io.WriteString(w, line); err != nil {
				return
			}
		}
		<-r.Context().Done()
	})
	_, _, err := generate(t, srv.URL)
	wantEngineError(t, err, "the server sent a stream event over 4 MiB")
}

// The whole answer is capped: text, reasoning and tool-call arguments
// together.
func TestAnswerOverLimit(t *testing.T) {
	piece := strings.Repeat("x", 64<<10)
	for _, kind := range []string{"content", "reasoning_content", "arguments"} {
		t.Run(kind, func(t *testing.T) {
			ev := contentEvent(piece)
			switch kind {
			case "reasoning_content":
				ev = `data: {"choices":[{"index":0,"delta":{"reasoning_content":"` + piece + `"}}]}` + "\n\n"
			case "arguments":
				ev = `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"bash","arguments":"` + piece + `"}}]}}]}` + "\n\n"
			}
			srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				for n := 0; n < 10<<20; n += len(piece) {
					if _, err := io.WriteString(w, ev); err != nil {
						return
					}
				}
				io.WriteString(w, evStop+evDone)
			})
			c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "m", Sampling: map[string]any{"max_tokens": 4096}}
			_, err := c.Generate(context.Background(), &ai.ModelRequest{}, nil)
			wantEngineError(t, err, "the server sent an answer over 8 MiB")
		})
	}
}

func TestAnswerLimit(t *testing.T) {
	for _, tc := range []struct {
		sampling map[string]any
		want     int
	}{
		{nil, 16 << 20},
		{map[string]any{"max_tokens": 4096}, 8 << 20},
		{map[string]any{"max_tokens": 1 << 20}, 64 << 20},
		{map[string]any{"max_tokens": 262144.0}, 16 << 20},
		{map[string]any{"max_tokens": -1}, 16 << 20},
	} {
		if got := answerLimit(tc.sampling); got != tc.want {
			t.Errorf("%v: %d, want %d", tc.sampling, got, tc.want)
		}
	}
}

// A JSON answer over the limit says so; one cut by the server says it was
// truncated, not that it is not JSON.
func TestJSONBodyLimitsAndTruncation(t *testing.T) {
	whole := `{"choices":[{"index":0,"message":{"role":"assistant","content":"hello there"},"finish_reason":"stop"}]}`
	cases := []struct {
		name string
		h    func(w http.ResponseWriter, r *http.Request)
		want string
	}{
		{"over the limit", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"choices":[{"index":0,"message":{"content":"`)
			block := strings.Repeat("x", 64<<10)
			for n := 0; n < 17<<20; n += len(block) {
				if _, err := io.WriteString(w, block); err != nil {
					return
				}
			}
			io.WriteString(w, `"}}]}`)
		}, "the server sent an answer over 16 MiB"},
		{"content-length not reached", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Content-Length", "1000")
			w.WriteHeader(200)
			io.WriteString(w, whole[:40])
			w.(http.Flusher).Flush()
			conn, _, _ := http.NewResponseController(w).Hijack()
			conn.Close()
		}, "the server's answer was truncated: the connection ended after 40 bytes"},
		{"clean end in the middle", func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, whole[:40])
		}, "the server's answer was truncated: its JSON ends after 40 bytes"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			srv, _ := sseServer(t, tc.h)
			_, _, err := generate(t, srv.URL)
			wantEngineError(t, err, tc.want)
		})
	}
}

// Lines may end with "\n", "\r\n" or a lone "\r", and a "\r\n" may be cut
// between two reads; an event with empty data is skipped.
func TestSSELineEndsAndEmptyData(t *testing.T) {
	events := []string{
		":\n\n",
		"data:\n\n",
		"data: \n\n",
		`data: {"choices":[{"index":0,"delta":{"content":"one "}}]}` + "\n\n",
		`data: {"choices":[{"index":0,"delta":{"content":"two"}}]}` + "\n\n",
		evStop, evDone,
	}
	for _, end := range []string{"\n", "\r\n", "\r"} {
		t.Run(strings.NewReplacer("\r", `\r`, "\n", `\n`).Replace(end), func(t *testing.T) {
			srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/event-stream")
				for _, ev := range events {
					for _, line := range strings.SplitAfter(ev, "\n") {
						if line == "" {
							continue
						}
						body := strings.TrimSuffix(line, "\n")
						if end == "\r\n" {
							// The "\r" ends one read, its "\n" starts the next.
							io.WriteString(w, body+"\r")
							w.(http.Flusher).Flush()
							io.WriteString(w, "\n")
						} else {
							io.WriteString(w, body+end)
						}
						w.(http.Flusher).Flush()
					}
				}
			})
			resp, s, err := generate(t, srv.URL)
			if err != nil {
				t.Fatal(err)
			}
			if _, text, _ := partsOf(resp.Message); text != "one two" || s.text.String() != "one two" {
				t.Errorf("text %q, streamed %q", text, s.text.String())
			}
		})
	}
}

// A "\r" that ends what the server has sent so far is a line end at once:
// mm does not wait for the next byte to know.
func TestCRLineEndNotHeldBack(t *testing.T) {
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"content":"hi"}}]}`+"\r\r")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "m"}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err := c.Generate(ctx, &ai.ModelRequest{}, func(_ context.Context, ch *ai.ModelResponseChunk) error {
		if ch.Text() == "hi" {
			cancel()
		}
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("the event was not delivered before the stream went quiet: %v", err)
	}
}

// Empty deltas of a tool call are not pieces: a server repeating them
// cannot feed the watchdog.
func TestEmptyToolCallDeltasAreNotPieces(t *testing.T) {
	ev := `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":""}}]}}]}` + "\n\n"
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
		writeEvents(w, `data: {"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"a","function":{"name":"bash","arguments":""}}]}}]}`+"\n\n", ev, ev, ev, evStop, evDone)
	})
	_, s, err := generate(t, srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	if s.toolPieces != 1 {
		t.Errorf("%d tool-call pieces, want 1", s.toolPieces)
	}
}

// A trace file whose writes fail (a full disk: /dev/full) is dropped; the
// stream it copies goes on.
func TestTraceWriteFailureKeepsStream(t *testing.T) {
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skip("no /dev/full:", err)
	}
	var warnings []string
	tr := &Tracer{Dir: t.TempDir(), Warn: func(s string) { warnings = append(warnings, s) }}
	ts := &traceStream{tc: &traceCall{t: tr, dir: tr.Dir}, f: full}
	r := &teeReader{r: strings.NewReader(strings.Repeat("abc", 100000)), w: ts}
	b, err := io.ReadAll(r)
	if err != nil || len(b) != 300000 {
		t.Fatalf("read %d bytes, %v", len(b), err)
	}
	ts.Close()
	if len(warnings) != 1 || !strings.Contains(warnings[0], "no space left on device — nothing is traced]") {
		t.Errorf("warnings %q", warnings)
	}
	if tr.begin(context.Background(), []byte("{}")) != nil {
		t.Error("tracing goes on after a failure")
	}
}

// Traces are 0700 directories and 0600 files, never written through a
// symbolic link planted in the project.
func TestTraceOwnFiles(t *testing.T) {
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) { writeEvents(w, evText, evStop, evDone) })
	dir := t.TempDir()
	c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "m", Trace: &Tracer{Dir: ".mm/traces", Cwd: func() string { return dir }}}
	if _, err := c.Generate(context.Background(), &ai.ModelRequest{}, nil); err != nil {
		t.Fatal(err)
	}
	for _, d := range []string{".mm", ".mm/traces"} {
		if fi, err := os.Stat(filepath.Join(dir, d)); err != nil || fi.Mode().Perm() != 0o700 {
			t.Errorf("%s: %v %v", d, fi.Mode(), err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, ".mm/traces/*"))
	if len(files) != 2 {
		t.Fatalf("files %v", files)
	}
	for _, f := range files {
		if fi, _ := os.Stat(f); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: %v", f, fi.Mode())
		}
	}

	for _, link := range []string{".mm", ".mm/traces"} {
		t.Run(link, func(t *testing.T) {
			project, elsewhere := t.TempDir(), t.TempDir()
			if link == ".mm/traces" {
				os.Mkdir(filepath.Join(project, ".mm"), 0o700)
			}
			if err := os.Symlink(elsewhere, filepath.Join(project, link)); err != nil {
				t.Fatal(err)
			}
			var warnings []string
			tr := &Tracer{Dir: ".mm/traces", Cwd: func() string { return project }, Warn: func(s string) { warnings = append(warnings, s) }}
			c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: srv.URL + "/v1", Model: "m", Trace: tr}
			for range 2 {
				if _, err := c.Generate(context.Background(), &ai.ModelRequest{}, nil); err != nil {
					t.Fatalf("the call must go on: %v", err)
				}
			}
			if got, _ := filepath.Glob(filepath.Join(elsewhere, "*")); len(got) != 0 {
				t.Errorf("written through the link: %v", got)
			}
			if len(warnings) != 1 || !strings.HasPrefix(warnings[0], "[trace: cannot write to "+filepath.Join(project, ".mm/traces")+": ") ||
				!strings.Contains(warnings[0], "is a symbolic link") || !strings.HasSuffix(warnings[0], " — nothing is traced]") {
				t.Errorf("warnings %q", warnings)
			}
		})
	}
}

// A password in the base URL never shows in an error or a trace.
func TestPasswordInURLMasked(t *testing.T) {
	const secret = "s3cr3t-pw"
	srv, _ := sseServer(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(500)
		io.WriteString(w, `{"error":{"message":"boom"}}`)
	})
	dir := t.TempDir()
	tr := &Tracer{Dir: "t", Cwd: func() string { return dir }}
	for _, base := range []string{
		"http://bob:" + secret + "@127.0.0.1:1/v1",
		strings.Replace(srv.URL, "http://", "http://bob:"+secret+"@", 1) + "/v1",
	} {
		c := &Client{Provider: Provider{Name: "llamacpp"}, BaseURL: base, Model: "m", Trace: tr, HTTP: NewHTTPClient()}
		_, err := c.Generate(context.Background(), &ai.ModelRequest{}, nil)
		if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "http://bob:***@127.0.0.1:") {
			t.Errorf("error %v", err)
		}
		_, err = ResolveEndpoint(context.Background(), EndpointOptions{Provider: Provider{Name: "llamacpp"}, BaseURL: "http://bob:" + secret + "@127.0.0.1:1/v1", Fallback: new(string), HTTP: NewHTTPClient()})
		if err == nil || strings.Contains(err.Error(), secret) || !strings.Contains(err.Error(), "GET http://bob:***@127.0.0.1:1/v1/models") {
			t.Errorf("probe error %v", err)
		}
	}
	files, _ := filepath.Glob(filepath.Join(dir, "t", "*"))
	if len(files) == 0 {
		t.Fatal("no trace")
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if strings.Contains(string(b), secret) {
			t.Errorf("%s holds the password: %s", f, b)
		}
	}
	if got := RedactURL("http://bob:pw@h:1/v1"); got != "http://bob:***@h:1/v1" {
		t.Errorf("RedactURL = %q", got)
	}
	if got := RedactURL("http://bob@h:1/v1"); got != "http://bob@h:1/v1" {
		t.Errorf("RedactURL without password = %q", got)
	}
	if got := Redact(`Get "http://a:b@h/x": refused; http://c:d@e/`); got != `Get "http://a:***@h/x": refused; http://c:***@e/` {
		t.Errorf("Redact = %q", got)
	}
}

func TestTextAcc(t *testing.T) {
	var a textAcc
	var want strings.Builder
	for i := range 5000 {
		s := strings.Repeat(string(rune('a'+i%26)), i%700)
		a.WriteString(s)
		want.WriteString(s)
		if i%1000 == 999 && a.String() != want.String() {
			t.Fatalf("after %d pieces", i+1)
		}
	}
	if a.String() != want.String() || a.Len() != want.Len() || a.String() != a.String() {
		t.Fatal("text differs")
	}
}
