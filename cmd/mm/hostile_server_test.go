//go:build !windows

package main_test

// A model server is untrusted input: these tests drive the mm binary
// against a scripted server that misbehaves on purpose (internal/llmtest's
// hostile faults) and check that every case ends with its message and
// exit code, quickly, and without filling mm's memory.

import (
	"bytes"
	"context"
	"net"
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

// run is mm() with an optional wrapper command (sh -c 'ulimit …; exec
// "$0" "$@"') and, when /usr/bin/time is there, mm's peak RSS (0 when it
// is not). The figure cannot come from the test's own wait: Go starts a
// child with vfork, and Linux counts the parent's resident set in the
// child's high-water mark; /usr/bin/time forks a small process first.
func run(t *testing.T, dir string, env []string, wrapper []string, args ...string) (result, int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	argv := append(wrapper[:len(wrapper):len(wrapper)], mmBin)
	rssFile := ""
	if len(wrapper) == 0 {
		if _, err := os.Stat("/usr/bin/time"); err == nil {
			rssFile = filepath.Join(t.TempDir(), "rss")
			argv = []string{"/usr/bin/time", "-o", rssFile, "-f", "%M", mmBin}
		}
	}
	argv = append(argv, args...)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), env...)
	// A wrapper's child must die with it when the test gives up on a hang.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = 5 * time.Second
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	r := runResult(t, cmd.Run(), out.String(), errb.String())
	var rss int64
	if rssFile != "" {
		b, _ := os.ReadFile(rssFile)
		// time(1) writes "Command exited with non-zero status N" first.
		lines := strings.Fields(string(b))
		if len(lines) > 0 {
			kb, _ := strconv.ParseInt(lines[len(lines)-1], 10, 64)
			rss = kb << 10
		}
	}
	return r, rss
}

func serverEnv(srv *llmtest.Server) []string {
	return []string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=" + srv.URL()}
}

// Every hostile fault ends with its message and exit code, within the
// watchdog's bounds, and the huge ones without mm's memory following the
// server's bytes.
func TestHostileServer(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	fast := "provider: llamacpp\nwatchdogTimeout: 300ms\nfirstTokenTimeout: 600ms\n"
	words := strings.Repeat("word ", 50)
	cases := []struct {
		name   string
		turn   llmtest.Turn
		code   int
		stderr string
		stdout string
		// maxRSS bounds mm's peak memory (0: not checked). The server sends
		// 64 MiB or 40 MiB in these cases; mm must stop long before.
		maxRSS int64
	}{
		{"ping-only", llmtest.Turn{Text: "never", Fault: llmtest.FaultPingOnly, ChunkDelay: 20 * time.Millisecond}, 4,
			"[error: no first token from the server after 600ms]", "", 0},
		{"ping-mid-stream", llmtest.Turn{Text: "first words never finished", Fault: llmtest.FaultPingMidStream, FaultAfter: 4, ChunkDelay: 20 * time.Millisecond}, 4,
			"[error: connection hang detected after 300ms]", "", 0},
		{"huge-line", llmtest.Turn{Text: "a b", Fault: llmtest.FaultHugeLine, FaultAfter: 3}, 3,
			"[engine error: the server sent a stream event over 4 MiB — mm stopped reading it]", "", 150 << 20},
		{"huge-answer", llmtest.Turn{Text: "a b", Fault: llmtest.FaultHugeAnswer, FaultAfter: 3}, 3,
			"[engine error: the server sent an answer over 8 MiB (text, reasoning and tool calls together) — mm stopped reading it]", "", 150 << 20},
		{"huge-json", llmtest.Turn{Fault: llmtest.FaultHugeJSON}, 3,
			"[engine error: the server sent an answer over 16 MiB — mm stopped reading it]", "", 150 << 20},
		{"truncated-json", llmtest.Turn{Text: words, Fault: llmtest.FaultTruncatedJSON}, 3,
			"[engine error: the server's answer was truncated: the connection ended after ", "", 0},
		{"short-json", llmtest.Turn{Text: words, Fault: llmtest.FaultShortJSON}, 3,
			"[engine error: the server's answer was truncated: its JSON ends after ", "", 0},
		{"empty-data", llmtest.Turn{Text: "all is well", Fault: llmtest.FaultEmptyData, FaultAfter: 3}, 0, "", "all is well\n", 0},
		{"cr-endings", llmtest.Turn{Text: "all is well", Fault: llmtest.FaultCREndings}, 0, "", "all is well\n", 0},
		{"crlf-endings", llmtest.Turn{Text: "all is well", Fault: llmtest.FaultCRLFEndings}, 0, "", "all is well\n", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			srv := llmtest.New(t, tc.turn)
			r, rss := run(t, dir, serverEnv(srv), nil, "-c", writeConfig(t, dir, fast), "-p", "hello")
			if r.code != tc.code || !strings.Contains(r.stderr, tc.stderr) || (tc.code == 0 && r.stdout != tc.stdout) {
				t.Errorf("exit %d (want %d), stdout %q, stderr:\n%s\nwant %q", r.code, tc.code, r.stdout, r.stderr, tc.stderr)
			}
			t.Logf("peak RSS %d MiB", rss>>20)
			if tc.maxRSS > 0 && os.Getenv("MM_TEST_RACE") == "" && rss > tc.maxRSS {
				t.Errorf("peak RSS %d MiB, want at most %d MiB", rss>>20, tc.maxRSS>>20)
			}
		})
	}
}

// An answer just under the cap streams whole, and mm's memory stays a
// small multiple of it.
func TestLargeAnswerUnderTheCap(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	dir := t.TempDir()
	piece := strings.Repeat("y", 999) + " "
	text := strings.Repeat(piece, 7<<10) // 7 MiB, under the 8 MiB cap of max_tokens 4096
	srv := llmtest.New(t, llmtest.Turn{Text: text})
	r, rss := run(t, dir, serverEnv(srv), nil, "-p", "hello")
	if r.code != 0 || len(r.stdout) < len(text)-1 {
		t.Fatalf("exit %d, %d bytes on stdout:\n%s", r.code, len(r.stdout), r.stderr)
	}
	t.Logf("peak RSS %d MiB for a %d MiB answer", rss>>20, len(text)>>20)
	if os.Getenv("MM_TEST_RACE") == "" && rss > 120<<20 {
		t.Errorf("peak RSS %d MiB for a %d MiB answer", rss>>20, len(text)>>20)
	}
}

// A trace that can no longer be written (here the file-size limit, as a
// full disk would) is reported once; the model call goes on.
func TestTraceWriteFailureKeepsTheTurn(t *testing.T) {
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	dir := t.TempDir()
	text := strings.TrimSpace(strings.Repeat("a fairly long answer ", 1500)) // ~250 KB of SSE trace
	srv := llmtest.New(t, llmtest.Turn{Text: text})
	// ulimit -f counts 512-byte blocks in sh: 128 is 64 KiB, enough for
	// the request, not for the response.
	wrap := []string{"sh", "-c", `ulimit -f 128 && exec "$0" "$@"`}
	r, _ := run(t, dir, append(serverEnv(srv), "AGENT_TRACE=1"), wrap, "-p", "hello")
	if r.code != 0 || r.stdout != text+"\n" {
		t.Fatalf("exit %d, stdout %d bytes, stderr:\n%s", r.code, len(r.stdout), r.stderr)
	}
	traces := filepath.Join(dir, ".mm", "traces")
	want := "[trace: cannot write to " + traces + ": "
	if strings.Count(r.stderr, want) != 1 || !strings.Contains(r.stderr, "file too large — nothing is traced]") {
		t.Errorf("stderr:\n%s\nwant one %q", r.stderr, want)
	}
}

// A trace directory that a repository (or a command the model ran) made a
// symbolic link is never written through: one warning, nothing traced,
// the turn goes on.
func TestTraceThroughPlantedLink(t *testing.T) {
	t.Run("cloned", func(t *testing.T) {
		dir, elsewhere := t.TempDir(), t.TempDir()
		if err := os.Symlink(elsewhere, filepath.Join(dir, ".mm")); err != nil {
			t.Fatal(err)
		}
		srv := llmtest.New(t, llmtest.Turn{Text: "fine"})
		r, _ := run(t, dir, append(serverEnv(srv), "AGENT_TRACE=1"), nil, "-p", "hello")
		if r.code != 0 || r.stdout != "fine\n" {
			t.Fatalf("exit %d:\n%s", r.code, r.stderr)
		}
		if got, _ := filepath.Glob(filepath.Join(elsewhere, "*")); len(got) != 0 {
			t.Errorf("written through the link: %v", got)
		}
		if !strings.Contains(r.stderr, "[trace: cannot write to "+filepath.Join(dir, ".mm", "traces")+": "+filepath.Join(dir, ".mm")+" is a symbolic link") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
	})
	t.Run("mid-run", func(t *testing.T) {
		dir, elsewhere := t.TempDir(), t.TempDir()
		srv := llmtest.New(t,
			llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"rm -rf .mm/traces && ln -s ` + elsewhere + ` .mm/traces && echo swapped"}`}}},
			llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo again"}`}}},
			llmtest.Turn{Text: "done"},
		)
		r, _ := run(t, dir, append(serverEnv(srv), "AGENT_TRACE=1"), nil, "-p", "hello")
		if r.code != 0 || r.stdout != "done\n" {
			t.Fatalf("exit %d:\n%s", r.code, r.stderr)
		}
		if got, _ := filepath.Glob(filepath.Join(elsewhere, "*")); len(got) != 0 {
			t.Errorf("written through the link: %v", got)
		}
		if n := strings.Count(r.stderr, "[trace: cannot write to "); n != 1 || !strings.Contains(r.stderr, "is a symbolic link") {
			t.Errorf("%d warnings:\n%s", n, r.stderr)
		}
	})
}

// A password in the base URL never shows: not in errors, probe failures,
// the banner, nor the trace files.
func TestPasswordInBaseURL(t *testing.T) {
	const secret = "hunter2-pw"
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	refused := ln.Addr().String()
	ln.Close()

	t.Run("refused", func(t *testing.T) {
		r, _ := run(t, t.TempDir(), []string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=http://bob:" + secret + "@" + refused + "/v1"}, nil, "-p", "hello")
		if r.code != 3 || strings.Contains(r.stderr+r.stdout, secret) || !strings.Contains(r.stderr, "GET http://bob:***@"+refused+"/v1/models: connection refused") {
			t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
	})
	t.Run("http error and trace", func(t *testing.T) {
		dir := t.TempDir()
		srv := llmtest.New(t, llmtest.Turn{Fault: llmtest.FaultHTTP500, ErrorMessage: "no"})
		base := "http://bob:" + secret + "@" + srv.Addr() + "/v1"
		r, _ := run(t, dir, []string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=" + base, "AGENT_TRACE=1"}, nil, "-p", "hello")
		if r.code != 3 || strings.Contains(r.stderr+r.stdout, secret) || !strings.Contains(r.stderr, "to POST http://bob:***@"+srv.Addr()+"/v1/chat/completions: no") {
			t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
		files, _ := filepath.Glob(filepath.Join(dir, ".mm", "traces", "*"))
		if len(files) == 0 {
			t.Fatal("no trace")
		}
		for _, f := range files {
			if b, _ := os.ReadFile(f); bytes.Contains(b, []byte(secret)) {
				t.Errorf("%s holds the password", f)
			}
		}
	})
	t.Run("no response, traced", func(t *testing.T) {
		dir := t.TempDir()
		srv := llmtest.New(t, llmtest.Turn{Fault: llmtest.FaultHangBeforeFirstByte})
		base := "http://bob:" + secret + "@" + srv.Addr() + "/v1"
		cfg := writeConfig(t, dir, "provider: llamacpp\nwatchdogTimeout: 300ms\nfirstTokenTimeout: 300ms\n")
		r, _ := run(t, dir, []string{"AGENT_BASE_URL=" + base, "AGENT_TRACE=1"}, nil, "-c", cfg, "-p", "hello")
		if r.code != 4 || strings.Contains(r.stderr+r.stdout, secret) {
			t.Errorf("exit %d, stderr:\n%s", r.code, r.stderr)
		}
		files, _ := filepath.Glob(filepath.Join(dir, ".mm", "traces", "*.response-error.txt"))
		if len(files) != 1 {
			t.Fatalf("files %v", files)
		}
		if b, _ := os.ReadFile(files[0]); bytes.Contains(b, []byte(secret)) || !bytes.Contains(b, []byte("http://bob:***@")) {
			t.Errorf("%s: %s", files[0], b)
		}
	})
	t.Run("banner", func(t *testing.T) {
		srv := llmtest.New(t)
		base := "http://bob:" + secret + "@" + srv.Addr() + "/v1"
		s := startREPL(t, t.TempDir(), nil, []string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=" + base, "AGENT_TRACE=1"})
		if txt := s.text(); strings.Contains(txt, secret) || !strings.Contains(txt, "(http://bob:***@"+srv.Addr()+"/v1)") {
			t.Errorf("banner:\n%s", txt)
		}
	})
}
