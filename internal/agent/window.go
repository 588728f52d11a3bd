package agent

import (
	"context"
	"encoding/json"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
)

// Before each model call, mm checks that the conversation can fit the
// context window, when the window is known: a server refuses a prompt over
// it (llama-server's HTTP 400) or, worse, cuts it without a word (Ollama).
//
// The estimate is cheap and never over the truth, so a prompt that fits is
// never refused: the prompt size the server counted at the last call (its
// usage report), plus a lower bound for what the history gained since, one
// token per bytesPerToken bytes of text, tool calls and tool results.
// Reasoning is left out: chat templates drop it from earlier turns.

// bytesPerToken is more bytes than a token of any common tokenizer holds on
// average (English runs about 4, code 3 to 4, long runs of spaces more): a
// prompt is refused only when it is clearly over.
const bytesPerToken = 8

// askBelow is the estimate under which the window is not even asked for:
// no server has a context that small, and most questions never cost a
// request to learn it.
const askBelow = 1024

// fitCheck is what the server counted last.
type fitCheck struct {
	known int // prompt tokens of the last call the server reported (0: none yet)
	at    int // the history length that call sent
}

func (f *fitCheck) reset() { *f = fitCheck{} }

// record keeps the server's count for a call that sent history[:sent].
func (f *fitCheck) record(sent int, u *ai.GenerationUsage) {
	if u != nil && u.InputTokens > 0 {
		f.known, f.at = u.InputTokens, sent
	}
}

// SetContextCheck turns the check on: window gives the context window (0
// unknown: no check), overflow the message for a conversation of at least
// tokens over it.
func (a *Agent) SetContextCheck(window func(context.Context) int, overflow func(tokens, window int) string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.window, a.overflow = window, overflow
}

// SetWindowConfirm gives the check a second opinion before it refuses:
// confirm returns the window as the server runs it, when the one window
// gave was only assumed (Ollama's default for a model not loaded yet).
func (a *Agent) SetWindowConfirm(confirm func(context.Context) int) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.confirm = confirm
}

// SetPromptCheck has check called after each model call of a turn with
// mm's lower bound of the prompt it sent (tokens), its likely size (the
// compression's estimate: the server's last count and the bytes added
// since at the bytes per token that count measured) and the prompt
// tokens the server reported (0: none): a server that cuts a long prompt
// without an error (Ollama) says so only there. A non-empty return is a
// notice for the user.
func (a *Agent) SetPromptCheck(check func(ctx context.Context, sent, likely, read int) string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.promptCheck = check
}

// fits returns the error for a conversation clearly over the window, else
// nil.
func (a *Agent) fits(ctx context.Context) error {
	if a.window == nil {
		return nil
	}
	est := a.estimate()
	if est <= askBelow {
		return nil
	}
	w := a.window(ctx)
	if w > 0 && est > w && a.confirm != nil {
		w = a.confirm(ctx)
	}
	if w <= 0 || est <= w {
		return nil
	}
	return &llm.EngineError{Overflow: true, Msg: a.overflow(est, w)}
}

// sentEstimate is a lower bound of the whole prompt of the next call
// from its bytes alone, whatever the server counted before: the prompt
// check compares the server's count with it, and a count the server
// cut must not be its own yardstick.
func (a *Agent) sentEstimate() int {
	size := 0
	if b, err := json.Marshal(a.opts.Tools.Definitions()); err == nil {
		size += len(b)
	}
	for _, m := range a.history {
		size += messageSize(m)
	}
	return size / bytesPerToken
}

// checkPrompt runs the prompt check after a call that sent sent tokens
// at least.
func (a *Agent) checkPrompt(ctx context.Context, sent, likely int, u *ai.GenerationUsage, ui UI) {
	if a.promptCheck == nil {
		return
	}
	read := 0
	if u != nil {
		read = u.InputTokens
	}
	if msg := a.promptCheck(ctx, sent, likely, read); msg != "" {
		// The server's count of a prompt it cut measures what it kept,
		// not the conversation: the next estimates go by the bytes.
		a.fit.reset()
		ui.Notice(msg)
	}
}

// estimate is a lower bound of the next prompt's tokens.
func (a *Agent) estimate() int {
	tokens, from, size := 0, 0, 0
	if a.fit.known > 0 && a.fit.at <= len(a.history) {
		tokens, from = a.fit.known, a.fit.at
	} else if b, err := json.Marshal(a.opts.Tools.Definitions()); err == nil {
		size += len(b)
	}
	for _, m := range a.history[from:] {
		size += messageSize(m)
	}
	return tokens + size/bytesPerToken
}

// messageSize counts the bytes of a message that surely reach the prompt.
func messageSize(m *ai.Message) int {
	n := 0
	for _, p := range m.Content {
		switch {
		case p.IsReasoning():
		case p.IsText():
			n += len(p.Text)
		case p.IsToolRequest():
			n += len(p.ToolRequest.Name) + valueSize(p.ToolRequest.Input)
		case p.IsToolResponse():
			n += valueSize(p.ToolResponse.Output)
		}
	}
	return n
}

func valueSize(v any) int {
	switch v := v.(type) {
	case string:
		return len(v)
	case json.RawMessage:
		return len(v)
	case nil:
		return 0
	}
	b, _ := json.Marshal(v)
	return len(b)
}

// overflowed ends a question that does not fit. When nothing but the
// question was added, it leaves the history: the conversation is as before
// it, so a shorter question can follow. When tools ran, their work stays in
// the history with the note, and /new is the way out.
func (a *Agent) overflowed(before int, err error) {
	if len(a.history) == before+1 {
		a.history = a.history[:before]
		if a.fit.at > before {
			a.fit.reset()
		}
		return
	}
	a.interrupted("", err)
}
