package llmtest

import (
	"bytes"
	"context"
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"time"
)

// The captures are embedded so that any package's tests, and cmd/llmtest,
// can use them without knowing where this package lives on disk.
//
//go:embed fixtures/llamacpp
var fixtureFS embed.FS

const fixtureDir = "fixtures/llamacpp"

// Fixture returns the raw bytes of a fixture file by file name, e.g.
// Fixture("a_stream_text.sse"), or nil if there is no such file.
func Fixture(name string) []byte {
	if strings.Contains(name, "/") {
		return nil
	}
	b, err := fixtureFS.ReadFile(fixtureDir + "/" + name)
	if err != nil {
		return nil
	}
	return b
}

// FixtureNames returns the case names that can be replayed with
// Turn.Fixture, sorted: every case with a captured response (a
// .headers.txt, or the partial body of j_client_disconnect). The
// request-only case j2_client_disconnect_nonstream is not among them.
func FixtureNames() []string {
	entries, err := fs.ReadDir(fixtureFS, fixtureDir)
	if err != nil {
		panic(err) // the directory is embedded at build time
	}
	seen := map[string]bool{}
	for _, e := range entries {
		n := e.Name()
		switch {
		case strings.HasSuffix(n, ".headers.txt"):
			seen[strings.TrimSuffix(n, ".headers.txt")] = true
		case strings.HasSuffix(n, ".partial.sse"):
			seen[strings.TrimSuffix(n, ".partial.sse")] = true
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

func hasCase(name string) bool {
	for _, n := range FixtureNames() {
		if n == name {
			return true
		}
	}
	return false
}

// FixtureBody returns the captured response body of a case (the .sse,
// .json or .partial.sse file) and whether it is an event stream.
func FixtureBody(name string) (body []byte, sse bool) {
	if b := Fixture(name + ".sse"); b != nil {
		return b, true
	}
	if b := Fixture(name + ".partial.sse"); b != nil {
		return b, true
	}
	return Fixture(name + ".json"), false
}

// fixtureHead parses <case>.headers.txt into a status and headers. A case
// without one (j_client_disconnect) gets llama-server's stream headers.
func fixtureHead(name string) (int, http.Header, error) {
	raw := Fixture(name + ".headers.txt")
	h := http.Header{}
	if raw == nil {
		llamaHeaders(h)
		h.Set("X-Accel-Buffering", "no")
		h.Set("Content-Type", "text/event-stream")
		return http.StatusOK, h, nil
	}
	lines := strings.Split(strings.TrimRight(string(raw), "\r\n"), "\r\n")
	parts := strings.SplitN(lines[0], " ", 3)
	if len(parts) < 2 {
		return 0, nil, fmt.Errorf("llmtest: bad status line %q in %s.headers.txt", lines[0], name)
	}
	code, err := strconv.Atoi(parts[1])
	if err != nil {
		return 0, nil, fmt.Errorf("llmtest: bad status line %q in %s.headers.txt", lines[0], name)
	}
	for _, l := range lines[1:] {
		k, v, ok := strings.Cut(l, ":")
		if !ok {
			continue
		}
		k = http.CanonicalHeaderKey(strings.TrimSpace(k))
		// Go's server does the framing and keep-alive itself: copying these
		// would lie about them (Connection: close is kept, Go honours it).
		if k == "Transfer-Encoding" || k == "Keep-Alive" {
			continue
		}
		h[k] = append(h[k], strings.TrimSpace(v))
	}
	return code, h, nil
}

// splitEvents cuts an SSE body after each blank line, so every piece is
// one event (or keep-alive comment) exactly as captured; a cut-off tail is
// its own piece. Concatenating the pieces gives the body back.
func splitEvents(body []byte) [][]byte {
	var out [][]byte
	for len(body) > 0 {
		i := bytes.Index(body, []byte("\n\n"))
		if i < 0 {
			out = append(out, body)
			break
		}
		out = append(out, body[:i+2])
		body = body[i+2:]
	}
	return out
}

// replay sends a captured case verbatim. SSE bodies are written one event
// per flush, so a client sees them arrive as from llama-server, and the
// mid-stream faults apply to them like to generated streams.
func (s *Server) replay(w *statusWriter, ctx context.Context, t *Turn) error {
	code, h, err := fixtureHead(t.Fixture)
	if err != nil {
		return err
	}
	body, sse := FixtureBody(t.Fixture)
	for k, v := range h {
		w.Header()[k] = v
	}
	if cl := w.Header().Get("Content-Length"); cl != "" && cl != strconv.Itoa(len(body)) {
		w.Header().Del("Content-Length")
	}
	if !sse {
		if t.Fault == FaultHangAfterHeaders {
			w.WriteHeader(code)
			_ = http.NewResponseController(w).Flush()
			return s.hang(w, ctx)
		}
		if t.Fault == FaultHangMidStream || t.Fault == FaultDrop {
			return s.partialJSON(w, ctx, code, body, t.Fault)
		}
		w.WriteHeader(code)
		_, err := w.Write(body)
		return err
	}
	var evs []event
	for _, p := range splitEvents(body) {
		evs = append(evs, event{raw: p, data: bytes.HasPrefix(p, []byte("data: ")), done: string(p) == "data: [DONE]\n\n"})
	}
	return s.play(w, ctx, code, evs, t)
}

// llamaModels is g4_get_models with the model name, n_ctx and created of
// this server.
func (s *Server) llamaModels() []byte {
	b := s.withModel(Fixture("g4_get_models.json"))
	b = s.withNCtx(b, `"n_ctx":2048,`, `"n_ctx":%d,`, "")
	b = bytes.Replace(b, []byte(`"created":1796005581`), fmt.Appendf(nil, `"created":%d`, time.Now().Unix()), 1)
	if more := s.moreModels("llamacpp"); more != nil {
		// The body ends with data[]'s closing "]}".
		b = append(append(b[:len(b)-2:len(b)-2], more...), "]}"...)
	}
	return b
}

// llamaProps is g5_get_props with the model name and n_ctx of this server.
func (s *Server) llamaProps() []byte {
	return s.withNCtx(s.withModel(Fixture("g5_get_props.json")), `,"n_ctx":2048}`, `,"n_ctx":%d}`, "}")
}

// llamaSlots is g8_get_slots with n_ctx of this server.
func (s *Server) llamaSlots() []byte {
	return s.withNCtx(Fixture("g8_get_slots.json"), `"n_ctx":2048,`, `"n_ctx":%d,`, "")
}

func (s *Server) withModel(b []byte) []byte {
	return bytes.ReplaceAll(b, []byte(`"/srv/models/tinyqwen3.gguf"`), []byte(jsonString(s.opts.ModelName)))
}

// withNCtx replaces the captured n_ctx (old) by format filled with NCtx;
// with NCtx -1 it puts removed instead, so the window is unknown to the
// client.
func (s *Server) withNCtx(b []byte, old, format, removed string) []byte {
	repl := fmt.Sprintf(format, s.opts.NCtx)
	if s.opts.NCtx < 0 {
		repl = removed
	}
	return bytes.ReplaceAll(b, []byte(old), []byte(repl))
}

// ollamaModels is Ollama's GET /v1/models: no context size in it.
func (s *Server) ollamaModels() []byte {
	return fmt.Appendf(nil, `{"object":"list","data":[{"id":%s,"object":"model","created":%d,"owned_by":"library"}%s]}`,
		jsonString(s.opts.ModelName), time.Now().Unix(), s.moreModels("library"))
}

// ollamaTags is Ollama's GET /api/tags.
func (s *Server) ollamaTags() []byte {
	return fmt.Appendf(nil, `{"models":[{"name":%[1]s,"model":%[1]s,"modified_at":"2026-01-01T00:00:00Z","size":538000,"digest":"0000000000000000000000000000000000000000000000000000000000000000","details":{"parent_model":"","format":"gguf","family":"llama","families":["llama"],"parameter_size":"131.39K","quantization_level":"F32"}}]}`,
		jsonString(s.opts.ModelName))
}

// ollamaShow is Ollama's POST /api/show. The context window is in
// model_info under "<general.architecture>.context_length".
func (s *Server) ollamaShow() []byte {
	ctxLen := ""
	if s.opts.NCtx > 0 {
		ctxLen = fmt.Sprintf(`"llama.context_length":%d,`, s.opts.NCtx)
	}
	return fmt.Appendf(nil, `{"license":"","modelfile":"# Modelfile generated by \"ollama show\"\nFROM %[1]s\n","parameters":"","template":"{{ .Prompt }}","details":{"parent_model":"","format":"gguf","family":"llama","families":["llama"],"parameter_size":"131.39K","quantization_level":"F32"},"model_info":{"general.architecture":"llama","general.parameter_count":131392,"llama.block_count":2,%[2]s"llama.embedding_length":64},"capabilities":["completion","tools","thinking"],"modified_at":"2026-01-01T00:00:00Z"}`,
		strings.Trim(jsonString(s.opts.ModelName), `"`), ctxLen)
}
