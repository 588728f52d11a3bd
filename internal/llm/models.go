package llm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Served is what a server's GET /models answer says it serves.
type Served struct {
	// IDs are the model names, in the server's order.
	IDs []string
	// AnyName is true for a llama-server with one model: it answers every
	// request with that model, whatever name the request gives, so the
	// configured name never needs to match.
	AnyName bool
}

// ParseModels reads a /models answer: OpenAI's data[].id, which llama.cpp,
// Ollama and Docker Model Runner all send. ok is false when the body is not
// such a list (an error page, a server still loading).
func ParseModels(body []byte) (s Served, ok bool) {
	var list struct {
		Data *[]struct {
			ID      string          `json:"id"`
			OwnedBy string          `json:"owned_by"`
			Meta    json.RawMessage `json:"meta"`
		} `json:"data"`
		Models json.RawMessage `json:"models"`
	}
	if json.Unmarshal(body, &list) != nil || list.Data == nil {
		return Served{}, false
	}
	for _, m := range *list.Data {
		if m.ID != "" {
			s.IDs = append(s.IDs, m.ID)
		}
	}
	// llama-server's own answer (g4_get_models, g7_get_models_nov1): an
	// Ollama-style models[] next to data[], one entry owned by llamacpp with
	// the model's meta. Its router mode, which does honour the name, lists
	// several.
	if d := *list.Data; len(d) == 1 && len(list.Models) > 0 && (d[0].OwnedBy == "llamacpp" || len(d[0].Meta) > 0) {
		s.AnyName = true
	}
	return s, true
}

// Has reports whether the server serves model: the same name, ignoring
// case, Ollama's implicit ":latest" tag, and hf.co for huggingface.co.
func (s Served) Has(model string) bool {
	want := modelKey(model)
	for _, id := range s.IDs {
		if modelKey(id) == want {
			return true
		}
	}
	return false
}

func modelKey(name string) string {
	k := strings.ToLower(strings.TrimSpace(name))
	k = strings.TrimSuffix(k, ":latest")
	if rest, ok := strings.CutPrefix(k, "huggingface.co/"); ok {
		k = "hf.co/" + rest
	}
	return k
}

// List names the models for a message: the first few, then how many more.
func (s Served) List() string {
	const shown = 8
	if len(s.IDs) <= shown {
		return strings.Join(s.IDs, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(s.IDs[:shown], ", "), len(s.IDs)-shown)
}

// ModelWarning is the start-up warning for a configured model the server
// does not serve, from the probe's /models answer (no request of its own);
// "" when there is nothing to say: the model is listed, the server is
// llama-server (provider llamacpp, or an answer that looks like its own),
// or the answer is not a list (the server still loads its model).
func ModelWarning(p Provider, ep *Endpoint, model string) string {
	if p.Name == "llamacpp" || ep == nil || ep.ModelsStatus != 200 {
		return ""
	}
	s, ok := ParseModels(ep.Models)
	if !ok || s.AnyName || s.Has(model) {
		return ""
	}
	where := RedactURL(ep.BaseURL)
	pull := p.pullHint(model)
	if len(s.IDs) == 0 {
		if pull == "" {
			return fmt.Sprintf("%s serves no model yet", where)
		}
		return fmt.Sprintf("%s serves no model yet — pull one: %s", where, pull)
	}
	msg := fmt.Sprintf("model %q is not among the models %s serves (%s) — pick one with -m NAME, AGENT_MODEL or model: in the config (/model in line mode)", model, where, s.List())
	if pull != "" {
		msg += ", or get it: " + pull
	}
	return msg
}

// ListModels asks the server what it serves now (/model in line mode).
func ListModels(ctx context.Context, client *http.Client, baseURL, apiKey string) (Served, error) {
	if client == nil {
		client = http.DefaultClient
	}
	where := RedactURL(baseURL) + "/models"
	body, status, err := probe(ctx, client, baseURL+"/models", apiKey)
	if err != nil {
		return Served{}, engineErrorf("GET %s: %s", where, redactErr(err))
	}
	s, ok := ParseModels(body)
	switch {
	case status == http.StatusServiceUnavailable:
		return Served{}, engineErrorf("GET %s: HTTP 503 — the server is not ready (loading its model?)", where)
	case status != http.StatusOK:
		return Served{}, engineErrorf("GET %s: HTTP %d", where, status)
	case !ok:
		return Served{}, engineErrorf("GET %s: the answer is not a list of models", where)
	}
	return s, nil
}

// OnlyModel is the one model the probe's /models answer lists, "" when it
// lists none or several, or is no list (a server still loading). A name
// the server sends is shown and sent back: one with a blank, a control
// character or over 256 bytes is not taken.
func (ep *Endpoint) OnlyModel() string {
	if ep == nil || ep.ModelsStatus != http.StatusOK {
		return ""
	}
	s, ok := ParseModels(ep.Models)
	if !ok || len(s.IDs) != 1 {
		return ""
	}
	id := s.IDs[0]
	if len(id) > 256 || !utf8.ValidString(id) {
		return ""
	}
	for _, r := range id {
		if unicode.IsSpace(r) || unicode.IsControl(r) || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u2028' || r == '\u2029' || unicode.Is(unicode.Cf, r) {
			return ""
		}
	}
	return id
}
