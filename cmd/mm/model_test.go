package main_test

// The model and the server as a user meets them: which model runs and how
// to change it, a server still loading its model, a conversation over the
// context window, a proxy's error page, no server at all.

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// ollamaEnv points mm at an Ollama-like scripted server.
func ollamaEnv(srv *llmtest.Server, model string) []string {
	return []string{"AGENT_PROVIDER=ollama", "AGENT_BASE_URL=" + srv.URL(), "AGENT_MODEL=" + model}
}

// modelsGets counts the GET …/models requests the server received.
func modelsGets(srv *llmtest.Server) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == http.MethodGet && strings.HasSuffix(r.Path, "/models") {
			n++
		}
	}
	return n
}

// /model lists what the server serves, the one in use marked; /model NAME
// switches for the next requests and says so.
func TestModelCommand(t *testing.T) {
	srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", Models: []string{"llama3.2:latest", "gemma3:4b"}},
		llmtest.Turn{Text: "from llama"})
	s := startREPL(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"))
	s.ask("/model")
	s.expect("* qwen3:latest (in use)")
	s.expect("  llama3.2:latest")
	s.expect("  gemma3:4b")
	s.ask("/model llama3.2:latest")
	s.expect("model: llama3.2:latest (from the next request)")
	s.ask("/model")
	s.expect("* llama3.2:latest (in use)")
	s.ask("hi")
	s.expect("from llama")
	if got := srv.ChatRequests()[0].JSON["model"]; got != "llama3.2:latest" {
		t.Errorf("the request names %v, want llama3.2:latest", got)
	}
	s.ask("/model nope")
	s.expect("model: nope (from the next request)")
	s.expect("the server does not list it")
	s.ask("/help")
	s.expect("/model")
}

// A configured model the server does not list: a start-up warning naming
// what it serves, from the /models answer of the probe (no other request).
// llama-server serves its one model under any name: no warning there.
func TestModelNotServedWarning(t *testing.T) {
	t.Run("ollama", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", Models: []string{"gemma3:4b"}}, llmtest.Turn{Text: "ok"})
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "mellum"), "", "-p", "hi")
		if r.code != 0 || !strings.Contains(r.stderr, `[warning: model "mellum" is not among the models`) ||
			!strings.Contains(r.stderr, "qwen3:latest, gemma3:4b") || !strings.Contains(r.stderr, "ollama pull mellum") {
			t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
		if n := modelsGets(srv); n != 1 {
			t.Errorf("%d GET /models, want the probe's only", n)
		}
	})
	t.Run("ollama tag", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest"}, llmtest.Turn{Text: "ok"})
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"), "", "-p", "hi")
		if r.code != 0 || strings.Contains(r.stderr, "is not among") {
			t.Errorf("qwen3 is qwen3:latest: exit %d, stderr:\n%s", r.code, r.stderr)
		}
	})
	t.Run("dmr lists several", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{ModelName: "ai/smollm2", Models: []string{"ai/qwen3"}}, llmtest.Turn{Text: "ok"})
		r := mm(t, t.TempDir(), nil, []string{"AGENT_PROVIDER=dmr", "AGENT_BASE_URL=" + srv.Root() + "/engines/v1", "AGENT_MODEL=ai/gemma3"}, "", "-p", "hi")
		if !strings.Contains(r.stderr, `model "ai/gemma3" is not among the models`) || !strings.Contains(r.stderr, "docker model pull ai/gemma3") {
			t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
	})
	t.Run("llama-server", func(t *testing.T) {
		for _, provider := range []string{"llamacpp", "dmr", "llmman"} {
			srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
			r := mm(t, t.TempDir(), nil, []string{"AGENT_PROVIDER=" + provider, "AGENT_BASE_URL=" + srv.URL(), "AGENT_MODEL=whatever"}, "", "-p", "hi")
			if r.code != 0 || strings.Contains(r.stderr, "is not among") {
				t.Errorf("%s on llama-server: exit %d, stderr:\n%s", provider, r.code, r.stderr)
			}
		}
	})
	t.Run("llamacpp provider", func(t *testing.T) {
		// The provider says llama-server: its list does not decide.
		srv := llmtest.NewWith(t, llmtest.Options{Models: []string{"b.gguf"}}, llmtest.Turn{Text: "ok"})
		r := mm(t, t.TempDir(), srv, []string{"AGENT_MODEL=whatever"}, "", "-p", "hi")
		if r.code != 0 || strings.Contains(r.stderr, "is not among") {
			t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
	})
	t.Run("line mode", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest"})
		s := startREPL(t, t.TempDir(), nil, ollamaEnv(srv, "mellum"))
		if !strings.Contains(s.text(), `model "mellum" is not among the models`) {
			t.Errorf("no warning under the banner:\n%s", s.text())
		}
	})
}

// A server still loading its model answers 503 `Loading model` (the
// g10_chat_while_loading capture), to the probe too: mm waits and asks
// again, and says why it waits.
func TestServerLoadingModel(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	srv := llmtest.NewWith(t, llmtest.Options{Loading: 3}, llmtest.Turn{Text: "loaded and answering"})
	r := mm(t, t.TempDir(), srv, nil, "", "-p", "hi")
	if r.code != 0 || r.stdout != "loaded and answering\n" {
		t.Fatalf("exit %d stdout %q stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if n := strings.Count(r.stderr, "loading the model"); n != 1 {
		t.Errorf("the wait said %d times, want once:\n%s", n, r.stderr)
	}
	if n := len(srv.ChatRequests()); n != 4 {
		t.Errorf("%d chat requests, want 3 answered 503 and the one that got the answer", n)
	}
}

// The wait is bounded by firstTokenTimeout, and worded as such.
func TestServerLoadingTooLong(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nwatchdogTimeout: 1s\nfirstTokenTimeout: 2s\n")
	srv := llmtest.NewWith(t, llmtest.Options{Loading: 1 << 20})
	start := time.Now()
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "hi")
	if r.code != 3 || !strings.Contains(r.stderr, "[engine error: the server was still loading the model after 2s (firstTokenTimeout)") {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("took %s", d)
	}
	if n := len(srv.ChatRequests()); n > 40 {
		t.Errorf("%d chat requests in 2 s: no backoff", n)
	}
}

// In line mode the spinner says it, and Ctrl-C stops the wait.
func TestServerLoadingInREPL(t *testing.T) {
	srv := llmtest.NewWith(t, llmtest.Options{Loading: 1 << 20})
	s := startREPL(t, t.TempDir(), srv, nil)
	s.ask("hi")
	s.expect("Loading the model")
	s.send("\x03")
	s.expect("[turn stopped]")
	s.expect("› ")
}

// The server's own overflow error (g1_ctx_overflow) is said plainly, with
// its figures and what to do, instead of the server's words.
func TestContextOverflowFromServer(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Fault: llmtest.FaultHTTP400Context})
	r := mm(t, t.TempDir(), srv, nil, "", "-p", "hi")
	want := "[engine error: the conversation is 2383 tokens, more than the server's context window (2048 tokens). Compress it (/compact in line mode) or start a new conversation (/new), ask for less at once, or give the model a larger context: restart llama-server with -c 4096]"
	if r.code != 3 || !strings.Contains(r.stderr, want) {
		t.Errorf("exit %d, stderr:\n%s\nwant %s", r.code, r.stderr, want)
	}
}

// A conversation clearly over the known window is not sent; one that fits
// is. In line mode the refused question is not kept in the conversation.
func TestContextOverflowBeforeSending(t *testing.T) {
	big := strings.Repeat("lorem ipsum dolor sit amet ", 1500) // 40 KB: at least 5k tokens
	t.Run("one-shot", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{NCtx: 2048})
		r := mm(t, t.TempDir(), srv, nil, big, "-p", "summarise")
		if r.code != 3 || !strings.Contains(r.stderr, "[engine error: the conversation is at least ") ||
			!strings.Contains(r.stderr, "more than the model's context window (2048 tokens) — mm did not send it.") ||
			!strings.Contains(r.stderr, "-c 8192") {
			t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
		if n := len(srv.ChatRequests()); n != 0 {
			t.Errorf("%d chat requests sent", n)
		}
	})
	t.Run("fits", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{NCtx: 8192}, llmtest.Turn{Text: "summary"})
		r := mm(t, t.TempDir(), srv, nil, big[:16000], "-p", "summarise")
		if r.code != 0 || r.stdout != "summary\n" {
			t.Errorf("a 16 KB prompt under an 8k window: exit %d, stderr:\n%s", r.code, r.stderr)
		}
	})
	t.Run("line mode", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{NCtx: 2048}, llmtest.Turn{Text: "short answer"})
		r := mm(t, t.TempDir(), srv, nil, big+"\nshort question\n")
		if !strings.Contains(r.stdout, "mm did not send it") || !strings.Contains(r.stdout, "short answer") {
			t.Fatalf("exit %d, stdout:\n%s", r.code, r.stdout)
		}
		reqs := srv.ChatRequests()
		if len(reqs) != 1 || strings.Contains(string(reqs[0].Body), "lorem") {
			t.Errorf("the refused question was kept: %d requests", len(reqs))
		}
	})
}

// A proxy's HTML error page is reduced to its status and title.
func TestHTMLErrorPage(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Fault: llmtest.FaultHTTP502HTML})
	r := mm(t, t.TempDir(), srv, nil, "", "-p", "hi")
	if r.code != 3 || !strings.Contains(r.stderr, "HTTP 502") || !strings.Contains(r.stderr, `an HTML page titled "502 Bad Gateway"`) {
		t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	for _, tag := range []string{"<html", "<center>", "nginx/1.24.0"} {
		if strings.Contains(r.stderr, tag) {
			t.Errorf("the page is dumped (%s):\n%s", tag, r.stderr)
		}
	}
}

// Nothing answers: a short message naming the endpoints tried, the command
// that starts the provider's server (on the configured port), and the
// scripted demo server.
func TestNoServerMessage(t *testing.T) {
	cases := []struct{ provider, command string }{
		{"llamacpp", "llama-server -m model.gguf --jinja --port 9`"},
		{"ollama", "ollama serve"},
		{"dmr", "docker desktop enable model-runner --tcp 9`"},
		{"llmman", "llmman"},
	}
	for _, tc := range cases {
		t.Run(tc.provider, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "provider: "+tc.provider+"\nbaseUrl: http://127.0.0.1:9/v1\nfallback: http://no-server.invalid:1/v1\n")
			r := mm(t, dir, nil, nil, "", "-c", cfg, "-p", "x")
			msg := strings.TrimSpace(r.stderr)
			for _, want := range []string{"[engine error: no model server answered", "http://127.0.0.1:9/v1/models", "http://no-server.invalid:1/v1/models",
				tc.command, "go run ./cmd/llmtest -background"} {
				if !strings.Contains(msg, want) {
					t.Errorf("no %q in:\n%s", want, msg)
				}
			}
			if r.code != 3 || strings.Count(msg, "\n") > 0 || len(msg) > 420 {
				t.Errorf("exit %d, %d bytes:\n%s", r.code, len(msg), msg)
			}
		})
	}
}
