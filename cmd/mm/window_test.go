package main_test

// Ollama's real window: the one the loaded model runs with (/api/ps),
// Ollama's default until then, a prompt the server cut said at once;
// and /context, what fills the window.

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// requestsTo counts the requests with method to a path ending in suffix.
func requestsTo(srv *llmtest.Server, method, suffix string) int {
	n := 0
	for _, r := range srv.Requests() {
		if r.Method == method && strings.HasSuffix(r.Path, suffix) {
			n++
		}
	}
	return n
}

// The banner shows the window the model runs with, not its trained
// length: Ollama's default, said to be assumed, until the model is
// loaded; /api/ps's context_length once it is. /context shows the
// running window after the first answer.
func TestOllamaRunningWindow(t *testing.T) {
	t.Run("not loaded", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", NCtx: 131072, RunningNCtx: 8192},
			llmtest.Turn{Text: "hello there"})
		s := startREPL(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"))
		if txt := s.text(); !strings.Contains(txt, "context 4k (assumed until the model is loaded)") {
			t.Errorf("banner:\n%s", txt)
		}
		s.ask("/context")
		s.expect("context: ~")
		s.expect("of 4k tokens")
		s.expect("assumed until the model is loaded")
		s.ask("hi")
		s.expect("hello there")
		s.ask("/context")
		s.expect("context: ~")
		s.expect("of 8k tokens")
		s.absent("assumed")
		if n := requestsTo(srv, http.MethodGet, "/api/ps"); n != 2 {
			t.Errorf("%d GET /api/ps, want one at start and one after the first answer", n)
		}
	})
	t.Run("model switch", func(t *testing.T) {
		// The scripted Ollama has only its own model loaded: another
		// one's window is assumed again, and asked again after its
		// first answer.
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", Models: []string{"gemma3:4b"}, RunningNCtx: 8192, Loaded: true},
			llmtest.Turn{Text: "from gemma"})
		s := startREPL(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"))
		if txt := s.text(); !strings.Contains(txt, "· context 8k · ") {
			t.Errorf("banner:\n%s", txt)
		}
		before := requestsTo(srv, http.MethodGet, "/api/ps")
		s.ask("/model gemma3:4b")
		s.expect("model: gemma3:4b")
		s.ask("/context")
		s.expect("of 4k tokens")
		s.expect("assumed until the model is loaded")
		s.ask("hi")
		s.expect("from gemma")
		s.ask("/context")
		s.expect("context: ~")
		if n := requestsTo(srv, http.MethodGet, "/api/ps") - before; n != 2 {
			t.Errorf("%d GET /api/ps after /model, want one for the window and one after the answer", n)
		}
	})
	t.Run("loaded", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", NCtx: 131072, RunningNCtx: 16384, Loaded: true})
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"), "/quit\n")
		if !strings.Contains(r.stdout, "· context 16k · ") {
			t.Errorf("banner:\n%s", r.stdout)
		}
	})
	t.Run("contextWindow wins", func(t *testing.T) {
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "provider: ollama\ncontextWindow: 65536\n")
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", RunningNCtx: 16384, Loaded: true})
		r := mm(t, dir, nil, []string{"AGENT_BASE_URL=" + srv.URL(), "AGENT_MODEL=qwen3"}, "/quit\n", "-c", cfg)
		if !strings.Contains(r.stdout, "· context 64k · ") {
			t.Errorf("banner:\n%s", r.stdout)
		}
	})
}

// A prompt over the window Ollama runs the model with is cut by the
// server without an error: mm says so at once, from the usage's
// prompt_tokens, with the way to give the model more context — on
// stderr with -p, as a notice event with --json.
func TestOllamaPromptCut(t *testing.T) {
	question := strings.Repeat("lorem ipsum dolor sit amet ", 750) // 20 KB: about 2.5k tokens at least
	cut := func(t *testing.T, running int) *llmtest.Server {
		return llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", NCtx: 131072, RunningNCtx: running, Truncate: true},
			llmtest.Turn{Text: "an answer without the start"})
	}
	t.Run("one-shot", func(t *testing.T) {
		srv := cut(t, 2048)
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"), question, "-p", "summarise")
		if r.code != 0 || r.stdout != "an answer without the start\n" {
			t.Fatalf("exit %d stdout %q stderr:\n%s", r.code, r.stdout, r.stderr)
		}
		for _, want := range []string{"· the server cut the prompt: it read 2048 tokens of at least ", "a 2048-token window",
			"restart Ollama with OLLAMA_CONTEXT_LENGTH="} {
			if !strings.Contains(r.stderr, want) {
				t.Errorf("no %q in stderr:\n%s", want, r.stderr)
			}
		}
		if n := strings.Count(r.stderr, "cut the prompt"); n != 1 {
			t.Errorf("said %d times", n)
		}
	})
	t.Run("json", func(t *testing.T) {
		srv := cut(t, 2048)
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"), question, "-p", "summarise", "--json")
		found := false
		for _, line := range strings.Split(r.stdout, "\n") {
			var ev struct{ Type, Message string }
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Type == "notice" && strings.HasPrefix(ev.Message, "the server cut the prompt") {
				found = true
			}
		}
		if !found {
			t.Errorf("no notice event:\n%s", r.stdout)
		}
	})
	t.Run("fits", func(t *testing.T) {
		srv := cut(t, 32768)
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"), question, "-p", "summarise")
		if r.code != 0 || strings.Contains(r.stderr, "cut the prompt") {
			t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
	})
	t.Run("line mode", func(t *testing.T) {
		// Once the running window is known, the next question over it
		// is not sent at all.
		srv := cut(t, 2048)
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"), question+"\nand this?\n")
		cutAt := strings.Index(r.stdout, "the server cut the prompt")
		refused := strings.Index(r.stdout, "more than the model's context window (2048 tokens) — mm did not send it")
		if cutAt < 0 || refused < cutAt || !strings.Contains(r.stdout, "an answer without the start") {
			t.Errorf("exit %d, stdout:\n%s", r.code, r.stdout)
		}
		if n := len(srv.ChatRequests()); n != 1 {
			t.Errorf("%d chat requests, want 1", n)
		}
	})
}

// A prompt only a little over the window (Ollama's 4k default, a 16 KB
// question: about 4.8k tokens, 2.4k at mm's lower bound) is cut as
// surely as a long one: the server's count, capped at the window, is
// checked against mm's likely size of the prompt too, not only against
// its lower bound, which stays under the window. The same prompt in an
// 8k window is no cut, nor is one the tokenizer packed tighter than mm
// guessed (a count well within the window: a cut fills it).
func TestOllamaPromptCutJustOverWindow(t *testing.T) {
	question := strings.Repeat("lorem ipsum dolor sit amet ", 600) // 16 KB
	for _, tc := range []struct {
		running int
		usage   *llmtest.Usage
		cut     bool
	}{{4096, nil, true}, {8192, nil, false}, {4096, &llmtest.Usage{PromptTokens: 2500, CompletionTokens: 2}, false}} {
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", NCtx: 131072, RunningNCtx: tc.running, Truncate: true},
			llmtest.Turn{Text: "an answer", Usage: tc.usage})
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"), question, "-p", "summarise")
		if r.code != 0 || r.stdout != "an answer\n" {
			t.Fatalf("exit %d stdout %q stderr:\n%s", r.code, r.stdout, r.stderr)
		}
		if n := strings.Count(r.stderr, "· the server cut the prompt: it read 4096 tokens of about "); tc.cut && n != 1 || !tc.cut && strings.Contains(r.stderr, "cut the prompt") {
			t.Errorf("window %d: stderr:\n%s", tc.running, r.stderr)
		}
	}
}

// The cut notice says to restart Ollama with a larger window: once that
// is done, the next question is sent, not refused against the window
// /api/ps said before the restart (mm asks again, and has the model
// loaded, before refusing).
func TestOllamaWindowAfterRestart(t *testing.T) {
	question := strings.Repeat("lorem ipsum dolor sit amet ", 750) // 20 KB
	srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", NCtx: 131072, RunningNCtx: 2048, Truncate: true},
		llmtest.Turn{Text: "an answer without the start"}, llmtest.Turn{Text: "the whole of it"})
	p := &plainMM{cmd: exec.Command(mmBin)}
	p.cmd.Dir = t.TempDir()
	p.cmd.Env = append(cleanEnv(), ollamaEnv(srv, "qwen3")...)
	p.cmd.Stdout, p.cmd.Stderr = &p.out, &p.out
	var err error
	if p.in, err = p.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.cmd.Process.Kill(); p.cmd.Wait() })
	io.WriteString(p.in, question+"\n")
	// The notice follows the answer's text: the count comes at its end.
	waitFor(t, "the first answer and the cut notice", func() bool {
		return strings.Contains(p.text(), "an answer without the start") && strings.Contains(p.text(), "the server cut the prompt")
	})
	srv.Restart(32768)
	io.WriteString(p.in, "and now?\n/context\n")
	p.in.Close()
	p.cmd.Wait()
	out := p.text()
	if !strings.Contains(out, "the whole of it") || strings.Contains(out, "mm did not send it") || !strings.Contains(out, "of 32k tokens") {
		t.Errorf("after the restart:\n%s", out[strings.Index(out, "an answer without"):])
	}
}

// A first prompt over the assumed window is not refused on a guess:
// mm has Ollama load the model and asks its real window first.
func TestOllamaWindowConfirmedBeforeRefusing(t *testing.T) {
	big := strings.Repeat("lorem ipsum dolor sit amet ", 1500) // 40 KB: at least 5k tokens
	t.Run("larger", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", NCtx: 131072, RunningNCtx: 32768},
			llmtest.Turn{Text: "summary"})
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"), big, "-p", "summarise")
		if r.code != 0 || r.stdout != "summary\n" || strings.Contains(r.stderr, "cut the prompt") {
			t.Errorf("exit %d stdout %q, stderr:\n%s", r.code, r.stdout, r.stderr)
		}
		if n := requestsTo(srv, http.MethodPost, "/api/generate"); n != 1 {
			t.Errorf("%d loads, want 1", n)
		}
	})
	t.Run("smaller", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", NCtx: 131072, RunningNCtx: 4096})
		r := mm(t, t.TempDir(), nil, ollamaEnv(srv, "qwen3"), big, "-p", "summarise")
		if r.code != 3 || !strings.Contains(r.stderr, "more than the model's context window (4096 tokens) — mm did not send it") ||
			!strings.Contains(r.stderr, "restart Ollama with OLLAMA_CONTEXT_LENGTH=8192") {
			t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
		if n := len(srv.ChatRequests()); n != 0 {
			t.Errorf("%d chat requests sent", n)
		}
	})
}

// /context shows what fills the window, part by part, and sends nothing
// to the model.
func TestContextCommand(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "AGENTS.md"), []byte(strings.Repeat("Run make test before you answer.\n", 40)), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"seq 1 2000"}`}}},
		llmtest.Turn{Text: "counted"},
	)
	s := startREPL(t, dir, srv, nil)
	s.ask("/help")
	s.expect("/context")
	s.ask("count")
	s.expect("counted")
	s.ask("/context")
	s.expect("context: ~")
	s.expect("of 32k tokens (")
	for _, row := range []string{"system prompt", "tools", "AGENTS.md", "history (4 messages)", "last tool outputs", "free"} {
		s.expect(row)
	}
	s.expect("› ")
	txt := s.text()
	table := txt[strings.LastIndex(txt, "context: ~"):]
	for _, line := range strings.Split(table, "\n")[1:7] {
		if !strings.Contains(line, "~") && !strings.Contains(line, "free") || !strings.Contains(line, "%") {
			t.Errorf("row without tokens and %%: %q\n%s", line, table)
		}
	}
	if n := len(srv.ChatRequests()); n != 2 {
		t.Errorf("%d chat requests, want the turn's 2", n)
	}
}

// Over ACP: /context answers with the table (in a code block) without a
// model call, and a prompt Ollama cut is said as a thought.
func TestOllamaWindowACP(t *testing.T) {
	srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama", ModelName: "qwen3:latest", NCtx: 131072, RunningNCtx: 2048, Truncate: true},
		llmtest.Turn{Text: "an answer without the start"})
	dir := t.TempDir()
	c := startACP(t, dir, nil, ollamaEnv(srv, "qwen3"))
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	if r := c.stopReason(c.prompt(sid, "/context")); r != "end_turn" {
		t.Fatalf("/context: %q", r)
	}
	got := chunkText(c.updates(sid, from, -1), "agent_message_chunk")
	for _, want := range []string{"```text\ncontext: ~", "of 4k tokens", "assumed until the model is loaded", "system prompt", "free", "\n```"} {
		if !strings.Contains(got, want) {
			t.Errorf("no %q in:\n%s", want, got)
		}
	}
	if n := len(srv.ChatRequests()); n != 0 {
		t.Errorf("/context made %d chat requests", n)
	}
	from = c.mark()
	if r := c.stopReason(c.prompt(sid, strings.Repeat("lorem ipsum dolor sit amet ", 750))); r != "end_turn" {
		t.Fatalf("prompt: %q", r)
	}
	if got := chunkText(c.updates(sid, from, -1), "agent_thought_chunk"); !strings.Contains(got, "the server cut the prompt: it read 2048 tokens") ||
		!strings.Contains(got, "OLLAMA_CONTEXT_LENGTH") {
		t.Errorf("thoughts:\n%s", got)
	}
}
