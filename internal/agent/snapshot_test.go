package agent

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"mm/internal/llmtest"
	"mm/internal/tools"
)

type recSnaps struct{ before, after []string }

func (r *recSnaps) Before(q string) string { r.before = append(r.before, q); return "snapped" }
func (r *recSnaps) After() string          { r.after = append(r.after, "after"); return "" }

// The snapshot for /undo is taken once per turn, just before the first
// call that may change files runs: never for a read, a refused call or a
// turn without any; the turn's end is told when one was taken. A note
// added between turns starts the next question's message.
func TestSnapshotOncePerChangingTurn(t *testing.T) {
	snaps := &recSnaps{}
	peek := &tools.Tool{Name: "peek", Kind: tools.KindRead, Schema: map[string]any{"type": "object"},
		Mutates: func(json.RawMessage) bool { return true },
		Run:     func(context.Context, json.RawMessage) string { return "seen" }}
	s := newSetup(t, func(o *Options) {
		o.Yolo = false
		o.Tools.Add(peek)
		o.Snapshots = snaps
	},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "peek", Arguments: `{}`}}},
		bashCall("echo refused > r.txt"),
		bashCall("echo one > a.txt"),
		bashCall("echo two > b.txt"),
		llmtest.Turn{Text: "done"},
		llmtest.Turn{Text: "just talk"},
		llmtest.Turn{Text: "ok"},
	)
	bashes := 0
	ui := &recUI{decide: func(c *Call) Decision {
		if c.Name == "bash" {
			bashes++
			if bashes == 1 {
				return Refuse
			}
		}
		return AllowOnce
	}}
	if _, err := s.agent.Ask(context.Background(), "change", ui); err != nil {
		t.Fatal(err)
	}
	if strings.Join(snaps.before, "|") != "change" || len(snaps.after) != 1 {
		t.Errorf("before %q after %v", snaps.before, snaps.after)
	}
	if strings.Count(strings.Join(ui.notices, "\n"), "snapped") != 1 {
		t.Errorf("notices %q", ui.notices)
	}
	if _, err := s.agent.Ask(context.Background(), "talk", ui); err != nil {
		t.Fatal(err)
	}
	if len(snaps.before) != 1 || len(snaps.after) != 1 {
		t.Errorf("a turn without change: before %q after %v", snaps.before, snaps.after)
	}
	s.agent.AddNote("[undone]")
	if _, err := s.agent.Ask(context.Background(), "next", ui); err != nil {
		t.Fatal(err)
	}
	reqs := s.srv.ChatRequests()
	if got := lastMessage(t, s, len(reqs)-1)["content"]; got != "[undone]\n\nnext" {
		t.Errorf("the next question: %q", got)
	}
	if sys := reqs[len(reqs)-1].JSON["messages"].([]any)[0].(map[string]any)["content"]; sys != "be brief" {
		t.Errorf("the system prompt: %q", sys)
	}
}
