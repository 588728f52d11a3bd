package main_test

// Issue 20, section 6: the first-contact details a user meets at the
// first runs (the model name, the skills warning, the no-server hint, a
// base URL with a query, an edit's preview, maxOutput, -p's spinner, the
// permission prefix).

import (
	"bytes"
	"encoding/json"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"mm/internal/config"
	"mm/internal/llmtest"
)

// jsonStart is the model of the --json start event.
func jsonStartModel(t *testing.T, stdout string) string {
	t.Helper()
	first, _, _ := strings.Cut(stdout, "\n")
	var ev struct{ Type, Model string }
	if err := json.Unmarshal([]byte(first), &ev); err != nil || ev.Type != "start" {
		t.Fatalf("first event %q: %v", first, err)
	}
	return ev.Model
}

// Without a model chosen, a server that serves one model is told and
// shown that one, not Docker Model Runner's default name.
func TestDetailsServedModelNamed(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.NewWith(t, llmtest.Options{ModelName: "served-one.gguf"}, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-p", "hi", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if got := jsonStartModel(t, r.stdout); got != "served-one.gguf" {
		t.Errorf("start event model %q", got)
	}
	if got := srv.ChatRequests()[0].JSON["model"]; got != "served-one.gguf" {
		t.Errorf("request model %v", got)
	}

	// The line mode's banner says it too.
	srv = llmtest.NewWith(t, llmtest.Options{ModelName: "served-one.gguf"})
	s := startREPL(t, dir, srv, nil)
	if txt := s.text(); !strings.Contains(txt, "served-one.gguf @ llamacpp") || strings.Contains(txt, config.DefaultModel) {
		t.Errorf("banner:\n%s", txt)
	}

	// A model chosen (-m, AGENT_MODEL, the file) is kept.
	srv = llmtest.NewWith(t, llmtest.Options{ModelName: "served-one.gguf"}, llmtest.Turn{Text: "ok"}, llmtest.Turn{Text: "ok"})
	r = mm(t, dir, srv, []string{"AGENT_MODEL=mine"}, "", "-p", "hi", "--json")
	if got := jsonStartModel(t, r.stdout); got != "mine" {
		t.Errorf("AGENT_MODEL: start event model %q", got)
	}
	cfg := writeConfig(t, dir, "model: chosen\n")
	r = mm(t, dir, srv, nil, "", "-c", cfg, "-p", "hi", "--json")
	if got := jsonStartModel(t, r.stdout); got != "chosen" {
		t.Errorf("model in the file: start event model %q", got)
	}

	// Several models: the default stays (nothing says which one).
	srv = llmtest.NewWith(t, llmtest.Options{ModelName: "a.gguf", Models: []string{"b.gguf"}}, llmtest.Turn{Text: "ok"})
	r = mm(t, dir, srv, nil, "", "-p", "hi", "--json")
	if got := jsonStartModel(t, r.stdout); got != config.DefaultModel {
		t.Errorf("two models: start event model %q", got)
	}
}

// The default skills directory missing is no news; a skillsDir the file
// names without skills in it is.
func TestDetailsSkillsWarningOnlyWhenSet(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t)
	s := startREPL(t, dir, srv, nil)
	if txt := s.text(); strings.Contains(txt, "no skills found") {
		t.Errorf("warned about the default skills directory:\n%s", txt)
	}
	cfg := writeConfig(t, dir, "skillsDir: myskills\n")
	s = startREPL(t, dir, srv, nil, "-c", cfg)
	if txt := s.text(); !strings.Contains(txt, "[warning: no skills found in "+filepath.Join(dir, "myskills")) {
		t.Errorf("no warning for the configured skillsDir:\n%s", txt)
	}
}

// freePort is a port nothing listens on (it was free a moment ago).
func freePort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	_, port, _ := net.SplitHostPort(ln.Addr().String())
	ln.Close()
	return port
}

// The hint to start llama-server names the port mm looks at.
func TestDetailsNoServerHintPort(t *testing.T) {
	dir := t.TempDir()
	port := freePort(t)
	cfg := writeConfig(t, dir, "provider: llamacpp\nbaseUrl: http://127.0.0.1:"+port+"/v1\n")
	r := mm(t, dir, nil, nil, "", "-c", cfg, "-p", "x")
	if r.code != 3 || !strings.Contains(r.stderr, "--port "+port+"`") || strings.Contains(r.stderr, "8080") {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}
}

// A base URL with a query: every path goes before it, every request
// carries it, and its value is never printed nor traced.
func TestDetailsBaseURLQuery(t *testing.T) {
	const token = "sekret-Tok3n"
	dir := t.TempDir()
	srv := llmtest.New(t, bashCall("echo hi"), llmtest.Turn{Text: "done"})
	env := []string{"AGENT_BASE_URL=" + srv.URL() + "?token=" + token, "AGENT_TRACE=1", "AGENT_YOLO=true"}
	r := mm(t, dir, srv, env, "", "-p", "x")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	paths := map[string]bool{}
	for _, req := range srv.Requests() {
		paths[req.Path] = true
		if req.Query != "token="+token {
			t.Errorf("%s %s: query %q", req.Method, req.Path, req.Query)
		}
	}
	if !paths["/v1/models"] || !paths["/v1/chat/completions"] {
		t.Errorf("paths asked: %v", paths)
	}
	if strings.Contains(r.stdout+r.stderr, token) {
		t.Errorf("the token is printed:\n%s\n%s", r.stdout, r.stderr)
	}
	filepath.Walk(filepath.Join(dir, ".mm"), func(path string, fi os.FileInfo, err error) error {
		if err == nil && fi.Mode().IsRegular() {
			if b, _ := os.ReadFile(path); strings.Contains(string(b), token) {
				t.Errorf("%s holds the token", path)
			}
		}
		return nil
	})

	// The banner shows the query, masked.
	s := startREPL(t, dir, srv, env)
	if txt := s.text(); !strings.Contains(txt, srv.URL()+"?token=***)") || strings.Contains(txt, token) {
		t.Errorf("banner:\n%s", txt)
	}

	// A wrong base URL is quoted, masked.
	cfg := writeConfig(t, dir, "baseUrl: ftp://h/v1?token="+token+"\n")
	r = mm(t, dir, nil, nil, "", "-c", cfg, "-p", "x")
	if r.code != 1 || strings.Contains(r.stderr, token) || !strings.Contains(r.stderr, `"ftp://h/v1?token=***"`) {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}

	// Nothing answers: the error names the URL, masked.
	dead := "http://127.0.0.1:" + freePort(t) + "/v1?token=" + token
	cfg = writeConfig(t, dir, "provider: llamacpp\nbaseUrl: "+dead+"\n")
	r = mm(t, dir, nil, nil, "", "-c", cfg, "-p", "x")
	if r.code != 3 || strings.Contains(r.stderr, token) || !strings.Contains(r.stderr, "/v1/models?token=***:") {
		t.Errorf("exit %d stderr %q", r.code, r.stderr)
	}

	// A value with a quote or a space in it is masked whole, not up to
	// them (a regexp reading free text took the URL to end there).
	for _, v := range []string{"a'" + token, "a\"" + token, "a " + token, "a<" + token} {
		dead := "http://127.0.0.1:" + freePort(t) + "/v1?token=" + v
		r = mm(t, dir, nil, []string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=" + dead}, "", "-p", "x")
		if r.code != 3 || strings.Contains(r.stderr, token) || !strings.Contains(r.stderr, "/v1/models?token=***:") {
			t.Errorf("token %q: exit %d stderr %q", v, r.code, r.stderr)
		}
	}
	// A URL that does not parse is quoted with its query and password
	// masked too.
	for _, bad := range []string{"http://127.0.0.1:80x/v1?token=" + token, "http://u:" + token + "@127.0.0.1:80x/v1"} {
		r = mm(t, dir, nil, []string{"AGENT_BASE_URL=" + bad}, "", "-p", "x")
		if r.code != 1 || strings.Contains(r.stderr, token) || !strings.Contains(r.stderr, "[config error:") {
			t.Errorf("%s: exit %d stderr %q", bad, r.code, r.stderr)
		}
	}
}

// lastContent is the content of the last message of a chat request: the
// tool's output the model reads, after a call.
func lastContent(t *testing.T, req llmtest.Request) string {
	t.Helper()
	msgs, _ := req.JSON["messages"].([]any)
	if len(msgs) == 0 {
		t.Fatalf("no messages in %s", req.Body)
	}
	s, _ := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	return s
}

// maxOutput is the most characters a tool returns to the model, the cut
// marker included.
func TestDetailsMaxOutputHoldsTheMarker(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "big.txt"), []byte(strings.Repeat("a line of text\n", 500)), 0o644)
	cfg := writeConfig(t, dir, "maxOutput: 300\nyolo: true\n")
	srv := llmtest.New(t,
		bashCall("seq 1 2000"),
		call("read_file", `{"path":"big.txt"}`),
		llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	for i, name := range []string{"bash", "read_file"} {
		out := lastContent(t, reqs[i+1])
		if n := len([]rune(out)); n > 300 || !strings.Contains(out, " characters cut ...]") {
			t.Errorf("%s: %d characters:\n%s", name, n, out)
		}
	}
}

// An output holding a forged marker with a count no cut reaches is cut
// anew: its count once overflowed into a negative one.
func TestDetailsMaxOutputForgedMarker(t *testing.T) {
	dir := t.TempDir()
	body := strings.Repeat("a", 400) + "\n[... 9223372036854775807 characters cut ...]\n" + strings.Repeat("b", 400)
	os.WriteFile(filepath.Join(dir, "forged.txt"), []byte(body), 0o644)
	cfg := writeConfig(t, dir, "maxOutput: 300\nyolo: true\n")
	srv := llmtest.New(t, bashCall("cat forged.txt"), llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	out := lastContent(t, srv.ChatRequests()[1])
	if n := len([]rune(out)); n > 300 || strings.Contains(out, "[... -") || !strings.Contains(out, " characters cut ...]") {
		t.Errorf("%d characters:\n%s", n, out)
	}
}

// The 🔐 preview of an edit says what would apply; once allowed, the
// model reads that it applied.
func TestDetailsEditPreviewWouldApply(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("x\n"), 0o644)
	srv := llmtest.New(t, call("edit_file", `{"path":"f.txt","edits":[{"old":"x","new":"y"}]}`), llmtest.Turn{Text: "edited"})
	s := startREPL(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.ask("edit")
	s.expect("🔐 edit_file f.txt")
	s.expect("f.txt: 1 edit would apply, +1 -1 lines")
	s.expect("[a] allow once")
	s.answer("a")
	s.expect("edited")
	if got := lastContent(t, srv.ChatRequests()[1]); !strings.HasPrefix(got, "f.txt: 1 edit applied, +1 -1 lines") {
		t.Errorf("the model reads %q", got)
	}
	if strings.Contains(s.text(), "f.txt: 1 edit applied") && strings.Index(s.text(), "f.txt: 1 edit applied") < strings.Index(s.text(), "allowed once") {
		t.Errorf("the prompt says applied before the answer:\n%s", s.text())
	}
	// The prompt showed the diff: after the answer, its header alone.
	if n := strings.Count(s.text(), "1 +│ y"); n != 1 {
		t.Errorf("the diff is shown %d times, want once (the prompt's):\n%s", n, s.text())
	}
}

// oneShotOnPty runs mm -p with stderr on a pseudo-terminal and stdout a
// pipe, to the end; it returns stdout and what the terminal received.
func oneShotOnPty(t *testing.T, dir string, srv *llmtest.Server, args ...string) (stdout, screen string) {
	t.Helper()
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	pty.Setsize(master, &pty.Winsize{Rows: 40, Cols: 200})
	cmd := exec.Command(mmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "TERM=xterm-256color", "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, tty
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	var raw bytes.Buffer
	read := make(chan struct{})
	go func() {
		io.Copy(&raw, master) // ends with EIO once mm exits
		close(read)
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("mm: %v\n%s", err, raw.String())
		}
	case <-time.After(60 * time.Second):
		cmd.Process.Kill()
		t.Fatal("mm -p did not end")
	}
	<-read
	return out.String(), raw.String()
}

// mm -p shows the line mode's spinner on stderr when it is a terminal:
// nothing of it when it is not.
func TestDetailsOneShotSpinner(t *testing.T) {
	dir := t.TempDir()
	turns := func() []llmtest.Turn {
		return []llmtest.Turn{
			{Progress: []int{10, 700, 2000}, ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo ran"}`}}},
			{Text: "the answer"},
		}
	}
	srv := llmtest.New(t, turns()...)
	stdout, screen := oneShotOnPty(t, dir, srv, "-p", "go", "-no-stdin")
	if stdout != "the answer\n" {
		t.Errorf("stdout %q", stdout)
	}
	plain := ansi.ReplaceAllString(screen, "")
	for _, want := range []string{"Thinking", "Reading the prompt 10/2.0k tokens", "Reading the prompt 700/2.0k tokens"} {
		if !strings.Contains(plain, want) {
			t.Errorf("the terminal did not show %q:\n%q", want, screen)
		}
	}
	// Erased before other output: the tool line starts on a cleared line.
	for _, line := range strings.Split(screen, "\n") {
		if strings.Contains(line, "🛠️ bash: echo ran") {
			if i := strings.LastIndex(line, "\x1b[2K"); i < 0 || !strings.HasPrefix(ansi.ReplaceAllString(line[i:], ""), "🛠️ bash: echo ran") {
				t.Errorf("the spinner is not cleared before the tool line: %q", line)
			}
		}
	}
	if last := plain[strings.LastIndex(plain, "\n")+1:]; strings.TrimSpace(last) != "" {
		t.Errorf("the spinner is left on the last line: %q", last)
	}

	// stderr a pipe: no spinner, no escape sequence.
	srv = llmtest.New(t, turns()...)
	r := mm(t, dir, srv, nil, "", "-p", "go")
	if r.code != 0 || strings.Contains(r.stderr, "Thinking") || strings.Contains(r.stderr, "Reading the prompt") || strings.Contains(r.stderr, "\x1b") {
		t.Errorf("exit %d, stderr %q", r.code, r.stderr)
	}
}

// fakeNpm puts an npm that says what it was asked first on the PATH.
func fakeNpm(t *testing.T, dir string) []string {
	t.Helper()
	bin := filepath.Join(dir, "bin")
	os.Mkdir(bin, 0o755)
	if err := os.WriteFile(filepath.Join(bin, "npm"), []byte("#!/bin/sh\necho \"npm ran: $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return []string{"PATH=" + bin + ":" + os.Getenv("PATH"), "AGENT_YOLO=false"}
}

// A 🔐 answer allows the command's prefix for the session: `npm test`
// allowed, `npm test -- -run X` runs without asking; `npm publish` and a
// compound command with another part still ask.
func TestDetailsPermissionPrefix(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		bashCall("npm test"),
		bashCall("npm test -- -run X"),
		bashCall("npm publish"),
		bashCall("npm test; touch pwned"),
		bashCall("npm test && npm test -- again"),
		llmtest.Turn{Text: "all done"})
	s := startREPL(t, dir, srv, fakeNpm(t, dir))
	s.ask("go")
	s.expect("🔐 bash npm test")
	s.expect(`[a] allow once · [s] allow bash for the session · [p] allow "npm test …" for the session · [r] refuse · [n] never`)
	s.answer("p")
	s.expect(`→ allowed "npm test …" for the session`)
	s.expect("🛠️ bash: npm test -- -run X")
	s.expect("🔐 bash npm publish")
	s.expect(`[p] allow "npm publish …" for the session`)
	s.answer("r")
	s.expect("🔐 bash npm test; touch pwned")
	s.expect("[a] allow once · [s] allow bash for the session · [r] refuse · [n] never") // no prefix for two commands
	s.answer("r")
	s.expect("🛠️ bash: npm test && npm test -- again")
	s.expect("all done")
	if n := strings.Count(s.text(), "🔐 bash"); n != 3 {
		t.Errorf("%d prompts, want 3:\n%s", n, s.text())
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("the compound command ran")
	}
	reqs := srv.ChatRequests()
	for i, want := range []string{"npm ran: test", "npm ran: test -- -run X", "[command rejected by the user]", "[command rejected by the user]", "npm ran: test -- again"} {
		if got := lastContent(t, reqs[i+1]); !strings.Contains(got, want) {
			t.Errorf("call %d: the model reads %q, want %q", i+1, got, want)
		}
	}

	// /new forgets it, like every answer for the session.
	srv.Push(bashCall("npm test"), llmtest.Turn{Text: "again"})
	s.ask("/new")
	s.expect("new conversation")
	s.ask("go")
	s.expect("🔐 bash npm test")
	s.answer("a")
	s.expect("again")
}

// Without a terminal the answer is a line: p too.
func TestDetailsPermissionPrefixPlain(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, bashCall("npm test"), bashCall("npm test -- x"), llmtest.Turn{Text: "fine"})
	r := mm(t, dir, srv, fakeNpm(t, dir), "go\np\n")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if !strings.Contains(r.stdout, `→ allowed "npm test …" for the session`) || strings.Count(r.stdout, "🔐 bash") != 1 {
		t.Errorf("stdout:\n%s", r.stdout)
	}
	if got := lastContent(t, srv.ChatRequests()[2]); !strings.Contains(got, "npm ran: test -- x") {
		t.Errorf("the model reads %q", got)
	}
}

// Bash reads a comment and ANSI-C quoting ($'…', where \' does not end
// the string) where a plain quote scanner sees one quoted argument: after
// `npm test` was allowed, a command hiding a second line behind either
// still asks.
func TestDetailsPermissionPrefixHiddenLine(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		bashCall("npm test"),
		bashCall("npm test # '\ntouch pwned1\n'"),
		bashCall("npm test $'\\' '\ntouch pwned2\n'"),
		llmtest.Turn{Text: "fine"})
	r := mm(t, dir, srv, fakeNpm(t, dir), "go\np\nr\nr\n")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if n := strings.Count(r.stdout, "🔐 bash"); n != 3 {
		t.Errorf("%d prompts, want 3:\n%s", n, r.stdout)
	}
	for _, f := range []string{"pwned1", "pwned2"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s: the hidden line ran without asking", f)
		}
	}
}

// A command runner named by its path is still a runner: `/usr/bin/timeout
// 10 …` would allow any command after it; so would `ssh host …` and
// `coproc timeout …`.
func TestDetailsPermissionPrefixRunnerPath(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, bashCall("/usr/bin/timeout 10 npm test"), bashCall("ssh host ls"), bashCall("coproc timeout 10 npm test"), llmtest.Turn{Text: "fine"})
	r := mm(t, dir, srv, fakeNpm(t, dir), "go\nr\nr\nr\n")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if strings.Count(r.stdout, "[a] allow once · [s] allow bash for the session · [r] refuse · [n] never") != 3 || strings.Contains(r.stdout, "[p]") {
		t.Errorf("stdout:\n%s", r.stdout)
	}
}

// In an editor the prefix is a fifth option, after the tool's own
// allow_always.
func TestDetailsACPPermissionPrefix(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		toolCall("b1", "bash", `{"command":"npm test"}`),
		toolCall("b2", "bash", `{"command":"npm test -- -run X"}`),
		toolCall("b3", "bash", `{"command":"npm publish"}`),
		toolCall("b4", "bash", `{"command":"npm test; touch pwned"}`),
		llmtest.Turn{Text: "done"},
	)
	c := startACP(t, dir, srv, fakeNpm(t, dir))
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	id := c.prompt(sid, "go")
	p, next := answerPermission(t, c, from, selected("allow_prefix"))
	var names []string
	for _, o := range p["options"].([]any) {
		m := o.(map[string]any)
		names = append(names, m["optionId"].(string)+"="+m["name"].(string))
	}
	if got := strings.Join(names, " · "); !strings.Contains(got, `allow_always=Allow bash for this session · allow_prefix=Allow "npm test …" for this session · reject_once=`) {
		t.Errorf("options: %s", got)
	}
	p, next = answerPermission(t, c, next, selected("reject_once"))
	if tc, _ := p["toolCall"].(map[string]any); tc["toolCallId"] != "b3" {
		t.Errorf("asked for %v, want b3", tc["toolCallId"])
	}
	p, _ = answerPermission(t, c, next, selected("reject_once"))
	if tc, _ := p["toolCall"].(map[string]any); tc["toolCallId"] != "b4" {
		t.Errorf("asked for %v, want b4", tc["toolCallId"])
	}
	// b4 offers no prefix: two commands.
	for _, o := range p["options"].([]any) {
		if o.(map[string]any)["optionId"] == "allow_prefix" {
			t.Errorf("a prefix offered for a compound command: %v", p["options"])
		}
	}
	if r := c.stopReason(id); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	if n := strings.Count(c.transcript(), `"session/request_permission"`); n != 3 {
		t.Errorf("%d permission requests, want 3", n)
	}
	if got := lastToolMessage(t, srv.ChatRequests()[2]); !strings.Contains(got, "npm ran: test -- -run X") {
		t.Errorf("b2: the model read %q", got)
	}
}

// An asked agent whose file names no model: its 🗣 line shows no model
// name rather than the built-in default its server may not serve (the
// child uses the one its server serves).
func TestDetailsAskedAgentModelNotGuessed(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.NewWith(t, llmtest.Options{ModelName: "child-served.gguf"}, llmtest.Turn{Text: "Child answer."})
	os.WriteFile(filepath.Join(dir, "child.yaml"), []byte("provider: llamacpp\nbaseUrl: "+child.URL()+"\nacp:\n  name: reviewer\n"), 0o644)
	parentCfg := writeConfig(t, dir, "provider: llamacpp\nmmConfigs:\n  reviewer:\n    path: child.yaml\n    yolo: true\n")
	parent := llmtest.New(t, askCall(`{"agent":"reviewer","prompt":"review the code"}`), llmtest.Turn{Text: "Parent done."})
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "🗣 ask_agent: reviewer — review the code") || strings.Contains(r.stderr, config.DefaultModel) {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if got := child.ChatRequests()[0].JSON["model"]; got != "child-served.gguf" {
		t.Errorf("the child asked for %v", got)
	}
}

// The 🔐 preview of a write_file says what would happen, not what did:
// "would be created" / "would be replaced" before the answer, while the
// model reads "created" / "replaced" once written.
func TestWritePreviewWouldBe(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "old.txt"), []byte("x\n"), 0o644)
	srv := llmtest.New(t,
		call("write_file", `{"path":"new.txt","content":"a\nb\n"}`),
		call("write_file", `{"path":"old.txt","content":"y\n"}`),
		llmtest.Turn{Text: "written"})
	s := startREPL(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.ask("write")
	s.expect("🔐 write_file new.txt")
	s.expect("new.txt: would be created, 2 lines")
	s.expect("[a] allow once")
	s.answer("a")
	s.expect("🔐 write_file old.txt")
	s.expect("old.txt: would be replaced, +1 -1 lines")
	s.expect("[a] allow once")
	s.answer("a")
	s.expect("written")
	reqs := srv.ChatRequests()
	if got := lastContent(t, reqs[1]); !strings.HasPrefix(got, "new.txt: created, 2 lines") {
		t.Errorf("the model reads %q", got)
	}
	if got := lastContent(t, reqs[2]); !strings.HasPrefix(got, "old.txt: replaced, +1 -1 lines") {
		t.Errorf("the model reads %q", got)
	}
}
