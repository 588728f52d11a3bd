package agent

import (
	"context"
	"encoding/json"
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
// scripted run: from the end of a response to the next request, minus the
// tool's run time (the tool here does nothing and takes microseconds).
// It covers recovery of the calls, tool dispatch, the loop detector, the
// history, Genkit's model action and the request encoding.
func BenchmarkAgentTurn(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	client := &llm.Client{Provider: llm.Provider{Name: "llamacpp", LlamaCpp: true}, BaseURL: srv.URL(), Model: "tiny", HTTP: llm.NewHTTPClient(),
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
		n := len(srv.ChatRequests())
		var ended []*Call
		ui := &toolTimes{calls: &ended}
		if _, err := a.Ask(context.Background(), "work through it", ui); err != nil {
			b.Fatal(err)
		}
		reqs := srv.ChatRequests()[n:]
		for i := 1; i < len(reqs); i++ {
			own += reqs[i].At.Sub(reqs[i-1].Done) - ended[i-1].Duration
			turns++
		}
	}
	b.ReportMetric(float64(own.Microseconds())/1000/float64(turns), "ms-own/turn")
}

type toolTimes struct {
	quietUI
	calls *[]*Call
}

func (u *toolTimes) ToolEnd(c *Call) { *u.calls = append(*u.calls, c) }
