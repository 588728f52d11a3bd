package agent

import (
	"testing"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/config"
)

// The kept part starts at a question the user asked: not at a note mm
// added in a turn (a call cut by max_tokens, a call not run), nor at the
// marker of an earlier summary, so every tool result in it follows its
// call.
func TestCutPoint(t *testing.T) {
	call := &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{ai.NewToolRequestPart(&ai.ToolRequest{Name: "bash", Ref: "c1"})}}
	result := ai.NewMessage(ai.RoleTool, nil, ai.NewToolResponsePart(&ai.ToolResponse{Name: "bash", Ref: "c1", Output: "ok"}))
	h := []*ai.Message{
		ai.NewSystemTextMessage("sys"),
		ai.NewUserTextMessage(summaryMarker), ai.NewModelTextMessage("old summary"),
		ai.NewUserTextMessage("q1"), ai.NewModelTextMessage("a1"),
		ai.NewUserTextMessage("q2"), call, result,
		ai.NewUserTextMessage("[Tool call not run: bad]"),
		ai.NewModelTextMessage("cut"), ai.NewUserTextMessage("[Your write_file call was cut off: …]"),
		ai.NewModelTextMessage("a2"),
	}
	for keep, want := range map[int]int{1: 5, 2: 0} {
		if got := cutPoint(h, keep); got != want {
			t.Errorf("keep %d: cut at %d, want %d", keep, got, want)
		}
	}
}

// The summary request's overrides leave the configured sampling map as
// it was, and keep its other chat_template_kwargs.
func TestSummaryOverridesKeepSampling(t *testing.T) {
	kw := map[string]any{"foo": "bar"}
	sampling := map[string]any{"chat_template_kwargs": kw, "reasoning_effort": "high"}
	o := summaryOverrides(Compaction{Provider: "llamacpp", LlamaCpp: true, Sampling: sampling, Context: compactionDefaults()})
	got := o["chat_template_kwargs"].(map[string]any)
	if got["foo"] != "bar" || got["enable_thinking"] != false || o["reasoning_effort"] != "low" || o["max_tokens"] != 1200 {
		t.Errorf("overrides %v", o)
	}
	if len(kw) != 1 || sampling["reasoning_effort"] != "high" {
		t.Errorf("sampling changed: %v", sampling)
	}
}

func compactionDefaults() (c config.ContextConfig) { return (&Agent{}).compactionOrDefault().Context }
