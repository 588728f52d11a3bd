package agent

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"mm/internal/llm"
	"mm/internal/llmtest"
)

func overflowText(tokens, window int) string { return fmt.Sprintf("over: %d > %d", tokens, window) }

// The estimate starts from what the server counted last: a tool result the
// bytes alone would let through is refused when the server's count says
// the conversation is already near the window.
func TestContextCheckFromServerCount(t *testing.T) {
	s := newSetup(t, nil,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"head -c 9000 /dev/zero | tr '\\0' x"}`}},
			Usage: &llmtest.Usage{PromptTokens: 3000, CompletionTokens: 10}},
		llmtest.Turn{Text: "never sent"})
	s.agent.SetContextCheck(func(context.Context) int { return 4000 }, overflowText)
	_, err := s.agent.Ask(context.Background(), "go", &recUI{})
	var ee *llm.EngineError
	if !errors.As(err, &ee) || !ee.Overflow || !strings.HasPrefix(ee.Msg, "over: ") {
		t.Fatalf("err = %v", err)
	}
	var tokens, window int
	fmt.Sscanf(ee.Msg, "over: %d > %d", &tokens, &window)
	// 3000 counted, plus 9000 bytes of output at 8 a token.
	if tokens < 3000+9000/bytesPerToken || window != 4000 {
		t.Errorf("%s", ee.Msg)
	}
	if n := len(s.srv.ChatRequests()); n != 1 {
		t.Errorf("%d requests, want the first only", n)
	}
	// The tools ran: their work stays, with the note.
	h := s.agent.History()
	if last := h[len(h)-1]; !strings.Contains(last.Text(), "[interrupted: engine error: over: ") {
		t.Errorf("last message %q", last.Text())
	}
}

// A question that alone does not fit leaves the history; without a known
// window nothing is checked.
func TestContextCheckDropsTheQuestion(t *testing.T) {
	s := newSetup(t, nil, llmtest.Turn{Text: "fine"})
	asked := 0
	window := 2048
	s.agent.SetContextCheck(func(context.Context) int { asked++; return window }, overflowText)
	before := len(s.agent.History())
	if _, err := s.agent.Ask(context.Background(), strings.Repeat("word ", 8000), &recUI{}); err == nil {
		t.Fatal("a 40 KB question fit 2048 tokens")
	}
	if n := len(s.agent.History()); n != before {
		t.Errorf("history %d messages after the refusal, want %d", n, before)
	}
	if _, err := s.agent.Ask(context.Background(), "short", &recUI{}); err != nil {
		t.Fatal(err)
	}
	if asked != 1 {
		t.Errorf("the window was asked %d times, want once (a short question does not ask)", asked)
	}
	window = 0
	if _, err := s.agent.Ask(context.Background(), strings.Repeat("word ", 8000), &recUI{}); err == nil || !strings.Contains(err.Error(), "no scripted turn left") {
		t.Errorf("unknown window: the question must be sent, got %v", err)
	}
}

// Before refusing, the check asks for a second opinion (an assumed window
// confirmed by the server); after each call, the prompt check gets the
// lower bound of what was sent, from the bytes alone, and the server's
// count, and its notice reaches the UI.
func TestWindowConfirmAndPromptCheck(t *testing.T) {
	s := newSetup(t, nil,
		llmtest.Turn{Text: "fine", Usage: &llmtest.Usage{PromptTokens: 100, CompletionTokens: 1}},
		llmtest.Turn{Text: "again", Usage: &llmtest.Usage{PromptTokens: 100000, CompletionTokens: 1}})
	s.agent.SetContextCheck(func(context.Context) int { return 2048 }, overflowText)
	confirmed := 0
	s.agent.SetWindowConfirm(func(context.Context) int { confirmed++; return 32768 })
	type call struct{ sent, read int }
	var calls []call
	s.agent.SetPromptCheck(func(_ context.Context, sent, _, read int) string {
		calls = append(calls, call{sent, read})
		if read < sent {
			return fmt.Sprintf("cut: %d < %d", read, sent)
		}
		return ""
	})
	ui := &recUI{}
	question := strings.Repeat("word ", 8000) // 40 KB: 5000 tokens at least
	if _, err := s.agent.Ask(context.Background(), question, ui); err != nil {
		t.Fatalf("refused though the confirmed window is 32k: %v", err)
	}
	if confirmed != 1 || len(calls) != 1 || calls[0].read != 100 || calls[0].sent < 40000/bytesPerToken {
		t.Errorf("confirmed %d, calls %+v", confirmed, calls)
	}
	if len(ui.notices) != 1 || !strings.HasPrefix(ui.notices[0], "cut: 100 < ") {
		t.Errorf("notices %q", ui.notices)
	}
	// A count of a cut prompt is no measure of the conversation: the
	// window check of the next call goes by the bytes again.
	s.agent.SetWindowConfirm(nil)
	if _, err := s.agent.Ask(context.Background(), "short", &recUI{}); err == nil || !strings.Contains(err.Error(), "over: ") {
		t.Fatalf("the next call was let through on the cut count: %v", err)
	}
}

// ContextUse splits the prompt into its parts, AGENTS.md out of the system
// prompt, the last turn's tool outputs out of the history.
func TestContextUse(t *testing.T) {
	s := newSetup(t, nil,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"head -c 4000 /dev/zero | tr '\\0' x"}`}}},
		llmtest.Turn{Text: "done"})
	if _, err := s.agent.Ask(context.Background(), "go", &recUI{}); err != nil {
		t.Fatal(err)
	}
	u := s.agent.ContextUse(40)
	if u.Messages != 4 || u.Instructions == 0 || u.Tools == 0 || u.LastToolOutputs < 4000/bytesPerToken || u.History < u.LastToolOutputs {
		t.Errorf("%+v", u)
	}
	if u.Total != u.System+u.Instructions+u.Tools+u.History {
		t.Errorf("total %d is not the sum of %+v", u.Total, u)
	}
}
