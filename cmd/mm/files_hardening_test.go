//go:build !windows

package main_test

// Hardening of the file tools and of the corrections sent to the model
// (issue #9, sections 3 and 5), through the binary.

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
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

// killLoopStats are the figures of the kill -9 loop.
type killLoopStats struct {
	runs, killed, corrupt, lost, strayRuns int
	strayBytes                             int64
	// partialStrays are stray files that do not hold the whole new text:
	// only a named temporary file being filled can be one. A complete one
	// is the link-then-rename instant of the O_TMPFILE way (atomicfile),
	// which the next write sweeps once stale.
	partialStrays int
}

// TestKillDuringWrite kills mm with SIGKILL at a random moment while
// edit_file writes a large file, and checks what is left: the file holds
// its old content or its new one (never a mix, never nothing), and no
// partly written temporary file stays behind. MM_KILL_RUNS (default 10) and MM_KILL_MB
// (default 16) make it the 50-run loop of docs/file-tools.md.
func TestKillDuringWrite(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	runs, mb := 10, 16
	if s := os.Getenv("MM_KILL_RUNS"); s != "" {
		runs, _ = strconv.Atoi(s)
	}
	if s := os.Getenv("MM_KILL_MB"); s != "" {
		mb, _ = strconv.Atoi(s)
	}
	line := strings.Repeat("x", 999) + "\n"
	body := strings.Repeat(line, mb<<20/len(line))
	oldText := "MARKER-OLD\n" + body
	newText := "MARKER-NEW\n" + body
	edit := `{"path":"big.txt","edits":[{"old":"MARKER-OLD","new":"MARKER-NEW"}]}`

	// A run that is not killed measures how long the write lasts: from
	// the moment mm holds a file open in the directory other than big.txt
	// (the temporary file) to the moment it no longer does.
	runOnce := func(kill bool, window time.Duration) (string, time.Duration, bool) {
		dir := t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "big.txt"), []byte(oldText), 0o644); err != nil {
			t.Fatal(err)
		}
		srv := llmtest.New(t, call("edit_file", edit), llmtest.Turn{Text: "done"})
		cfg := writeConfig(t, dir, "provider: llamacpp\nyolo: true\neditTools: true\n")
		cmd := exec.Command(mmBin, "-c", cfg, "-no-stdin", "-p", "edit big.txt")
		cmd.Dir = dir
		cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		waited := make(chan error, 1)
		go func() { waited <- cmd.Wait() }()
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		seen, writeStart := waitForTempFD(ctx, cmd.Process.Pid, dir, waited, true)
		writeEnd := writeStart
		if seen && !kill {
			waitForTempFD(ctx, cmd.Process.Pid, dir, waited, false)
			writeEnd = time.Now()
		}
		killed := false
		if seen && kill {
			delay := time.Duration(rand.Int64N(int64(window) + 1))
			select {
			case err := <-waited:
				waited <- err
			case <-time.After(time.Until(writeStart.Add(delay))):
				killed = cmd.Process.Signal(syscall.SIGKILL) == nil
			}
		}
		var err error
		select {
		case err = <-waited:
		case <-ctx.Done():
			cmd.Process.Kill()
			t.Fatalf("mm did not exit\n%s", errb.String())
		}
		if !kill && err != nil {
			t.Fatalf("mm: %v\n%s", err, errb.String())
		}
		if ee, ok := err.(*exec.ExitError); killed && (!ok || ee.ExitCode() != -1) {
			killed = false // it had exited before the signal
		}
		if os.Getenv("MM_KILL_DEBUG") != "" {
			t.Logf("seen %v killed %v err %v after %v", seen, killed, err, time.Since(writeStart))
		}
		return dir, writeEnd.Sub(writeStart), killed
	}
	// The shortest of three unkilled runs, so that most kills land
	// within the write.
	window := time.Hour
	for range 3 {
		dir, w, _ := runOnce(false, 0)
		if b, err := os.ReadFile(filepath.Join(dir, "big.txt")); err != nil || string(b) != newText {
			t.Fatalf("the unkilled run did not write the file: %v", err)
		}
		window = min(window, w)
		os.RemoveAll(dir)
	}
	t.Logf("%d MB: the write lasts about %v", mb, window)

	var st killLoopStats
	for i := 0; i < runs; i++ {
		dir, _, killed := runOnce(true, window)
		st.runs++
		if killed {
			st.killed++
		}
		b, err := os.ReadFile(filepath.Join(dir, "big.txt"))
		switch {
		case err != nil:
			st.lost++
		case string(b) != oldText && string(b) != newText:
			st.corrupt++
		}
		entries, _ := os.ReadDir(dir)
		stray := false
		for _, e := range entries {
			if n := e.Name(); n != "big.txt" && n != "test.yaml" && n != ".mm" {
				stray = true
				if info, err := e.Info(); err == nil {
					st.strayBytes = max(st.strayBytes, info.Size())
				}
				if b, err := os.ReadFile(filepath.Join(dir, n)); err != nil || string(b) != newText {
					st.partialStrays++
				}
			}
		}
		if stray {
			st.strayRuns++
		}
		os.RemoveAll(dir)
	}
	t.Logf("kill -9 loop: %d runs (%d killed while writing %d MB): %d corrupt, %d lost, %d left a stray temporary file (largest %d bytes)",
		st.runs, st.killed, mb, st.corrupt, st.lost, st.strayRuns, st.strayBytes)
	if st.corrupt > 0 || st.lost > 0 {
		t.Errorf("kill -9 loop: %d corrupt, %d lost", st.corrupt, st.lost)
	}
	// Without O_TMPFILE mm falls back to named temporary files, which a
	// kill can leave (the next write of the file sweeps them once stale).
	if err := tmpfileSupported(t.TempDir()); err != nil {
		t.Logf("this file system has no O_TMPFILE (%v): stray temporary files are expected", err)
	} else {
		// A kill can land between the link of the finished unnamed file
		// and its rename (a few microseconds, hit under load): that file
		// is whole. One being filled never has a name.
		if st.partialStrays > 0 {
			t.Errorf("kill -9 loop: %d runs left a partly written temporary file", st.partialStrays)
		}
	}
}

// waitForTempFD waits until the process pid holds open (open: true) or
// no longer holds open (open: false) a file of dir other than big.txt: the
// temporary file of the write, named or unnamed (O_TMPFILE). It reports
// whether it saw that before the process ended, and when.
func waitForTempFD(ctx context.Context, pid int, dir string, waited chan error, open bool) (bool, time.Time) {
	fdDir := fmt.Sprintf("/proc/%d/fd", pid)
	target := filepath.Join(dir, "big.txt")
	for ctx.Err() == nil {
		select {
		case err := <-waited:
			waited <- err
			return false, time.Now()
		default:
		}
		fds, _ := os.ReadDir(fdDir)
		holds := false
		for _, fd := range fds {
			l, err := os.Readlink(filepath.Join(fdDir, fd.Name()))
			if err == nil && strings.HasPrefix(l, dir+"/") && l != target && !strings.HasPrefix(l, dir+"/.mm") {
				holds = true
				break
			}
		}
		if holds == open {
			return true, time.Now()
		}
	}
	return false, time.Now()
}

// hardeningConfig lets the file tools write without asking.
const hardeningConfig = "provider: llamacpp\nyolo: true\neditTools: true\n"

// A file without any write bit is refused by write_file and edit_file,
// root included: the model reads one line, nothing is written.
func TestReadOnlyFileRefusedThroughMM(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "ro.txt")
	os.WriteFile(p, []byte("keep\n"), 0o444)
	srv := llmtest.New(t,
		call("write_file", `{"path":"ro.txt","content":"new\n"}`),
		call("edit_file", `{"path":"ro.txt","edits":[{"old":"keep","new":"gone"}]}`),
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, srv, nil, "", "-c", writeConfig(t, dir, hardeningConfig), "-p", "change ro.txt")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	res := toolResults(srv)
	want := "ro.txt is read-only (mode 0444) — nothing written"
	if len(res) != 2 || res[0] != want || res[1] != want {
		t.Errorf("tool results %q, want twice %q", res, want)
	}
	if b, _ := os.ReadFile(p); string(b) != "keep\n" {
		t.Errorf("ro.txt = %q", b)
	}
	if info, _ := os.Stat(p); info.Mode().Perm() != 0o444 {
		t.Errorf("mode %v", info.Mode())
	}
}

// mm run as an unprivileged user (uid 65534) in a directory it may write:
// root's files there are refused (one it may not write, one it may write
// but whose owner the replacement would change), owner and content
// unchanged; its own files and new ones are written as usual.
func TestOtherUsersFileRefusedThroughMM(t *testing.T) {
	if os.Geteuid() != 0 {
		t.Skip("running mm as another user (uid 65534) needs root; the read-only case is TestReadOnlyFileRefusedThroughMM")
	}
	const nobody = 65534
	base := t.TempDir()
	os.Chmod(filepath.Dir(base), 0o755)
	os.Chmod(base, 0o755)
	bin := filepath.Join(base, "mm")
	data, err := os.ReadFile(mmBin)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(bin, data, 0o755); err != nil {
		t.Fatal(err)
	}
	dir, home := filepath.Join(base, "project"), filepath.Join(base, "home")
	for _, d := range []string{dir, home} {
		os.Mkdir(d, 0o755)
		os.Chown(d, nobody, nobody)
	}
	files := map[string]os.FileMode{"root.txt": 0o644, "shared.txt": 0o666, "own.txt": 0o644}
	for name, mode := range files {
		p := filepath.Join(dir, name)
		os.WriteFile(p, []byte("keep\n"), mode)
		os.Chmod(p, mode)
	}
	os.Chown(filepath.Join(dir, "own.txt"), nobody, nobody)
	cfg := writeConfig(t, dir, hardeningConfig)

	srv := llmtest.New(t,
		call("write_file", `{"path":"root.txt","content":"new\n"}`),
		call("edit_file", `{"path":"root.txt","edits":[{"old":"keep","new":"gone"}]}`),
		call("write_file", `{"path":"shared.txt","content":"new\n"}`),
		call("edit_file", `{"path":"own.txt","edits":[{"old":"keep","new":"mine"}]}`),
		call("write_file", `{"path":"new.txt","content":"fresh\n"}`),
		llmtest.Turn{Text: "done"},
	)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "-c", cfg, "-no-stdin", "-p", "change the files")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL(), "HOME="+home, "XDG_CONFIG_HOME="+home, "XDG_CACHE_HOME="+home)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("mm as uid %d: %v\n%s", nobody, err, errb.String())
	}
	res := toolResults(srv)
	want := []string{
		"root.txt is not writable by you (mode 0644, owner uid 0) — nothing written",
		"root.txt is not writable by you (mode 0644, owner uid 0) — nothing written",
		"shared.txt belongs to another user (uid 0), and replacing it would make it yours — nothing written",
		"own.txt: 1 edit applied",
		"new.txt: created, 1 line",
	}
	if len(res) != len(want) {
		t.Fatalf("tool results:\n%s", strings.Join(res, "\n"))
	}
	for i, w := range want {
		if !strings.HasPrefix(res[i], w) {
			t.Errorf("result %d: %q, want %q", i, res[i], w)
		}
	}
	for name, want := range map[string]string{"root.txt": "keep\n", "shared.txt": "keep\n", "own.txt": "mine\n", "new.txt": "fresh\n"} {
		p := filepath.Join(dir, name)
		b, _ := os.ReadFile(p)
		info, err := os.Stat(p)
		if err != nil || string(b) != want {
			t.Errorf("%s = %q, %v; want %q", name, b, err, want)
			continue
		}
		uid := info.Sys().(*syscall.Stat_t).Uid
		if wantUID := map[bool]uint32{true: 0, false: nobody}[name == "root.txt" || name == "shared.txt"]; uid != wantUID {
			t.Errorf("%s: owner uid %d, want %d", name, uid, wantUID)
		}
		if mode, ok := files[name]; ok && info.Mode().Perm() != mode {
			t.Errorf("%s: mode %v, want %v", name, info.Mode().Perm(), mode)
		}
	}
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		if strings.Contains(e.Name(), ".mm-") {
			t.Errorf("temporary file left: %s", e.Name())
		}
	}
}

// A 200 KB tool name comes back to the model cut to 64 characters in the
// correction, and the next request stays small.
func TestHugeToolNameIsCutInTheCorrection(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("n", 200<<10)
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: huge, Arguments: `{}`}}},
		llmtest.Turn{Text: "sorry"},
	)
	// The correction itself, without the constrained retry before it
	// (retry_test.go).
	r := mm(t, dir, srv, nil, "", "-c", writeConfig(t, dir, hardeningConfig+"toolCallRetry: false\n"), "-p", "do it")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	msgs := reqs[1].JSON["messages"].([]any)
	last, _ := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	want := "[Tool call not run: there is no tool named " + strings.Repeat("n", 64) + "…; the tools are: "
	if !strings.HasPrefix(last, want) || len(last) > 1000 {
		t.Errorf("the correction (%d bytes) starts %q\nwant %q", len(last), last[:min(len(last), 200)], want)
	}
	if len(reqs[1].Body) > len(reqs[0].Body)+2000 {
		t.Errorf("the second request is %d bytes, the first %d: the name came back", len(reqs[1].Body), len(reqs[0].Body))
	}
	if len(r.stderr) > 10000 {
		t.Errorf("stderr holds %d bytes", len(r.stderr))
	}
}

// A call cut by max_tokens whose 200 KB name the agent quotes in its
// hand-back message ("[Your <name> call was cut off …]").
func TestHugeToolNameIsCutInTheMaxTokensHandBack(t *testing.T) {
	dir := t.TempDir()
	huge := strings.Repeat("n", 200<<10)
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: huge, Arguments: `{"command":"ls`}}, Finish: "length"},
		llmtest.Turn{Text: "sorry"},
	)
	r := mm(t, dir, srv, nil, "", "-c", writeConfig(t, dir, hardeningConfig), "-p", "do it")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr[:min(len(r.stderr), 500)])
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d chat requests", len(reqs))
	}
	if len(reqs[1].Body) > len(reqs[0].Body)+2000 || len(r.stderr) > 10000 {
		t.Errorf("the second request is %d bytes (the first %d), stderr %d bytes: the name came back", len(reqs[1].Body), len(reqs[0].Body), len(r.stderr))
	}
}
