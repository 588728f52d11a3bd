package llmtest

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// testTimeout bounds every request of these tests: generous, since CI
// machines are busy, and only there to turn a bug into a failure instead of
// a hang.
const testTimeout = 30 * time.Second

// post sends a chat request and returns the response with its body read.
func post(t *testing.T, url, body string) (*http.Response, []byte, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return resp, b, err
}

// mustPost is post for answers that must arrive whole.
func mustPost(t *testing.T, url, body string) (*http.Response, []byte) {
	t.Helper()
	resp, b, err := post(t, url, body)
	if err != nil {
		t.Fatalf("POST %s: %v", url, err)
	}
	return resp, b
}

func get(t *testing.T, url string) (*http.Response, []byte) {
	t.Helper()
	c := &http.Client{Timeout: testTimeout}
	resp, err := c.Get(url)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("GET %s: %v", url, err)
	}
	return resp, b
}

const chatBody = `{"model":"x","messages":[{"role":"user","content":"hi"}],"stream":true}`

// stream is a parsed SSE body.
type stream struct {
	comments  int
	raw       []string         // every data payload, in order ([DONE] excluded)
	chunks    []map[string]any // the payloads decoded
	done      bool             // ended with data: [DONE]
	malformed int              // data lines that are not JSON
}

func parseStream(t *testing.T, body []byte) stream {
	t.Helper()
	var s stream
	for _, ev := range splitEvents(body) {
		line := strings.TrimSuffix(string(ev), "\n\n")
		switch {
		case line == ":":
			s.comments++
		case line == "data: [DONE]":
			s.done = true
		case strings.HasPrefix(line, "data: "):
			if s.done {
				t.Errorf("event after [DONE]: %q", line)
			}
			payload := strings.TrimPrefix(line, "data: ")
			var m map[string]any
			if json.Unmarshal([]byte(payload), &m) != nil {
				s.malformed++
				continue
			}
			s.raw = append(s.raw, payload)
			s.chunks = append(s.chunks, m)
		default:
			t.Errorf("unexpected SSE piece %q", ev)
		}
	}
	return s
}

type call struct {
	id, typ, name, args string
	deltas              int
}

// assembled is what a client makes of a stream.
type assembled struct {
	reasoning, content string
	calls              map[int]*call
	finish             string
	usage              map[string]any
	progress           []map[string]any
}

func assemble(t *testing.T, s stream, reasoningKey string) assembled {
	t.Helper()
	a := assembled{calls: map[int]*call{}}
	for _, c := range s.chunks {
		if p, ok := c["prompt_progress"].(map[string]any); ok {
			a.progress = append(a.progress, p)
		}
		if u, ok := c["usage"].(map[string]any); ok {
			a.usage = u
		}
		choices, _ := c["choices"].([]any)
		for _, ch := range choices {
			choice := ch.(map[string]any)
			if f, ok := choice["finish_reason"].(string); ok {
				a.finish = f
			}
			delta, _ := choice["delta"].(map[string]any)
			if r, ok := delta[reasoningKey].(string); ok {
				a.reasoning += r
			}
			if r, ok := delta["content"].(string); ok {
				a.content += r
			}
			tcs, _ := delta["tool_calls"].([]any)
			for _, x := range tcs {
				tc := x.(map[string]any)
				i := int(tc["index"].(float64))
				cl := a.calls[i]
				if cl == nil {
					cl = &call{}
					a.calls[i] = cl
				}
				cl.deltas++
				if id, ok := tc["id"].(string); ok {
					cl.id = id
				}
				if typ, ok := tc["type"].(string); ok {
					cl.typ = typ
				}
				fn, _ := tc["function"].(map[string]any)
				if n, ok := fn["name"].(string); ok {
					cl.name = n
				}
				if args, ok := fn["arguments"].(string); ok {
					cl.args += args
				}
			}
		}
	}
	return a
}

func isAlnum(s string) bool {
	for _, c := range s {
		if !strings.ContainsRune(alnum, c) {
			return false
		}
	}
	return true
}

// keys is the sorted key set of a JSON object, for envelope comparisons.
func keys(m map[string]any) string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	for i := range ks {
		for j := i + 1; j < len(ks); j++ {
			if ks[j] < ks[i] {
				ks[i], ks[j] = ks[j], ks[i]
			}
		}
	}
	return strings.Join(ks, ",")
}

func delta(t *testing.T, chunk map[string]any) map[string]any {
	t.Helper()
	choices, _ := chunk["choices"].([]any)
	if len(choices) != 1 {
		t.Fatalf("chunk has %d choices: %v", len(choices), chunk)
	}
	d, ok := choices[0].(map[string]any)["delta"].(map[string]any)
	if !ok {
		t.Fatalf("chunk without delta: %v", chunk)
	}
	return d
}

func jsonEqual(t *testing.T, got []byte, want string) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal(got, &a); err != nil {
		t.Fatalf("not JSON: %q", got)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatal(err)
	}
	ga, _ := json.Marshal(a)
	gb, _ := json.Marshal(b)
	if !bytes.Equal(ga, gb) {
		t.Errorf("got %s, want %s", got, want)
	}
}
