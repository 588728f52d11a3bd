package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
)

// Ollama runs a model with the window it picks when it loads it, not the
// one the model was trained for: a Modelfile's num_ctx, else
// OLLAMA_CONTEXT_LENGTH, else a default that follows the VRAM (4k under
// 24 GiB, 32k up to 48 GiB, 256k above), never more than the trained
// length. A longer prompt is cut from its start without an error. Only
// GET /api/ps says the window of a loaded model (its context_length);
// until the model is loaded mm assumes the smallest default.

// OllamaDefaultWindow is the window mm assumes for an Ollama model that
// is not loaded and has no num_ctx: Ollama's default on the smallest
// machines. mm cannot see the server's VRAM nor its OLLAMA_CONTEXT_LENGTH;
// a window assumed too small costs at most a request that loads the model
// to learn the real one (Engine.ConfirmWindow), one assumed too large a
// prompt cut without a word.
const OllamaDefaultWindow = 4096

// ollamaShowWindow reads /api/show: the Modelfile's num_ctx parameter
// (0 when none) and the trained <arch>.context_length (0 when not said).
func ollamaShowWindow(ctx context.Context, client *http.Client, baseURL, model, apiKey string) (numCtx, trained int, ok bool) {
	req, _ := json.Marshal(map[string]string{"model": model})
	body := fetch(ctx, client, http.MethodPost, ServerRoot(baseURL)+"/api/show", req, apiKey)
	if body == nil {
		return 0, 0, false
	}
	var show struct {
		Parameters string         `json:"parameters"`
		ModelInfo  map[string]any `json:"model_info"`
	}
	if json.Unmarshal(body, &show) != nil {
		return 0, 0, false
	}
	for _, line := range strings.Split(show.Parameters, "\n") {
		f := strings.Fields(line)
		if len(f) == 2 && f[0] == "num_ctx" {
			if n, err := strconv.Atoi(f[1]); err == nil && n > 0 {
				numCtx = n
			}
		}
	}
	for k, v := range show.ModelInfo {
		if strings.HasSuffix(k, ".context_length") {
			if n, ok := v.(float64); ok && n > 0 {
				trained = int(n)
			}
		}
	}
	return numCtx, trained, true
}

// OllamaRunningWindow asks GET /api/ps for the context_length of model
// as loaded now; 0 when it is not loaded, or the server does not say (an
// Ollama older than 0.12, a proxy that only passes /v1).
func OllamaRunningWindow(ctx context.Context, client *http.Client, baseURL, model, apiKey string) int {
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	body := fetch(ctx, client, http.MethodGet, ServerRoot(baseURL)+"/api/ps", nil, apiKey)
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			Model         string `json:"model"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if body == nil || json.Unmarshal(body, &ps) != nil {
		return 0
	}
	for _, m := range ps.Models {
		if (Served{IDs: []string{m.Name, m.Model}}).Has(model) && m.ContextLength > 0 {
			return m.ContextLength
		}
	}
	return 0
}

// ollamaWindow is the window an Ollama model runs with, and whether it is
// only assumed (the model is not loaded: Ollama's default, or its
// Modelfile's num_ctx, capped at the trained length).
func ollamaWindow(ctx context.Context, client *http.Client, baseURL, model, apiKey string) (int, bool) {
	if n := OllamaRunningWindow(ctx, client, baseURL, model, apiKey); n > 0 {
		return n, false
	}
	numCtx, trained, ok := ollamaShowWindow(ctx, client, baseURL, model, apiKey)
	if !ok {
		// No /api/show either: not an Ollama mm can ask, so no figure
		// to believe (the window stays unknown, as with any server).
		return 0, false
	}
	w := OllamaDefaultWindow
	if numCtx > 0 {
		w = numCtx
	}
	if trained > 0 && trained < w {
		w = trained // Ollama never runs a model past its trained length
	}
	return w, true
}

// OllamaLoad asks Ollama to load model with its default options (POST
// /api/generate with no prompt, which only loads), so that /api/ps then
// tells the window it runs with. It returns when the model is loaded or
// ctx ends.
func OllamaLoad(ctx context.Context, client *http.Client, baseURL, model, apiKey string) bool {
	if client == nil {
		client = http.DefaultClient
	}
	req, _ := json.Marshal(map[string]string{"model": model})
	return fetch(ctx, client, http.MethodPost, ServerRoot(baseURL)+"/api/generate", req, apiKey) != nil
}

// PromptCut is the notice for a prompt the server read only part of: it
// counted read tokens of at least sent (mm's lower bound; about sent,
// mm's likely size, when about) in a window of window tokens (0
// unknown). Ollama cuts the start of the conversation — the system
// prompt and the tool definitions first — so the model answered without
// them.
func PromptCut(p Provider, model string, read, sent int, about bool, window int) string {
	of := "at least"
	if about {
		of = "about"
	}
	msg := fmt.Sprintf("the server cut the prompt: it read %d tokens of %s %d sent — the model did not see the start of the conversation (its instructions and tools first)", read, of, sent)
	if window > 0 {
		msg += fmt.Sprintf("; it runs with a %d-token window", window)
	}
	hint := p.contextHint(roomFor(sent), model)
	if p.Name == "ollama" {
		hint += ", or num_ctx in a Modelfile"
	}
	return msg + ". Give the model a larger context (" + hint + "), compress the conversation (/compact in line mode) or ask for less at once"
}
