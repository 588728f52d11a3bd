package main_test

// The constrained retry of a broken tool call (docs/tool-calls.md, "Asking
// again with constrained tool calling") on the real llama.cpp server,
// started with tools-template.jinja so that the tools reach the model and
// tool_choice "required" becomes a grammar. A proxy in front of it stands in
// for the model where a test needs a broken reply.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"mm/internal/realtest"
)

// hopTimings are llama-server's timings of one answer.
type hopTimings struct {
	CacheN     int     `json:"cache_n"`
	PromptN    int     `json:"prompt_n"`
	PromptMs   float64 `json:"prompt_ms"`
	PredictedN int     `json:"predicted_n"`
}

// hop is one chat request mm sent through the proxy.
type hop struct {
	body    []byte
	json    map[string]any
	sent    string // what the real server answered, when it was asked
	timings hopTimings
	took    time.Duration // the real server's answer, from the request to its end
}

// hopMode is what the proxy does with one chat request.
type hopMode int

const (
	forward hopMode = iota // to the real server, its answer to mm
	prime                  // to the real server with max_tokens 1 (its prompt read, cached), a scripted answer to mm
	stub                   // a scripted answer to mm only
)

// realProxy passes everything to the real server but the chat requests,
// which plan decides about: forwarded, or answered with a scripted SSE.
type realProxy struct {
	real string // the real server's /v1 URL
	plan func(i int, body []byte) (hopMode, string, []byte)
	mu   sync.Mutex
	hops []hop
}

var maxTokensKey = regexp.MustCompile(`"max_tokens":\d+`)

func newRealProxy(t testing.TB, real string, plan func(i int, body []byte) (hopMode, string, []byte)) (*realProxy, string) {
	p := &realProxy{real: real, plan: plan}
	target, _ := url.Parse(strings.TrimSuffix(real, "/v1"))
	rp := httputil.NewSingleHostReverseProxy(target)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			rp.ServeHTTP(w, r)
			return
		}
		body, _ := io.ReadAll(r.Body)
		h := hop{body: body}
		json.Unmarshal(body, &h.json)
		p.mu.Lock()
		i := len(p.hops)
		p.hops = append(p.hops, h)
		p.mu.Unlock()
		mode, answer, instead := p.plan(i, body)
		if mode != stub {
			send := body
			if instead != nil {
				send = instead
			}
			if mode == prime {
				send = maxTokensKey.ReplaceAll(body, []byte(`"max_tokens":1`))
			}
			var out io.Writer = io.Discard
			if mode == forward {
				w.Header().Set("Content-Type", "text/event-stream")
				out = w
			}
			sent, took, err := p.ask(send, out)
			if err != nil {
				http.Error(w, err.Error(), http.StatusBadGateway)
				return
			}
			p.mu.Lock()
			p.hops[i].sent, p.hops[i].took, p.hops[i].timings = sent, took, timingsOf(sent)
			p.mu.Unlock()
			if mode == forward {
				return
			}
		}
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, answer)
	}))
	t.Cleanup(srv.Close)
	return p, srv.URL + "/v1"
}

// ask posts body to the real server and copies its stream to out as it
// comes. A connection the server closes before a byte of its answer (seen
// once on a loaded CI machine: an empty 200) is asked again once, as a
// client would; what it says then stands, and an answer that is not 200
// is said with its status.
func (p *realProxy) ask(body []byte, out io.Writer) (string, time.Duration, error) {
	sent, took, err := p.askOnce(body, out)
	if err == nil && sent == "" {
		time.Sleep(time.Second)
		sent, took, err = p.askOnce(body, out)
	}
	return sent, took, err
}

func (p *realProxy) askOnce(body []byte, out io.Writer) (string, time.Duration, error) {
	start := time.Now()
	resp, err := http.Post(p.real+"/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		return "", 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		out.Write(b)
		return fmt.Sprintf("[status %d] %s", resp.StatusCode, b), time.Since(start), nil
	}
	var all bytes.Buffer
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		if n > 0 {
			all.Write(buf[:n])
			out.Write(buf[:n])
			if f, ok := out.(http.Flusher); ok {
				f.Flush()
			}
		}
		if err != nil {
			break
		}
	}
	return all.String(), time.Since(start), nil
}

func (p *realProxy) all() []hop {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]hop(nil), p.hops...)
}

// timingsOf reads the timings of the last event that has them.
func timingsOf(sse string) hopTimings {
	var tm hopTimings
	sc := bufio.NewScanner(strings.NewReader(sse))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || !strings.Contains(line, `"timings"`) {
			continue
		}
		var ev struct {
			Timings *hopTimings `json:"timings"`
		}
		if json.Unmarshal([]byte(line), &ev) == nil && ev.Timings != nil {
			tm = *ev.Timings
		}
	}
	return tm
}

// sseCall is a scripted answer holding one tool call, as llama-server
// streams it.
func sseCall(name, args string) string {
	fn, _ := json.Marshal(map[string]string{"name": name, "arguments": args})
	return `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"broken_0","type":"function","function":` + string(fn) + `}]},"finish_reason":null}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}` + "\n\n" +
		// About the size of such a call in Hermes markup, as a server
		// counts it: the retry's bound is twice that and 64 more.
		`data: {"choices":[],"usage":{"completion_tokens":20,"prompt_tokens":0,"total_tokens":20}}` + "\n\n" + "data: [DONE]\n\n"
}

// sseText is a scripted text answer.
func sseText(text string) string {
	c, _ := json.Marshal(text)
	return `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":` + string(c) + `},"finish_reason":null}]}` + "\n\n" +
		`data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}` + "\n\n" + "data: [DONE]\n\n"
}

// hopMessages are the messages of a request.
func hopMessages(h hop) []map[string]any {
	var out []map[string]any
	ms, _ := h.json["messages"].([]any)
	for _, m := range ms {
		mm, _ := m.(map[string]any)
		out = append(out, mm)
	}
	return out
}

// retryConfig is mm's configuration for these runs: no bash (a 135M
// model's command must not run here), nobody asked, the edits refused by
// -p (yolo: false): what runs is read_file, and it only reads.
func retryConfig(dir string, maxTokens int) string {
	return fmt.Sprintf("provider: llamacpp\nbashTool: false\naskUserTool: false\nyolo: false\nsampling:\n  max_tokens: %d\n  temperature: 0\n", maxTokens)
}

func runThrough(t testing.TB, dir, base, yaml, prompt string) result {
	t.Helper()
	cfg := filepath.Join(dir, "retry.yaml")
	if err := os.WriteFile(cfg, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, mmBin, "-c", cfg, "-p", prompt)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AGENT_BASE_URL="+base)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running mm: %v", err)
	}
	if strings.Contains(errb.String(), "panic:") {
		t.Fatalf("mm panicked:\n%s", errb.String())
	}
	return result{out.String(), errb.String(), code}
}

// The retry on the real server: the proxy gives mm a read_file call that
// cannot be repaired (its arguments are `{}`, the fault of the corpus's
// structured_args-008, there on bash), mm asks the real server again with
// tool_choice "required", the same tools, and a response_format holding
// the JSON schema of one read_file call. The server makes a grammar of it:
// whatever SmolLM2-135M writes (on its own it writes prose or code until
// max_tokens) is one read_file call object from its first character. When
// the model closes it, the call runs; when it loops inside a value until
// the retry's max_tokens, the reply is cut and the corrections go to the
// model exactly as without the retry. The next request, a normal one, is
// answered by the proxy.
func TestRealToolCallRetry(t *testing.T) {
	srv := realtest.Start(t, realtest.Options{NCtx: 4096, ChatTemplateFile: realtest.ToolsTemplate()})
	p, base := newRealProxy(t, srv.URL, func(i int, _ []byte) (hopMode, string, []byte) {
		switch i {
		case 0:
			return stub, sseCall("read_file", "{}"), nil
		case 1:
			return forward, "", nil
		}
		return stub, sseText("done"), nil
	})
	dir := t.TempDir()
	write(t, filepath.Join(dir, "main.go"), "package main\n")
	r := runThrough(t, dir, base, retryConfig(dir, 160), "show main.go")
	hops := p.all()
	if r.code != 0 || len(hops) != 3 {
		t.Fatalf("exit %d, %d chat requests\n%s", r.code, len(hops), r.stderr)
	}
	first, retry, next := hops[0], hops[1], hops[2]
	if retry.json["tool_choice"] != "required" || toolsBytes(t, retry.body) != toolsBytes(t, first.body) {
		t.Errorf("the retry's request: %s", retry.body)
	}
	if strings.Contains(retry.sent, `"error"`) || retry.timings.PredictedN == 0 {
		t.Fatalf("the real server's answer to the retry:\n%s\nits log:\n%s", retry.sent, srv.Log())
	}
	if !strings.Contains(r.stderr, "· the read_file call could not be repaired; asking again with constrained tool calling") {
		t.Errorf("no notice:\n%s", r.stderr)
	}
	if _, ok := next.json["tool_choice"]; ok || toolsBytes(t, next.body) != toolsBytes(t, first.body) {
		t.Errorf("the next request is not a normal one: %s", next.body)
	}
	ms, m0 := hopMessages(next), hopMessages(first)
	if len(ms) != len(m0)+2 {
		t.Fatalf("the next request has %d messages, the first %d:\n%s", len(ms), len(m0), next.body)
	}
	reply, after := ms[len(ms)-2], ms[len(ms)-1]
	calls, _ := reply["tool_calls"].([]any)
	t.Logf("the retry: %d ms, %d prompt tokens (%d cached), %d predicted, finish %v: %.200q", retry.took.Milliseconds(), retry.timings.PromptN+retry.timings.CacheN, retry.timings.CacheN, retry.timings.PredictedN, strings.Contains(retry.sent, `"finish_reason":"length"`), retriedCall(retry.sent))
	// Valid by construction: the real server's reply is a read_file call
	// object, with no text before it, whole or cut.
	got := retriedCall(retry.sent)
	if !readFileCallPrefix.MatchString(got) {
		t.Errorf("the real server's reply to the retry is not a read_file call object: %q", got)
	}
	if len(calls) > 0 {
		// Saved: the retry's call ran in place of the broken one.
		fn, _ := calls[0].(map[string]any)["function"].(map[string]any)
		if fn["name"] != "read_file" || after["role"] != "tool" || strings.Contains(r.stderr, "tool call not run") {
			t.Errorf("the retry's call did not run: %s\n%s", next.body, r.stderr)
		}
		return
	}
	// Cut inside a value: the broken reply and its corrections, as
	// without a retry.
	if !strings.Contains(retry.sent, `"finish_reason":"length"`) {
		t.Errorf("the retry gave no call and was not cut: %q", got)
	}
	if c, _ := after["content"].(string); after["role"] != "user" || !strings.HasPrefix(c, "[Tool call not run: read_file needs the argument path") || !strings.Contains(r.stderr, "· tool call not run: ") {
		t.Errorf("the fallback: %v\n%s", after, r.stderr)
	}
}

// readFileCallPrefix is what the retry's grammar lets through: a JSON
// object whose first member is the name read_file or its arguments
// object (the schema does not order them), from the first character.
var readFileCallPrefix = regexp.MustCompile(`^\{\s*"(name"\s*:\s*"read_file"|arguments"\s*:\s*\{)`)

// retryPrompts are internal/toolcall's realPrompts (real_live_test.go),
// each with the tool it wants.
var retryPrompts = []struct{ prompt, tool string }{
	{"list the files", "bash"},
	{"show main.go", "read_file"},
	{"read the first 10 lines of main.go", "read_file"},
	{"create hello.txt containing hi", "write_file"},
	{"write a file notes.md with the text TODO: tests", "write_file"},
	{"replace foo by bar in x.go", "edit_file"},
	{"in main.go change the greeting to Hello, world", "edit_file"},
	{"run the tests", "bash"},
	{"build the project", "bash"},
	{"what is in the current directory?", "bash"},
	{"print the git log", "bash"},
	{"count the lines of x.go", "bash"},
	{"delete the file tmp.log", "bash"},
	{"find every TODO in the project", "bash"},
	{"show the go version", "bash"},
	{"add a function Add(a, b int) int to x.go", "edit_file"},
	{"cat README.md", "read_file"},
	{"make a directory named build", "bash"},
	{"rename foo to bar in every .go file", "bash"},
	{"check whether main.go compiles", "bash"},
}

// BenchmarkRealToolCallRetry measures the constrained retry on the real
// server with the tools declared (tools-template.jinja), SmolLM2-135M, the
// 20 real prompts, max_tokens 200 (as TestRealLive). Not a test: it logs
// its figures (go test ./cmd/mm -run XXX -bench RealToolCallRetry
// -benchtime 1x -v).
//
//   - natural: mm's requests go to the server as they are; counted are the
//     replies mm asked again (a call it could not repair) and how many the
//     retry saved;
//   - all tools / narrowed: the first request is read by the server (so
//     its prompt is cached, as after a real broken reply) but mm is given
//     a call of the prompt's tool that cannot be repaired (`{}`); mm's
//     retry offers every tool, and in "narrowed" the proxy cuts its tools
//     to that one (what the issue first asked for). Measured: the retries
//     saved, the retry's time, and the next normal request's prompt
//     reading (sent with max_tokens 1), which a narrowed retry makes read
//     the tools and what follows them again (llama.cpp has one slot).
//
// The bash tool is declared (the prompts want it) but -p with yolo: false
// refuses it: nothing the model writes runs but read_file.
func BenchmarkRealToolCallRetry(b *testing.B) {
	srv := realtest.Start(b, realtest.Options{NCtx: 4096, ChatTemplateFile: realtest.ToolsTemplate()})
	yaml := "provider: llamacpp\nyolo: false\naskUserTool: true\nsampling:\n  max_tokens: 200\n  temperature: 0\n"
	for b.Loop() {
		for _, variant := range []string{"natural", "all tools", "narrowed"} {
			var retried, saved, cut int
			var retryMs, nextMs []float64
			var nextRead []string
			for _, c := range retryPrompts {
				tool := c.tool
				p, base := newRealProxy(b, srv.URL, func(i int, body []byte) (hopMode, string, []byte) {
					retry := bytes.Contains(body, []byte(`"tool_choice":"required"`))
					switch {
					case variant == "natural" && (i < 2 || retry):
						return forward, "", nil
					case variant == "natural":
						return stub, sseText("done"), nil
					case i == 0:
						return prime, sseCall(tool, "{}"), nil
					case retry && variant == "narrowed":
						return forward, "", narrowTools(b, body, tool)
					case retry:
						return forward, "", nil
					}
					// The next normal request: its prompt read, then
					// the turn ends.
					return prime, sseText("done"), nil
				})
				dir := b.TempDir()
				for name, text := range map[string]string{
					"main.go":   "package main\n\nfunc main() { println(\"hi\") }\n",
					"x.go":      "package main\n\nfunc foo() int { return 1 }\n",
					"README.md": "# demo\n",
				} {
					os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644)
				}
				r := runThrough(b, dir, base, yaml, c.prompt)
				hops := p.all()
				for i, h := range hops {
					if strings.Contains(h.sent, `"finish_reason":"length"`) && h.timings.PredictedN > 1 {
						cut++
					}
					if h.json["tool_choice"] != "required" {
						continue
					}
					retried++
					retryMs = append(retryMs, float64(h.took.Microseconds())/1000)
					ok := false
					if i+1 < len(hops) {
						ms := hopMessages(hops[i+1])
						ok = len(ms) > 0 && ms[len(ms)-1]["role"] == "tool"
						nt := hops[i+1].timings
						nextMs = append(nextMs, nt.PromptMs)
						nextRead = append(nextRead, fmt.Sprintf("%d/%d", nt.PromptN, nt.PromptN+nt.CacheN))
					}
					if ok {
						saved++
					}
					b.Logf("%s %q: retry %d ms (%d of %d prompt tokens read, %d predicted), saved %v: %.200s", variant, c.prompt, h.took.Milliseconds(), h.timings.PromptN, h.timings.PromptN+h.timings.CacheN, h.timings.PredictedN, ok, retriedCall(h.sent))
				}
				if r.code != 0 && r.code != 4 {
					b.Logf("%s %q: exit %d: %s", variant, c.prompt, r.code, lastLines(r.stderr, 3))
				}
			}
			b.Logf("%s: %d prompts, %d replies cut at max_tokens, %d asked again, %d saved; retry ms median %.0f max %.0f; next request's prompt reading ms median %.0f max %.0f (tokens read/prompt: %s)",
				variant, len(retryPrompts), cut, retried, saved, median(retryMs), maxOf(retryMs), median(nextMs), maxOf(nextMs), strings.Join(nextRead, " "))
		}
	}
}

// retriedCall is the tool call text of a streamed answer, put together.
func retriedCall(sse string) string {
	var b strings.Builder
	sc := bufio.NewScanner(strings.NewReader(sse))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok {
			continue
		}
		var ev struct {
			Choices []struct {
				Delta struct {
					Content   string `json:"content"`
					ToolCalls []struct {
						Function struct{ Name, Arguments string } `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if json.Unmarshal([]byte(line), &ev) != nil {
			continue
		}
		for _, c := range ev.Choices {
			b.WriteString(c.Delta.Content)
			for _, tc := range c.Delta.ToolCalls {
				b.WriteString(tc.Function.Name + tc.Function.Arguments)
			}
		}
	}
	return b.String()
}

func median(v []float64) float64 {
	if len(v) == 0 {
		return 0
	}
	s := append([]float64(nil), v...)
	sort.Float64s(s)
	return s[len(s)/2]
}

func maxOf(v []float64) float64 {
	m := 0.0
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

// lastLines is the end of a run's stderr, where its error is.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// narrowTools is a request body with only the tool named in its tools, the
// other bytes as they were.
func narrowTools(t testing.TB, body []byte, name string) []byte {
	i := bytes.Index(body, []byte(`"tools":[`))
	if i < 0 {
		t.Fatalf("no tools in %s", body)
	}
	start := i + len(`"tools":`)
	dec := json.NewDecoder(bytes.NewReader(body[start:]))
	var tools []json.RawMessage
	if err := dec.Decode(&tools); err != nil {
		t.Fatal(err)
	}
	end := start + int(dec.InputOffset())
	for _, tool := range tools {
		if bytes.Contains(tool, []byte(`"name":"`+name+`"`)) {
			out := append([]byte(nil), body[:start]...)
			out = append(append(append(out, '['), tool...), ']')
			return append(out, body[end:]...)
		}
	}
	t.Fatalf("no tool %s in %s", name, body)
	return nil
}
