package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// mm --ask NAME "prompt": the answer on stdout, the activity on stderr;
// nobody can answer the child's permission requests, so its call is
// refused (its entry does not say yolo: true; this agent's own yolo,
// true by default, does not count); stdin is appended.
func TestAskCommandRefusesChildCall(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch made.txt"}`}}},
		llmtest.Turn{Text: "I could not touch it."},
	)
	parentCfg, _ := askPair(t, dir, child, "", "")
	r := mm(t, dir, nil, nil, "piped text\n", "-c", parentCfg, "--ask", "reviewer", "make the file")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if r.stdout != "I could not touch it.\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	for _, want := range []string{
		"🗣 ask_agent: reviewer (llamacpp/child-model) — make the file",
		"🔐 reviewer asks: Run `touch made.txt` — refused: nobody can confirm it here",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err == nil {
		t.Errorf("the refused command ran")
	}
	reqs := child.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d child requests", len(reqs))
	}
	if got := lastUser(t, reqs[0]); got != "make the file\n\npiped text" {
		t.Errorf("the child was asked %q", got)
	}
	if got := askResult(t, reqs[1]); got != "[command rejected by the user]" {
		t.Errorf("the child read %q", got)
	}
}

// NAME may be a config file; an entry with yolo: true runs its calls;
// a failure exits like -p.
func TestAskCommandPathAndExitCodes(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch made.txt"}`}}},
		llmtest.Turn{Text: "made"},
	)
	parentCfg, childCfg := askPair(t, dir, child, "", "yolo: true")
	r := mm(t, dir, nil, nil, "", "-c", parentCfg, "--ask", "reviewer", "make it")
	if r.code != 0 || r.stdout != "made\n" {
		t.Fatalf("exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Errorf("yolo: true did not run the call: %v", err)
	}
	// A path: no entry, so nobody can allow anything; the server has no
	// turn left: the child's engine error, exit 3.
	r = mm(t, dir, nil, nil, "", "--ask", childCfg, "again")
	if r.code != 3 || r.stdout != "" {
		t.Errorf("exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "[ask_agent: child failed: engine error") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	// A bad child configuration: exit 1.
	bad := filepath.Join(dir, "bad.yaml")
	os.WriteFile(bad, []byte("maxTurns: -1\n"), 0o644)
	r = mm(t, dir, nil, nil, "", "--ask", bad, "hello")
	if r.code != 1 || !strings.Contains(r.stderr, "[ask_agent: bad failed: config error:") {
		t.Errorf("exit %d\n%s", r.code, r.stderr)
	}
	// Usage errors.
	for _, args := range [][]string{
		{"--ask", "nobody", "x"},
		{"--ask", "reviewer", "-c", parentCfg, "-p", "x"},
		{"--ask", "reviewer", "-c", parentCfg},
	} {
		if r := mm(t, dir, nil, nil, "", args...); r.code != 2 {
			t.Errorf("%v: exit %d\n%s", args, r.code, r.stderr)
		}
	}
}

// mm --ask: the asked agent runs with AGENT_YOLO=false and its calls run
// only when its entry says yolo: true (README: "its permission requests
// are refused (no one can answer) unless its mmConfigs entry says yolo:
// true"); the yolo of the configuration mm --ask runs with does not
// count.
func TestAskCommandEntryYoloDecides(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo \"$AGENT_YOLO\" > yolo.txt"}`}}},
		llmtest.Turn{Text: "noted"},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch other.txt"}`}}},
		llmtest.Turn{Text: "not noted"},
	)
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	r := mm(t, dir, nil, []string{"AGENT_YOLO=false"}, "", "-c", parentCfg, "--ask", "reviewer", "note it")
	if r.code != 0 || r.stdout != "noted\n" {
		t.Fatalf("exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "yolo.txt"))
	if err != nil || strings.TrimSpace(string(got)) != "false" {
		t.Errorf("the call: %q, %v\n%s", got, err, r.stderr)
	}
	// No yolo in the entry: refused, although this configuration's own
	// yolo is true.
	parentCfg, _ = askPair(t, dir, child, "", "description: reviews code")
	r = mm(t, dir, nil, []string{"AGENT_YOLO=true"}, "", "-c", parentCfg, "--ask", "reviewer", "touch it")
	if r.code != 0 || r.stdout != "not noted\n" {
		t.Fatalf("exit %d, stdout %q\n%s", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "refused: nobody can confirm it here (its mmConfigs entry does not say yolo: true)") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "other.txt")); err == nil {
		t.Error("a call ran that no entry allowed")
	}
}
