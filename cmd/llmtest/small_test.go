//go:build unix

package main

// The built llmtest the way the README's demo runs it: its errors say
// "llmtest:" once, and -background leaves a server whose output never
// reaches the terminal, stopped by -stop.

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

var llmtestBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "llmtest-bin-")
	if err != nil {
		panic(err)
	}
	llmtestBin = filepath.Join(dir, "llmtest")
	build := exec.Command("go", "build", "-o", llmtestBin, ".")
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		os.Stderr.WriteString("building llmtest: " + err.Error() + "\n")
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

type ran struct {
	stdout, stderr string
	code           int
}

// runBin runs the binary with TMPDIR set to tmp (where -background keeps
// its pid and log files) and waits for it, within a ceiling.
func runBin(t *testing.T, tmp string, args ...string) ran {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, llmtestBin, args...)
	cmd.Env = append(os.Environ(), "TMPDIR="+tmp)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("running llmtest: %v", err)
	}
	return ran{out.String(), errb.String(), code}
}

func TestErrorsSayLLMTestOnce(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "bad.yaml")
	os.WriteFile(bad, []byte("- fault: explode\n"), 0o644)
	for name, args := range map[string][]string{
		"provider":  {"-addr", "127.0.0.1:0", "-provider", "bogus"},
		"script":    {"-addr", "127.0.0.1:0", "-script", bad},
		"listen":    {"-addr", "127.0.0.1:99999"},
		"no script": {"-addr", "127.0.0.1:0", "-script", filepath.Join(t.TempDir(), "none.yaml")},
	} {
		r := runBin(t, t.TempDir(), args...)
		if r.code == 0 || strings.Count(r.stderr, "llmtest:") != 1 || !strings.HasPrefix(r.stderr, "llmtest: ") {
			t.Errorf("%s: exit %d, stderr %q: want one llmtest: prefix", name, r.code, r.stderr)
		}
	}
}

// -background returns once the server listens, with nothing of the
// server's on the terminal after that; its log is in a file; -stop ends it.
func TestBackgroundAndStop(t *testing.T) {
	tmp := t.TempDir()
	r := runBin(t, tmp, "-background", "-addr", "127.0.0.1:0")
	if r.code != 0 || r.stderr != "" {
		t.Fatalf("-background: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	m := baseURL.FindStringSubmatch(r.stdout)
	if m == nil || !strings.Contains(r.stdout, "-stop") {
		t.Fatalf("-background printed no base URL or no way to stop it: %q", r.stdout)
	}
	url := m[1]
	// The server answers, and what it logs goes to its file.
	c := &http.Client{Timeout: 30 * time.Second}
	resp, err := c.Post(url+"/chat/completions", "application/json",
		strings.NewReader(`{"messages":[{"role":"user","content":"hello"}],"stream":true}`))
	if err != nil {
		t.Fatal(err)
	}
	io.ReadAll(resp.Body)
	resp.Body.Close()
	logs, _ := filepath.Glob(filepath.Join(tmp, "llmtest-*.log"))
	pids, _ := filepath.Glob(filepath.Join(tmp, "llmtest-*.pid"))
	if len(logs) != 1 || len(pids) != 1 || !strings.Contains(r.stdout, logs[0]) {
		t.Fatalf("log files %v, pid files %v, stdout %q", logs, pids, r.stdout)
	}
	if !waitFor(func() bool {
		b, _ := os.ReadFile(logs[0])
		return strings.Contains(string(b), "POST /v1/chat/completions -> 200")
	}) {
		b, _ := os.ReadFile(logs[0])
		t.Errorf("the request is not in the log: %q", b)
	}
	// A second one on the same address is refused, naming the first.
	if again := runBin(t, tmp, "-background", "-addr", "127.0.0.1:0"); again.code == 0 || !strings.Contains(again.stderr, "already running") {
		t.Errorf("second -background: exit %d stdout %q stderr %q", again.code, again.stdout, again.stderr)
	}
	pidText, _ := os.ReadFile(pids[0])
	stop := runBin(t, tmp, "-stop", "-addr", "127.0.0.1:0")
	if stop.code != 0 || !strings.Contains(stop.stdout, "stopped") {
		t.Errorf("-stop: exit %d stdout %q stderr %q", stop.code, stop.stdout, stop.stderr)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(pidText)))
	if pid <= 0 || alive(pid, pids[0]) {
		t.Errorf("the server (pid %d, file %q) is still running", pid, pidText)
	}
	if _, err := os.Stat(pids[0]); err == nil {
		t.Error("the pid file is left")
	}
	if stop := runBin(t, tmp, "-stop", "-addr", "127.0.0.1:0"); stop.code == 0 || !strings.Contains(stop.stderr, "no server") {
		t.Errorf("-stop with nothing running: exit %d stderr %q", stop.code, stop.stderr)
	}
}

// waitFor polls cond until it holds or a generous ceiling passes.
func waitFor(cond func() bool) bool {
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(10 * time.Millisecond)
	}
	return true
}
