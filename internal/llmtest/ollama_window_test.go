package llmtest

import (
	"encoding/json"
	"strings"
	"testing"
)

// psWindow is the context_length /api/ps lists for the model, -1 when it
// lists none.
func psWindow(t *testing.T, s *Server) int {
	t.Helper()
	_, body := get(t, s.Root()+"/api/ps")
	var ps struct {
		Models []struct {
			Name          string `json:"name"`
			ContextLength int    `json:"context_length"`
		} `json:"models"`
	}
	if err := json.Unmarshal(body, &ps); err != nil {
		t.Fatalf("/api/ps %s: %v", body, err)
	}
	if len(ps.Models) == 0 {
		return -1
	}
	if ps.Models[0].Name != s.opts.ModelName {
		t.Errorf("/api/ps names %q", ps.Models[0].Name)
	}
	return ps.Models[0].ContextLength
}

// Ollama's running window: /api/ps lists the model once a chat request
// or a load has come, with RunningNCtx; Truncate caps the prompt tokens.
func TestOllamaRunningWindow(t *testing.T) {
	s := NewWith(t, Options{Provider: "ollama", ModelName: "qwen3:latest", NCtx: 40960, RunningNCtx: 64, Truncate: true}, Turn{Text: "ok"})
	if w := psWindow(t, s); w != -1 {
		t.Errorf("loaded before any request: %d", w)
	}
	_, body := mustPost(t, s.URL()+"/chat/completions", `{"model":"qwen3","stream":false,"messages":[{"role":"user","content":"`+strings.Repeat("x", 4000)+`"}]}`)
	var resp struct {
		Usage struct {
			PromptTokens int `json:"prompt_tokens"`
		} `json:"usage"`
	}
	if err := json.Unmarshal(body, &resp); err != nil || resp.Usage.PromptTokens != 64 {
		t.Errorf("prompt tokens %d, want the window's 64: %s", resp.Usage.PromptTokens, body)
	}
	if w := psWindow(t, s); w != 64 {
		t.Errorf("/api/ps after a chat: %d", w)
	}

	s = NewWith(t, Options{Provider: "ollama", ModelName: "qwen3:latest"})
	_, body = mustPost(t, s.Root()+"/api/generate", `{"model":"qwen3"}`)
	if !strings.Contains(string(body), `"done_reason":"load"`) {
		t.Errorf("load: %s", body)
	}
	if w := psWindow(t, s); w != DefaultNCtx {
		t.Errorf("/api/ps after a load: %d, want NCtx", w)
	}
	if w := psWindow(t, NewWith(t, Options{Provider: "ollama", Loaded: true, RunningNCtx: 8192})); w != 8192 {
		t.Errorf("Loaded: %d", w)
	}
}
