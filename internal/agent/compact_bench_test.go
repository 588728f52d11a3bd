package agent

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
	"mm/internal/llmtest"
	"mm/internal/tools"
)

// longHistory is a 200-message conversation after the system prompt: 50
// question turns, each a question, a bash call, its 2 KB output, an answer.
func longHistory(system string) []*ai.Message {
	h := []*ai.Message{ai.NewSystemTextMessage(system)}
	out := strings.Repeat("line of output from the command\n", 64)
	for i := 0; i < 50; i++ {
		ref := fmt.Sprintf("call_%d", i)
		h = append(h,
			ai.NewUserTextMessage(fmt.Sprintf("question %d: look at file%d.go and fix the test", i, i)),
			&ai.Message{Role: ai.RoleModel, Content: []*ai.Part{ai.NewTextPart("Let me look."),
				ai.NewToolRequestPart(&ai.ToolRequest{Name: "bash", Ref: ref, Input: json.RawMessage(fmt.Sprintf(`{"command":"go test ./pkg%d"}`, i))})}},
			ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Name: "bash", Ref: ref, Output: out})),
			ai.NewModelTextMessage(fmt.Sprintf("Fixed file%d.go: the test passes now.", i)),
		)
	}
	return h
}

// BenchmarkCompact measures mm's own time to compress a 200-message
// history: Compact's whole time minus the time the summary request spent
// at the server (from the client sending it to the client closing the
// response). It also reports the bytes of the next request without and
// with the compression, and the share of the request after next that is
// the unchanged prefix of the next one (system prompt, tools, summary,
// kept turns: what llama.cpp's prompt cache reuses).
func BenchmarkCompact(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{Summaries: true})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	clock := &stampTransport{next: llm.NewHTTPClient().Transport}
	client := &llm.Client{Provider: llm.Provider{Name: "llamacpp", LlamaCpp: true}, BaseURL: srv.URL(), Model: "tiny", HTTP: &http.Client{Transport: clock},
		Sampling: map[string]any{"temperature": 0.0, "top_p": 0.9, "max_tokens": 4096}}
	reg := tools.NewRegistry()
	reg.Add(tools.NewBash(tools.BashOptions{}))
	model := ai.NewModel("bench/tiny", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true}}, client.Generate)
	opts := Options{Model: model, Tools: reg, System: "be brief", MaxTurns: 40, MaxOutput: 16000, MaxTokens: 4096, Watchdog: 20 * time.Second, FirstToken: time.Minute, Yolo: true}
	history := longHistory(opts.System)
	body := func(h []*ai.Message) []byte {
		req := &ai.ModelRequest{Messages: append(append([]*ai.Message(nil), h...), ai.NewUserTextMessage("next question")), Tools: reg.Definitions()}
		out, err := llm.BuildRequest(req, llm.RequestOptions{Model: "tiny", Sampling: client.Sampling, Progress: true})
		if err != nil {
			b.Fatal(err)
		}
		return out
	}
	var own time.Duration
	var a *Agent
	for b.Loop() {
		a = New(opts)
		a.history = append([]*ai.Message(nil), history...)
		clock.reset()
		start := time.Now()
		if _, err := a.Compact(context.Background(), quietUI{}); err != nil {
			b.Fatal(err)
		}
		elapsed := time.Since(start)
		starts, ends := clock.times()
		if len(starts) != 1 || len(ends) != 1 {
			b.Fatalf("%d requests, %d bodies closed", len(starts), len(ends))
		}
		own += elapsed - ends[0].Sub(starts[0])
	}
	b.ReportMetric(float64(own.Microseconds())/1000/float64(b.N), "ms-own/compact")
	before, after := body(history), body(a.history)
	b.ReportMetric(float64(len(before)), "bytes-next-uncompressed")
	b.ReportMetric(float64(len(after)), "bytes-next-compressed")
	next := append(append([]*ai.Message(nil), a.history...), ai.NewUserTextMessage("next question"), ai.NewModelTextMessage("an answer"))
	later := body(next)
	b.ReportMetric(100*float64(commonPrefix(after, later))/float64(len(later)), "%-prefix-after-next")
}

func commonPrefix(x, y []byte) int {
	n := 0
	for n < len(x) && n < len(y) && x[n] == y[n] {
		n++
	}
	return n
}
