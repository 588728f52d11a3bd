package llmtest

import (
	"fmt"
	"net/http"
	"time"
)

// Ollama's window as it really runs (Provider "ollama"): the model is
// loaded by its first chat request (or a POST /api/generate with no
// prompt, which only loads it), GET /api/ps lists it from then on with
// the context_length it runs with, and with Options.Truncate a prompt
// over that window is cut, as Ollama does without an error: the usage
// says how much of it the model read.

// runningWindow is the context_length /api/ps reports for the loaded
// model: Options.RunningNCtx, else NCtx (the trained length /api/show
// reports).
func (s *Server) runningWindow() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.opts.RunningNCtx > 0 {
		return s.opts.RunningNCtx
	}
	return max(0, s.opts.NCtx)
}

// Restart imitates Ollama restarted with another window
// (OLLAMA_CONTEXT_LENGTH=running): the model is no longer loaded, and
// loads with that window.
func (s *Server) Restart(running int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.opts.RunningNCtx = running
	s.opts.Loaded = false
	s.modelLoaded = false
}

// markLoaded records that the model is loaded now.
func (s *Server) markLoaded() {
	s.mu.Lock()
	s.modelLoaded = true
	s.mu.Unlock()
}

// ollamaPS is Ollama's GET /api/ps: the loaded model, if any.
func (s *Server) ollamaPS() []byte {
	s.mu.Lock()
	loaded := s.modelLoaded || s.opts.Loaded
	s.mu.Unlock()
	if !loaded {
		return []byte(`{"models":[]}`)
	}
	return fmt.Appendf(nil, `{"models":[{"name":%[1]s,"model":%[1]s,"size":538000,"digest":"0000000000000000000000000000000000000000000000000000000000000000","details":{"parent_model":"","format":"gguf","family":"llama","families":["llama"],"parameter_size":"131.39K","quantization_level":"F32"},"expires_at":%[2]s,"size_vram":538000,"context_length":%[3]d}]}`,
		jsonString(s.opts.ModelName), jsonString(time.Now().Add(5*time.Minute).Format(time.RFC3339Nano)), s.runningWindow())
}

// ollamaLoad answers POST /api/generate with no prompt: Ollama loads the
// model and says so.
func (s *Server) ollamaLoad(w http.ResponseWriter) {
	s.markLoaded()
	s.writeJSON(w, http.StatusOK, fmt.Appendf(nil, `{"model":%s,"created_at":%s,"response":"","done":true,"done_reason":"load"}`,
		jsonString(s.opts.ModelName), jsonString(time.Now().UTC().Format(time.RFC3339Nano))))
}

// truncated caps the prompt tokens of u at the running window when the
// server cuts prompts (Options.Truncate).
func (s *Server) truncated(u Usage) Usage {
	if w := s.runningWindow(); s.opts.Truncate && w > 0 && u.PromptTokens > w {
		u.PromptTokens = w
		u.CachedTokens = min(u.CachedTokens, w)
	}
	return u
}
