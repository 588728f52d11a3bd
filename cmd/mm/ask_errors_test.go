package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// The reference's error texts, byte for byte, as the model reads them.
func TestAskAgentErrors(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: ""})
	parentCfg, _ := askPair(t, dir, child, "", "")
	// A second agent whose file does not exist: a warning at start, a
	// failure when asked.
	cfg, _ := os.ReadFile(parentCfg)
	os.WriteFile(parentCfg, append(cfg, []byte("  ghost: nowhere.yaml\n")...), 0o644)
	parent := llmtest.New(t,
		askCall(`{"agent":"nobody","prompt":"x"}`),
		askCall(`{"agent":"reviewer","prompt":"  \n "}`),
		askCall(`{"agent":"reviewer","prompt":"answer nothing"}`),
		askCall(`{"agent":"ghost","prompt":"boo"}`),
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	reqs := parent.ChatRequests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests\n%s", len(reqs), r.stderr)
	}
	want := []string{
		`[ask_agent: unknown agent "nobody" — agents: ghost, reviewer]`,
		`[ask_agent: the prompt is empty — say what reviewer must do]`,
		`[ask_agent: reviewer gave no answer]`,
	}
	for i, w := range want {
		if got := askResult(t, reqs[i+1]); got != w {
			t.Errorf("call %d: %q, want %q", i+1, got, w)
		}
	}
	ghost := filepath.Join(dir, "nowhere.yaml")
	if got, w := askResult(t, reqs[4]), "[ask_agent: ghost failed: config error: "; !strings.HasPrefix(got, w) || !strings.Contains(got, ghost) {
		t.Errorf("ghost: %q, want %q… naming %s", got, w, ghost)
	}
	if !strings.Contains(r.stderr, "mmConfigs.ghost: "+ghost+" does not exist") {
		t.Errorf("no warning for the missing file:\n%s", r.stderr)
	}
}

// Asks nest at most two levels deep: a → b → c works, c cannot ask d.
func TestAskAgentDepthThreeRefused(t *testing.T) {
	dir := t.TempDir()
	d := llmtest.New(t) // never asked
	c := llmtest.New(t,
		askCall(`{"agent":"d","prompt":"go deeper"}`),
		llmtest.Turn{Text: "c could not ask d"},
	)
	b := llmtest.New(t,
		askCall(`{"agent":"c","prompt":"ask d"}`),
		llmtest.Turn{Text: "b got: c could not ask d"},
	)
	a := llmtest.New(t,
		askCall(`{"agent":"b","prompt":"ask c"}`),
		llmtest.Turn{Text: "a done"},
	)
	write := func(name string, srv *llmtest.Server, next string) string {
		body := fmt.Sprintf("provider: llamacpp\nbaseUrl: %s\nacp:\n  name: %s\n", srv.URL(), name)
		if next != "" {
			body += fmt.Sprintf("mmConfigs:\n  %s: {path: %s.yaml, yolo: true}\n", next, next)
		}
		path := filepath.Join(dir, name+".yaml")
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	write("d", d, "")
	write("c", c, "d")
	write("b", b, "c")
	top := write("a", a, "b")
	r := mm(t, dir, nil, nil, "", "-c", top, "-p", "go")
	if r.code != 0 || r.stdout != "a done\n" {
		t.Fatalf("exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	creqs := c.ChatRequests()
	if len(creqs) != 2 {
		t.Fatalf("c made %d requests", len(creqs))
	}
	want := "[ask_agent: d cannot be asked: this agent was itself asked by another, 2 levels deep (MM_ASK_DEPTH), the most there can be — do the task yourself]"
	if got := askResult(t, creqs[1]); got != want {
		t.Errorf("c read %q\nwant %q", got, want)
	}
	if n := len(d.ChatRequests()); n != 0 {
		t.Errorf("d was asked (%d requests)", n)
	}
	if got := askResult(t, a.ChatRequests()[1]); got != "b got: c could not ask d" {
		t.Errorf("a read %q", got)
	}
}

// with_context sends the conversation before the prompt: questions,
// answers, one line per tool call, never a tool's output, cut to
// maxOutput keeping the most recent.
func TestAskAgentWithContext(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "ok"})
	parentCfg, _ := askPair(t, dir, child, "", "")
	cfg, _ := os.ReadFile(parentCfg)
	os.WriteFile(parentCfg, append(cfg, []byte("maxOutput: 300\nsessions:\n  enabled: true\n")...), 0o644)
	parent := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"printf out-%s put"}`}}},
		llmtest.Turn{Text: "first answer"},
		askCall(`{"agent":"reviewer","prompt":"the task","with_context":true}`),
		llmtest.Turn{Text: "second answer"},
	)
	long := "first question " + strings.Repeat("x", 400)
	if r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", long); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-continue", "-p", "second question"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	creqs := child.ChatRequests()
	if len(creqs) != 1 {
		t.Fatalf("%d child requests", len(creqs))
	}
	got := lastUser(t, creqs[0])
	want := "The conversation so far (questions, answers and tool calls; tool outputs left out):\n\n" +
		"[… the start of the conversation is left out]\n" +
		"Tool call: bash {\"command\":\"printf out-%s put\"}\n" +
		"Assistant: first answer\n" +
		"User: second question\n\n" +
		"The task:\nthe task"
	if got != want {
		t.Errorf("the child read:\n%s\nwant:\n%s", got, want)
	}
	if strings.Contains(got, "out-put") {
		t.Errorf("a tool output went to the child")
	}
}

// A child killed while it answers: the call returns what it had said,
// then the stop text.
func TestAskAgentChildKilled(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{Text: "Half an answer.", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"kill -9 $PPID; sleep 5"}`}}},
	)
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"answer"}`),
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	got := askResult(t, parent.ChatRequests()[1])
	want := "Half an answer.\n[ask_agent: reviewer stopped before finishing: its process ended (signal: killed)]"
	if got != want {
		t.Errorf("tool result %q\nwant %q", got, want)
	}
}

// The children end with mm: after a normal exit, and when mm is killed.
func TestAskAgentChildrenEndWithMM(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo $PPID > child1.pid"}`}}},
		llmtest.Turn{Text: "noted"},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo $PPID > child2.pid; sleep 60"}`}}},
	)
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"note your pid"}`),
		llmtest.Turn{Text: "done"},
		askCall(`{"agent":"reviewer","prompt":"note it and wait"}`),
	)
	if r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	waitGone(t, waitPidFile(t, filepath.Join(dir, "child1.pid"), time.Second), "the child after mm's exit")

	cmd := mmCommand(t, dir, parent, "-c", parentCfg, "-p", "go on")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	pid := waitPidFile(t, filepath.Join(dir, "child2.pid"), 20*time.Second)
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	waitGone(t, pid, "the child after mm was killed")
}

// An asked agent silent for longer than the limit ends the call: this
// agent's watchdogTimeout while its command runs; while it reads its
// prompt, its firstTokenTimeout, when its own watchdog says why.
func TestAskAgentWatchdog(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"sleep 30"}`}}},
		llmtest.Turn{FirstByteDelay: 30 * time.Second, Text: "too late"},
	)
	parentCfg, _ := askPair(t, dir, child, "watchdogTimeout: 1s\nfirstTokenTimeout: 1s\n", "yolo: true")
	cfg, _ := os.ReadFile(parentCfg)
	os.WriteFile(parentCfg, append(cfg, []byte("watchdogTimeout: 1s\n")...), 0o644)
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"answer"}`),
		llmtest.Turn{Text: "done"},
		askCall(`{"agent":"reviewer","prompt":"answer again"}`),
		llmtest.Turn{Text: "done again"},
	)
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	want := "[ask_agent: reviewer failed: no sign of life from it for 1s (watchdogTimeout)]"
	if got := askResult(t, parent.ChatRequests()[1]); got != want {
		t.Errorf("tool result %q\nwant %q", got, want)
	}
	r = mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "again")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	want = "[ask_agent: reviewer failed: error: no first token from the server after 1s]"
	if got := askResult(t, parent.ChatRequests()[3]); got != want {
		t.Errorf("tool result %q\nwant %q", got, want)
	}
}

// The call itself asks permission like bash: with yolo: false and -p,
// nobody can allow it. A child inherits AGENT_TRACE and traces beside
// its parent under its own acp.name.
func TestAskAgentPermissionAndTrace(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "traced"})
	parentCfg, _ := askPair(t, dir, child, "", "")
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"x"}`),
		llmtest.Turn{Text: "refused then"},
		askCall(`{"agent":"reviewer","prompt":"y"}`),
		llmtest.Turn{Text: "asked then"},
	)
	r := mm(t, dir, parent, []string{"AGENT_YOLO=false"}, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if got := askResult(t, parent.ChatRequests()[1]); got != "[ask_agent rejected by the user]" {
		t.Errorf("refused call: %q", got)
	}
	if n := len(child.ChatRequests()); n != 0 {
		t.Errorf("the refused call asked the child (%d requests)", n)
	}
	r = mm(t, dir, parent, []string{"AGENT_TRACE=true"}, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	names, _ := filepath.Glob(filepath.Join(dir, ".mm", "traces", "*.request.json"))
	var parentFiles, childFiles int
	for _, n := range names {
		switch {
		case strings.Contains(filepath.Base(n), "-bob-"):
			parentFiles++
		case strings.Contains(filepath.Base(n), "-reviewer-"):
			childFiles++
		}
	}
	if parentFiles != 2 || childFiles != 1 {
		t.Errorf("traces: %d of the parent, %d of the child: %v", parentFiles, childFiles, names)
	}
}
