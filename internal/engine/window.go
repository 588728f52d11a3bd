package engine

import (
	"context"

	"mm/internal/llm"
)

// Ollama's window is only known once the model is loaded (llm's
// ollama_window.go): until then the engine assumes Ollama's smallest
// default, and learns the real one from /api/ps after the first answer
// of each model, or before refusing a prompt over the assumed window.

// cutBelow is the share of mm's estimate (in %) under which a server's
// prompt count means it cut the prompt. The estimate is a lower bound (8
// bytes a token, when tokenizers hold 3 to 4): a server that read the
// whole prompt counts at least as much, about twice as much for common
// text. 60 % leaves room for text that packs more than 8 bytes in a token
// (long runs of spaces or of one character) without a false alarm. It
// relies on Ollama counting the cached part of a prompt in its
// prompt_tokens, as it has since 0.2 (ollama#5371; ollama#16428 restored
// it after 0.30 had stopped).
const cutBelow = 60

// Window is ContextWindow, and whether it is only assumed: Ollama's
// default for a model it has not loaded yet.
func (e *Engine) Window(ctx context.Context) (int, bool) {
	n := e.ContextWindow(ctx)
	if e.Config.ContextWindow > 0 {
		return n, false
	}
	e.windowMu.Lock()
	defer e.windowMu.Unlock()
	return n, e.windowAssumed && e.windowFor == e.Config.Model
}

// runningWindow is the loaded model's window as Ollama's /api/ps says it,
// asked once per model, after a response (the model is loaded then). It
// replaces an assumed or earlier window unless contextWindow is set.
func (e *Engine) runningWindow(ctx context.Context) int {
	model := e.Config.Model
	e.windowMu.Lock()
	defer e.windowMu.Unlock()
	if e.runningFor == model {
		return e.running
	}
	e.running = llm.OllamaRunningWindow(ctx, e.Client.HTTP, e.Endpoint.BaseURL, model, e.Client.APIKey)
	e.runningFor = model
	if e.running > 0 {
		e.window, e.windowFor, e.windowAssumed = e.running, model, false
	}
	return e.running
}

// overBy is how far (in %) mm's likely size of a prompt must pass the
// window the model runs with, the server's count being within it, for
// the prompt to be taken as cut: that estimate is no bound, and a prompt
// that fits must not raise a false alarm for a few tokens of error.
// filled is the share of the window (in %) that count must reach: a cut
// prompt fills the window (Ollama keeps as much of it as fits), while a
// count well within it is a prompt the tokenizer packed tighter than mm
// guessed (long runs of spaces or of one character).
const (
	overBy = 110
	filled = 90
)

// promptRead checks, after a model call to Ollama, the prompt tokens the
// server read against mm's lower bound of what it sent and its likely
// size: Ollama cuts the start of a prompt over its window without an
// error. It returns the notice for a cut, else "".
func (e *Engine) promptRead(ctx context.Context, sent, likely, read int) string {
	w := e.runningWindow(ctx)
	if read <= 0 || sent <= 0 {
		return ""
	}
	// Either the server read clearly less than the least mm sent, or
	// the least mm sent is over the window the model runs with: the
	// prompt could not fit, whatever the server counted.
	if read*100 < sent*cutBelow || (w > 0 && sent > w && read <= w) {
		return llm.PromptCut(e.Provider, e.Config.Model, read, sent, false, w)
	}
	// Or the prompt is likely well over that window while the server's
	// count stays within it: a prompt a little over the window (the
	// lower bound, at 8 bytes a token, still under it) is cut too, and
	// Ollama's count is then the window, or nearly: what it kept.
	if w > 0 && read <= w && read*100 >= w*filled && likely*100 > w*overBy {
		return llm.PromptCut(e.Provider, e.Config.Model, read, likely, true, w)
	}
	return ""
}

// ConfirmWindow is called before refusing a prompt over the window: when
// that window is only assumed (an Ollama model not loaded yet), it has
// Ollama load the model, once per model, and returns the window /api/ps
// then says; else the window as known. The load is bounded by
// firstTokenTimeout, as a model call's would be.
func (e *Engine) ConfirmWindow(ctx context.Context) int {
	w, assumed := e.Window(ctx)
	if !assumed {
		if e.Provider.Name != "ollama" || e.Config.ContextWindow > 0 {
			return w
		}
		// A window /api/ps gave may be stale: Ollama restarted since, as
		// the cut notice suggests, with a larger OLLAMA_CONTEXT_LENGTH.
		// Asked again before refusing (a refusal is rare, a GET cheap).
		return e.reconfirm(ctx, w)
	}
	model := e.Config.Model
	e.windowMu.Lock()
	tried := e.loadedFor == model
	e.loadedFor = model
	e.windowMu.Unlock()
	if tried {
		return w
	}
	lctx, cancel := context.WithCancel(ctx)
	if d := e.Config.EffectiveFirstTokenTimeout(); d > 0 {
		lctx, cancel = context.WithTimeout(ctx, d)
	}
	defer cancel()
	if !llm.OllamaLoad(lctx, e.Client.HTTP, e.Endpoint.BaseURL, model, e.Client.APIKey) {
		return w
	}
	e.windowMu.Lock()
	e.runningFor = "" // ask /api/ps again: the model is loaded now
	e.windowMu.Unlock()
	if n := e.runningWindow(ctx); n > 0 {
		return n
	}
	return w
}

// reconfirm asks /api/ps again for the window of a model it gave w for;
// a model no longer loaded (Ollama restarted, or its keep_alive passed)
// is loaded first, within firstTokenTimeout. It returns w when nothing
// says otherwise, and keeps w then.
func (e *Engine) reconfirm(ctx context.Context, w int) int {
	model := e.Config.Model
	ask := func() int {
		e.windowMu.Lock()
		prev := e.running
		e.runningFor = ""
		e.windowMu.Unlock()
		n := e.runningWindow(ctx)
		if n <= 0 {
			e.windowMu.Lock()
			e.running = prev
			e.windowMu.Unlock()
		}
		return n
	}
	if n := ask(); n > 0 {
		return n
	}
	lctx, cancel := context.WithCancel(ctx)
	if d := e.Config.EffectiveFirstTokenTimeout(); d > 0 {
		lctx, cancel = context.WithTimeout(ctx, d)
	}
	defer cancel()
	if llm.OllamaLoad(lctx, e.Client.HTTP, e.Endpoint.BaseURL, model, e.Client.APIKey) {
		if n := ask(); n > 0 {
			return n
		}
	}
	return w
}
