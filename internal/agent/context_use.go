package agent

import (
	"encoding/json"

	"github.com/firebase/genkit/go/ai"
)

// ContextUse is what fills the context window now, in estimated tokens
// (/context). The figures are the compression's estimate (tokenEstimate):
// the bytes of each part at the bytes per token the server's last count
// measured, else 4.
type ContextUse struct {
	System, Tools int // the system prompt, the tool definitions
	// Instructions is the project's AGENTS.md, appended to the system
	// prompt (System is the rest of it).
	Instructions int
	// History is every message after the system prompt (Messages of
	// them); LastToolOutputs the tool results of the last question's
	// turn, which History includes.
	History, Messages, LastToolOutputs int
	// Total is the sum: the whole prompt, but for the next question.
	Total int
}

// ContextUse estimates what fills the window, without any request.
// instructions is the size in bytes of the project instructions' part of
// the system prompt.
func (a *Agent) ContextUse(instructions int) ContextUse {
	a.mu.Lock()
	defer a.mu.Unlock()
	toolBytes := 0
	if b, err := json.Marshal(a.opts.Tools.Definitions()); err == nil {
		toolBytes = len(b)
	}
	ratio := 4.0
	if a.fit.known > 0 && a.fit.at <= len(a.history) {
		counted := toolBytes
		for _, m := range a.history[:a.fit.at] {
			counted += messageSize(m)
		}
		ratio = max(2, min(float64(counted)/float64(a.fit.known), bytesPerToken))
	}
	tok := func(n int) int { return int(float64(n) / ratio) }
	var u ContextUse
	u.Tools = tok(toolBytes)
	h := a.history
	if len(h) > 0 && h[0].Role == ai.RoleSystem {
		sys := messageSize(h[0])
		instr := min(max(0, instructions), sys)
		u.System, u.Instructions = tok(sys-instr), tok(instr)
		h = h[1:]
	}
	last := 0 // where the last question's turn starts in h
	hist := 0
	for i, m := range h {
		hist += messageSize(m)
		if isQuestion(m) {
			last = i
		}
	}
	outputs := 0
	for _, m := range h[last:] {
		for _, p := range m.Content {
			if p.IsToolResponse() {
				outputs += valueSize(p.ToolResponse.Output)
			}
		}
	}
	u.History, u.Messages, u.LastToolOutputs = tok(hist), len(h), tok(outputs)
	u.Total = u.System + u.Instructions + u.Tools + u.History
	return u
}
