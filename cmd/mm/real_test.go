package main_test

// mm against a real llama.cpp server (llama-server's own HTTP code, as the
// xllamacpp wheel embeds it) on a real small model (SmolLM2-135M-Instruct),
// as .ci/run installs them (internal/realtest). A 135M model is not smart:
// these tests assert mm's mechanics — streaming, usage, the window from
// /props, the cache over a session, the 503 while loading, the 400 on
// overflow, the keys mm sends — never what the model says. Under CI=true a
// missing server fails; elsewhere the tests skip.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"mm/internal/realtest"
)

// realRun is mm() against a real server: a longer ceiling (two cores, a
// real model), the server's URL, and a config file with small answers.
func realRun(t *testing.T, dir string, srv *realtest.Server, yaml, stdin string, args ...string) result {
	t.Helper()
	cfg := filepath.Join(dir, "real.yaml")
	if err := os.WriteFile(cfg, []byte("provider: llamacpp\n"+yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, mmBin, append([]string{"-c", cfg}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AGENT_BASE_URL="+srv.URL)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return runResult(t, cmd.Run(), out.String(), errb.String())
}

// smallAnswers keeps every model call short (sampling gets more lines,
// indented as its keys), and the trace in dir/traces.
func smallAnswers(dir string, sampling ...string) string {
	y := "sampling:\n  max_tokens: 32\n  temperature: 0\n"
	for _, s := range sampling {
		y += "  " + s + "\n"
	}
	return y + "trace:\n  enabled: true\n  dir: " + filepath.Join(dir, "traces") + "\n"
}

// traced is one model call as the trace kept it: the request mm sent and
// the server's timings from the response's last event that has them.
type traced struct {
	request  map[string]any
	response string
	timings  struct {
		CacheN     int     `json:"cache_n"`
		PromptN    int     `json:"prompt_n"`
		PromptMs   float64 `json:"prompt_ms"`
		PredictedN int     `json:"predicted_n"`
		PerSecond  float64 `json:"predicted_per_second"`
	}
}

// traces reads the trace directory's calls in order.
func traces(t testing.TB, dir string) []traced {
	t.Helper()
	reqs, _ := filepath.Glob(filepath.Join(dir, "traces", "*.request.json"))
	sort.Strings(reqs)
	var calls []traced
	for _, rq := range reqs {
		var c traced
		b, err := os.ReadFile(rq)
		if err != nil || json.Unmarshal(b, &c.request) != nil {
			t.Fatalf("trace %s: %v", rq, err)
		}
		resp, _ := filepath.Glob(strings.TrimSuffix(rq, ".request.json") + ".response-*")
		if len(resp) != 1 {
			t.Fatalf("trace %s: responses %v", rq, resp)
		}
		b, _ = os.ReadFile(resp[0])
		c.response = string(b)
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok || !strings.Contains(line, `"timings"`) {
				continue
			}
			var ev struct {
				Timings json.RawMessage `json:"timings"`
			}
			if json.Unmarshal([]byte(line), &ev) == nil && ev.Timings != nil {
				json.Unmarshal(ev.Timings, &c.timings)
			}
		}
		calls = append(calls, c)
	}
	return calls
}

var summaryTokens = regexp.MustCompile(`· (\d+) in / (\d+) out tokens`)

// One server (4k window) for the tests that do not need their own.
func TestRealServer(t *testing.T) {
	srv := realtest.Start(t, realtest.Options{NCtx: 4096})

	// mm -p: a streamed answer, exit 0, the summary's token counts read
	// from the server's usage.
	t.Run("oneshot", func(t *testing.T) {
		dir := t.TempDir()
		r := realRun(t, dir, srv, smallAnswers(dir), "", "-p", "Say hello.")
		if r.code != 0 || strings.TrimSpace(r.stdout) == "" {
			t.Fatalf("exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
		}
		m := summaryTokens.FindStringSubmatch(r.stderr)
		calls := traces(t, dir)
		if m == nil || len(calls) != 1 {
			t.Fatalf("summary %v, %d calls:\n%s", m, len(calls), r.stderr)
		}
		c := calls[0]
		if m[1] == "0" || m[2] == "0" || m[2] != itoa(c.timings.PredictedN) {
			t.Errorf("summary %q, the server's timings %+v", m[0], c.timings)
		}
		// Streamed: the answer came in more than one event.
		if strings.Count(c.response, `"delta":{"content":`) < 2 {
			t.Errorf("not streamed:\n%s", c.response)
		}
	})

	// --json: the usage event carries the server's figures.
	t.Run("json", func(t *testing.T) {
		dir := t.TempDir()
		r := realRun(t, dir, srv, smallAnswers(dir), "", "--json", "-p", "Say hello.")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		var usage map[string]any
		for _, line := range strings.Split(r.stdout, "\n") {
			var ev map[string]any
			if json.Unmarshal([]byte(line), &ev) == nil && ev["type"] == "usage" {
				usage = ev
			}
		}
		calls := traces(t, dir)
		if usage == nil || len(calls) != 1 {
			t.Fatalf("usage %v, %d calls:\n%s", usage, len(calls), r.stdout)
		}
		tm := calls[0].timings
		if usage["input_tokens"] != float64(tm.CacheN+tm.PromptN) || usage["output_tokens"] != float64(tm.PredictedN) || tm.PredictedN == 0 {
			t.Errorf("usage %v, the server's timings %+v", usage, tm)
		}
	})

	// Line mode (no terminal: the plain transcript), three questions: the
	// banner's window is the server's, and the server's cache serves every
	// token of the call before and at least 90 % of each later prompt,
	// which it only can when the bytes before the new question are those
	// of the call before. The project has an AGENTS.md, as most do (the
	// model's template leaves the tool definitions out of its prompt, so
	// without one the prompt is mostly the newest question).
	t.Run("session", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "AGENTS.md"), "# Project notes\n\n"+strings.Repeat("- The code is Go; run `make test` before you answer, and keep each change small and tested.\n", 6))
		r := realRun(t, dir, srv, smallAnswers(dir), "What is 2+2?\nName a colour.\nSay goodbye.\n/quit\n")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stdout+r.stderr, " · context 4k · ") {
			t.Errorf("the banner lacks the server's window (context 4k):\n%s\n%s", r.stdout, r.stderr)
		}
		calls := traces(t, dir)
		if len(calls) != 3 {
			t.Fatalf("%d model calls:\n%s", len(calls), r.stdout)
		}
		for i, c := range calls {
			total := c.timings.CacheN + c.timings.PromptN
			t.Logf("call %d: %d of %d prompt tokens from the cache", i+1, c.timings.CacheN, total)
			if total == 0 {
				t.Logf("call %d: no timings in the response:\n%.3000s", i+1, c.response)
			}
			if i == 0 {
				continue
			}
			before := calls[i-1].timings.CacheN + calls[i-1].timings.PromptN
			if c.timings.CacheN < before || c.timings.CacheN*10 < total*9 {
				t.Errorf("call %d: the cache served %d of %d prompt tokens (the call before sent %d; at least 90 %% expected)", i+1, c.timings.CacheN, total, before)
			}
		}
	})

	// The reasoning switch and the llama.cpp keys mm sends are accepted:
	// the trace shows them in the request, and the run ends well.
	t.Run("keys", func(t *testing.T) {
		dir := t.TempDir()
		r := realRun(t, dir, srv, smallAnswers(dir, "chat_template_kwargs: {enable_thinking: false}"), "", "-p", "Say hello.")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		calls := traces(t, dir)
		if len(calls) != 1 {
			t.Fatalf("%d calls", len(calls))
		}
		j := calls[0].request
		kw, _ := j["chat_template_kwargs"].(map[string]any)
		so, _ := j["stream_options"].(map[string]any)
		if kw["enable_thinking"] != false || j["return_progress"] != true || so["include_usage"] != true {
			t.Errorf("the request lacks a key: %v", j)
		}
		if strings.Contains(calls[0].response, `"error"`) || calls[0].timings.PredictedN == 0 {
			t.Errorf("the server's answer:\n%s", calls[0].response)
		}
	})
}

func itoa(n int) string { return strconv.Itoa(n) }

// A conversation over a 512-token window: mm's own estimate refuses a
// long question before sending it, and the real server's 400 on a
// question the estimate lets through is said the same way; both exit 3
// with the clear message, never the server's bytes.
func TestRealOverflow(t *testing.T) {
	srv := realtest.Start(t, realtest.Options{NCtx: 512})
	cases := []struct {
		name, question, says string
		sent                 int
	}{
		// 12 KB of words: over the window by mm's estimate (8 bytes a token).
		{"estimate", strings.Repeat("please read this long question ", 400), "more than the model's context window (512 tokens) — mm did not send it", 0},
		// 3 KB of one-letter words, a token each: under mm's estimate, so
		// the server is asked and refuses with its exact count.
		{"server", strings.Repeat("a ", 1500), "more than the server's context window (512 tokens)", 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			r := realRun(t, dir, srv, smallAnswers(dir), "", "-p", c.question)
			calls := traces(t, dir)
			t.Logf("exit %d: %s", r.code, r.stderr)
			if r.code != 3 || !strings.Contains(r.stderr, "[engine error: the conversation is ") || !strings.Contains(r.stderr, c.says) {
				t.Errorf("exit %d\n%s", r.code, r.stderr)
			}
			if strings.Contains(r.stderr, "exceed_context_size_error") || strings.Contains(r.stderr, `{"error"`) {
				t.Errorf("the server's bytes reach the user:\n%s", r.stderr)
			}
			if len(calls) != c.sent {
				t.Errorf("%d model calls sent, want %d", len(calls), c.sent)
			}
			if c.sent == 1 && !strings.Contains(calls[0].response, "exceed_context_size_error") {
				t.Errorf("not the server's own refusal:\n%s", calls[0].response)
			}
		})
	}
}

// mm started while the real server loads its model: llama-server opens
// its port first and answers 503 "Loading model" meanwhile; mm waits it
// out and answers, it is no engine error. A 32k window makes the loading
// last long enough (about a second on two cores, most of it allocating
// the cache) for mm to meet it; the test starts mm on the first 503 seen.
func TestRealLoading(t *testing.T) {
	srv := realtest.Start(t, realtest.Options{NCtx: 32768, Loading: true})
	if srv.FirstHealth != 503 {
		t.Skipf("the server was ready (/health %d) before it was seen loading: its loading cannot be met here", srv.FirstHealth)
	}
	dir := t.TempDir()
	r := realRun(t, dir, srv, smallAnswers(dir), "", "-p", "Say hello.")
	if r.code != 0 || strings.TrimSpace(r.stdout) == "" || strings.Contains(r.stderr, "engine error") {
		t.Fatalf("exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "· the server is loading the model — waiting for it") {
		t.Errorf("mm did not meet the loading (its notice is missing):\n%s", r.stderr)
	}
}

// BenchmarkRealFirstToken measures, against the real server on two
// threads, the time from starting `mm -p` to the answer's first byte on
// its stdout, with the server's cache emptied before each run (the
// figures of docs/benchmarks.md, "Real model"): with the built-in fixed
// prompt, and with a 30 KB one (`system:`), so the cost of prompt size is
// measured. Crush's 47 KB is about 11k tokens for this model, more than
// the 8192 it was trained on, to which llama-server caps its window
// whatever -c says; 30 KB (about 7k tokens) is the largest round size that
// fits. It also reports the server's start to ready, and its own prompt
// and generation speeds (timings).
func BenchmarkRealFirstToken(b *testing.B) {
	srv := realtest.Start(b, realtest.Options{NCtx: 8192, Erasable: true})
	readyMs := float64(srv.Ready.Sub(srv.Started).Microseconds()) / 1000
	para := "- Before you change a file, read it whole and say which lines you will touch and why; keep each change the smallest one that does the job, run the project's tests after it, and report what you ran and what it printed.\n"
	big := strings.Repeat(para, 30*1024/len(para)+1)[:30*1024]
	for _, c := range []struct{ name, system string }{{"builtin", ""}, {"system30KB", big}} {
		b.Run(c.name, func(b *testing.B) {
			var first time.Duration
			var promptN, predictedN int
			var promptMs, perSecond float64
			for b.Loop() {
				srv.EraseCache(b)
				dir := b.TempDir()
				yaml := "provider: llamacpp\n" + smallAnswers(dir)
				if c.system != "" {
					yaml += "system: |\n  " + strings.ReplaceAll(strings.TrimSuffix(c.system, "\n"), "\n", "\n  ") + "\n"
				}
				cfg := filepath.Join(dir, "real.yaml")
				os.WriteFile(cfg, []byte(yaml), 0o644)
				cmd := exec.Command(mmBin, "-c", cfg, "-p", "Say hello.")
				cmd.Dir = dir
				cmd.Env = append(cleanEnv(), "AGENT_BASE_URL="+srv.URL)
				var errb bytes.Buffer
				cmd.Stderr = &errb
				out, err := cmd.StdoutPipe()
				if err != nil {
					b.Fatal(err)
				}
				start := time.Now()
				if err := cmd.Start(); err != nil {
					b.Fatal(err)
				}
				one := make([]byte, 1)
				if _, err := io.ReadFull(out, one); err != nil {
					cmd.Wait()
					b.Fatalf("no answer: %v\n%s", err, errb.String())
				}
				first += time.Since(start)
				io.Copy(io.Discard, out)
				if err := cmd.Wait(); err != nil {
					b.Fatalf("%v\n%s", err, errb.String())
				}
				calls := traces(b, dir)
				if len(calls) != 1 || calls[0].timings.CacheN != 0 {
					b.Fatalf("%d calls, the first served from the cache: %+v", len(calls), calls)
				}
				tm := calls[0].timings
				promptN, promptMs = promptN+tm.PromptN, promptMs+tm.PromptMs
				predictedN, perSecond = predictedN+tm.PredictedN, perSecond+tm.PerSecond
			}
			n := float64(b.N)
			b.ReportMetric(readyMs, "ms-server-ready")
			b.ReportMetric(float64(first.Microseconds())/1000/n, "ms-to-first-token")
			b.ReportMetric(float64(promptN)/n, "prompt-tokens")
			b.ReportMetric(float64(promptN)/promptMs*1000, "prompt-tokens/s")
			b.ReportMetric(perSecond/n, "tokens/s")
		})
	}
}
