package main_test

// Compression of the history (context.*), through the binary in line mode
// with stdin as the transcript: the automatic trigger, /compact, the
// summary request per provider, a failed summary.

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mm/internal/agent"
	"mm/internal/llmtest"
)

// messagesOf is the messages array of a chat request.
func messagesOf(t *testing.T, r llmtest.Request) []map[string]any {
	t.Helper()
	raw, _ := r.JSON["messages"].([]any)
	var out []map[string]any
	for _, m := range raw {
		out = append(out, m.(map[string]any))
	}
	return out
}

// tracedRequests are the request files the trace wrote under dir, in
// order.
func tracedRequests(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(path, ".request.json") {
			b, _ := os.ReadFile(path)
			out = append(out, string(b))
		}
		return nil
	})
	if len(out) == 0 {
		t.Fatal("no trace written")
	}
	return out
}

func contentOf(m map[string]any) string { s, _ := m["content"].(string); return s }

// The scripted server recognises the built-in prompt by its start.
func TestSummaryMarkerMatchesPrompt(t *testing.T) {
	if !strings.HasPrefix(agent.SummaryPrompt, llmtest.SummaryMarker) {
		t.Fatalf("agent.SummaryPrompt %q does not start with llmtest.SummaryMarker %q", agent.SummaryPrompt, llmtest.SummaryMarker)
	}
}

// A conversation that reaches maxMessages (window unknown) is compressed
// before the next question: the summary request is the history as it was
// plus the built-in prompt, with summaryMaxTokens and reasoning off (the
// other chat_template_kwargs kept); the next request is the system prompt,
// the summary and the last turn verbatim, and the conversation goes on.
func TestCompactAutomaticMaxMessages(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nsampling:\n  max_tokens: 4096\n  chat_template_kwargs: {foo: bar}\ncontext:\n  enabled: true\n  maxMessages: 6\n  keepLastTurns: 1\n  summaryMaxTokens: 321\n")
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: -1, Summaries: true},
		bashCall("touch notes.txt"),
		llmtest.Turn{Text: padded("Created notes.txt.")},
		llmtest.Turn{Text: "answer two"},
		llmtest.Turn{Text: "answer three"},
	)
	r := mm(t, dir, srv, noUserConfig(t), "first task: write notes.txt\nsecond question\nthird question\n/quit\n", "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	if f := srv.Failures(); len(f) > 0 {
		t.Fatal(f)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 5 {
		t.Fatalf("%d chat requests, want 5 (2 + 1 + summary + 1)", len(reqs))
	}
	for i, req := range reqs {
		if got := llmtest.IsSummaryRequest(&req); got != (i == 3) {
			t.Errorf("request %d: summary request %v", i, got)
		}
	}
	sum := reqs[3]
	msgs := messagesOf(t, sum)
	if last := msgs[len(msgs)-1]; last["role"] != "user" || contentOf(last) != agent.SummaryPrompt {
		t.Errorf("summary request ends with %v", last)
	}
	for _, want := range []string{"Task:", "Decisions:", "Files:", "with its path", "Commands:", "passed and which failed", "Left to do:"} {
		if !strings.Contains(agent.SummaryPrompt, want) {
			t.Errorf("the built-in prompt does not ask for %q", want)
		}
	}
	// The summary request carries the turns it replaces: the task, the
	// command and the file survive into it. The kept turn is not in it.
	body := string(sum.Body)
	for _, want := range []string{"first task: write notes.txt", "touch notes.txt", "Created notes.txt."} {
		if !strings.Contains(body, want) {
			t.Errorf("summary request lacks %q", want)
		}
	}
	if strings.Contains(body, "answer two") {
		t.Error("the kept turn went into the summary request")
	}
	if sum.JSON["max_tokens"] != 321.0 {
		t.Errorf("summary max_tokens %v, want 321", sum.JSON["max_tokens"])
	}
	if kw := sum.JSON["chat_template_kwargs"]; !reflect.DeepEqual(kw, map[string]any{"foo": "bar", "enable_thinking": false}) {
		t.Errorf("summary chat_template_kwargs %v", kw)
	}
	if _, ok := sum.JSON["reasoning_effort"]; ok {
		t.Error("reasoning_effort sent though sampling has none")
	}
	// Cheap for the prompt cache: the summary request starts with the same
	// bytes as the request of the last turn it summarizes (system prompt,
	// tools, the turns so far) up to the new question.
	prev := reqs[2].Body
	cut := bytes.Index(prev, []byte(`second question"`))
	if cut < 0 || !bytes.HasPrefix(sum.Body, prev[:cut]) {
		t.Error("the summary request does not start with the bytes of the request before it")
	}

	next := messagesOf(t, reqs[4])
	if len(next) != 6 {
		t.Fatalf("after compression %d messages, want 6 (system, marker, summary, kept turn, question): %v", len(next), next)
	}
	if next[0]["role"] != "system" || contentOf(next[0]) != contentOf(msgs[0]) {
		t.Error("the system prompt changed")
	}
	if next[1]["role"] != "user" || next[2]["role"] != "assistant" || !strings.HasPrefix(contentOf(next[2]), llmtest.SummaryTextPrefix) {
		t.Errorf("no summary after the system prompt: %v %v", next[1], next[2])
	}
	if contentOf(next[3]) != "second question" || contentOf(next[4]) != "answer two" || contentOf(next[5]) != "third question" {
		t.Errorf("kept turns %v", next[3:])
	}
	if !reflect.DeepEqual(reqs[4].JSON["tools"], reqs[0].JSON["tools"]) {
		t.Error("the tools changed after compression")
	}
	if reqs[4].JSON["max_tokens"] != 4096.0 || reqs[4].JSON["chat_template_kwargs"].(map[string]any)["enable_thinking"] != nil {
		t.Errorf("the summary's overrides stayed: %s", reqs[4].Body)
	}
	if !strings.Contains(r.stdout, "🗜️ compressed the conversation: 7 → 5 messages") || !strings.Contains(r.stdout, "answer three") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// The summary request switches reasoning off the way each server
// respects: Ollama gets reasoning_effort "none"; llama.cpp keeps a
// configured reasoning_effort, brought to "low", beside enable_thinking.
func TestCompactSummaryRequestPerProvider(t *testing.T) {
	for _, tc := range []struct {
		provider string
		effort   string
		kwargs   any
	}{
		{"llamacpp", "low", map[string]any{"enable_thinking": false}},
		{"ollama", "none", nil},
	} {
		t.Run(tc.provider, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "sampling:\n  reasoning_effort: high\ncontext:\n  keepLastTurns: 1\n")
			srv := llmtest.NewWith(t, llmtest.Options{Provider: tc.provider, Summaries: true},
				llmtest.Turn{Text: padded("one")}, llmtest.Turn{Text: "two"})
			env := append(noUserConfig(t), "AGENT_PROVIDER="+tc.provider, "AGENT_BASE_URL="+srv.URL(), "AGENT_TRACE=true")
			r := mm(t, dir, nil, env, "q1\nq2\n/compact\n/quit\n", "-c", cfg)
			if r.code != 0 || !strings.Contains(r.stdout, "🗜️ compressed the conversation: 5 → 5 messages") {
				t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
			}
			reqs := srv.ChatRequests()
			sum := reqs[len(reqs)-1]
			if !llmtest.IsSummaryRequest(&sum) {
				t.Fatalf("the last request is not the summary: %s", sum.Body)
			}
			if sum.JSON["reasoning_effort"] != tc.effort {
				t.Errorf("reasoning_effort %v, want %s", sum.JSON["reasoning_effort"], tc.effort)
			}
			if !reflect.DeepEqual(sum.JSON["chat_template_kwargs"], tc.kwargs) {
				t.Errorf("chat_template_kwargs %v, want %v", sum.JSON["chat_template_kwargs"], tc.kwargs)
			}
			if sum.JSON["max_tokens"] != 1200.0 {
				t.Errorf("max_tokens %v, want the default summaryMaxTokens 1200", sum.JSON["max_tokens"])
			}
			// The trace shows the summary request as sent, switch included.
			traced := tracedRequests(t, dir)
			if len(traced) != len(reqs) || !strings.Contains(traced[len(traced)-1], `"reasoning_effort": "`+tc.effort+`"`) {
				t.Errorf("%d traced requests (want %d), the last:\n%s", len(traced), len(reqs), traced[len(traced)-1])
			}
		})
	}
}

// /compact works with context.enabled false, keeps keepLastTurns turns,
// and the next question goes on from the summary.
func TestCompactCommand(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\ncontext:\n  enabled: false\n  keepLastTurns: 2\n")
	srv := llmtest.NewWith(t, llmtest.Options{Summaries: true},
		llmtest.Turn{Text: padded("a1")}, llmtest.Turn{Text: "a2"}, llmtest.Turn{Text: "a3"}, llmtest.Turn{Text: "a4"})
	r := mm(t, dir, srv, noUserConfig(t), "q1\nq2\n/compact\nq3\n/compact\nq4\n/quit\n", "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests, want 5 (q1, q2, q3, summary, q4)", len(reqs))
	}
	if !strings.Contains(r.stdout, "nothing to compress") {
		t.Errorf("the first /compact (2 turns, both kept) did something:\n%s", r.stdout)
	}
	if !strings.Contains(r.stdout, "🗜️ compressed the conversation: 7 → 7 messages") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	msgs := messagesOf(t, reqs[4])
	var got []string
	for _, m := range msgs[1:] {
		got = append(got, contentOf(m))
	}
	if len(got) != 7 || !strings.HasPrefix(got[1], llmtest.SummaryTextPrefix) || !strings.Contains(got[1], "- q1") ||
		!reflect.DeepEqual(got[2:], []string{"q2", "a2", "q3", "a3", "q4"}) {
		t.Errorf("history after /compact: %q", got)
	}
}

// A summary request that fails leaves the history untouched; the
// automatic compression says so and the question still goes out.
func TestCompactFailureKeepsHistory(t *testing.T) {
	for _, tc := range []struct {
		name    string
		summary llmtest.Turn
		want    string
	}{
		{"server error", llmtest.Turn{Fault: llmtest.FaultHTTP500, ErrorMessage: "summary exploded"}, "summary exploded"},
		{"reasoned to the limit", llmtest.Turn{Reasoning: "let me think about it at length", Finish: "length"}, "reasoned until the limit (context.summaryMaxTokens: 1200)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "provider: llamacpp\ncontext:\n  enabled: true\n  maxMessages: 4\n  keepLastTurns: 1\n")
			srv := llmtest.NewWith(t, llmtest.Options{NCtx: -1},
				llmtest.Turn{Text: "a1"}, llmtest.Turn{Text: "a2"}, tc.summary, llmtest.Turn{Text: "a3"})
			r := mm(t, dir, srv, noUserConfig(t), "q1\nq2\nq3\n/quit\n", "-c", cfg)
			if r.code != 0 {
				t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
			}
			if !strings.Contains(r.stdout, "compression failed") || !strings.Contains(r.stdout, tc.want) || !strings.Contains(r.stdout, "the history is unchanged") {
				t.Errorf("stdout:\n%s", r.stdout)
			}
			reqs := srv.ChatRequests()
			if len(reqs) != 4 {
				t.Fatalf("%d requests, want 4", len(reqs))
			}
			var got []string
			for _, m := range messagesOf(t, reqs[3])[1:] {
				got = append(got, contentOf(m))
			}
			if !reflect.DeepEqual(got, []string{"q1", "a1", "q2", "a2", "q3"}) {
				t.Errorf("history after a failed compression: %q", got)
			}
			if !strings.Contains(r.stdout, "a3") {
				t.Errorf("the question did not go out:\n%s", r.stdout)
			}
		})
	}
}

// With the window known, the trigger is threshold % of it, from the
// server's count: not before the conversation passes it, then before the
// next question.
func TestCompactAutomaticThreshold(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\ncontext:\n  enabled: true\n  threshold: 60\n  maxMessages: 0\n  keepLastTurns: 1\n")
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: 4096, Summaries: true},
		llmtest.Turn{Text: padded("a1"), Usage: &llmtest.Usage{PromptTokens: 1500, CompletionTokens: 10}},
		llmtest.Turn{Text: "a2", Usage: &llmtest.Usage{PromptTokens: 2600, CompletionTokens: 10}},
		llmtest.Turn{Text: "a3"},
	)
	r := mm(t, dir, srv, noUserConfig(t), "q1\nq2\nq3\n/quit\n", "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d: %s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests, want 4 (q1, q2, summary, q3)", len(reqs))
	}
	if !llmtest.IsSummaryRequest(&reqs[2]) {
		t.Errorf("request 3 is not the summary: %s", reqs[2].Body)
	}
	if !strings.Contains(r.stdout, "🗜️ compressed the conversation: 5 → 5 messages, ~2.6k → ") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// /compact in a terminal: listed by /help, the spinner while the summary
// is written, the 🗜️ line, a failure shown and the conversation going on
// from the history as it was.
func TestCompactInTerminal(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\ncontext:\n  keepLastTurns: 1\n")
	srv := llmtest.New(t,
		llmtest.Turn{Text: padded("a1")}, llmtest.Turn{Text: "a2"},
		llmtest.Turn{Fault: llmtest.FaultHTTP500, ErrorMessage: "no summary today"},
		llmtest.Turn{Text: "a3"},
	)
	s := startREPL(t, dir, srv, noUserConfig(t), "-c", cfg)
	s.ask("/help")
	s.expect("/compact ")
	s.ask("q1")
	s.expect("a1")
	s.ask("q2")
	s.expect("a2")
	s.ask("/compact")
	s.expect("compression failed")
	s.expect("no summary today")
	s.expect("the history is unchanged")
	srv.Push(llmtest.Turn{Text: llmtest.SummaryTextPrefix + ": q1 answered with a1."}, llmtest.Turn{Text: "a4"})
	s.ask("q3")
	s.expect("a3")
	s.ask("/compact")
	s.expect("🗜️ compressed the conversation: 7 → 5 messages")
	s.ask("q4")
	s.expect("a4")
	s.send("/quit\r")
	if err := s.exit(); err != nil {
		t.Fatal(err)
	}
	reqs := srv.ChatRequests()
	var got []string
	for _, m := range messagesOf(t, reqs[len(reqs)-1])[1:] {
		got = append(got, contentOf(m))
	}
	if len(got) != 5 || !strings.HasPrefix(got[1], llmtest.SummaryTextPrefix) || got[2] != "q3" || got[4] != "q4" {
		t.Errorf("history after /compact: %q", got)
	}
}
