package toolcall

// The live side of real_check_test.go: with a real llama.cpp server at
// MM_REAL_BASE_URL, the fixed prompts are sent as mm's own request and the
// same checks apply; with MM_REAL_RECORD=1 too, the replies are written to
// testdata for the deterministic replay. How to run: docs/tool-calls.md.

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
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
	"strings"
	"sync"
	"testing"
	"time"

	"mm/internal/realtest"
)

// realPrompts is the fixed prompt set: everyday requests of a coding agent
// that each want one of mm's tools. Changing it means re-recording.
var realPrompts = []string{
	"list the files",
	"show main.go",
	"read the first 10 lines of main.go",
	"create hello.txt containing hi",
	"write a file notes.md with the text TODO: tests",
	"replace foo by bar in x.go",
	"in main.go change the greeting to Hello, world",
	"run the tests",
	"build the project",
	"what is in the current directory?",
	"print the git log",
	"count the lines of x.go",
	"delete the file tmp.log",
	"find every TODO in the project",
	"show the go version",
	"add a function Add(a, b int) int to x.go",
	"cat README.md",
	"make a directory named build",
	"rename foo to bar in every .go file",
	"check whether main.go compiles",
}

// realMaxTokens is the answer's limit: enough for one call, short enough
// for a 135M model on 2 cores. It is the only byte of mm's request changed.
const realMaxTokens = 200

// TestRealLive asks the real server the fixed prompts with the request the
// mm binary sends and checks what would run. MM_REAL_RECORD=1 records.
func TestRealLive(t *testing.T) {
	base := os.Getenv("MM_REAL_BASE_URL")
	if base == "" {
		// The real server .ci/run installs (internal/realtest): missing,
		// the test fails under CI=true and is skipped elsewhere.
		base = realtest.Start(t, realtest.Options{}).URL
	}
	base = strings.TrimRight(base, "/")
	// MM_REAL_NAME names the recording (model and server setup): the
	// files are testdata/real-<name>.*.
	name := os.Getenv("MM_REAL_NAME")
	if name == "" {
		name = "smollm2"
	}
	realFile, realRequestFile := realFiles(name)
	mmBin := buildMM(t)
	info := serverInfo(t, base)
	var out bytes.Buffer
	var first []byte
	var runs, acted, right, shown int
	for i, prompt := range realPrompts {
		body := mmRequest(t, mmBin, base, prompt)
		if first == nil {
			first = body
		}
		tools, err := requestTools(body)
		if err != nil {
			t.Fatalf("mm's request: %v", err)
		}
		sum := sha256.Sum256(body)
		limited := bytes.Replace(body, []byte(`"max_tokens":4096`), []byte(fmt.Sprintf(`"max_tokens":%d`, realMaxTokens)), 1)
		if bytes.Equal(limited, body) {
			t.Fatalf("mm's request has no \"max_tokens\":4096 to lower: %s", body)
		}
		r := askStreamed(t, base, limited)
		r.ID = fmt.Sprintf("%s-%03d", name, i+1)
		r.Prompt = prompt
		r.Provenance = "recorded"
		r.Model, r.ModelSize, r.ModelSHA256 = info.model, info.size, info.sha
		r.Server, r.BuildInfo = info.server, info.build
		r.Date = time.Now().UTC().Format("2006-01-02")
		r.RequestSHA256 = hex.EncodeToString(sum[:])
		r.MaxTokens = realMaxTokens
		in := r.input(tools)
		res := Recover(in)
		for _, v := range runViolations(in, res) {
			t.Errorf("%q: %s", prompt, v)
		}
		runs += len(res.Calls)
		ok := realRight(prompt, res)
		inText := !ok && realShown(prompt, r.Content)
		if len(res.Calls) > 0 {
			acted++
		}
		if ok {
			right++
		}
		if inText {
			shown++
		}
		t.Logf("%q → finish %s, %d server call(s), %d run, %d refused, right %v, in the text %v: %s %.120q", prompt, r.FinishReason, len(r.ToolCalls), len(res.Calls), len(res.Rejections), ok, inText, callsText(res.Calls), r.Content)
		line, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		out.Write(line)
		out.WriteByte('\n')
	}
	t.Logf("%d prompts, %d call(s) would run; %d prompt(s) got a call, %d the right tool with the right arguments, %d more a right command written in the text instead", len(realPrompts), runs, acted, right, shown)
	if os.Getenv("MM_REAL_RECORD") == "1" {
		if err := os.WriteFile(realFile, out.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(realRequestFile, append(first, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("recorded %s and %s", realFile, realRequestFile)
	}
}

// buildMM builds the mm binary: the request recorded is the one it sends.
func buildMM(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "mm")
	cmd := exec.Command("go", "build", "-o", bin, "mm/cmd/mm")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("building mm: %v", err)
	}
	return bin
}

// mmRequest runs `mm -p prompt` against a stand-in that passes every
// request to the real server except the chat completion, which it keeps
// and answers with a short text: mm's first request exactly, and no tool
// runs.
func mmRequest(t *testing.T, mmBin, base, prompt string) []byte {
	t.Helper()
	target, err := url.Parse(base)
	if err != nil {
		t.Fatal(err)
	}
	proxy := httputil.NewSingleHostReverseProxy(target)
	var mu sync.Mutex
	var bodies [][]byte
	stub := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			proxy.ServeHTTP(w, r)
			return
		}
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		bodies = append(bodies, b)
		mu.Unlock()
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{"role":"assistant","content":"ok"},"finish_reason":null}]}`+"\n\n")
		io.WriteString(w, `data: {"choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}`+"\n\n")
		io.WriteString(w, "data: [DONE]\n\n")
	}))
	defer stub.Close()
	dir := t.TempDir()
	for name, text := range map[string]string{
		"main.go":   "package main\n\nfunc main() { println(\"hi\") }\n",
		"x.go":      "package main\n\nfunc foo() int { return 1 }\n",
		"README.md": "# demo\n",
	} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, mmBin, "-p", prompt)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AGENT_") && !strings.HasPrefix(kv, "HOME=") && !strings.HasPrefix(kv, "XDG_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "HOME="+dir, "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+stub.URL+"/v1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("mm -p %q: %v\n%s", prompt, err, out)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(bodies) != 1 {
		t.Fatalf("mm -p %q made %d chat requests, want 1", prompt, len(bodies))
	}
	return bodies[0]
}

type realServer struct {
	model, sha, server, build string
	size                      int64
}

// serverInfo is the provenance the server gives (/props) and the model
// file's size and hash when it is on this machine.
func serverInfo(t *testing.T, base string) realServer {
	t.Helper()
	root := strings.TrimSuffix(base, "/v1")
	resp, err := http.Get(root + "/props")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var props struct {
		ModelPath string `json:"model_path"`
		BuildInfo string `json:"build_info"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&props); err != nil {
		t.Fatalf("/props: %v", err)
	}
	s := realServer{model: filepath.Base(props.ModelPath), build: props.BuildInfo}
	s.server = os.Getenv("MM_REAL_SERVER")
	if s.server == "" {
		s.server = "llama.cpp server"
	}
	s.server += " (llama.cpp build_info " + props.BuildInfo + ")"
	if f, err := os.Open(props.ModelPath); err == nil {
		h := sha256.New()
		s.size, _ = io.Copy(h, f)
		f.Close()
		s.sha = hex.EncodeToString(h.Sum(nil))
	}
	return s
}

// askStreamed sends body as is (mm streams) and puts the stream's deltas
// together the way mm's client does: content and reasoning concatenated,
// tool calls by index, the last finish reason.
func askStreamed(t *testing.T, base string, body []byte) realReply {
	t.Helper()
	resp, err := http.Post(base+"/chat/completions", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b, _ := io.ReadAll(resp.Body)
		t.Fatalf("server: %s: %s", resp.Status, b)
	}
	var r realReply
	var content, reasoning strings.Builder
	type acc struct{ id, name, args string }
	var calls []*acc
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() {
		data, ok := strings.CutPrefix(sc.Text(), "data: ")
		if !ok || data == "[DONE]" {
			continue
		}
		var chunk struct {
			Choices []struct {
				FinishReason *string `json:"finish_reason"`
				Delta        struct {
					Content   *string `json:"content"`
					Reasoning *string `json:"reasoning_content"`
					ToolCalls []struct {
						Index    int    `json:"index"`
						ID       string `json:"id"`
						Function struct {
							Name      string `json:"name"`
							Arguments string `json:"arguments"`
						} `json:"function"`
					} `json:"tool_calls"`
				} `json:"delta"`
			} `json:"choices"`
		}
		if err := json.Unmarshal([]byte(data), &chunk); err != nil {
			t.Fatalf("stream chunk %q: %v", data, err)
		}
		for _, c := range chunk.Choices {
			if c.Delta.Content != nil {
				content.WriteString(*c.Delta.Content)
			}
			if c.Delta.Reasoning != nil {
				reasoning.WriteString(*c.Delta.Reasoning)
			}
			for _, tc := range c.Delta.ToolCalls {
				for len(calls) <= tc.Index {
					calls = append(calls, &acc{})
				}
				a := calls[tc.Index]
				a.id += tc.ID
				a.name += tc.Function.Name
				a.args += tc.Function.Arguments
			}
			if c.FinishReason != nil {
				r.FinishReason = *c.FinishReason
			}
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	r.Content, r.Reasoning = content.String(), reasoning.String()
	for _, a := range calls {
		var c corpusRawCall
		c.ID = a.id
		c.Function.Name = a.name
		c.Function.Arguments, _ = json.Marshal(a.args)
		r.ToolCalls = append(r.ToolCalls, c)
	}
	return r
}
