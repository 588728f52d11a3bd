package agent

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
	"mm/internal/llmtest"
	"mm/internal/tools"
)

// nullUI drops what it is shown, so a benchmark measures the agent only.
type nullUI struct{ recUI }

func (*nullUI) Text(string)     {}
func (*nullUI) Thinking(string) {}

// BenchmarkLargeAnswer streams a 7 MB answer (under the 8 MiB cap of
// max_tokens 4096) through the client, Genkit's model wrapper and the
// agent. Its B/op is what one such answer costs: run it with -benchmem
// (and -memprofile to see where).
func BenchmarkLargeAnswer(b *testing.B) {
	text := strings.Repeat(strings.Repeat("y", 999)+" ", 7<<10)
	srv := llmtest.New(b)
	client := &llm.Client{Provider: llm.Provider{Name: "llamacpp", LlamaCpp: true}, BaseURL: srv.URL(), Model: "tiny", HTTP: llm.NewHTTPClient(),
		Sampling: map[string]any{"max_tokens": 4096}}
	a := New(Options{
		Model: ai.NewModel("test/tiny", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true}}, client.Generate),
		Tools: tools.NewRegistry(), MaxTurns: 2, MaxOutput: 16000, MaxTokens: 4096,
		Watchdog: 20 * time.Second, FirstToken: 20 * time.Second, Yolo: true,
	})
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		srv.Push(llmtest.Turn{Text: text})
		a.Reset()
		res, err := a.Ask(context.Background(), "hi", &nullUI{})
		if err != nil || len(res.Text) != len(text) {
			b.Fatalf("%v, %d bytes", err, len(res.Text))
		}
	}
}
