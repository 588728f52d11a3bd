package engine

import (
	"context"

	"mm/internal/agent"
	"mm/internal/llm"
)

// wireModel sets up what concerns the model and its server once the engine
// is built: the wait for a server loading its model, the context window
// check, the warning for a model the server does not serve (from the
// probe's /models answer: no request of its own).
func (e *Engine) wireModel() {
	e.Client.LoadTimeout = e.Config.EffectiveFirstTokenTimeout()
	if w := llm.ModelWarning(e.Provider, e.Endpoint, e.Config.Model); w != "" {
		w = "[warning: " + w + "]" // like every start-up warning
		e.Warnings = append(e.Warnings, w)
	}
}

// wireAgent gives one conversation's agent what concerns the model: the
// context window check and compression.
func (e *Engine) wireAgent(a *agent.Agent) {
	a.SetContextCheck(e.ContextWindow, func(tokens, window int) string {
		return llm.OverflowMessage(e.Provider, e.Config.Model, tokens, window, true)
	})
	if e.Provider.Name == "ollama" {
		// Only Ollama cuts a prompt over its window without an error,
		// and tells its window only once the model is loaded; the
		// llama.cpp servers refuse such a prompt (HTTP 400).
		a.SetWindowConfirm(e.ConfirmWindow)
		a.SetPromptCheck(e.promptRead)
	}
	// Only llama-server turns tool_choice "required" into a grammar.
	a.SetToolCallRetry(e.Config.ToolCallRetry && e.Provider.LlamaCpp)
	a.SetCompaction(agent.Compaction{Context: e.Config.Context, Provider: e.Provider.Name, LlamaCpp: e.Provider.LlamaCpp, Sampling: e.Config.Sampling})
}

// Models asks the server what it serves now.
func (e *Engine) Models(ctx context.Context) (llm.Served, error) {
	return llm.ListModels(ctx, e.Client.HTTP, e.Endpoint.BaseURL, e.Client.APIKey)
}

// SetModel makes the next requests name model (/model NAME). It is called
// between turns, never while a request is built.
func (e *Engine) SetModel(model string) {
	e.Config.Model = model
	e.Client.Model = model
}
