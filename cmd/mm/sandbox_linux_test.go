package main_test

// The bash sandbox through the binary (Landlock, docs/security.md): with
// sandbox.mode: workspace a command writes in the project and the temp
// directories, not elsewhere, nor does what it starts; it reads
// everywhere; mm itself writes where it likes (its traces); network:
// false refuses a TCP connect; read-only; a kernel without Landlock
// (simulated); off is the reference's behaviour.

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
	"mm/internal/procguard"
)

const (
	workspaceRefused = "[sandbox: writing outside the project is refused (sandbox.mode: workspace)]"
	readOnlyRefused  = "[sandbox: writing outside the temp directories is refused (sandbox.mode: read-only)]"
	networkRefused   = "[sandbox: network connections are refused (sandbox.network: false)]"
)

// sandboxPlaces makes a project (a .git entry marks its root) and a
// directory outside it that is no temp directory: both under the
// package's directory, since everything under /tmp is writable in the
// sandbox.
func sandboxPlaces(t *testing.T) (proj, outside string) {
	t.Helper()
	if why := procguard.SandboxUnavailable(); why != "" {
		t.Skip("no sandbox here: " + why)
	}
	base := outsideTemp(t, ".sandbox-e2e-")
	proj, outside = filepath.Join(base, "proj"), filepath.Join(base, "outside")
	for _, d := range []string{filepath.Join(proj, ".git"), outside} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return proj, outside
}

func TestSandboxWorkspace(t *testing.T) {
	proj, outside := sandboxPlaces(t)
	tmp := t.TempDir()
	os.WriteFile(filepath.Join(outside, "readme"), []byte("outside text\n"), 0o644)
	traces := filepath.Join(outside, "traces")
	cfg := writeConfig(t, proj, fmt.Sprintf("provider: llamacpp\nsandbox:\n  mode: workspace\n  writable: []\ntrace:\n  enabled: true\n  dir: %s\n", traces))
	srv := llmtest.New(t,
		bashCall("echo in > inside.txt && cat inside.txt"),
		bashCall("echo out > "+outside+"/a.txt"),
		bashCall(`bash -c 'sh -c "echo > `+outside+`/b.txt"'`),
		bashCall("echo t > "+tmp+"/x && cat "+tmp+"/x"),
		bashCall("cat "+outside+"/readme"),
		llmtest.Turn{Text: "done"})
	r := mm(t, proj, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if strings.Contains(r.stderr, "[warning: sandbox") {
		t.Errorf("a sandbox warning with Landlock here:\n%s", r.stderr)
	}
	res := toolResults(srv)
	if len(res) != 5 {
		t.Fatalf("%d tool results: %q", len(res), res)
	}
	if res[0] != "in\n" || !exists(filepath.Join(proj, "inside.txt")) {
		t.Errorf("write inside the project: %q", res[0])
	}
	for i, name := range []string{"a.txt", "b.txt"} {
		if !strings.HasSuffix(res[1+i], "\n"+workspaceRefused) || strings.Count(res[1+i], "[sandbox:") != 1 {
			t.Errorf("write outside (%s): the model read %q", name, res[1+i])
		}
		if exists(filepath.Join(outside, name)) {
			t.Errorf("%s written outside the project", name)
		}
	}
	if res[3] != "t\n" {
		t.Errorf("write to a temp directory: %q", res[3])
	}
	if res[4] != "outside text\n" {
		t.Errorf("read outside the project: %q", res[4])
	}
	// mm is not confined: its trace directory outside the project has
	// every call.
	if files, _ := filepath.Glob(filepath.Join(traces, "*.request.json")); len(files) != 6 {
		t.Errorf("%d request traces outside the project, want 6", len(files))
	}
}

// A denial on a path the sandbox allows is the file's own: no line.
func TestSandboxOwnDenialNoLine(t *testing.T) {
	proj, _ := sandboxPlaces(t)
	os.WriteFile(filepath.Join(proj, "x.sh"), []byte("echo x\n"), 0o644)
	srv := llmtest.New(t, bashCall("./x.sh"), llmtest.Turn{Text: "done"})
	r := mm(t, proj, srv, nil, "", "-sandbox", "workspace", "-p", "go")
	if res := toolResults(srv); r.code != 0 || len(res) != 1 || !strings.Contains(res[0], "Permission denied") || strings.Contains(res[0], "[sandbox:") {
		t.Errorf("exit %d, the model read %q", r.code, res)
	}
}

func TestSandboxNetwork(t *testing.T) {
	proj, _ := sandboxPlaces(t)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	connect := fmt.Sprintf("exec 3<>/dev/tcp/127.0.0.1/%d && echo connected", port)
	for _, tc := range []struct {
		network bool
		check   func(string) bool
	}{
		{true, func(s string) bool { return s == "connected\n" }},
		{false, func(s string) bool {
			return strings.Contains(s, "Permission denied") && strings.HasSuffix(s, "\n"+networkRefused)
		}},
	} {
		cfg := writeConfig(t, proj, fmt.Sprintf("provider: llamacpp\nsandbox:\n  mode: workspace\n  network: %v\n", tc.network))
		srv := llmtest.New(t, bashCall(connect), llmtest.Turn{Text: "done"})
		r := mm(t, proj, srv, nil, "", "-c", cfg, "-p", "go")
		if res := toolResults(srv); r.code != 0 || len(res) != 1 || !tc.check(res[0]) {
			t.Errorf("network: %v: exit %d, the model read %q\n%s", tc.network, r.code, res, r.stderr)
		}
	}
}

// -sandbox read-only wins over the file: the project is not writable,
// the temp directories are.
func TestSandboxReadOnly(t *testing.T) {
	proj, _ := sandboxPlaces(t)
	tmp := t.TempDir()
	cfg := writeConfig(t, proj, "provider: llamacpp\nsandbox:\n  mode: off\n")
	srv := llmtest.New(t, bashCall("echo in > inside.txt"), bashCall("echo t > "+tmp+"/x && cat "+tmp+"/x"), llmtest.Turn{Text: "done"})
	r := mm(t, proj, srv, nil, "", "-c", cfg, "-sandbox", "read-only", "-p", "go")
	res := toolResults(srv)
	if r.code != 0 || len(res) != 2 {
		t.Fatalf("exit %d, results %q\n%s", r.code, res, r.stderr)
	}
	if !strings.HasSuffix(res[0], "\n"+readOnlyRefused) || exists(filepath.Join(proj, "inside.txt")) {
		t.Errorf("write in the project, read-only: %q", res[0])
	}
	if res[1] != "t\n" {
		t.Errorf("write to a temp directory, read-only: %q", res[1])
	}
}

// Without Landlock (simulated): one warning, and bash runs unconfined;
// with required: true, a configuration error at the line, before
// anything runs.
func TestSandboxWithoutLandlock(t *testing.T) {
	proj, outside := sandboxPlaces(t)
	noLL := []string{procguard.NoSandboxVar + "=1"}
	cfg := writeConfig(t, proj, "provider: llamacpp\nsandbox:\n  mode: workspace\n")
	// /sys refuses a new file to anyone, root too: a denial outside the
	// project that no sandbox made gets no [sandbox: …] line.
	srv := llmtest.New(t, bashCall("echo out > "+outside+"/a.txt; touch /sys/mm-sandbox-test"), llmtest.Turn{Text: "done"})
	r := mm(t, proj, srv, noLL, "", "-c", cfg, "-p", "go")
	if res := toolResults(srv); len(res) != 1 || strings.Contains(res[0], "[sandbox:") {
		t.Errorf("unconfined, the model read %q", res)
	}
	want := "[warning: sandbox.mode: workspace, but bash cannot be confined here (no Landlock (simulated by MM_SANDBOX_SIMULATE_NO_LANDLOCK=1)): commands run unconfined — sandbox.required: true refuses to start instead]"
	if r.code != 0 || strings.Count(r.stderr, want) != 1 {
		t.Errorf("exit %d, want the warning once:\n%s", r.code, r.stderr)
	}
	if !exists(filepath.Join(outside, "a.txt")) {
		t.Error("bash did not run unconfined")
	}

	cfg = writeConfig(t, proj, "provider: llamacpp\nsandbox:\n  mode: workspace\n  required: true\n")
	srv = llmtest.New(t, bashCall("echo out > "+outside+"/b.txt"), llmtest.Turn{Text: "done"})
	r = mm(t, proj, srv, noLL, "", "-c", cfg, "-p", "go")
	wantErr := "[config error: " + cfg + ": line 4: sandbox.required is true and bash cannot be confined here: no Landlock (simulated by MM_SANDBOX_SIMULATE_NO_LANDLOCK=1)]\n"
	if r.code != 1 || r.stderr != wantErr || len(srv.ChatRequests()) != 0 {
		t.Errorf("exit %d, %d requests, stderr:\n%s\nwant:\n%s", r.code, len(srv.ChatRequests()), r.stderr, wantErr)
	}
	// -sandbox off asks for no sandbox: nothing is required then.
	r = mm(t, proj, srv, noLL, "", "-c", cfg, "-sandbox", "off", "-p", "go")
	if r.code != 0 || strings.Contains(r.stderr, "[warning: sandbox") {
		t.Errorf("-sandbox off: exit %d\n%s", r.code, r.stderr)
	}
}

// off (the default) is today's behaviour; -sandbox takes the three
// modes only.
func TestSandboxOff(t *testing.T) {
	proj, outside := sandboxPlaces(t)
	cfg := writeConfig(t, proj, "provider: llamacpp\nsandbox:\n  mode: workspace\n")
	srv := llmtest.New(t, bashCall("echo out > "+outside+"/a.txt && echo written"), llmtest.Turn{Text: "done"},
		bashCall("echo out > "+outside+"/b.txt && echo written"), llmtest.Turn{Text: "done"})
	r := mm(t, proj, srv, nil, "", "-p", "go")
	if res := toolResults(srv); r.code != 0 || len(res) != 1 || res[0] != "written\n" || !exists(filepath.Join(outside, "a.txt")) {
		t.Errorf("default: exit %d, the model read %q", r.code, res)
	}
	r = mm(t, proj, srv, nil, "", "-c", cfg, "-sandbox", "off", "-p", "go")
	if r.code != 0 || !exists(filepath.Join(outside, "b.txt")) {
		t.Errorf("-sandbox off over mode: workspace: exit %d\n%s", r.code, r.stderr)
	}
	r = mm(t, proj, nil, nil, "", "-sandbox", "strict", "-p", "go")
	if r.code != 2 || r.stderr != "mm: -sandbox must be off, workspace or read-only (run mm -h for the flags)\n" {
		t.Errorf("-sandbox strict: exit %d\n%s", r.code, r.stderr)
	}
}

// In line mode, the banner says it once.
func TestSandboxWithoutLandlockBanner(t *testing.T) {
	proj, _ := sandboxPlaces(t)
	cfg := writeConfig(t, proj, "provider: llamacpp\nsandbox:\n  mode: read-only\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	s := startREPL(t, proj, srv, []string{procguard.NoSandboxVar + "=1"}, "-c", cfg)
	s.ask("hi")
	s.expect("ok")
	want := "[warning: sandbox.mode: read-only, but bash cannot be confined here (no Landlock (simulated by MM_SANDBOX_SIMULATE_NO_LANDLOCK=1)): commands run unconfined — sandbox.required: true refuses to start instead]"
	if n := strings.Count(strings.ReplaceAll(s.text(), "\n", ""), want); n != 1 {
		t.Errorf("the warning %d times:\n%s", n, s.text())
	}
}

// In ACP each session's project is its own: a command of a session in
// one project cannot write in another session's project.
func TestSandboxACPSessionRoot(t *testing.T) {
	a, b := sandboxPlaces(t)
	os.MkdirAll(filepath.Join(b, ".git"), 0o755)
	cfg := writeConfig(t, a, "provider: llamacpp\nsandbox:\n  mode: workspace\n  writable: []\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"echo a > in-a.txt && echo b > ` + b + `/from-a.txt"}`}}},
		llmtest.Turn{Text: "done"})
	c := startACP(t, a, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(a)
	if r := c.stopReason(c.prompt(sid, "go")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	res := toolResults(srv)
	if len(res) != 1 || !strings.HasSuffix(res[0], "\n"+workspaceRefused) || !exists(filepath.Join(a, "in-a.txt")) || exists(filepath.Join(b, "from-a.txt")) {
		t.Errorf("the model read %q", res)
	}
}

// outsideTemp makes a fresh directory that no temp directory holds (a
// confined command may write those): the package's directory, unless the
// clone itself is under /tmp, else /var/tmp, else the home directory. A
// test of what the sandbox refuses needs one.
func outsideTemp(t testing.TB, pattern string) string {
	t.Helper()
	home, _ := os.UserHomeDir()
	for _, parent := range []string{".", "/var/tmp", home} {
		abs, err := filepath.Abs(parent)
		if parent == "" || err != nil || procguard.UnderTempDir(abs) {
			continue
		}
		d, err := os.MkdirTemp(abs, pattern)
		if err != nil {
			continue
		}
		t.Cleanup(func() { os.RemoveAll(d) })
		return d
	}
	t.Fatal("no writable directory outside the temp directories")
	return ""
}

// The project's .git file is the project's to write (an earlier command
// did, or an unpacked archive): "gitdir: .." does not make the directory
// above the project writable. A real linked worktree still commits.
func TestSandboxForgedGitFile(t *testing.T) {
	proj, outside := sandboxPlaces(t)
	os.Remove(filepath.Join(proj, ".git"))
	os.WriteFile(filepath.Join(proj, ".git"), []byte("gitdir: ..\n"), 0o644)
	cfg := writeConfig(t, proj, "provider: llamacpp\nsandbox:\n  mode: workspace\n  writable: []\n")
	srv := llmtest.New(t, bashCall("echo out > "+outside+"/a.txt"), llmtest.Turn{Text: "done"})
	r := mm(t, proj, srv, nil, "", "-c", cfg, "-p", "go")
	res := toolResults(srv)
	if r.code != 0 || len(res) != 1 {
		t.Fatalf("exit %d, results %q\n%s", r.code, res, r.stderr)
	}
	if !strings.HasSuffix(res[0], "\n"+workspaceRefused) || exists(filepath.Join(outside, "a.txt")) {
		t.Errorf("a forged gitdir opened the directory above: the model read %q", res[0])
	}

	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	main, wt := filepath.Join(outside, "main"), filepath.Join(outside, "wt")
	git := func(dir string, args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=a@b", "-c", "user.name=a"}, args...)...)
		cmd.Dir = dir
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %q: %v\n%s", args, err, out)
		}
	}
	os.MkdirAll(main, 0o755)
	git(main, "init", "-q")
	git(main, "commit", "-q", "--allow-empty", "-m", "first")
	git(main, "worktree", "add", "-q", wt)
	cfg = writeConfig(t, wt, "provider: llamacpp\nsandbox:\n  mode: workspace\n  writable: []\n")
	srv = llmtest.New(t, bashCall("git -c user.email=a@b -c user.name=a commit -q --allow-empty -m second && echo committed"), llmtest.Turn{Text: "done"})
	r = mm(t, wt, srv, nil, "", "-c", cfg, "-p", "go")
	if res := toolResults(srv); r.code != 0 || len(res) != 1 || res[0] != "committed\n" {
		t.Errorf("commit in a linked worktree: exit %d, results %q\n%s", r.code, res, r.stderr)
	}
}

// A project that was unpacked rather than cloned can hold a .git file of
// its own making: `gitdir: ..` does not make the directory above the
// project writable (nor `gitdir: /` the disk).
func TestSandboxPlantedGitFile(t *testing.T) {
	proj, outside := sandboxPlaces(t)
	unpacked := filepath.Join(outside, "proj")
	os.MkdirAll(unpacked, 0o755)
	os.WriteFile(filepath.Join(unpacked, ".git"), []byte("gitdir: ..\n"), 0o644)
	cfg := writeConfig(t, proj, "provider: llamacpp\nsandbox:\n  mode: workspace\n  writable: []\n")
	srv := llmtest.New(t, bashCall("echo out > "+outside+"/a.txt"), llmtest.Turn{Text: "done"})
	if r := mm(t, unpacked, srv, nil, "", "-c", cfg, "-p", "go"); r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if res := toolResults(srv); len(res) != 1 || !strings.HasSuffix(res[0], workspaceRefused) || exists(filepath.Join(outside, "a.txt")) {
		t.Errorf("the directory above the project was writable: %q", res)
	}
}
