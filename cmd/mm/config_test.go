package main_test

// Configuration that cannot silently do the wrong thing (issue #10,
// section 2), through the binary: unknown keys, range errors with their
// line, base URLs, the user-level file, the project's AGENTS.md.

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// The user-level configuration ($XDG_CONFIG_HOME/mm/agent.yaml, else
// ~/.config/mm/agent.yaml) of the machine running the tests must not
// change what any test's mm does: every child inherits a directory that
// does not exist. Tests about that file set their own.
func init() {
	os.Setenv("XDG_CONFIG_HOME", filepath.Join(os.TempDir(), fmt.Sprintf("mm-test-no-user-config-%d", os.Getpid())))
}

// systemOf is the system message of a chat request.
func systemOf(t *testing.T, req llmtest.Request) string {
	t.Helper()
	msgs, _ := req.JSON["messages"].([]any)
	if len(msgs) == 0 {
		t.Fatalf("no messages in %s", req.Body)
	}
	first, _ := msgs[0].(map[string]any)
	if first["role"] != "system" {
		t.Fatalf("first message is not the system prompt: %v", first)
	}
	s, _ := first["content"].(string)
	return s
}

// prefixBytes is the raw JSON of a chat request's system message and
// tools: what the server's prompt cache keeps from one request to the next.
func prefixBytes(t *testing.T, req llmtest.Request) string {
	t.Helper()
	var body struct {
		Messages []json.RawMessage `json:"messages"`
		Tools    json.RawMessage   `json:"tools"`
	}
	if err := json.Unmarshal([]byte(req.Body), &body); err != nil || len(body.Messages) == 0 || len(body.Tools) == 0 {
		t.Fatalf("request body %s: %v", req.Body, err)
	}
	return string(body.Messages[0]) + string(body.Tools)
}

// noUserConfig points the user-level configuration at an empty directory,
// so the machine's own ~/.config/mm/agent.yaml cannot change a test.
func noUserConfig(t *testing.T) []string {
	home := t.TempDir()
	return []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "xdg")}
}

func write(t *testing.T, path, text string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A misspelt key is still ignored, as the reference says, but never
// silently: one warning with its line and the nearest known key, at every
// level mm reads (sampling is free-form and stays quiet).
func TestUnknownKeysWarn(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "test.yaml"), `provider: llamacpp
maxTurns: 5
yollo: false
context:
  treshold: 50
sessions:
  dri: x
lsp:
  servers:
    - name: gopls
      comand: gopls
      command: gopls
      extensions: [.go]
sampling:
  my_server_knob: 3
zzqqxx: 1
`)
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", "test.yaml", "-p", "hi")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	for _, want := range []string{
		`[warning: test.yaml: line 3: unknown key "yollo" (did you mean "yolo"?) — ignored]`,
		`[warning: test.yaml: line 5: unknown key "context.treshold" (did you mean "context.threshold"?) — ignored]`,
		`[warning: test.yaml: line 7: unknown key "sessions.dri" (did you mean "sessions.dir"?) — ignored]`,
		`[warning: test.yaml: line 11: unknown key "lsp.servers[0].comand" (did you mean "lsp.servers[0].command"?) — ignored]`,
		`[warning: test.yaml: line 16: unknown key "zzqqxx" — ignored]`,
	} {
		if !strings.Contains(r.stderr, want+"\n") {
			t.Errorf("stderr lacks %s:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "my_server_knob") {
		t.Errorf("a sampling key was warned about:\n%s", r.stderr)
	}
	// yolo stayed true: the misspelt key changed nothing.
	if r.stdout != "ok\n" {
		t.Errorf("stdout %q", r.stdout)
	}

	// The line mode shows the same warning under its banner.
	s := startREPL(t, dir, srv, noUserConfig(t), "-c", "test.yaml")
	if txt := s.text(); !strings.Contains(txt, `[warning: test.yaml: line 3: unknown key "yollo" (did you mean "yolo"?) — ignored]`) {
		t.Errorf("REPL banner lacks the warning:\n%s", txt)
	}
	s.send("\x04")
	s.exit()
}

// A value out of range is reported with its line and the value, in the
// reference's words; from the environment, with the variable's name.
func TestRangeErrorsCarryLineAndValue(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		yaml string
		env  []string
		want string
	}{
		{"provider: llamacpp\nmaxTurns: -3\n", nil, "[config error: test.yaml: line 2: maxTurns must be > 0 (got -3)]"},
		{"context:\n  enabled: true\n  threshold: 150\n", nil, "[config error: test.yaml: line 3: context.threshold must be between 1 and 100 (got 150)]"},
		{"\nbashTimeout: -5s\n", nil, "[config error: test.yaml: line 2: bashTimeout must be > 0 (got -5s)]"},
		{"model: m\n", []string{"AGENT_MODEL=   "}, `[config error: test.yaml: model must not be empty (got "   " from AGENT_MODEL)]`},
	}
	for _, tc := range cases {
		write(t, filepath.Join(dir, "test.yaml"), tc.yaml)
		r := mm(t, dir, nil, append(noUserConfig(t), tc.env...), "", "-c", "test.yaml", "-p", "hi")
		if r.code != 1 || r.stderr != tc.want+"\n" {
			t.Errorf("%q: exit %d, stderr %q, want %q", tc.yaml, r.code, r.stderr, tc.want)
		}
	}
}

// baseUrl, fallback and AGENT_BASE_URL must be absolute http(s) URLs:
// anything else stops mm with a configuration error before any probe.
func TestBaseURLMustBeHTTP(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t)
	cases := []struct {
		yaml string
		env  []string
		want string
	}{
		{"provider: llamacpp\nbaseUrl: 127.0.0.1:8080/v1\nfallback: " + srv.URL() + "\n", nil,
			`[config error: test.yaml: line 2: baseUrl must be an absolute http(s) URL, like http://127.0.0.1:8080/v1 (got "127.0.0.1:8080/v1")]`},
		{"provider: llamacpp\nbaseUrl: " + srv.URL() + "\nfallback: ftp://files.invalid/v1\n", nil,
			`[config error: test.yaml: line 3: fallback must be an absolute http(s) URL, like http://127.0.0.1:8080/v1 (got "ftp://files.invalid/v1")]`},
		{"provider: llamacpp\nfallback: " + srv.URL() + "\n", []string{"AGENT_BASE_URL=/v1"},
			`[config error: test.yaml: baseUrl must be an absolute http(s) URL, like http://127.0.0.1:8080/v1 (got "/v1" from AGENT_BASE_URL)]`},
		{"provider: llamacpp\nbaseUrl: http:///v1\nfallback: " + srv.URL() + "\n", nil,
			`[config error: test.yaml: line 2: baseUrl must be an absolute http(s) URL, like http://127.0.0.1:8080/v1 (got "http:///v1")]`},
	}
	for _, tc := range cases {
		write(t, filepath.Join(dir, "test.yaml"), tc.yaml)
		r := mm(t, dir, nil, append(noUserConfig(t), tc.env...), "", "-c", "test.yaml", "-p", "hi")
		if r.code != 1 || r.stderr != tc.want+"\n" {
			t.Errorf("%q %v: exit %d, stderr %q, want %q", tc.yaml, tc.env, r.code, r.stderr, tc.want)
		}
	}
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("the server was asked %d times before the configuration was checked", n)
	}
	// fallback: "" (no fallback) and an empty baseUrl (the provider's) stay valid.
	write(t, filepath.Join(dir, "test.yaml"), "provider: llamacpp\nbaseUrl: \"\"\nfallback: \"\"\n")
	ok := llmtest.New(t, llmtest.Turn{Text: "fine"})
	if r := mm(t, dir, ok, noUserConfig(t), "", "-c", "test.yaml", "-p", "hi"); r.code != 0 || r.stdout != "fine\n" {
		t.Errorf("empty baseUrl and fallback: exit %d %q %s", r.code, r.stdout, r.stderr)
	}
}

// Without -config and ./agent.yaml, mm reads the user-level file
// ($XDG_CONFIG_HOME/mm/agent.yaml, else ~/.config/mm/agent.yaml), names it
// in the banner and in its errors; ./agent.yaml still wins.
func TestUserLevelConfig(t *testing.T) {
	dir := t.TempDir()
	home := t.TempDir()
	xdgFile := filepath.Join(home, "xdg", "mm", "agent.yaml")
	write(t, xdgFile, "system: from the user-level file\n")
	env := []string{"HOME=" + home, "XDG_CONFIG_HOME=" + filepath.Join(home, "xdg")}

	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, env, "", "-p", "hi")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got := systemOf(t, srv.ChatRequests()[0]); got != "from the user-level file" {
		t.Errorf("system prompt %q: the user-level file was not read", got)
	}
	s := startREPL(t, dir, srv, env)
	if txt := s.text(); !strings.Contains(txt, " · config: "+xdgFile) {
		t.Errorf("the banner does not name %s:\n%s", xdgFile, txt)
	}
	s.send("\x04")
	s.exit()

	// Its errors name it.
	write(t, xdgFile, "maxTurns: 0\n")
	r = mm(t, dir, nil, env, "", "-p", "hi")
	if want := "[config error: " + xdgFile + ": line 1: maxTurns must be > 0 (got 0)]\n"; r.code != 1 || r.stderr != want {
		t.Errorf("exit %d, stderr %q, want %q", r.code, r.stderr, want)
	}

	// ./agent.yaml wins over it where both set a key.
	write(t, xdgFile, "system: from the user-level file\n")
	write(t, filepath.Join(dir, "agent.yaml"), "system: from the project\n")
	srv = llmtest.New(t, llmtest.Turn{Text: "ok"})
	if r = mm(t, dir, srv, env, "", "-p", "hi"); r.code != 0 || systemOf(t, srv.ChatRequests()[0]) != "from the project" {
		t.Errorf("./agent.yaml did not win: exit %d %s", r.code, r.stderr)
	}
	os.Remove(filepath.Join(dir, "agent.yaml"))

	// Without XDG_CONFIG_HOME: ~/.config/mm/agent.yaml.
	write(t, filepath.Join(home, ".config", "mm", "agent.yaml"), "system: from ~/.config\n")
	srv = llmtest.New(t, llmtest.Turn{Text: "ok"})
	if r = mm(t, dir, srv, []string{"HOME=" + home, "XDG_CONFIG_HOME="}, "", "-p", "hi"); r.code != 0 || systemOf(t, srv.ChatRequests()[0]) != "from ~/.config" {
		t.Errorf("~/.config/mm/agent.yaml not read: exit %d %s", r.code, r.stderr)
	}
}

// gitProject makes a repository root with a subdirectory to start mm in.
func gitProject(t *testing.T) (root, sub string) {
	root = t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub = filepath.Join(root, "pkg", "deep")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	return root, sub
}

// The nearest AGENTS.md between the working directory and the repository
// root goes to the model after the system prompt, the same bytes in every
// request of the run, and the banner names it.
func TestAgentsMDInSystemPrompt(t *testing.T) {
	root, sub := gitProject(t)
	write(t, filepath.Join(root, "AGENTS.md"), "Run make test before you answer.\n")
	cfg := writeConfig(t, root, "provider: llamacpp\n")
	// The model changes AGENTS.md during the run: the next request must
	// still carry what was read at start.
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo changed > ../../AGENTS.md"}`}}},
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, sub, srv, noUserConfig(t), "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests", len(reqs))
	}
	first := systemOf(t, reqs[0])
	if !strings.HasSuffix(first, "Run make test before you answer.\n") || !strings.Contains(first, "AGENTS.md") {
		t.Errorf("system prompt lacks AGENTS.md:\n%s", first)
	}
	if second := systemOf(t, reqs[1]); second != first {
		t.Errorf("the system prompt changed between requests:\n%q\n%q", first, second)
	}
	// The prefix as sent, byte for byte: the system message and the tools.
	if a, b := prefixBytes(t, reqs[0]), prefixBytes(t, reqs[1]); a != b {
		t.Errorf("the request prefix changed between requests:\n%s\n%s", a, b)
	}
	if b, _ := os.ReadFile(filepath.Join(root, "AGENTS.md")); string(b) != "changed\n" {
		t.Fatalf("the tool did not change AGENTS.md: %q", b)
	}

	// The banner names it, relative to where mm runs.
	write(t, filepath.Join(root, "AGENTS.md"), "Run make test before you answer.\n")
	s := startREPL(t, sub, srv, noUserConfig(t), "-c", cfg)
	if txt := s.text(); !strings.Contains(txt, " · instructions: ../../AGENTS.md") {
		t.Errorf("the banner does not name AGENTS.md:\n%s", txt)
	}
	s.send("\x04")
	s.exit()

	// A nearer one wins; only one is read.
	write(t, filepath.Join(root, "pkg", "AGENTS.md"), "Nearer rules.\n")
	srv = llmtest.New(t, llmtest.Turn{Text: "ok"})
	mm(t, sub, srv, noUserConfig(t), "", "-c", cfg, "-p", "go")
	if got := systemOf(t, srv.ChatRequests()[0]); !strings.HasSuffix(got, "Nearer rules.\n") || strings.Contains(got, "make test") {
		t.Errorf("the nearest AGENTS.md was not the one read:\n%s", got)
	}

	// A custom system prompt still gets it.
	custom := writeConfig(t, root, "provider: llamacpp\nsystem: You are Bob.\n")
	srv = llmtest.New(t, llmtest.Turn{Text: "ok"})
	mm(t, sub, srv, noUserConfig(t), "", "-c", custom, "-p", "go")
	if got := systemOf(t, srv.ChatRequests()[0]); !strings.HasPrefix(got, "You are Bob.") || !strings.HasSuffix(got, "Nearer rules.\n") {
		t.Errorf("custom prompt without AGENTS.md:\n%s", got)
	}

	// projectInstructions: false turns it off.
	off := writeConfig(t, root, "provider: llamacpp\nprojectInstructions: false\n")
	srv = llmtest.New(t, llmtest.Turn{Text: "ok"})
	r = mm(t, sub, srv, noUserConfig(t), "", "-c", off, "-p", "go")
	if got := systemOf(t, srv.ChatRequests()[0]); strings.Contains(got, "Nearer rules") || strings.Contains(r.stderr, "warning") {
		t.Errorf("projectInstructions: false still read it:\n%s\n%s", got, r.stderr)
	}
}

// AGENTS.md is the project's, so untrusted: a huge one is cut at 8 KB on
// a line boundary with a warning, a link out of the project and a FIFO
// are not read (a warning says why), and nothing blocks.
func TestAgentsMDHostile(t *testing.T) {
	root, sub := gitProject(t)
	cfg := writeConfig(t, root, "provider: llamacpp\n")
	run := func() (string, result) {
		t.Helper()
		srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
		r := mm(t, sub, srv, noUserConfig(t), "", "-c", cfg, "-p", "go")
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		return systemOf(t, srv.ChatRequests()[0]), r
	}
	agents := filepath.Join(root, "AGENTS.md")

	line := strings.Repeat("é", 40) + "\n" // 81 bytes
	write(t, agents, strings.Repeat(line, 1000))
	sys, r := run()
	i := strings.Index(sys, "é")
	if i < 0 {
		t.Fatalf("nothing of AGENTS.md in the prompt:\n%s", sys)
	}
	got := sys[i:]
	if len(got) > 8<<10 || len(got) < 8<<10-len(line) || !strings.HasSuffix(got, "\n") || strings.Count(got, line)*len(line) != len(got) {
		t.Errorf("cut to %d bytes, not on a line boundary", len(got))
	}
	if want := "[warning: ../../AGENTS.md is over 8 KB: only its first 101 lines go to the model]\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}

	// A link that leaves the project is not followed.
	os.Remove(agents)
	outside := filepath.Join(t.TempDir(), "secret.txt")
	write(t, outside, "SECRET\n")
	if err := os.Symlink(outside, agents); err != nil {
		t.Fatal(err)
	}
	sys, r = run()
	if strings.Contains(sys, "SECRET") {
		t.Errorf("a link out of the project was read:\n%s", sys)
	}
	if want := "[warning: ../../AGENTS.md is a symbolic link out of the project — not read]\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}

	// A link inside the project (AGENTS.md → docs/agents.md) is read.
	os.Remove(agents)
	write(t, filepath.Join(root, "docs", "agents.md"), "Docs rules.\n")
	if err := os.Symlink(filepath.Join("docs", "agents.md"), agents); err != nil {
		t.Fatal(err)
	}
	if sys, r = run(); !strings.HasSuffix(sys, "Docs rules.\n") || strings.Contains(r.stderr, "warning") {
		t.Errorf("a link inside the project was not read:\n%s\n%s", sys, r.stderr)
	}

	// A FIFO would block a plain read forever.
	os.Remove(agents)
	if err := makeFIFO(agents); err != nil {
		t.Fatal(err)
	}
	sys, r = run()
	if want := "[warning: ../../AGENTS.md is not a regular file — not read]\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
	}
}
