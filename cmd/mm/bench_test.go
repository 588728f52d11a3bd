//go:build !windows

package main_test

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

// The figures of docs/benchmarks.md. Targets (issue #2): first request
// within 20 ms of start, peak RSS under 40 MB, fixed prompt under 6 KB.

func BenchmarkVersion(b *testing.B) {
	for b.Loop() {
		if out, err := exec.Command(mmBin, "--version").Output(); err != nil || len(out) == 0 {
			b.Fatal(err)
		}
	}
}

// BenchmarkFirstRequest measures `mm -p` from process start to the scripted
// server receiving the probe (GET /models) and the first chat request.
func BenchmarkFirstRequest(b *testing.B) {
	firstRequest(b, b.TempDir(), true)
}

// firstRequest runs `mm -p` in dir b.N times and reports the time to the
// first chat request, and to the probe when withProbe.
func firstRequest(b *testing.B, dir string, withProbe bool) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	var probe, first time.Duration
	for b.Loop() {
		srv.Push(llmtest.Turn{Text: "ok"})
		n := len(srv.Requests())
		cmd := exec.Command(mmBin, "-p", "hi")
		cmd.Dir = dir
		cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
		start := time.Now()
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		reqs := srv.Requests()[n:]
		if len(reqs) < 2 {
			b.Fatalf("requests: %d", len(reqs))
		}
		probe += reqs[0].At.Sub(start)
		first += reqs[len(reqs)-1].At.Sub(start)
	}
	if withProbe {
		b.ReportMetric(float64(probe.Microseconds())/1000/float64(b.N), "ms-to-probe")
	}
	b.ReportMetric(float64(first.Microseconds())/1000/float64(b.N), "ms-to-first-chat")
}

// BenchmarkTenTurnRun runs `mm -p` through 10 model calls (9 bash calls,
// then the answer) and reports the process's peak RSS and the gaps between
// the end of a response and the next request (they include the bash run;
// BenchmarkAgentTurn in internal/agent isolates the agent's own time).
func BenchmarkTenTurnRun(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	dir := b.TempDir()
	cfg := filepath.Join(dir, "bench.yaml")
	os.WriteFile(cfg, []byte("provider: llamacpp\nmaxTurns: 40\n"), 0o644)
	var rss int64
	var gaps time.Duration
	var nGaps int
	for b.Loop() {
		for i := 0; i < 9; i++ {
			args, _ := json.Marshal(map[string]string{"command": "true " + strconv.Itoa(i)})
			srv.Push(llmtest.Turn{Text: "step", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: string(args)}}})
		}
		srv.Push(llmtest.Turn{Text: "done"})
		n := len(srv.ChatRequests())
		cmd := exec.Command(mmBin, "-c", cfg, "-p", "go")
		cmd.Dir = dir
		cmd.Env = append(cleanEnv(), "AGENT_BASE_URL="+srv.URL())
		if err := cmd.Run(); err != nil {
			b.Fatal(err)
		}
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok && ru.Maxrss > rss {
			rss = ru.Maxrss
		}
		reqs := srv.ChatRequests()[n:]
		for i := 1; i < len(reqs); i++ {
			gaps += reqs[i].At.Sub(reqs[i-1].Done)
			nGaps++
		}
	}
	b.ReportMetric(float64(rss)/1024, "peak-RSS-MB")
	b.ReportMetric(float64(gaps.Microseconds())/1000/float64(nGaps), "ms-gap/turn")
}

// BenchmarkFirstRequestAgentsMD is BenchmarkFirstRequest started in a
// subdirectory of a repository whose root holds an AGENTS.md of 8 KB: the
// walk up to the root, the read and the longer first request.
func BenchmarkFirstRequestAgentsMD(b *testing.B) {
	root := b.TempDir()
	sub := filepath.Join(root, "a", "b", "c")
	os.MkdirAll(sub, 0o755)
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	os.WriteFile(filepath.Join(root, "AGENTS.md"), []byte(strings.Repeat("- Run the tests before you answer.\n", 240)), 0o644)
	firstRequest(b, sub, false)
}
