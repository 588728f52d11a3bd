//go:build !windows

package main_test

// Processes and resources, through the binary: a command's output cannot
// fill the disk, not even from a job left running after mm exits; the
// running command dies with mm; secrets stay out of the commands'
// environment; a read that blocks does not hang the turn.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mm/internal/llmtest"
	"mm/internal/tools"
)

// bashCap is the bash output cap (tools.BashOutputCap) as the model reads it.
const bashCapMiB = 64

// A command that prints without end is killed at the cap, and the model
// reads why, after the end of what it printed.
func TestBashOutputCapKillsCommand(t *testing.T) {
	dir := t.TempDir()
	// A short bashTimeout: without the cap, yes would fill the disk for
	// the whole timeout.
	cfg := writeConfig(t, dir, "provider: llamacpp\nbashTimeout: 3s\n")
	srv := llmtest.New(t, bashCall("echo start; yes"), llmtest.Turn{Text: "done"})
	start := time.Now()
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	took := time.Since(start)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	res := toolResults(srv)
	if len(res) != 1 {
		t.Fatalf("%d tool results", len(res))
	}
	want := fmt.Sprintf("\ny\n[error: output passed %d MiB — command killed]", bashCapMiB)
	if !strings.HasSuffix(res[0], want) || !strings.HasPrefix(res[0], "start\ny\n") {
		t.Fatalf("tool result %.40q … %q, want it to end with %q", res[0], res[0][max(0, len(res[0])-80):], want)
	}
	t.Logf("killed at the cap; mm ran %s", took)
}

// portablePaths are the two ways mm guards its processes on Linux: its
// own (Pdeathsig, inotify) and the portable one macOS takes, forced by
// MM_PROCGUARD_PORTABLE=1 (docs/platforms.md, Processes).
var portablePaths = []struct {
	name string
	env  []string
}{{"native", nil}, {"portable", []string{"MM_PROCGUARD_PORTABLE=1"}}}

// A job left running that prints without end (`yes > /dev/stdout &`,
// which reopens the output file; a setsid one) is killed at the cap even
// once mm has exited: the job below only starts printing when mm is gone.
func TestBackgroundJobCappedAfterExit(t *testing.T) {
	for _, tc := range []struct{ name, job string }{
		{"reopened stdout", `(while kill -0 $MM 2>/dev/null; do sleep 0.05; done; exec yes > /dev/stdout) & echo $! > yes.pid`},
		{"setsid", `setsid bash -c 'echo $$ > yes.pid; while kill -0 $MM 2>/dev/null; do sleep 0.05; done; exec yes' &`},
	} {
		for _, path := range portablePaths {
			t.Run(tc.name+"/"+path.name, func(t *testing.T) { backgroundJobCapped(t, tc.job, path.env) })
		}
	}
}

func backgroundJobCapped(t *testing.T, job string, env []string) {
	dir := t.TempDir()
	srv := llmtest.New(t, bashCall("export MM=$PPID; "+job+"\necho left"), llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, env, "", "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	pid := waitPidFile(t, filepath.Join(dir, "yes.pid"), 10*time.Second)
	// yes > /dev/stdout truncates the file: "left" may be gone.
	if res := toolResults(srv); len(res) != 1 || (res[0] != "left\n" && res[0] != tools.NoOutput) {
		t.Fatalf("tool results %q", res)
	}
	// The job writes about 1 GB/s: it must die near the cap.
	// Past 4 times the cap it is not bounded (and the test stops
	// it before it fills the disk).
	limit := int64(4 * bashCapMiB << 20)
	var peak int64
	start := time.Now()
	deadline := start.Add(30 * time.Second)
	for !gone(pid) {
		if st, err := os.Stat(fmt.Sprintf("/proc/%d/fd/1", pid)); err == nil {
			peak = max(peak, st.Size())
		}
		if peak > limit {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the job's output reached %d MiB", peak>>20)
		}
		if time.Now().After(deadline) {
			t.Fatalf("the job still runs after %s, output %d MiB", time.Since(start), peak>>20)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("job gone %s after its pid was read; largest size seen %d MiB", time.Since(start).Round(time.Millisecond), peak>>20)
}

// mm killed with SIGKILL while a command runs: the shell, its child, and a
// setsid grandchild all die, on both paths (without a parent-death
// signal the guardian kills the shell too).
func TestKill9KillsRunningCommand(t *testing.T) {
	for _, path := range portablePaths {
		t.Run(path.name, func(t *testing.T) { kill9KillsRunningCommand(t, path.env) })
	}
}

func kill9KillsRunningCommand(t *testing.T, env []string) {
	dir := t.TempDir()
	srv := llmtest.New(t, bashCall(`echo $$ > shell.pid; sleep 300 & echo $! > sleep.pid; `+
		`setsid bash -c 'echo $$ > setsid.pid; exec sleep 300' > /dev/null 2>&1 & sleep 300; true`), llmtest.Turn{Text: "never"})
	cmd := exec.Command(mmBin, "-p", "wait")
	cmd.Dir = dir
	cmd.Env = append(append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL()), env...)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	var pids []int
	for _, f := range []string{"shell.pid", "sleep.pid", "setsid.pid"} {
		pids = append(pids, waitPidFile(t, filepath.Join(dir, f), 20*time.Second))
	}
	cmd.Process.Kill()
	cmd.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for i, pid := range pids {
		for !gone(pid) {
			if time.Now().After(deadline) {
				t.Fatalf("%s (pid %d) still runs after mm was killed", []string{"the shell", "its child", "a setsid grandchild"}[i], pid)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

// Neither the API key's variable nor AGENT_BASE_URL (which may hold a
// password) reaches the commands: the model would read them with `env`.
func TestSecretsNotInherited(t *testing.T) {
	check := func(t *testing.T, srv *llmtest.Server, secrets ...string) {
		t.Helper()
		res := toolResults(srv)
		if len(res) != 1 {
			t.Fatalf("%d tool results", len(res))
		}
		if !strings.Contains(res[0], "MM_TEST_VISIBLE=shown") {
			t.Fatalf("env did not run or dropped everything: %q", res[0])
		}
		for _, s := range secrets {
			if strings.Contains(res[0], s) {
				t.Errorf("the model read %q in:\n%s", s, res[0])
			}
		}
	}
	t.Run("provider key and base URL", func(t *testing.T) {
		srv := llmtest.NewWith(t, llmtest.Options{APIKey: "llama-secret"}, bashCall("env"), llmtest.Turn{Text: "done"})
		url := strings.Replace(srv.URL(), "http://", "http://user:url-password@", 1)
		r := mm(t, t.TempDir(), nil, []string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=" + url, "LLAMA_API_KEY=llama-secret",
			"OLLAMA_API_KEY=ollama-secret", "MM_TEST_VISIBLE=shown"}, "", "-p", "go")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		check(t, srv, "llama-secret", "ollama-secret", "url-password", "AGENT_BASE_URL", "LLAMA_API_KEY")
	})
	t.Run("apiKeyEnv", func(t *testing.T) {
		dir := t.TempDir()
		cfg := writeConfig(t, dir, "provider: llamacpp\napiKeyEnv: MY_KEY\n")
		srv := llmtest.NewWith(t, llmtest.Options{APIKey: "my-secret"}, bashCall("env"), llmtest.Turn{Text: "done"})
		r := mm(t, dir, srv, []string{"MY_KEY=my-secret", "LLAMA_API_KEY=llama-secret", "MM_TEST_VISIBLE=shown"}, "", "-c", cfg, "-p", "go")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		check(t, srv, "my-secret", "MY_KEY", "llama-secret")
	})
}

// read_file on /proc/kmsg, a "regular" file whose read blocks (as root;
// elsewhere it is refused at once): the turn goes on.
func TestReadFileBlockingFile(t *testing.T) {
	if f, err := os.Open("/proc/kmsg"); err != nil {
		t.Skipf("/proc/kmsg: %v", err)
	} else {
		f.Close()
	}
	args, _ := json.Marshal(map[string]string{"path": "/proc/kmsg"})
	srv := llmtest.New(t, llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Arguments: string(args)}}}, llmtest.Turn{Text: "done"})
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\neditTools: true\n")
	cmd := exec.Command(mmBin, "-c", cfg, "-p", "read it")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AGENT_BASE_URL="+srv.URL())
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("mm: %v\n%s", err, errb.String())
		}
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("mm hangs reading /proc/kmsg\n%s", errb.String())
	}
	if res := toolResults(srv); len(res) != 1 || !strings.HasPrefix(res[0], "cannot read /proc/kmsg") {
		t.Errorf("tool results %q", res)
	}
}

// mm killed with SIGKILL while an MCP server (a tied child, as language
// servers and asked agents are) is in a call: the server and the child it
// started (a sleep that does not read stdin) die too, on both paths: the
// guardian kills the server's group (Linux's parent-death signal only
// reaches the server).
func TestKill9KillsTiedChild(t *testing.T) {
	for _, path := range portablePaths {
		t.Run(path.name, func(t *testing.T) {
			dir := t.TempDir()
			cfg := writeConfig(t, dir, "mcp:\n  servers:\n"+mcpTinyServer(t, "tiny", dir, "      env: {SPAWN: \"1\"}\n"))
			srv := llmtest.New(t, llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("tiny_hang", `{}`)}}, llmtest.Turn{Text: "never"})
			cmd := exec.Command(mmBin, "-c", cfg, "-p", "go")
			cmd.Dir = dir
			cmd.Env = append(append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL()), path.env...)
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer cmd.Process.Kill()
			mcpWaitHang(t, filepath.Join(dir, "called"), 1)
			var pids []int
			for _, l := range mcpWaitLines(t, filepath.Join(dir, "pids"), 2)[:2] {
				pid, _ := strconv.Atoi(l)
				pids = append(pids, pid)
				t.Cleanup(func() { syscall.Kill(pid, syscall.SIGKILL) })
			}
			cmd.Process.Kill()
			cmd.Wait()
			deadline := time.Now().Add(10 * time.Second)
			for i, pid := range pids {
				for !gone(pid) {
					if time.Now().After(deadline) {
						t.Fatalf("%s (pid %d) still runs after mm was killed", []string{"the MCP server", "its child"}[i], pid)
					}
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
}
