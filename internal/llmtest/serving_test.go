package llmtest

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

const loadingChat = `{"model":"m","messages":[{"role":"user","content":"hi"}],"stream":true}`

// Loading: every request gets llama-server's 503 until N chat requests had
// it; those consume no turn.
func TestLoading(t *testing.T) {
	s := NewWith(t, Options{Loading: 2}, Turn{Text: "ready"})
	for _, path := range []string{"/v1/models", "/health", "/props"} {
		if resp, body := get(t, s.Root()+path); resp.StatusCode != 503 || !bytes.Equal(body, Fixture("g10_chat_while_loading.json")) || resp.Header.Get("Server") != "llama.cpp" {
			t.Errorf("GET %s: %d %s", path, resp.StatusCode, body)
		}
	}
	for i := 0; i < 2; i++ {
		if resp, body := mustPost(t, s.URL()+"/chat/completions", loadingChat); resp.StatusCode != 503 || !bytes.Equal(body, Fixture("g10_chat_while_loading.json")) {
			t.Fatalf("chat %d: %d %s", i+1, resp.StatusCode, body)
		}
	}
	if s.Pending() != 1 {
		t.Errorf("a loading answer consumed a turn")
	}
	if resp, body := mustPost(t, s.URL()+"/chat/completions", loadingChat); resp.StatusCode != 200 || !strings.Contains(string(body), "ready") {
		t.Errorf("after loading: %d %s", resp.StatusCode, body)
	}
	if resp, _ := get(t, s.Root()+"/health"); resp.StatusCode != 200 {
		t.Errorf("health after loading: %d", resp.StatusCode)
	}
}

// Models adds entries to /models after ModelName, for both wires.
func TestModelsOption(t *testing.T) {
	for _, provider := range []string{"llamacpp", "ollama"} {
		s := NewWith(t, Options{Provider: provider, ModelName: "a", Models: []string{"b", "c"}})
		_, body := get(t, s.URL()+"/models")
		var list struct {
			Data []struct {
				ID string `json:"id"`
			} `json:"data"`
		}
		if err := json.Unmarshal(body, &list); err != nil {
			t.Fatalf("%s: %v\n%s", provider, err, body)
		}
		var ids []string
		for _, m := range list.Data {
			ids = append(ids, m.ID)
		}
		if strings.Join(ids, ",") != "a,b,c" {
			t.Errorf("%s: ids %v", provider, ids)
		}
	}
}

func TestFaultHTTP502HTML(t *testing.T) {
	s := New(t, Turn{Fault: FaultHTTP502HTML})
	resp, body := mustPost(t, s.URL()+"/chat/completions", loadingChat)
	if resp.StatusCode != 502 || resp.Header.Get("Content-Type") != "text/html" || !strings.Contains(string(body), "<title>502 Bad Gateway</title>") {
		t.Errorf("%d %q %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if _, err := ParseScript([]byte("- fault: http-502-html\n")); err != nil {
		t.Errorf("script: %v", err)
	}
}
