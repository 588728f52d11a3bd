package main_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Through the `mcp` tool of the budget mode, the permission prompt names
// the tool that will run (server/tool as the server calls it), not the
// model's spelling of it; and "allow for the session" allows that one MCP
// tool, not every tool of every server behind `mcp`.
func TestMCPMetaPromptNamesTheToolAndSessionAllowsOne(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "yolo: false\nmcp:\n  promptBudget: 0\n  servers:\n"+mcpTinyServer(t, "tiny", dir, ""))
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"call","server":"TINY","tool":"TINY/PING"}`)}},
		llmtest.Turn{Text: "pinged"},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"call","server":"tiny","tool":"hang"}`)}},
		llmtest.Turn{Text: "The hang was not run."},
	)
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	s.ask("first")
	s.expect("🔐 mcp tiny/ping")
	s.expect("[s] allow tiny/ping for the session")
	s.answer("s")
	s.expect("pinged")
	s.ask("second")
	s.expect("🔐 mcp tiny/hang")
	s.answer("r")
	// Not "refused": the answer's own echo comes before the model's text.
	s.expect("The hang was not run.")
	reqs := srv.ChatRequests()
	if len(reqs) != 4 {
		t.Fatalf("%d requests", len(reqs))
	}
	if got := mcpResults(t, reqs[3]); len(got) != 2 || got[1] != "[mcp rejected by the user]" {
		t.Errorf("the second tool ran on the first one's session allowance: %q", got)
	}
}

// Under yolo: true a call that mcp.permissions sets to ask is refused in
// -p; the refusal says why truthfully (not "yolo: false") and names the
// MCP tool, through the `mcp` tool too.
func TestMCPAskRefusedInOneShotSaysWhy(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "yolo: true\nmcp:\n  promptBudget: 0\n  permissions:\n    tiny/ping: ask\n  servers:\n"+mcpTinyServer(t, "tiny", dir, ""))
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"call","tool":"PING"}`)}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if want := "🔐 mcp tiny/ping refused: nobody can confirm it with -p (mcp.permissions says ask)"; !strings.Contains(r.stderr, want) {
		t.Errorf("want %q in:\n%s", want, r.stderr)
	}
	if strings.Contains(r.stderr, "yolo: false") {
		t.Errorf("the refusal blames yolo: false under yolo: true:\n%s", r.stderr)
	}
}

// A server still starting when -p ends is stopped by mm: that is not a
// failed start, and mm does not report it as one on its way out.
func TestMCPLateServerStoppedAtExitIsNoFailure(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	gate := filepath.Join(dir, "never")
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n"+mcpTinyServer(t, "tiny", dir, "      env: {WAIT_FOR: "+mcpQuote(gate)+"}\n"))
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, "[warning: the MCP server tiny is not ready after 5s") {
		t.Errorf("no late warning:\n%s", r.stderr)
	}
	if strings.Contains(r.stderr, "did not start") {
		t.Errorf("the server mm stopped at exit is reported as a failed start:\n%s", r.stderr)
	}
}

// A 700 KB schema read through `mcp` is cut to maxOutput once: the marker
// the model reads says how much was really cut (the agent's own cut used
// to cut the cut output again, over its marker, and say "33 characters").
func TestMCPHugeSchemaCutOnceTruthfully(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("python3 is not installed")
	}
	dir := t.TempDir()
	wd, _ := os.Getwd()
	cfg := writeConfig(t, dir, "yolo: true\nmcp:\n  servers:\n    - name: h\n      command: "+mcpQuote(python)+"\n      args: ["+mcpQuote(filepath.Join(wd, "testdata", "mcp", "huge.py"))+"]\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("mcp", `{"action":"schema","server":"h","tool":"wide"}`)}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	out := mcpResults(t, srv.ChatRequests()[1])[0]
	m := regexp.MustCompile(`\n\[\.\.\. (\d+) characters cut \.\.\.\]\n`).FindAllStringSubmatch(out, -1)
	if len(m) != 1 {
		t.Fatalf("want one cut marker, got %q", m)
	}
	if n, _ := strconv.Atoi(m[0][1]); n < 600000 {
		t.Errorf("the marker says %d characters cut of a 700 KB schema", n)
	}
}
