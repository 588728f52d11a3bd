package main_test

// The ACP figures of docs/benchmarks.md (issue #13): start-up to the
// initialize answer, session/new, mm's own time per model turn over ACP
// beside -p measured the same way, and the RSS of an idle process and of
// each extra live session.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// benchACP is a bare ACP client for benchmarks: one goroutine, no record
// of the lines, no schema check at the end (acpClient's costs would be in
// the figures, and a benchmark starts many processes).
type benchACP struct {
	b      *testing.B
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	out    *bufio.Reader
	nextID int
}

func startBenchACP(b *testing.B, dir, cfg string, srv *llmtest.Server) *benchACP {
	b.Helper()
	cmd := exec.Command(mmBin, "-acp", "-c", cfg)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AGENT_BASE_URL="+srv.URL())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	return &benchACP{b: b, cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<20)}
}

// send writes a request and returns its id.
func (c *benchACP) send(method string, params any) int {
	c.b.Helper()
	c.nextID++
	line, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": c.nextID, "method": method, "params": params})
	if _, err := c.stdin.Write(append(line, '\n')); err != nil {
		c.b.Fatal(err)
	}
	return c.nextID
}

// answer reads up to the answer to request id (notifications are read
// and dropped) and returns its result and when it was read.
func (c *benchACP) answer(id int) (json.RawMessage, time.Time) {
	c.b.Helper()
	want := strconv.Itoa(id)
	for {
		line, err := c.out.ReadBytes('\n')
		if err != nil {
			c.b.Fatalf("mm's output ended before the answer to %d: %v", id, err)
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Result json.RawMessage `json:"result"`
			Error  json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &m) != nil || m.Method != "" || string(bytes.TrimSpace(m.ID)) != want {
			continue
		}
		if m.Error != nil {
			c.b.Fatalf("error answer: %s", line)
		}
		return m.Result, time.Now()
	}
}

func (c *benchACP) call(method string, params any) json.RawMessage {
	c.b.Helper()
	r, _ := c.answer(c.send(method, params))
	return r
}

func (c *benchACP) initialize() {
	c.b.Helper()
	c.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}})
}

func (c *benchACP) newSession(cwd string) string {
	c.b.Helper()
	var res struct {
		SessionID string `json:"sessionId"`
	}
	json.Unmarshal(c.call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}}), &res)
	if res.SessionID == "" {
		c.b.Fatal("session/new gave no sessionId")
	}
	return res.SessionID
}

// close ends mm the way an editor does: stdin closed.
func (c *benchACP) close() {
	c.b.Helper()
	c.stdin.Close()
	io.Copy(io.Discard, c.out)
	if err := c.cmd.Wait(); err != nil {
		c.b.Fatalf("mm -acp: %v", err)
	}
}

// vmRSS reads a field of /proc/<pid>/status ("VmRSS", "VmHWM"), in KB.
func vmRSS(b *testing.B, pid int, field string) int64 {
	b.Helper()
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		b.Skipf("no /proc: %v", err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	b.Fatalf("no %s in /proc/%d/status", field, pid)
	return 0
}

// benchConfig is the configuration of every ACP benchmark and of the -p
// run it is compared with: no permission asked, room for the turns.
func benchConfig(b *testing.B, dir string) string {
	cfg := filepath.Join(dir, "bench.yaml")
	if err := os.WriteFile(cfg, []byte("provider: llamacpp\nyolo: true\nmaxTurns: 40\n"), 0o644); err != nil {
		b.Fatal(err)
	}
	return cfg
}

// BenchmarkACPStart measures a spawn of mm -acp to the initialize answer
// (the engine's start and the endpoint probe are in it, as an editor
// waits for them), then the session/new answer after it.
func BenchmarkACPStart(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	dir := b.TempDir()
	cfg := benchConfig(b, dir)
	var toInit, toNew time.Duration
	for b.Loop() {
		start := time.Now()
		c := startBenchACP(b, dir, cfg, srv)
		_, inited := c.answer(c.send("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": map[string]any{}}))
		sent := time.Now()
		_, opened := c.answer(c.send("session/new", map[string]any{"cwd": dir, "mcpServers": []any{}}))
		toInit += inited.Sub(start)
		toNew += opened.Sub(sent)
		c.close()
	}
	b.ReportMetric(float64(toInit.Microseconds())/1000/float64(b.N), "ms-to-initialize")
	b.ReportMetric(float64(toNew.Microseconds())/1000/float64(b.N), "ms-session/new")
}

// pushReadTurns scripts a 10-turn run: 9 read_file calls, one line each
// of a 9-line file (a tool that starts no process, so the gaps are mm's
// own time), then the answer.
func pushReadTurns(srv *llmtest.Server) {
	for i := 0; i < 9; i++ {
		args, _ := json.Marshal(map[string]any{"path": "notes.txt", "start": i + 1, "end": i + 1})
		srv.Push(llmtest.Turn{Text: "Let me look at the next part of the project.", ToolCalls: []llmtest.ToolCall{{Name: "read_file", Arguments: string(args)}}})
	}
	srv.Push(llmtest.Turn{Text: "All done."})
}

// settled is the chat requests from the n-th on once the server has
// stamped the end of each: mm may read a response's last bytes (and
// answer the prompt) before the server's handler has returned.
func settled(b *testing.B, srv *llmtest.Server, n int) []llmtest.Request {
	b.Helper()
	deadline := time.Now().Add(acpWait)
	for {
		reqs := srv.ChatRequests()[n:]
		done := true
		for _, r := range reqs {
			done = done && !r.Done.IsZero()
		}
		if done {
			return reqs
		}
		if time.Now().After(deadline) {
			b.Fatalf("the server did not finish its answers within %s", acpWait)
		}
		time.Sleep(100 * time.Microsecond) // a poll of the event, not a pace
	}
}

// gapsOf sums the gaps between the end of one response and the next
// request: mm's own time a turn (recovery, the tool, the history, the
// request), the way BenchmarkTenTurnRun measures -p.
func gapsOf(b *testing.B, reqs []llmtest.Request) (time.Duration, int) {
	b.Helper()
	if len(reqs) != 10 {
		b.Fatalf("%d chat requests, want 10", len(reqs))
	}
	// The calls ran: the last request carries what each read.
	if n := bytes.Count(reqs[9].Body, []byte("a line of notes")); n < 9 {
		b.Fatalf("the last request holds %d of the 9 lines read:\n%s", n, reqs[9].Body)
	}
	var gaps time.Duration
	for i := 1; i < len(reqs); i++ {
		gaps += reqs[i].At.Sub(reqs[i-1].Done)
	}
	return gaps, len(reqs) - 1
}

// BenchmarkACPTurn measures mm's own time a model turn in one
// session/prompt over ACP (ms-gap/turn, as BenchmarkPrintTurn measures
// -p), and what a prompt adds at its two ends: from the prompt sent to
// the first chat request, and from the last response's end to the
// prompt's answer read (ms-prompt-edges). Each prompt has a fresh session
// (session/new and session/close are not timed), so the history is the
// same size as -p's.
func BenchmarkACPTurn(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	dir := b.TempDir()
	writeNotes(b, dir)
	cfg := benchConfig(b, dir)
	c := startBenchACP(b, dir, cfg, srv)
	defer c.close()
	c.initialize()
	var gaps, edges time.Duration
	var turns int
	for b.Loop() {
		b.StopTimer()
		sid := c.newSession(dir)
		pushReadTurns(srv)
		n := len(srv.ChatRequests())
		b.StartTimer()
		sent := time.Now()
		res, answered := c.answer(c.send("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "text", "text": "work through it"}}}))
		b.StopTimer()
		if !strings.Contains(string(res), `"end_turn"`) {
			b.Fatalf("prompt answer %s", res)
		}
		reqs := settled(b, srv, n)
		g, k := gapsOf(b, reqs)
		gaps += g
		turns += k
		edges += reqs[0].At.Sub(sent) + answered.Sub(reqs[len(reqs)-1].Done)
		c.call("session/close", map[string]any{"sessionId": sid})
		b.StartTimer()
	}
	b.ReportMetric(float64(gaps.Microseconds())/1000/float64(turns), "ms-gap/turn")
	b.ReportMetric(float64(edges.Microseconds())/1000/float64(b.N), "ms-prompt-edges")
}

// BenchmarkPrintTurn is BenchmarkACPTurn's run through mm -p: the same
// script, configuration and measure, for the comparison.
func BenchmarkPrintTurn(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	dir := b.TempDir()
	writeNotes(b, dir)
	cfg := benchConfig(b, dir)
	var gaps time.Duration
	var turns int
	for b.Loop() {
		pushReadTurns(srv)
		n := len(srv.ChatRequests())
		cmd := exec.Command(mmBin, "-c", cfg, "-p", "work through it")
		cmd.Dir = dir
		cmd.Env = append(cleanEnv(), "AGENT_BASE_URL="+srv.URL())
		if out, err := cmd.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%s", err, out)
		}
		g, k := gapsOf(b, settled(b, srv, n))
		gaps += g
		turns += k
	}
	b.ReportMetric(float64(gaps.Microseconds())/1000/float64(turns), "ms-gap/turn")
}

// BenchmarkACPMemory reads the VmRSS of mm -acp after initialize and one
// session/new (idle), then after 10 more sessions (each with its own
// agent, tools and history, empty), and reports the cost of an extra
// live session.
func BenchmarkACPMemory(b *testing.B) {
	srv, err := llmtest.Start(llmtest.Options{})
	if err != nil {
		b.Fatal(err)
	}
	defer srv.Close()
	dir := b.TempDir()
	cfg := benchConfig(b, dir)
	var idle, per, hwm int64
	for b.Loop() {
		c := startBenchACP(b, dir, cfg, srv)
		c.initialize()
		c.newSession(dir)
		one := vmRSS(b, c.cmd.Process.Pid, "VmRSS")
		for i := 0; i < 10; i++ {
			c.newSession(dir)
		}
		eleven := vmRSS(b, c.cmd.Process.Pid, "VmRSS")
		hwm = max(hwm, vmRSS(b, c.cmd.Process.Pid, "VmHWM"))
		idle += one
		per += (eleven - one) / 10
		c.close()
	}
	b.ReportMetric(float64(idle)/1024/float64(b.N), "idle-RSS-MB")
	b.ReportMetric(float64(per)/float64(b.N), "KB/extra-session")
	b.ReportMetric(float64(hwm)/1024, "peak-RSS-MB-11-sessions")
}

func writeNotes(b *testing.B, dir string) {
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte(strings.Repeat("a line of notes\n", 9)), 0o644); err != nil {
		b.Fatal(err)
	}
}
