package agent

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
	"mm/internal/llmtest"
	"mm/internal/tools"
)

type quietUI struct{}

func (quietUI) Text(string)                                {}
func (quietUI) Thinking(string)                            {}
func (quietUI) Progress(llm.Progress)                      {}
func (quietUI) Composing(string, int)                      {}
func (quietUI) ToolStart(*Call)                            {}
func (quietUI) ToolEnd(*Call)                              {}
func (quietUI) Notice(string)                              {}
func (quietUI) Permission(context.Context, *Call) Decision { return AllowOnce }

// BenchmarkAgentTurn measures the agent's own time per turn on a 10-turn
// scripted run: from the end of a response (the client closes its body) to
// the next request (the client starts sending it), minus the tool's run time
// (the tool here does nothing and takes microseconds). It covers recovery of
// the calls, tool dispatch, the loop detector, the history, Genkit's model
// action and the request encoding. Timestamps are taken in the client's
// transport, so the server's own scheduling does not count.
func BenchmarkAgentTurn(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	clock := &stampTransport{next: llm.NewHTTPClient().Transport}
	client := &llm.Client{Provider: llm.Provider{Name: "llamacpp", LlamaCpp: true}, BaseURL: srv.URL(), Model: "tiny", HTTP: &http.Client{Transport: clock},
		Sampling: map[string]any{"temperature": 0.0, "top_p": 0.9, "max_tokens": 4096}}
	reg := tools.NewRegistry()
	reg.Add(tools.NewBash(tools.BashOptions{}))
	reg.Add(&tools.Tool{Name: "noop", Description: "does nothing", Schema: tools.MustSchema(`{"type":"object","properties":{"n":{"type":"integer"}},"required":["n"]}`),
		Run: func(context.Context, json.RawMessage) string { return "ok" }})
	model := ai.NewModel("bench/tiny", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true}}, client.Generate)
	var own time.Duration
	var turns int
	for b.Loop() {
		a := New(Options{Model: model, Tools: reg, System: "be brief", MaxTurns: 40, MaxOutput: 16000, MaxTokens: 4096, Watchdog: 20 * time.Second, FirstToken: time.Minute, Yolo: true})
		for i := 0; i < 9; i++ {
			srv.Push(llmtest.Turn{Text: "Let me look at the next part of the project.", ToolCalls: []llmtest.ToolCall{{Name: "noop", Arguments: `{"n":` + string(rune('0'+i)) + `}`}}})
		}
		srv.Push(llmtest.Turn{Text: "All done."})
		clock.reset()
		var ended []*Call
		if _, err := a.Ask(context.Background(), "work through it", &toolTimes{calls: &ended}); err != nil {
			b.Fatal(err)
		}
		starts, ends := clock.times()
		if len(starts) != 10 || len(ends) != 10 || len(ended) != 9 {
			b.Fatalf("%d requests, %d bodies closed, %d calls", len(starts), len(ends), len(ended))
		}
		for i := 1; i < 10; i++ {
			own += starts[i].Sub(ends[i-1]) - ended[i-1].Duration
			turns++
		}
	}
	b.ReportMetric(float64(own.Microseconds())/1000/float64(turns), "ms-own/turn")
}

// stampTransport records when each request starts and when its response
// body is closed.
type stampTransport struct {
	next         http.RoundTripper
	mu           sync.Mutex
	starts, ends []time.Time
}

func (s *stampTransport) reset() {
	s.mu.Lock()
	s.starts, s.ends = nil, nil
	s.mu.Unlock()
}

func (s *stampTransport) times() ([]time.Time, []time.Time) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.starts, s.ends
}

func (s *stampTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	s.mu.Lock()
	s.starts = append(s.starts, time.Now())
	s.mu.Unlock()
	resp, err := s.next.RoundTrip(r)
	if err == nil {
		resp.Body = &stampBody{ReadCloser: resp.Body, t: s}
	}
	return resp, err
}

type stampBody struct {
	io.ReadCloser
	t    *stampTransport
	once sync.Once
}

func (b *stampBody) Close() error {
	b.once.Do(func() {
		b.t.mu.Lock()
		b.t.ends = append(b.t.ends, time.Now())
		b.t.mu.Unlock()
	})
	return b.ReadCloser.Close()
}

type toolTimes struct {
	quietUI
	calls *[]*Call
}

func (u *toolTimes) ToolEnd(c *Call) { *u.calls = append(*u.calls, c) }
