package main_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
	"mm/internal/testdeps"
)

// mcpTinyServer is the config entry of testdata/mcp/tiny.js named name,
// writing its pids and calls into dir, with extra lines (env).
func mcpTinyServer(t *testing.T, name, dir, extra string) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		testdeps.Missing(t, "node is not on the PATH: install Node.js 20 or later, then `make test-deps`")
	}
	wd, _ := os.Getwd()
	script := filepath.Join(wd, "testdata", "mcp", "tiny.js")
	return "    - name: " + name + "\n      command: " + mcpQuote(node) + "\n      args: [" + mcpQuote(script) + ", " + mcpQuote(dir) + "]\n" + extra
}

// mcpWaitLines waits until file has n lines and returns them.
func mcpWaitLines(t *testing.T, file string, n int) []string {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(file)
		if lines := strings.Fields(string(b)); len(lines) >= n {
			return lines
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("%s never had %d lines", file, n)
	return nil
}

// A server killed during a call: the call fails with a clear text and the
// server is started again at the next call; killed a second time, it is
// reported and its calls fail from then on.
func TestMCPServerKilledMidCall(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n"+mcpTinyServer(t, "tiny", dir, ""))
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_hang", `{}`)}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_ping", `{}`)}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_hang", `{}`)}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_ping", `{}`)}},
		llmtest.Turn{Text: "done"},
	)
	killer := make(chan error, 1)
	go func() {
		// The first hang reaches the server: kill it; the same again
		// for the restarted one (its pid is the second line).
		for i := 1; i <= 2; i++ {
			called := filepath.Join(dir, "called")
			mcpWaitHang(t, called, i)
			pids := mcpWaitLines(t, filepath.Join(dir, "pids"), i)
			pid, _ := strconv.Atoi(pids[i-1])
			if err := killPid(pid); err != nil {
				killer <- err
				return
			}
		}
		killer <- nil
	}()
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if err := <-killer; err != nil {
		t.Fatal(err)
	}
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 5 {
		t.Fatalf("%d requests\n%s", len(reqs), r.stderr)
	}
	res := mcpResults(t, reqs[4])
	want := []string{
		"[error: the MCP server tiny stopped during the call of hang; it is started again at the next call]",
		"pong",
		"[error: the MCP server tiny stopped during the call of hang, after it was restarted once: its tools cannot be used in this session]",
		"[error: the MCP server tiny stopped again after it was restarted once: its tools cannot be used in this session]",
	}
	if strings.Join(res, "\n") != strings.Join(want, "\n") {
		t.Errorf("results:\n%s", strings.Join(res, "\n"))
	}
	if !strings.Contains(r.stderr, "[warning: the MCP server tiny stopped again after its restart — its tools fail until mm restarts]") {
		t.Errorf("not reported:\n%s", r.stderr)
	}
}

// mcpWaitGone waits until process pid has ended (a zombie has: nobody may
// have reaped an orphan yet). A SIGKILL is delivered asynchronously, hence
// the wait.
func mcpWaitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if pidGone(pid) {
			return
		}
		if b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if f := strings.Fields(string(b[bytes.LastIndexByte(b, ')')+1:])); len(f) > 0 && f[0] == "Z" {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("process %d still there after mm exited", pid)
}

// mcpWaitHang waits until the server received n calls of hang.
func mcpWaitHang(t *testing.T, file string, n int) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile(file)
		if strings.Count(string(b), "hang\n") >= n {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("the server never received hang %d times", n)
}

// A server that never answers a call: the call fails after mcp.timeout
// and the turn goes on.
func TestMCPServerHangsTimeout(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  timeout: 1s\n  servers:\n"+mcpTinyServer(t, "tiny", dir, ""))
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_hang", `{}`)}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_ping", `{}`)}},
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	res := mcpResults(t, srv.ChatRequests()[2])
	want := "[error: the MCP server tiny did not answer the call of hang within 1s (mcp.timeout)]\npong"
	if strings.Join(res, "\n") != want {
		t.Errorf("results: %q", res)
	}
}

// A server whose command does not exist: a warning at start-up, its tools
// are not declared (the model calling one reads that there is no such
// tool), the other servers work.
func TestMCPServerNeverStarts(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n    - name: gone\n      command: mm-no-such-mcp-server\n"+mcpTinyServer(t, "tiny", dir, ""))
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_ping", `{}`)}},
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if !strings.Contains(r.stderr, `[warning: the MCP server gone did not start: exec: "mm-no-such-mcp-server": executable file not found in $PATH]`) {
		t.Errorf("no warning:\n%s", r.stderr)
	}
	names := mcpDeclared(t, srv.ChatRequests()[0])
	if !mcpContains(names, "tiny_ping") || strings.Contains(strings.Join(names, ","), "gone_") {
		t.Errorf("declared: %v", names)
	}
	// The line mode shows it under the banner.
	srv.Push(llmtest.Turn{Text: "hi"})
	s := startREPL(t, dir, srv, nil, "-c", cfg)
	if !strings.Contains(s.text(), `[warning: the MCP server gone did not start: exec: "mm-no-such-mcp-server": executable file not found in $PATH]`) {
		t.Errorf("no warning under the banner:\n%s", s.text())
	}
}

// Every server, and what it started, is stopped when mm exits (line mode
// and -p).
func TestMCPChildrenGoneAfterExit(t *testing.T) {
	for _, mode := range []string{"-p", "repl"} {
		t.Run(mode, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "mcp:\n  servers:\n"+mcpTinyServer(t, "a", dir, "      env: {SPAWN: \"1\"}\n")+mcpTinyServer(t, "b", dir, ""))
			srv := llmtest.New(t, llmtest.Turn{Text: "hi"})
			if mode == "-p" {
				if r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go"); r.code != 0 {
					t.Fatalf("exit %d\n%s", r.code, r.stderr)
				}
			} else {
				s := startREPL(t, dir, srv, nil, "-c", cfg)
				s.ask("hello")
				s.expect("hi")
				s.send("\x04")
				s.exit()
			}
			pids := mcpWaitLines(t, filepath.Join(dir, "pids"), 3)
			for _, p := range pids {
				pid, _ := strconv.Atoi(p)
				mcpWaitGone(t, pid)
			}
		})
	}
}
