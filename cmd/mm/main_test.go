package main_test

// These tests build the mm binary and drive it the way a user does, against
// the scripted model server (internal/llmtest) on 127.0.0.1.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

var mmBin string

// stateDir is every test's user state directory (XDG_STATE_HOME, set by
// cleanEnv): what mm remembers for the user (the shadow repositories of
// /undo) never goes to the real one.
var stateDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "mm-e2e-")
	if err != nil {
		panic(err)
	}
	mmBin = filepath.Join(dir, "mm")
	// The user's state directory (the session key, trusted project files,
	// /undo's shadow repositories, …) of every mm a test starts, and of the
	// tests themselves: never the real home's. A test about it sets its
	// own.
	stateDir = filepath.Join(dir, "state")
	os.Setenv("XDG_STATE_HOME", stateDir)
	args := []string{"build", "-o", mmBin}
	if os.Getenv("MM_TEST_RACE") != "" {
		// MM_TEST_RACE=1 go test ./cmd/mm: the binary under the race detector.
		args = append(args, "-race")
	}
	build := exec.Command("go", append(args, ".")...)
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building mm:", err)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type result struct {
	stdout, stderr string
	code           int
}

// mm runs the binary in dir with the environment pointing at srv (when
// given), extra variables, and stdin.
func mm(t *testing.T, dir string, srv *llmtest.Server, env []string, stdin string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, mmBin, args...)
	cmd.Dir = dir
	cmd.Env = cleanEnv()
	if srv != nil {
		cmd.Env = append(cmd.Env, "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	}
	cmd.Env = append(cmd.Env, env...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	return runResult(t, cmd.Run(), out.String(), errb.String())
}

// runResult is the result of a finished run of mm: its exit code from
// err, and a failed test if it did not run or panicked.
func runResult(t *testing.T, err error, stdout, stderr string) result {
	t.Helper()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running mm: %v", err)
	}
	r := result{stdout, stderr, code}
	if strings.Contains(r.stderr, "panic:") || strings.Contains(r.stderr, "goroutine ") {
		t.Fatalf("mm panicked:\n%s", r.stderr)
	}
	return r
}

// cleanEnv is the test process's environment without the variables that
// would change mm's behaviour.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "AGENT_") || strings.HasPrefix(kv, "LLAMA_API_KEY=") || strings.HasPrefix(kv, "NO_COLOR=") || strings.HasPrefix(kv, "XDG_STATE_HOME=") {
			continue
		}
		env = append(env, kv)
	}
	return append(env, "XDG_STATE_HOME="+stateDir)
}

func writeConfig(t *testing.T, dir, yaml string) string {
	t.Helper()
	path := filepath.Join(dir, "test.yaml")
	if err := os.WriteFile(path, []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestVersionAndHelp(t *testing.T) {
	r := mm(t, t.TempDir(), nil, nil, "", "--version")
	if r.code != 0 || !regexp.MustCompile(`^mm \S+( \([^()\n]*\))?\n$`).MatchString(r.stdout) {
		t.Errorf("--version: %d %q", r.code, r.stdout)
	}
	r = mm(t, t.TempDir(), nil, nil, "", "--help")
	if r.code != 0 {
		t.Errorf("--help exit %d", r.code)
	}
	for _, flag := range []string{"-p PROMPT", "-c PATH, -config PATH", "-version", "-h, -help"} {
		if !strings.Contains(r.stdout, "\n  "+flag+" ") {
			t.Errorf("--help does not list %s:\n%s", flag, r.stdout)
		}
	}
	r = mm(t, t.TempDir(), nil, nil, "", "-nope")
	if r.code != 2 {
		t.Errorf("unknown flag: exit %d", r.code)
	}
}

// The model uses bash to create a file, sees the result, and answers.
func TestBashTaskCreatesFile(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{Reasoning: "I will create it.", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo hello > out.txt && cat out.txt"}`}}},
		llmtest.Turn{Text: "Created out.txt."},
	)
	r := mm(t, dir, srv, nil, "", "-p", "create out.txt")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(b) != "hello\n" {
		t.Errorf("out.txt = %q, %v", b, err)
	}
	if r.stdout != "Created out.txt.\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	// The skills warning belongs to the line mode's banner, not to -p.
	if strings.Contains(r.stderr, "no skills found") {
		t.Errorf("skills warning with -p:\n%s", r.stderr)
	}
	for _, want := range []string{"🛠️ bash: echo hello > out.txt && cat out.txt", "   hello", "I will create it.", "⚙ 1 command(s)"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	msgs := reqs[1].JSON["messages"].([]any)
	last := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "tool" || last["content"] != "hello\n" {
		t.Errorf("the tool result sent back: %v", last)
	}
}

// What the requests hold, byte for byte where it matters: sampling keys,
// stable tool order, stream options, and no API key that was not asked for.
func TestRequestBytes(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, `
provider: llamacpp
sampling:
  temperature: 0.2
  max_tokens: 512
  chat_template_kwargs: {enable_thinking: false}
  tool_choice: required
  messages: nope
`)
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"true"}`}}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, []string{"OPENAI_API_KEY=sk-never-sent"}, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	for i, req := range reqs {
		if h := req.Header.Get("Authorization"); h != "" {
			t.Errorf("request %d sent Authorization %q", i, h)
		}
		j := req.JSON
		if j["temperature"] != 0.2 || j["max_tokens"] != 512.0 || j["top_p"] != 0.9 || j["stream"] != true || j["return_progress"] != true {
			t.Errorf("request %d sampling/stream keys: %v", i, j)
		}
		if kw, _ := j["chat_template_kwargs"].(map[string]any); kw["enable_thinking"] != false {
			t.Errorf("unknown key not sent at the top level: %v", j["chat_template_kwargs"])
		}
		if _, ok := j["tool_choice"]; ok {
			t.Errorf("tool_choice from sampling was sent")
		}
		if so, _ := j["stream_options"].(map[string]any); so["include_usage"] != true {
			t.Errorf("stream_options = %v", j["stream_options"])
		}
	}
	// The tools part of the two requests is byte-identical.
	tools := func(b []byte) string {
		i := bytes.Index(b, []byte(`"tools":`))
		j := bytes.Index(b, []byte(`,"stream":`))
		if i < 0 || j < i {
			t.Fatalf("no tools in %s", b)
		}
		return string(b[i:j])
	}
	if tools(reqs[0].Body) != tools(reqs[1].Body) {
		t.Error("the tool schemas changed between requests")
	}
	// A key from the provider's variable is sent.
	srv.Push(llmtest.Turn{Text: "ok"})
	mm(t, dir, srv, []string{"LLAMA_API_KEY=local-secret"}, "", "-c", cfg, "-p", "go")
	if h := srv.ChatRequests()[2].Header.Get("Authorization"); h != "Bearer local-secret" {
		t.Errorf("LLAMA_API_KEY: Authorization = %q", h)
	}
}

func TestStdinAppended(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "It is a stack trace."})
	r := mm(t, t.TempDir(), srv, nil, "panic: boom\n", "-p", "explain")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	msgs := srv.ChatRequests()[0].JSON["messages"].([]any)
	user := msgs[len(msgs)-1].(map[string]any)["content"]
	if user != "explain\n\npanic: boom" {
		t.Errorf("user message = %q", user)
	}
}

// With yolo: false nobody can confirm in -p: the call is refused and the
// model reads the reference's text.
func TestYoloFalseRefuses(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch should-not-exist"}`}}},
		llmtest.Turn{Text: "I could not."},
	)
	r := mm(t, dir, srv, []string{"AGENT_YOLO=false"}, "", "-p", "touch it")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "should-not-exist")); err == nil {
		t.Error("the refused command ran")
	}
	msgs := srv.ChatRequests()[1].JSON["messages"].([]any)
	if got := msgs[len(msgs)-1].(map[string]any)["content"]; got != "[command rejected by the user]" {
		t.Errorf("tool result = %q", got)
	}
}

// Every fault ends with its message and exit code, never a panic.
func TestFaults(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	fast := "watchdogTimeout: 1s\nfirstTokenTimeout: 2s\n"
	cases := []struct {
		name   string
		cfg    string
		turns  []llmtest.Turn
		code   int
		stderr string
	}{
		{"hang before first byte", fast, []llmtest.Turn{{Fault: llmtest.FaultHangBeforeFirstByte}}, 4, "[error: no first token from the server after 2s"},
		{"hang after headers", fast, []llmtest.Turn{{Fault: llmtest.FaultHangAfterHeaders}}, 4, "[error: no first token from the server after 2s"},
		{"hang mid-stream", fast, []llmtest.Turn{{Text: "partial answer here", Fault: llmtest.FaultHangMidStream, FaultAfter: 6}}, 4, "[error: connection hang detected after 1s"},
		{"dropped connection", "", []llmtest.Turn{{Text: "partial answer here", Fault: llmtest.FaultDrop, FaultAfter: 3}}, 3, "[engine error: "},
		{"http 500", "", []llmtest.Turn{{Fault: llmtest.FaultHTTP500, ErrorMessage: "the GPU caught fire"}}, 3, "HTTP 500"},
		{"http 503", "", []llmtest.Turn{{Fault: llmtest.FaultHTTP503, ErrorMessage: "server busy"}}, 3, "HTTP 503"},
		{"context overflow", "", []llmtest.Turn{{Fault: llmtest.FaultHTTP400Context}}, 3, "more than the server's context window (2048 tokens)"},
		{"malformed line", "", []llmtest.Turn{{Text: "partial answer here", Fault: llmtest.FaultMalformedLine, FaultAfter: 2}}, 3, "malformed stream event"},
		{"error event", "", []llmtest.Turn{{Text: "partial answer here", Fault: llmtest.FaultErrorEvent, FaultAfter: 2, ErrorMessage: "slot unavailable"}}, 3, "the server reported an error mid-stream: slot unavailable"},
		{"length in tool call", "sampling: {max_tokens: 300}\n", []llmtest.Turn{
			{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch cut1"}`}}, Fault: llmtest.FaultLengthInToolCall},
			{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch cut2"}`}}, Fault: llmtest.FaultLengthInToolCall},
			{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch cut3"}`}}, Fault: llmtest.FaultLengthInToolCall},
		}, 4, "[error: the model hit max_tokens (300) while writing a tool call]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			args := []string{"-p", "hello"}
			if tc.cfg != "" {
				args = append([]string{"-c", writeConfig(t, dir, "provider: llamacpp\n"+tc.cfg)}, args...)
			}
			srv := llmtest.New(t, tc.turns...)
			start := time.Now()
			r := mm(t, dir, srv, nil, "", args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) {
				t.Errorf("exit %d (want %d), stderr:\n%s\nwant %q", r.code, tc.code, r.stderr, tc.stderr)
			}
			if d := time.Since(start); d > 30*time.Second {
				t.Errorf("took %s", d)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if strings.HasPrefix(e.Name(), "cut") {
					t.Errorf("a call cut by max_tokens ran: %s exists", e.Name())
				}
			}
		})
	}
}

// Progress reports keep a slow prompt read alive past firstTokenTimeout
// (keep-alives do not: see hostile_server_test.go); the time a tool runs
// does not count.
func TestWatchdogLife(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nwatchdogTimeout: 1s\nfirstTokenTimeout: 1s\nbashTimeout: 10s\n")
	srv := llmtest.New(t,
		// 14 reports 150 ms apart (2.1 s) under a 1 s first-token wait;
		// the three empty events after the token take 450 ms, under the
		// 1 s between tokens.
		llmtest.Turn{Progress: []int{0, 100, 200, 300, 400, 500, 600, 700, 800, 900, 1000, 1100, 1200, 1300}, ChunkDelay: 150 * time.Millisecond, Text: "ok"},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"sleep 2; echo slept"}`}}},
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "one")
	if r.code != 0 {
		t.Fatalf("progress did not keep the call alive: exit %d\n%s", r.code, r.stderr)
	}
	r = mm(t, dir, srv, nil, "", "-c", cfg, "-p", "two")
	if r.code != 0 || !strings.Contains(r.stderr, "slept") {
		t.Fatalf("a 2 s command under a 1 s watchdog: exit %d\n%s", r.code, r.stderr)
	}
}

// The same call with the same result: the third gets the warning, the
// sixth stops the turn with the reference's message.
func TestLoopDetector(t *testing.T) {
	var turns []llmtest.Turn
	for i := 0; i < 6; i++ {
		turns = append(turns, llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"cat missing.txt"}`}}})
	}
	srv := llmtest.New(t, turns...)
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nmaxTurns: 20\n")
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "read it")
	want := "[error: the model repeated the same bash call 6 times in a row with the same failing result — turn stopped by the loop detector; rephrase the request, or fix what the tool kept reporting]"
	if r.code != 4 || !strings.Contains(r.stderr, want) {
		t.Fatalf("exit %d, stderr:\n%s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 6 {
		t.Fatalf("%d requests, want 6", len(reqs))
	}
	for i, req := range reqs[1:] {
		msgs := req.JSON["messages"].([]any)
		out := msgs[len(msgs)-1].(map[string]any)["content"].(string)
		warned := strings.HasSuffix(out, "[LOOP_DETECTED: You have attempted the same action multiple times with the same result. Please try a different approach or provide more information.]")
		if calls := i + 1; warned != (calls >= 3) {
			t.Errorf("after call %d: warned=%v output %q", calls, warned, out)
		}
	}
}

func TestConfigErrorExit1(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "maxTurns: 0\n")
	r := mm(t, dir, nil, nil, "", "-c", cfg, "-p", "x")
	if r.code != 1 || strings.TrimSpace(r.stderr) != "[config error: "+cfg+": line 1: maxTurns must be > 0 (got 0)]" {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
	r = mm(t, dir, nil, []string{"AGENT_PROVIDER=x"}, "", "-p", "x")
	if r.code != 3 || !strings.Contains(r.stderr, `[engine error: unknown provider "x" (known: dmr, llamacpp, llmman, ollama)]`) {
		t.Errorf("unknown provider: exit %d stderr %q", r.code, r.stderr)
	}
}

func TestNoServerExit3(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nbaseUrl: http://127.0.0.1:9/v1\nfallback: \"\"\n")
	r := mm(t, dir, nil, nil, "", "-c", cfg, "-p", "x")
	if r.code != 3 || !strings.Contains(r.stderr, "[engine error: no model server answered") || !strings.Contains(r.stderr, "http://127.0.0.1:9/v1/models") || !strings.Contains(r.stderr, "llama-server") {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
}

func TestTraceThroughBinary(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: "traced"})
	r := mm(t, dir, srv, []string{"AGENT_TRACE=1"}, "", "-p", "x")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	files, _ := filepath.Glob(filepath.Join(dir, ".mm", "traces", "*-bob-0001.*"))
	if len(files) != 2 {
		t.Fatalf("trace files %v", files)
	}
	for _, f := range files {
		b, _ := os.ReadFile(f)
		if strings.HasSuffix(f, ".request.json") {
			var req map[string]any
			if json.Unmarshal(b, &req) != nil || req["stream"] != true {
				t.Errorf("request trace: %s", b)
			}
		} else if !strings.HasSuffix(f, ".response-200.sse") || !strings.Contains(string(b), `"content":"traced"`) && !strings.Contains(string(b), "traced") {
			t.Errorf("response trace %s: %s", f, b)
		}
	}
}

func TestDisplayCommandsAndWarnings(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\ndisplayCommands: true\npermissions: auto\ncontext:\n  enabled: true\n  maxMessages: 0\n")
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: -1},
		bashCall("echo one"), bashCall("echo two"), llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		"1. bash: echo one\n2. bash: echo two\n",
		"[warning: context.enabled is true, the window is unknown and context.maxMessages is 0",
		"[warning: permissions: auto is deprecated",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	// With a window the server reports, no compression warning.
	srv2 := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r = mm(t, dir, srv2, nil, "", "-c", cfg, "-p", "go")
	if strings.Contains(r.stderr, "context.enabled is true") {
		t.Errorf("warned with a known window:\n%s", r.stderr)
	}
}

func bashCall(cmd string) llmtest.Turn {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: string(args)}}}
}

// Ctrl-C during a command ends the turn at once and kills the command.
func TestInterruptKillsCommand(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, bashCall("echo $$ > shell.pid; sleep 30"), llmtest.Turn{Text: "never"})
	cmd := exec.Command(mmBin, "-p", "wait")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "shell.pid")
	deadline := time.Now().Add(20 * time.Second)
	var pid int
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(pidFile); err == nil && len(b) > 1 {
			fmt.Sscanf(string(b), "%d", &pid)
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if pid == 0 {
		cmd.Process.Kill()
		t.Fatal("the command never started")
	}
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if d := time.Since(start); d > 10*time.Second {
		t.Errorf("mm took %s to stop", d)
	}
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("exit: %v\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "[interrupted]") {
		t.Errorf("stderr: %s", errb.String())
	}
	if !pidGone(pid) {
		t.Errorf("the command's shell %d still runs", pid)
	}
	if n := len(srv.ChatRequests()); n != 1 {
		t.Errorf("%d model calls after the interrupt", n)
	}
}

// Each provider's wire: Docker Model Runner's /engines/v1 path, Ollama's
// stream (reasoning in "reasoning", no progress), and the fallback.
func TestProviders(t *testing.T) {
	t.Run("dmr", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Turn{Text: "from dmr"})
		r := mm(t, t.TempDir(), nil, []string{"AGENT_PROVIDER=dmr", "AGENT_BASE_URL=" + srv.Root() + "/engines/v1"}, "", "-p", "hi")
		if r.code != 0 || r.stdout != "from dmr\n" {
			t.Fatalf("exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
		}
		req := srv.ChatRequests()[0]
		if req.Path != "/engines/v1/chat/completions" || req.JSON["return_progress"] != true {
			t.Errorf("path %s return_progress %v", req.Path, req.JSON["return_progress"])
		}
	})
	t.Run("ollama", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama"}, llmtest.Turn{Reasoning: "pondering", Text: "from ollama"})
		r := mm(t, t.TempDir(), nil, []string{"AGENT_PROVIDER=ollama", "AGENT_BASE_URL=" + srv.URL(), "OLLAMA_API_KEY=ok-key"}, "", "-p", "hi")
		if r.code != 0 || r.stdout != "from ollama\n" || !strings.Contains(r.stderr, "pondering") {
			t.Fatalf("exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
		}
		req := srv.ChatRequests()[0]
		if _, ok := req.JSON["return_progress"]; ok {
			t.Error("return_progress sent to Ollama")
		}
		if req.Header.Get("Authorization") != "Bearer ok-key" {
			t.Errorf("Authorization %q", req.Header.Get("Authorization"))
		}
	})
	t.Run("fallback", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Turn{Text: "from the fallback"})
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "provider: llamacpp\nbaseUrl: http://127.0.0.1:9/v1\nfallback: "+srv.URL()+"\n")
		r := mm(t, dir, nil, nil, "", "-c", cfg, "-p", "hi")
		if r.code != 0 || r.stdout != "from the fallback\n" {
			t.Fatalf("exit %d stdout %q stderr %s", r.code, r.stdout, r.stderr)
		}
	})
	t.Run("bashTool false declares no bash", func(t *testing.T) {
		srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "provider: llamacpp\nbashTool: false\neditTools: false\naskUserTool: false\n")
		if r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "hi"); r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if _, ok := srv.ChatRequests()[0].JSON["tools"]; ok {
			t.Errorf("tools declared: %v", srv.ChatRequests()[0].JSON["tools"])
		}
	})
}

// fetch_content through the binary: the 🌐 line, the Markdown the model
// reads, and `output` refused in -p with yolo: false (it writes a file).
func TestFetchContentTool(t *testing.T) {
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html><body><nav>Home | About</nav><main><h1>Install</h1><p>Run <code>make</code>.</p></main></body></html>`)
	}))
	defer web.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nfetchContentTool: true\n")
	page := web.URL + "/docs"
	srv := llmtest.New(t,
		call("fetch_content", `{"url":"`+page+`"}`), llmtest.Turn{Text: "read"},
		call("fetch_content", `{"url":"`+page+`","output":"docs.md"}`), llmtest.Turn{Text: "saved?"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "read the docs")
	if r.code != 0 || !strings.Contains(r.stderr, "🌐 fetch_content: "+page) {
		t.Fatalf("exit %d stderr:\n%s", r.code, r.stderr)
	}
	msgs := srv.ChatRequests()[1].JSON["messages"].([]any)
	if got := msgs[len(msgs)-1].(map[string]any)["content"]; got != "# Install\n\nRun `make`.\n" {
		t.Errorf("the model read %q", got)
	}
	r = mm(t, dir, srv, []string{"AGENT_YOLO=false"}, "", "-c", cfg, "-p", "save the docs")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "docs.md")); err == nil {
		t.Error("fetch_content with output wrote a file without permission")
	}
	msgs = srv.ChatRequests()[3].JSON["messages"].([]any)
	if got := msgs[len(msgs)-1].(map[string]any)["content"]; got != "[fetch_content rejected by the user]" {
		t.Errorf("the model read %q", got)
	}
}

// A call a small model writes as text runs, and its markup never reaches
// the user: stdout holds the answer only, the round's narration is on
// stderr without the markup.
func TestCallWrittenAsTextIsNotShown(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{Text: "I will create it: <tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"touch made.txt\"}}\n</tool_call>"},
		llmtest.Turn{Text: "Done."},
	)
	r := mm(t, dir, srv, nil, "", "-p", "make it")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Error("the call written as text did not run")
	}
	if r.stdout != "Done.\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "I will create it:\n") || strings.Contains(r.stderr, "tool_call") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

func TestNoStdin(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r := mm(t, t.TempDir(), srv, nil, "rest of a list\n", "-no-stdin", "-p", "just this")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	msgs := srv.ChatRequests()[0].JSON["messages"].([]any)
	if q := msgs[len(msgs)-1].(map[string]any)["content"]; q != "just this" {
		t.Errorf("question %q", q)
	}
}
