package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// ServerRoot is the server's address without the OpenAI-compatible suffix:
// llama.cpp serves /props and Ollama /api/show next to /v1, not under it.
func ServerRoot(baseURL string) string {
	return strings.TrimSuffix(strings.TrimRight(baseURL, "/"), "/v1")
}

// DiscoverContextWindow asks the server how many tokens of context it
// serves, for the banner and for compression. 0 means unknown: the caller
// then relies on context.maxMessages.
//
// llama.cpp-based servers: /props default_generation_settings.n_ctx (the
// context one conversation gets), else the n_ctx in the /models answer
// already fetched by the probe, else /slots. Ollama: see DiscoverWindow.
func DiscoverContextWindow(ctx context.Context, client *http.Client, p Provider, ep *Endpoint, model, apiKey string) int {
	n, _ := DiscoverWindow(ctx, client, p, ep, model, apiKey)
	return n
}

// DiscoverWindow is DiscoverContextWindow, and whether the figure is only
// assumed: Ollama's window of a model it has not loaded yet (the loaded
// model's /api/ps context_length, else its Modelfile's num_ctx or
// Ollama's smallest default, OllamaDefaultWindow, capped at the trained
// context_length of /api/show; ollama_window.go).
func DiscoverWindow(ctx context.Context, client *http.Client, p Provider, ep *Endpoint, model, apiKey string) (int, bool) {
	if client == nil {
		client = http.DefaultClient
	}
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	if p.Name == "ollama" {
		return ollamaWindow(ctx, client, ep.BaseURL, model, apiKey)
	}
	return llamaWindow(ctx, client, ep, model, apiKey), false
}

func llamaWindow(ctx context.Context, client *http.Client, ep *Endpoint, model, apiKey string) int {
	if body := fetch(ctx, client, http.MethodGet, ServerRoot(ep.BaseURL)+"/props", nil, apiKey); body != nil {
		var props struct {
			Settings struct {
				NCtx int `json:"n_ctx"`
			} `json:"default_generation_settings"`
		}
		if json.Unmarshal(body, &props) == nil && props.Settings.NCtx > 0 {
			return props.Settings.NCtx
		}
	}
	if n := modelsWindow(ep.Models, model); n > 0 {
		return n
	}
	// Last resort on llama-server: the per-slot n_ctx of /slots (served
	// unless the server runs with --no-slots).
	if body := fetch(ctx, client, http.MethodGet, ServerRoot(ep.BaseURL)+"/slots", nil, apiKey); body != nil {
		var slots []struct {
			NCtx int `json:"n_ctx"`
		}
		if json.Unmarshal(body, &slots) == nil && len(slots) > 0 && slots[0].NCtx > 0 {
			return slots[0].NCtx
		}
	}
	return 0
}

// modelsWindow reads data[].meta.n_ctx from a /models answer: the entry
// whose id is the model, else the only entry.
func modelsWindow(body []byte, model string) int {
	var list struct {
		Data []struct {
			ID   string `json:"id"`
			Meta struct {
				NCtx int `json:"n_ctx"`
			} `json:"meta"`
		} `json:"data"`
	}
	if json.Unmarshal(body, &list) != nil {
		return 0
	}
	for _, m := range list.Data {
		if m.ID == model && m.Meta.NCtx > 0 {
			return m.Meta.NCtx
		}
	}
	if len(list.Data) == 1 {
		return list.Data[0].Meta.NCtx
	}
	return 0
}

// fetch returns the body of a 200 answer, or nil.
func fetch(ctx context.Context, client *http.Client, method, url string, body []byte, apiKey string) []byte {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return nil
	}
	return b
}
