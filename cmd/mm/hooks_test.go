//go:build !windows

package main_test

// Hooks (docs/hooks.md) through the binary: each event's deny, replace,
// context and continue, the JSON a hook reads, a hook that hangs or
// crashes, match globs and MCP names, an untrusted project's hooks.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// hookScript writes an executable script into dir and returns its path.
func hookScript(t *testing.T, dir, name, body string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	if err := os.WriteFile(path, []byte("#!/bin/sh\n"+body), 0o755); err != nil {
		t.Fatal(err)
	}
	return path
}

// hooksConfig is a -c file with the hooks given as YAML under hooks:.
func hooksConfig(t *testing.T, dir, hooks string) string {
	t.Helper()
	return writeConfig(t, dir, "maxTurns: 5\nhooks:\n"+hooks)
}

// The worked example of docs/hooks.md: a preTool hook that refuses git
// push. The call does not run, the model reads why, and the hook read
// the event's JSON.
func TestHooksPreToolDeniesGitPush(t *testing.T) {
	dir := t.TempDir()
	hookScript(t, dir, "no-push.sh", `input=$(cat)
printf '%s' "$input" > input.json
case "$input" in
  *'git push'*) echo "pushing is for humans
second line" >&2; exit 2 ;;
esac
exit 0
`)
	cfg := hooksConfig(t, dir, "  preTool:\n    - match: bash\n      command: ./no-push.sh\n")
	srv := llmtest.New(t, bashCall("touch RAN; git push origin main"), llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "push it")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got, want := toolResult(t, srv, 1), "[bash denied by a hook: pushing is for humans]"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	if exists(filepath.Join(dir, "RAN")) {
		t.Error("the denied command ran")
	}
	var in map[string]any
	data, _ := os.ReadFile(filepath.Join(dir, "input.json"))
	if err := json.Unmarshal(data, &in); err != nil {
		t.Fatalf("the hook's input %q: %v", data, err)
	}
	args, _ := in["arguments"].(map[string]any)
	if in["event"] != "preTool" || in["tool"] != "bash" || args["command"] != "touch RAN; git push origin main" ||
		in["cwd"] != dir || in["agentName"] != "bob" || in["output"] != nil {
		t.Errorf("the hook read %s", data)
	}
	if _, ok := in["session"]; !ok {
		t.Errorf("no session field: %s", data)
	}
}

// preTool's replace answers in the call's place; context follows the
// output; a hook whose match does not cover the tool does not run.
func TestHooksPreToolReplaceContextAndMatch(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "f.txt"), []byte("file text\n"), 0o644)
	cfg := hooksConfig(t, dir, `  preTool:
    - match: "read_*"
      command: 'echo "{\"context\": \"read with care\"}"'
    - match: bash
      command: 'echo "{\"replace\": \"cached: 42\"}"'
    - match: "edit_*"
      command: 'touch WRONG'
`)
	srv := llmtest.New(t,
		call("read_file", `{"path":"f.txt"}`),
		bashCall("touch RAN"),
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got := toolResult(t, srv, 1); !strings.Contains(got, "file text") || !strings.HasSuffix(got, "\n\n[context added by a hook]\nread with care") {
		t.Errorf("read_file: the model read %q", got)
	}
	if got := toolResult(t, srv, 2); got != "cached: 42" {
		t.Errorf("bash: the model read %q", got)
	}
	if exists(filepath.Join(dir, "RAN")) || exists(filepath.Join(dir, "WRONG")) {
		t.Error("a replaced call ran, or a hook that does not match")
	}
}

// postTool sees the output and may replace it, add context or withhold
// it; the hooks of one event chain (the second reads the first's
// replacement).
func TestHooksPostTool(t *testing.T) {
	dir := t.TempDir()
	hookScript(t, dir, "redact.sh", `input=$(cat)
printf '%s' "$input" >> post.json; echo >> post.json
case "$input" in
  *SECRET*) echo '{"replace": "[redacted]"}' ;;
  *deny-me*) echo "output withheld" >&2; exit 2 ;;
esac
`)
	hookScript(t, dir, "second.sh", `input=$(cat)
case "$input" in
  *'"output":"[redacted]"'*) echo '{"context": "saw the replacement"}' ;;
esac
`)
	cfg := hooksConfig(t, dir, "  postTool:\n    - command: ./redact.sh\n    - match: bash\n      command: ./second.sh\n")
	srv := llmtest.New(t,
		bashCall("echo SECRET"),
		bashCall("echo deny-me"),
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got, want := toolResult(t, srv, 1), "[redacted]\n\n[context added by a hook]\nsaw the replacement"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	if got, want := toolResult(t, srv, 2), "[bash denied by a hook: output withheld]"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "post.json"))
	var in map[string]any
	if err := json.Unmarshal([]byte(strings.SplitN(string(data), "\n", 2)[0]), &in); err != nil || in["event"] != "postTool" || !strings.Contains(in["output"].(string), "SECRET") {
		t.Errorf("postTool input: %s (%v)", data, err)
	}
}

// userPrompt: a denied question is not sent and the user reads why; a
// replaced one is sent replaced; context follows the question.
func TestHooksUserPrompt(t *testing.T) {
	dir := t.TempDir()
	hookScript(t, dir, "prompt.sh", `input=$(cat)
printf '%s' "$input" > prompt.json
case "$input" in
  *forbidden*) echo "not that question" >&2; exit 2 ;;
  *rewrite*) echo '{"replace": "the rewritten question"}' ;;
  *) echo '{"context": "the branch is main"}' ;;
esac
`)
	cfg := hooksConfig(t, dir, "  userPrompt:\n    - command: ./prompt.sh\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "one"}, llmtest.Turn{Text: "two"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "a forbidden question")
	if r.code != 4 || !strings.Contains(r.stderr, "[error: the question was denied by a hook: not that question — it was not sent]") {
		t.Errorf("denied: exit %d\n%s", r.code, r.stderr)
	}
	if n := len(srv.ChatRequests()); n != 0 {
		t.Errorf("a denied question was sent (%d requests)", n)
	}
	r = mm(t, dir, srv, nil, "", "-c", cfg, "-p", "please rewrite")
	if r.code != 0 || lastUser(t, srv.ChatRequests()[0]) != "the rewritten question" {
		t.Errorf("replace: exit %d, sent %q\n%s", r.code, lastUser(t, srv.ChatRequests()[0]), r.stderr)
	}
	r = mm(t, dir, srv, nil, "", "-c", cfg, "-p", "what branch?")
	if got, want := lastUser(t, srv.ChatRequests()[1]), "what branch?\n\n[context added by a hook]\nthe branch is main"; r.code != 0 || got != want {
		t.Errorf("context: exit %d, sent %q, want %q", r.code, got, want)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "prompt.json"))
	var in map[string]any
	if json.Unmarshal(data, &in) != nil || in["event"] != "userPrompt" || in["prompt"] != "what branch?" {
		t.Errorf("userPrompt input: %s", data)
	}
}

// stop: continue makes one more round with the reason as the user's
// message; a hook that always continues is bounded by maxTurns.
func TestHooksStopContinue(t *testing.T) {
	dir := t.TempDir()
	hookScript(t, dir, "stop.sh", `input=$(cat)
printf '%s' "$input" > stop.json
[ -f again ] && exit 0
touch again
echo '{"continue": "run the tests too"}'
`)
	cfg := hooksConfig(t, dir, "  stop:\n    - command: ./stop.sh\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "first answer"}, llmtest.Turn{Text: "tests pass"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "fix it")
	if r.code != 0 || !strings.Contains(r.stdout, "tests pass") {
		t.Fatalf("exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 || lastUser(t, reqs[1]) != "run the tests too" {
		t.Fatalf("%d requests; the second's question: %q", len(reqs), lastUser(t, reqs[len(reqs)-1]))
	}
	if !strings.Contains(r.stderr, "a stop hook asked for one more round: run the tests too") {
		t.Errorf("no notice:\n%s", r.stderr)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "stop.json"))
	var in map[string]any
	if json.Unmarshal(data, &in) != nil || in["event"] != "stop" || in["answer"] != "tests pass" || in["prompt"] != "fix it" {
		t.Errorf("stop input: %s", data)
	}

	// Always continuing ends at maxTurns.
	dir = t.TempDir()
	cfg = writeConfig(t, dir, "maxTurns: 3\nhooks:\n  stop:\n    - command: 'echo \"{\\\"continue\\\": \\\"more\\\"}\"'\n")
	srv = llmtest.New(t, llmtest.Turn{Text: "a"}, llmtest.Turn{Text: "b"}, llmtest.Turn{Text: "c"})
	r = mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 4 || len(srv.ChatRequests()) != 3 || !strings.Contains(r.stderr, "maxTurns") {
		t.Errorf("always continue: exit %d, %d requests\n%s", r.code, len(srv.ChatRequests()), r.stderr)
	}
}

// hookWaitGone waits until pid no longer runs (a zombie counts as gone).
func hookWaitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		if st, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil && strings.Contains(string(st), ") Z ") {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
	t.Errorf("process %d still runs", pid)
}

// A hook that hangs is killed at its timeout with what it started (its
// group and what left it), a notice says so, and the call goes on; one
// that crashes or prints nonsense is a notice too.
func TestHooksHangAndCrash(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	hookScript(t, dir, "hang.sh", `sleep 300 &
echo $! > child.pid
setsid sleep 301 &
echo $! > escaped.pid
wait
`)
	cfg := hooksConfig(t, dir, `  preTool:
    - command: ./hang.sh
      timeout: 1s
    - command: 'kill -SEGV $$'
    - command: 'echo "not json \033]0;title\007"'
`)
	srv := llmtest.New(t, bashCall("touch RAN"), llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 || !exists(filepath.Join(dir, "RAN")) {
		t.Fatalf("the call did not run: exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		"hook preTool (./hang.sh) timed out after 1s and was killed — ignored",
		"hook preTool (kill -SEGV $$) ended by a signal",
		"printed something that is not one JSON object — ignored",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("no %q in:\n%s", want, r.stderr)
		}
	}
	if strings.Contains(r.stderr, "\x1b]0;") {
		t.Error("a hook's output reached the terminal raw")
	}
	for _, f := range []string{"child.pid", "escaped.pid"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("%s: %q", f, b)
		}
		hookWaitGone(t, pid)
	}
}

// A hook that decides in time is not late because a child it left holds
// its output open past its timeout: the decision stands, and the child is
// killed. (Its timeout is under the second mm gives the pipes to close.)
func TestHooksChildHoldsOutput(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	hookScript(t, dir, "deny.sh", `sleep 300 &
echo $! > child.pid
echo "not in this tree" >&2
exit 2
`)
	cfg := hooksConfig(t, dir, `  preTool:
    - command: ./deny.sh
      timeout: 900ms
`)
	srv := llmtest.New(t, bashCall("touch RAN"), llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if exists(filepath.Join(dir, "RAN")) || strings.Contains(r.stderr, "timed out") {
		t.Fatalf("the hook's denial was lost:\n%s", r.stderr)
	}
	if got, want := toolResult(t, srv, 1), "[bash denied by a hook: not in this tree]"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "child.pid"))
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("child.pid: %q", b)
	}
	hookWaitGone(t, pid)
}

// A field a hook's event has no use for gets a notice; what it can use
// still applies.
func TestHooksUnusedField(t *testing.T) {
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, `  preTool:
    - command: 'echo "{\"context\": \"mind the tabs\", \"continue\": \"more\"}"'
  stop:
    - command: 'echo "{\"replace\": \"other\"}"'
`)
	srv := llmtest.New(t, bashCall("echo hi"), llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, want := range []string{
		`printed "continue", which a preTool hook cannot use — ignored`,
		`printed "replace", which a stop hook cannot use — ignored`,
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("no %q in:\n%s", want, r.stderr)
		}
	}
	if got := toolResult(t, srv, 1); !strings.HasSuffix(got, "[context added by a hook]\nmind the tabs") {
		t.Errorf("the model read %q", got)
	}
	if n := len(srv.ChatRequests()); n != 2 {
		t.Errorf("%d requests: the ignored continue went on", n)
	}
}

// An MCP tool is matched as server/tool, and the hook reads that name.
func TestHooksMCPName(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n"+mcpTinyServer(t, "tiny", dir, "")+`hooks:
  preTool:
    - match: "tiny/p*"
      command: 'cat > mcp.json; echo "no pings" >&2; exit 2'
`)
	srv := llmtest.New(t, llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_ping", `{}`)}}, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got, want := toolResult(t, srv, 1), "[tiny_ping denied by a hook: no pings]"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "mcp.json"))
	if !strings.Contains(string(data), `"tool":"tiny/ping"`) {
		t.Errorf("the hook read %s", data)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "called")); strings.Contains(string(b), "ping") {
		t.Error("the denied MCP call reached the server")
	}
}

// A project's own agent.yaml gets its hooks only once trusted: mm trust
// shows what they would run.
func TestHooksUntrustedProject(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, bashCall("echo hi"), llmtest.Turn{Text: "ok"}, bashCall("echo hi"), llmtest.Turn{Text: "ok"})
	env, _ := trustEnv(t, "provider: llamacpp\nfallback: \"\"\nbaseUrl: "+srv.URL()+"\n")
	write(t, filepath.Join(dir, "agent.yaml"), "hooks:\n  preTool:\n    - match: bash\n      command: touch MARKER\n")
	r := mm(t, dir, nil, env, "", "-p", "hi")
	if r.code != 0 || exists(filepath.Join(dir, "MARKER")) {
		t.Fatalf("untrusted: exit %d, marker %v\n%s", r.code, exists(filepath.Join(dir, "MARKER")), r.stderr)
	}
	if !strings.Contains(r.stderr, "[warning: agent.yaml is not trusted: hooks not applied") {
		t.Errorf("no warning:\n%s", r.stderr)
	}
	r = mm(t, dir, nil, env, "", "trust")
	if r.code != 0 || !strings.Contains(r.stdout, `hook preTool (bash): sh -c "touch MARKER"`) {
		t.Fatalf("mm trust: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	r = mm(t, dir, nil, env, "", "-p", "hi")
	if r.code != 0 || !exists(filepath.Join(dir, "MARKER")) {
		t.Errorf("trusted, the hook did not run: exit %d\n%s", r.code, r.stderr)
	}
}

// ACP: a call a hook denies ends failed, the hook reads the session's
// id; a denied question ends with the refusal stop reason and the user
// reads why.
func TestHooksACP(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, `provider: llamacpp
hooks:
  preTool:
    - match: bash
      command: 'cat > tool.json; echo "no shell here" >&2; exit 2'
  userPrompt:
    - command: 'grep -q forbidden && { echo "not that" >&2; exit 2; }; exit 0'
`)
	srv := llmtest.New(t, toolCall("b1", "bash", `{"command":"touch RAN"}`), llmtest.Turn{Text: "done"})
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	if r := c.stopReason(c.prompt(sid, "go")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	us := c.updates(sid, from, -1)
	if u := ofCall(us, "b1"); len(u) == 0 || u[len(u)-1]["status"] != "failed" {
		t.Errorf("the denied call: %v", u)
	}
	if got := lastToolMessage(t, srv.ChatRequests()[1]); got != "[bash denied by a hook: no shell here]" {
		t.Errorf("the model read %q", got)
	}
	if exists(filepath.Join(dir, "RAN")) {
		t.Error("the denied call ran")
	}
	data, _ := os.ReadFile(filepath.Join(dir, "tool.json"))
	if !strings.Contains(string(data), `"session":"`+sid+`"`) {
		t.Errorf("the hook read %s, want session %s", data, sid)
	}

	from = c.mark()
	if r := c.stopReason(c.prompt(sid, "a forbidden question")); r != "refusal" {
		t.Errorf("denied question: stopReason %q", r)
	}
	c.waitUpdate(from, sid, "the denial", func(u map[string]any) bool {
		content, _ := u["content"].(map[string]any)
		text, _ := content["text"].(string)
		return u["sessionUpdate"] == "agent_message_chunk" && text == "[error: the question was denied by a hook: not that — it was not sent]"
	})
	if n := len(srv.ChatRequests()); n != 2 {
		t.Errorf("the denied question was sent: %d requests", n)
	}
}

// The line mode: a denied call shows as the model reads it, a failing
// hook's notice reaches the terminal sanitised, a denied question says
// why and is not sent.
func TestHooksLineMode(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, `hooks:
  preTool:
    - match: bash
      command: 'echo "nope \033]52;c;ZXZpbA==\007" >&2; exit 1'
    - match: bash
      command: 'echo "{\"deny\": \"shell off today\"}"'
  userPrompt:
    - command: 'grep -q forbidden && { echo "ask something else" >&2; exit 2; }; exit 0'
`)
	srv := llmtest.New(t, bashCall("touch RAN"), llmtest.Turn{Text: "all done"})
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("go")
	s.expect("hook preTool (echo")
	s.expect("exited with status 1: nope ^[]52;c;ZXZpbA==^G — ignored")
	s.expect("[bash denied by a hook: shell off today]")
	s.expect("all done")
	s.ask("a forbidden one")
	s.expect("the question was denied by a hook: ask something else — it was not sent")
	if strings.Contains(s.raw(), "\x1b]52") {
		t.Error("a hook's stderr reached the terminal raw")
	}
	if exists(filepath.Join(dir, "RAN")) {
		t.Error("the denied call ran")
	}
	if n := len(srv.ChatRequests()); n != 2 {
		t.Errorf("%d requests, want 2 (the denied question is not sent)", n)
	}
}

// askHooks appends hooks to the parent configuration of askPair.
func askHooks(t *testing.T, parentCfg, hooks string) {
	t.Helper()
	f, err := os.OpenFile(parentCfg, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("hooks:\n" + hooks)
	f.Close()
}

// The ask events through ask_agent: preAsk refuses with the reference's
// text, the refused agent is not asked; postAsk replaces the answer and
// adds context, the texts byte for byte; match covers agent names.
func TestHooksAskAgent(t *testing.T) {
	dir := t.TempDir()
	hookScript(t, dir, "pre.sh", `input=$(cat)
printf '%s' "$input" > pre.json
case "$input" in *secret*) echo "no secrets for the reviewer" >&2; exit 2 ;; esac
`)
	hookScript(t, dir, "post.sh", `input=$(cat)
printf '%s' "$input" > post.json
echo '{"replace": "LGTM", "context": "checked by post.sh"}'
`)
	child := llmtest.New(t, llmtest.Turn{Text: "The child's long answer."})
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	askHooks(t, parentCfg, "  preAsk:\n    - match: \"rev*\"\n      command: ./pre.sh\n    - match: other\n      command: touch WRONG\n  postAsk:\n    - command: ./post.sh\n")
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"the secret plan"}`),
		askCall(`{"agent":"reviewer","prompt":"review it"}`),
		llmtest.Turn{Text: "Parent done."},
	)
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	reqs := parent.ChatRequests()
	if got, want := askResult(t, reqs[1]), "[ask denied by a hook: no secrets for the reviewer]"; got != want {
		t.Errorf("denied: the model read %q, want %q", got, want)
	}
	if got, want := askResult(t, reqs[2]), "LGTM\n\n[context added by a hook]\nchecked by post.sh"; got != want {
		t.Errorf("replaced: the model read %q, want %q", got, want)
	}
	if creqs := child.ChatRequests(); len(creqs) != 1 || lastUser(t, creqs[0]) != "review it" {
		t.Errorf("the child got %d requests", len(creqs))
	}
	if exists(filepath.Join(dir, "WRONG")) {
		t.Error("a preAsk hook for another agent ran")
	}
	var pre, post map[string]any
	b1, _ := os.ReadFile(filepath.Join(dir, "pre.json"))
	b2, _ := os.ReadFile(filepath.Join(dir, "post.json"))
	if json.Unmarshal(b1, &pre) != nil || pre["event"] != "preAsk" || pre["agent"] != "reviewer" || pre["prompt"] != "review it" {
		t.Errorf("preAsk input %s", b1)
	}
	if json.Unmarshal(b2, &post) != nil || post["event"] != "postAsk" || post["answer"] != "The child's long answer." {
		t.Errorf("postAsk input %s", b2)
	}
}

// The editor shows a replaced answer's call as the reference says, and
// /ask-NAME goes through the hooks too.
func TestHooksAskACP(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "Original."}, llmtest.Turn{Text: "Second."})
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	askHooks(t, parentCfg, "  postAsk:\n    - command: 'echo \"{\\\"replace\\\": \\\"Replaced!\\\"}\"'\n  preAsk:\n    - command: 'grep -q forbidden && { echo \"not this one\" >&2; exit 2; }; exit 0'\n")
	parent := llmtest.New(t,
		toolCall("a1", "ask_agent", `{"agent":"reviewer","prompt":"look"}`),
		llmtest.Turn{Text: "Parent done."},
	)
	c := startACP(t, dir, parent, nil, "-c", parentCfg)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	if r := c.stopReason(c.prompt(sid, "go")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	ask := ofCall(c.updates(sid, from, -1), "a1")
	var last []string
	for _, u := range ask {
		if u["content"] != nil {
			last = contentTexts(u)
		}
	}
	if len(last) == 0 || last[len(last)-1] != "reviewer answered; a hook replaced the answer (9 characters)" {
		t.Errorf("the ask_agent call's content %q", last)
	}
	if got := lastToolMessage(t, parent.ChatRequests()[1]); got != "Replaced!" {
		t.Errorf("the model read %q", got)
	}
	from = c.mark()
	c.stopReason(c.prompt(sid, "/ask-reviewer a forbidden thing"))
	if got := chunkText(c.updates(sid, from, -1), "agent_message_chunk"); !strings.Contains(got, "[ask denied by a hook: not this one]") {
		t.Errorf("/ask denied: %q", got)
	}
	if n := len(child.ChatRequests()); n != 1 {
		t.Errorf("the child got %d requests, want 1", n)
	}
}

// mm --ask runs this agent's ask hooks: a refusal on stderr (exit 4), a
// replaced answer on stdout with the reference's line on stderr.
func TestHooksAskCommand(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "orig"})
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	askHooks(t, parentCfg, "  preAsk:\n    - command: 'grep -q forbidden && { echo \"refused\" >&2; exit 2; }; exit 0'\n  postAsk:\n    - command: 'echo \"{\\\"replace\\\": \\\"new text\\\"}\"'\n")
	r := mm(t, dir, nil, nil, "", "-c", parentCfg, "--ask", "reviewer", "a forbidden ask")
	if r.code != 4 || r.stdout != "" || !strings.Contains(r.stderr, "[ask denied by a hook: refused]") {
		t.Errorf("denied: exit %d stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	r = mm(t, dir, nil, nil, "", "-c", parentCfg, "--ask", "reviewer", "fine")
	if r.code != 0 || r.stdout != "new text\n" || !strings.Contains(r.stderr, "reviewer answered; a hook replaced the answer (8 characters)") {
		t.Errorf("replaced: exit %d stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
}

// --json: each hook's decision is a hook event; a failing hook a notice.
func TestHooksJSONEvents(t *testing.T) {
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, `  preTool:
    - match: bash
      command: 'echo "{\"deny\": \"not today\"}"'
    - command: 'exit 3'
  userPrompt:
    - command: 'echo "{\"context\": \"ctx\"}"'
`)
	srv := llmtest.New(t, bashCall("touch RAN"), llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "--json", "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	var hooks, notices []map[string]any
	var end map[string]any
	for _, line := range strings.Split(strings.TrimSpace(r.stdout), "\n") {
		var ev map[string]any
		if err := json.Unmarshal([]byte(line), &ev); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		switch ev["type"] {
		case "hook":
			hooks = append(hooks, ev)
		case "notice":
			notices = append(notices, ev)
		case "tool_end":
			end = ev
		}
	}
	want := []map[string]any{
		{"type": "hook", "event": "userPrompt", "command": `echo "{\"context\": \"ctx\"}"`, "decision": "context", "text": "ctx"},
		{"type": "hook", "event": "preTool", "name": "bash", "command": `echo "{\"deny\": \"not today\"}"`, "decision": "deny", "text": "not today"},
	}
	if len(hooks) != 2 || !jsonEqual(hooks[0], want[0]) || !jsonEqual(hooks[1], want[1]) {
		t.Errorf("hook events %v\nwant %v", hooks, want)
	}
	if end["output"] != "[bash denied by a hook: not today]" {
		t.Errorf("tool_end %v", end)
	}
	// The deny stops the list: the hook after it does not run.
	if len(notices) != 0 {
		t.Errorf("notices %v", notices)
	}
}

func jsonEqual(a, b map[string]any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

// The window mode: a failing hook's notice and a denied call show in the
// conversation; a denied question says why.
func TestHooksWindow(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, `hooks:
  preTool:
    - command: 'echo "broken hook" >&2; exit 1'
    - match: bash
      command: 'echo "{\"deny\": \"shell off\"}"'
  userPrompt:
    - command: 'grep -q forbidden && { echo "ask another" >&2; exit 2; }; exit 0'
`)
	srv := llmtest.New(t, bashCall("touch RAN"), llmtest.Turn{Text: "Finished."})
	s := startTUI(t, dir, srv, nil, "-c", cfg)
	s.wait("Ctrl-D quits")
	s.send("go\r")
	s.wait("hook — ignored")
	s.wait("Finished.")
	if got := toolResult(t, srv, 1); got != "[bash denied by a hook: shell off]" {
		t.Errorf("the model read %q", got)
	}
	s.send("a forbidden question\r")
	s.wait("denied by a hook: ask another")
	if n := len(srv.ChatRequests()); n != 2 || exists(filepath.Join(dir, "RAN")) {
		t.Errorf("%d requests, ran %v", n, exists(filepath.Join(dir, "RAN")))
	}
}

// A hook runs with the bash tool's environment: mm's, without the API
// key (what a hook prints may reach the model).
func TestHooksEnvironment(t *testing.T) {
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, "  userPrompt:\n    - command: 'env > env.txt'\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, []string{"LLAMA_API_KEY=s3cr3t-key", "OTHER_VAR=kept"}, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	env, _ := os.ReadFile(filepath.Join(dir, "env.txt"))
	if strings.Contains(string(env), "s3cr3t-key") || !strings.Contains(string(env), "OTHER_VAR=kept") {
		t.Errorf("the hook's environment:\n%s", env)
	}
}

// A turn stopped while a hook runs (Ctrl-C with -p) kills the hook and
// what it started, and the call does not run.
func TestHooksKilledWithTheTurn(t *testing.T) {
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, "  preTool:\n    - command: 'sleep 300 & echo $! > child.pid; wait'\n      timeout: 5m\n")
	srv := llmtest.New(t, bashCall("touch RAN"), llmtest.Turn{Text: "ok"})
	cmd := mmCommand(t, dir, srv, "-c", cfg, "-p", "go")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pidFile := filepath.Join(dir, "child.pid")
	mcpWaitLines(t, pidFile, 1)
	b, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(b)))
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("mm ended with %v, want exit 130", err)
	}
	hookWaitGone(t, pid)
	if exists(filepath.Join(dir, "RAN")) {
		t.Error("the call ran after the turn was stopped")
	}
}

// An ask nobody gets (an unknown agent) runs no ask hook: the model reads
// the pool's own error.
func TestHooksAskUnknownAgent(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t)
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	askHooks(t, parentCfg, "  preAsk:\n    - command: 'touch RAN; exit 2'\n")
	parent := llmtest.New(t, askCall(`{"agent":"nobody","prompt":"hi"}`), llmtest.Turn{Text: "done"})
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got, want := askResult(t, parent.ChatRequests()[1]), `[ask_agent: unknown agent "nobody" — agents: reviewer]`; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	if exists(filepath.Join(dir, "RAN")) {
		t.Error("a preAsk hook ran for an unknown agent")
	}
}

// With sessions on, a hook reads the saved session's id: -p's and the
// line mode's.
func TestHooksSessionID(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sessions:\n  enabled: true\nhooks:\n  preTool:\n    - command: 'cat > input.json'\n")
	check := func(how string) {
		t.Helper()
		files := sessionFiles(t, dir)
		if len(files) == 0 {
			t.Fatalf("%s: no session file", how)
		}
		id := strings.TrimSuffix(filepath.Base(files[len(files)-1]), ".json")
		data, _ := os.ReadFile(filepath.Join(dir, "input.json"))
		if !strings.Contains(string(data), `"session":"`+id+`"`) {
			t.Errorf("%s: the hook read %s, want session %s", how, data, id)
		}
	}
	srv := llmtest.New(t, bashCall("true"), llmtest.Turn{Text: "ok"}, bashCall("true"), llmtest.Turn{Text: "again"})
	if r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	check("-p")
	os.RemoveAll(filepath.Join(dir, ".mm"))
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("go")
	s.expect("again")
	check("line mode")
}

// A hook that exits but leaves a process behind (in its group, or out of
// it holding its output open) does not leave it running.
func TestHooksLeftBehind(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, "  preTool:\n    - command: 'sleep 303 & echo $! > group.pid; setsid sleep 302 & echo $! > left.pid'\n")
	srv := llmtest.New(t, bashCall("touch RAN"), llmtest.Turn{Text: "ok"})
	if r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go"); r.code != 0 || !exists(filepath.Join(dir, "RAN")) {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, f := range []string{"group.pid", "left.pid"} {
		b, _ := os.ReadFile(filepath.Join(dir, f))
		pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
		if err != nil {
			t.Fatalf("%s: %q", f, b)
		}
		hookWaitGone(t, pid)
	}
}

// preAsk's replace and context change what the agent is asked; postAsk's
// deny withholds the answer.
func TestHooksAskReplacePromptDenyAnswer(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "a leaky answer"})
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	askHooks(t, parentCfg, `  preAsk:
    - command: 'echo "{\"replace\": \"the better prompt\", \"context\": \"repo is mm\"}"'
  postAsk:
    - command: 'grep -q leaky && { echo "the answer leaks" >&2; exit 2; }; exit 0'
`)
	parent := llmtest.New(t, askCall(`{"agent":"reviewer","prompt":"the prompt"}`), llmtest.Turn{Text: "done"})
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got, want := lastUser(t, child.ChatRequests()[0]), "the better prompt\n\n[context added by a hook]\nrepo is mm"; got != want {
		t.Errorf("the child was asked %q, want %q", got, want)
	}
	if got, want := askResult(t, parent.ChatRequests()[1]), "[ask denied by a hook: the answer leaks]"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
}

// exit 2 from a stop hook refuses the end of the turn: one more round
// with its reason, as Claude Code's Stop hooks.
func TestHooksStopExit2(t *testing.T) {
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, "  stop:\n    - command: '[ -f again ] && exit 0; touch again; echo \"tests were not run\" >&2; exit 2'\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "done?"}, llmtest.Turn{Text: "now done"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 || r.stdout != "now done\n" {
		t.Fatalf("exit %d stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	if got := lastUser(t, srv.ChatRequests()[1]); got != "tests were not run" {
		t.Errorf("the next round's message %q", got)
	}
}

// The line mode's trust question shows what a project's hooks would run,
// and refused, they do not run.
func TestHooksTrustQuestion(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, bashCall("echo hi"), llmtest.Turn{Text: "answered"})
	env, _ := trustEnv(t, "provider: llamacpp\nfallback: \"\"\nbaseUrl: "+srv.URL()+"\n")
	write(t, filepath.Join(dir, "agent.yaml"), "hooks:\n  preTool:\n    - match: bash\n      command: \"touch MARKER # \\e]0;pwned\\a\"\n")
	s := startPTY(t, dir, nil, env)
	s.expect("agent.yaml comes with this directory and is not trusted yet")
	s.expect(`hook preTool (bash): sh -c "touch MARKER # \x1b]0;pwned\a"`)
	s.send("n")
	s.expect("→ not trusted: hooks not applied")
	s.expect("Ctrl-D quits")
	s.ask("go")
	s.expect("answered")
	if exists(filepath.Join(dir, "MARKER")) {
		t.Error("the untrusted hook ran")
	}
	if strings.Contains(s.raw(), "\x1b]0;pwned") {
		t.Error("the file's escape sequence reached the terminal")
	}
}

// A hook that denies (exit 2, or any status but 0) and leaves a process
// out of its group holding its output open does not leave it running
// either: the sweep is not only for a hook that exited 0.
func TestHooksLeftBehindByADenial(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, "  preTool:\n    - command: 'setsid sleep 305 & echo $! > left.pid; echo no >&2; exit 2'\n")
	srv := llmtest.New(t, bashCall("touch RAN"), llmtest.Turn{Text: "ok"})
	if r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go"); r.code != 0 || exists(filepath.Join(dir, "RAN")) {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got, want := toolResult(t, srv, 1), "[bash denied by a hook: no]"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	b, _ := os.ReadFile(filepath.Join(dir, "left.pid"))
	pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
	if err != nil {
		t.Fatalf("left.pid: %q", b)
	}
	hookWaitGone(t, pid)
}

// A question a userPrompt hook refuses starts no saved session in the
// line mode (as with -p): nothing was sent, so there is no turn to keep,
// and /sessions lists no empty conversation.
func TestHooksDeniedQuestionSavesNoSession(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "sessions:\n  enabled: true\nhooks:\n  userPrompt:\n    - command: 'echo no >&2; exit 2'\n")
	srv := llmtest.New(t)
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("first")
	s.expect("the question was denied by a hook: no — it was not sent")
	s.ask("/sessions")
	s.expect("no session in ")
	s.ask("/quit")
	s.exit()
	if files, _ := filepath.Glob(filepath.Join(dir, ".mm", "sessions", "*.json")); len(files) != 0 {
		t.Errorf("a denied question saved %v", files)
	}
}

// The same in ACP: a refused question ends `refusal` and adds nothing to
// the saved session.
func TestHooksDeniedQuestionSavesNoSessionACP(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nsessions:\n  enabled: true\nhooks:\n  userPrompt:\n    - command: 'echo no >&2; exit 2'\n")
	srv := llmtest.New(t)
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	if r := c.stopReason(c.prompt(sid, "first")); r != "refusal" {
		t.Fatalf("stopReason %q", r)
	}
	// The file exists from session/new (a session never prompted is
	// loadable): the refusal adds no turn and no error to it.
	data, err := os.ReadFile(filepath.Join(dir, ".mm", "sessions", sid+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var saved struct {
		Turns  int
		Errors []any
	}
	if err := json.Unmarshal(data, &saved); err != nil || saved.Turns != 0 || len(saved.Errors) != 0 {
		t.Errorf("the session after a denied question (%v): %s", err, data)
	}
}

// A turn stopped while a postTool hook runs (Esc) does not hand the
// model the output that hook was to decide on: the next question must
// not carry what a redacting hook never saw.
func TestHooksPostToolStoppedWithholdsOutput(t *testing.T) {
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, "  postTool:\n    - command: 'echo $$ > started; sleep 300'\n      timeout: 5m\n")
	srv := llmtest.New(t, bashCall("echo SECRET-$((40+2))"), llmtest.Turn{Text: "next answer"})
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("go")
	mcpWaitLines(t, filepath.Join(dir, "started"), 1)
	s.send("\x1b")
	s.ask("what now")
	s.expect("next answer")
	reqs := srv.ChatRequests()
	if last := string(reqs[len(reqs)-1].Body); strings.Contains(last, "SECRET-42") {
		t.Errorf("the model read the output its postTool hook never decided on:\n%s", last)
	}
}

// mm --ask interrupted while a postAsk hook runs prints no answer: the
// hook that was to withhold or rewrite it never decided.
func TestHooksPostAskStoppedWithholdsAnswer(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "SECRET-ANSWER"})
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	askHooks(t, parentCfg, "  postAsk:\n    - command: 'echo $$ > started; sleep 300'\n      timeout: 5m\n")
	cmd := mmCommand(t, dir, child, "-c", parentCfg, "--ask", "reviewer", "tell me")
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	mcpWaitLines(t, filepath.Join(dir, "started"), 1)
	cmd.Process.Signal(syscall.SIGINT)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("mm --ask ended with %v, want exit 130", err)
	}
	if strings.Contains(out.String(), "SECRET-ANSWER") {
		t.Errorf("the answer reached stdout: %q", out.String())
	}
}

// userPrompt and stop name no tool nor agent: a match there is not read
// (docs/configuration.md), and the hook runs.
func TestHooksMatchNotReadForPromptAndStop(t *testing.T) {
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, "  userPrompt:\n    - match: bash\n      command: 'touch UP_RAN'\n  stop:\n    - match: \"x*\"\n      command: 'touch STOP_RAN'\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	if r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "hi"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, f := range []string{"UP_RAN", "STOP_RAN"} {
		if !exists(filepath.Join(dir, f)) {
			t.Errorf("the hook with a match did not run (%s)", f)
		}
	}
}

// A hook has no controlling terminal either (as bash, TestBashHasNoTerminal):
// what it writes to /dev/tty cannot reach the screen past the sanitiser,
// and a hook that would read it fails at once instead of stopping until
// its timeout.
func TestHooksHaveNoTerminal(t *testing.T) {
	dir := t.TempDir()
	cfg := hooksConfig(t, dir, `  preTool:
    - command: 'printf "A\033]0;hook-title\007B" > /dev/tty; echo "tty-rc=$?" > tty.txt'
`)
	srv := llmtest.New(t, bashCall("true"), llmtest.Turn{Text: "line done"})
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("go")
	s.expect("line done")
	s.mu.Lock()
	raw := s.out.String()
	s.mu.Unlock()
	if strings.Contains(raw, "\x1b]0;hook-title") {
		t.Errorf("a hook wrote an escape sequence to the terminal, unsanitised:\n%q", raw)
	}
	// sh's status for a redirection that fails: 1 or 2, never 0.
	if b, _ := os.ReadFile(filepath.Join(dir, "tty.txt")); !strings.HasPrefix(string(b), "tty-rc=") || strings.TrimSpace(string(b)) == "tty-rc=0" {
		t.Errorf("the hook's write to /dev/tty: %q, want it refused", b)
	}
	s.ask("/quit")
	s.exit()
}
