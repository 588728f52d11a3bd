//go:build !windows

package main_test

import (
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// The window is drawn before the engine has started (issue #23's first
// frame): while the server has not answered the probe of its models, the
// header stands with the model as "…" and the status line says
// "Starting…"; a question typed meanwhile is asked once the engine is
// there, and the header then names the model the server serves.
func TestTUIFirstFrameBeforeTheServer(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "the answer"})
	target, _ := url.Parse(srv.Root())
	proxy := httputil.NewSingleHostReverseProxy(target)
	gate := make(chan struct{})
	front := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/models") {
			<-gate
		}
		proxy.ServeHTTP(w, r)
	}))
	defer front.Close()
	opened := false
	defer func() {
		if !opened {
			close(gate)
		}
	}()
	s := startTUI(t, t.TempDir(), nil, []string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=" + front.URL + "/v1"})
	s.waitFor("the stand-in header", func(scr string) bool {
		return s.row(0) == "mm · … @ llamacpp" && strings.Contains(scr, "Starting…") && strings.Contains(scr, "›")
	})
	s.send("hello\r")
	close(gate)
	opened = true
	s.wait("the answer")
	if h := s.row(0); h != "mm · tiny.gguf @ llamacpp" {
		t.Errorf("header %q", h)
	}
	scr := s.screen()
	if b, q := strings.Index(scr, "Ctrl-D quits"), strings.Index(scr, "› hello"); b < 0 || q < b {
		t.Errorf("the opening lines, then the question typed early, expected:\n%s", scr)
	}
	s.send("\x04")
	if code := exitCodeOf(s.exit()); code != 0 {
		t.Errorf("exit %d", code)
	}
}

// An engine that does not start closes the window: mm then says why and
// exits as the line mode does (3: the server unreachable).
func TestTUIStartFails(t *testing.T) {
	s := startTUI(t, t.TempDir(), nil, []string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=http://127.0.0.1:1/v1"})
	err := s.exit()
	if code := exitCodeOf(err); code != 3 {
		t.Errorf("exit %d", code)
	}
	s.mu.Lock()
	alt := s.alt
	s.mu.Unlock()
	if scr := s.screen(); alt || !strings.Contains(scr, "[engine error:") || strings.Contains(scr, "left the window mode") {
		t.Errorf("alternate screen %v, the screen:\n%s", alt, scr)
	}
}
