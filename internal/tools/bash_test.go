package tools

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// Generous bounds: CI has two busy cores.
const (
	bashPromptly = 10 * time.Second
	bashLong     = 20 * time.Second // timeout for commands that should not hit it
)

func runBash(t *testing.T, opts BashOptions, command string) string {
	t.Helper()
	if opts.Timeout == 0 {
		opts.Timeout = bashLong
	}
	return RunBash(context.Background(), opts, command)
}

// runBashWithin runs the command and fails if it takes longer than limit.
func runBashWithin(t *testing.T, ctx context.Context, limit time.Duration, opts BashOptions, command string) string {
	t.Helper()
	start := time.Now()
	got := RunBash(ctx, opts, command)
	if d := time.Since(start); d > limit {
		t.Fatalf("RunBash took %v, want under %v; output %q", d, limit, got)
	}
	return got
}

func waitGone(t *testing.T, what string, pid int) {
	t.Helper()
	deadline := time.Now().Add(bashPromptly)
	for !processGone(pid) {
		if time.Now().After(deadline) {
			t.Fatalf("%s (pid %d) still runs", what, pid)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// readPid waits for a pid written by the command (`echo $! > file`).
func readPid(t *testing.T, path string) int {
	t.Helper()
	deadline := time.Now().Add(bashPromptly)
	for {
		b, err := os.ReadFile(path)
		if err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("bad pid in %s: %q", path, b)
			}
			// Never leave a stray process behind if the test fails.
			t.Cleanup(func() { killPid(pid) })
			return pid
		}
		if time.Now().After(deadline) {
			t.Fatalf("no pid written to %s", path)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func TestBashMergesStdoutAndStderrInOrder(t *testing.T) {
	got := runBash(t, BashOptions{}, "echo one; echo two >&2; echo three; echo four >&2")
	if want := "one\ntwo\nthree\nfour\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestBashNonZeroExitAddsMarkerLine(t *testing.T) {
	for _, tc := range []struct{ cmd, want string }{
		{"echo out; exit 3", "out\n[exit code: exit status 3]"},
		{"printf 'no newline'; exit 1", "no newline\n[exit code: exit status 1]"},
		{"exit 2", "[exit code: exit status 2]"},
		{"echo oops >&2; false", "oops\n[exit code: exit status 1]"},
		{"kill -KILL $$", "[exit code: signal: killed]"},
	} {
		if got := runBash(t, BashOptions{}, tc.cmd); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.cmd, got, tc.want)
		}
	}
}

func TestBashEmptyOutputSaysNoOutput(t *testing.T) {
	if got := runBash(t, BashOptions{}, "true"); got != NoOutput {
		t.Fatalf("got %q, want %q", got, NoOutput)
	}
}

func TestBashHonoursWorkingDir(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if got := runBash(t, BashOptions{Dir: dir}, "pwd -P"); got != dir+"\n" {
		t.Fatalf("got %q, want %q", got, dir+"\n")
	}
	if err := os.WriteFile(filepath.Join(dir, "here.txt"), []byte("found\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := runBash(t, BashOptions{Dir: dir}, "cat here.txt"); got != "found\n" {
		t.Fatalf("relative path: got %q", got)
	}
}

func TestBashMissingDirIsATextError(t *testing.T) {
	got := runBash(t, BashOptions{Dir: filepath.Join(t.TempDir(), "nope")}, "echo hi")
	if !strings.HasPrefix(got, "[error: ") || !strings.HasSuffix(got, "]") {
		t.Fatalf("got %q, want an [error: ...] text", got)
	}
}

func TestBashEnv(t *testing.T) {
	t.Setenv("MM_BASH_TEST_INHERITED", "inherited")
	if got := runBash(t, BashOptions{}, "echo $MM_BASH_TEST_INHERITED"); got != "inherited\n" {
		t.Errorf("nil Env: got %q, want the process's environment", got)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "MM_BASH_TEST_OWN=own"}
	if got := runBash(t, BashOptions{Env: env}, "echo $MM_BASH_TEST_OWN-$MM_BASH_TEST_INHERITED"); got != "own-\n" {
		t.Errorf("explicit Env: got %q, want only that environment", got)
	}
}

func TestBashHasNoStdin(t *testing.T) {
	// With an inherited stdin, cat would wait for the test runner's input.
	if got := runBashWithin(t, context.Background(), bashPromptly, BashOptions{Timeout: bashLong}, "cat"); got != NoOutput {
		t.Fatalf("cat: got %q, want %q", got, NoOutput)
	}
	if got := runBash(t, BashOptions{}, "readlink /proc/self/fd/0"); got != "/dev/null\n" {
		t.Fatalf("stdin is %q, want /dev/null", got)
	}
}

func TestBashTimeoutKillsTheWholeGroup(t *testing.T) {
	for _, tc := range []struct{ name, prefix string }{
		{"plain", ""},
		// Everything ignores SIGTERM: only the SIGKILL that follows ends it.
		{"ignoring SIGTERM", "trap '' TERM; "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			cmd := tc.prefix + "echo $$ > shell.pid; sleep 100 & echo $! > child.pid; echo started; wait"
			got := runBashWithin(t, context.Background(), bashPromptly, BashOptions{Dir: dir, Timeout: time.Second}, cmd)
			if want := "started\n[error: 1s timeout exceeded]"; got != want {
				t.Fatalf("got %q, want %q", got, want)
			}
			waitGone(t, "the shell", readPid(t, filepath.Join(dir, "shell.pid")))
			waitGone(t, "the shell's child", readPid(t, filepath.Join(dir, "child.pid")))
		})
	}
}

func TestBashTimeoutMarkerUsesConfigSpelling(t *testing.T) {
	got := runBashWithin(t, context.Background(), bashPromptly, BashOptions{Timeout: 1500 * time.Millisecond}, "sleep 100")
	if want := "[error: 1.5s timeout exceeded]"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}

func TestBashCancellationKillsTheGroup(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	result := make(chan string, 1)
	start := time.Now()
	go func() {
		result <- RunBash(ctx, BashOptions{Dir: dir, Timeout: time.Hour},
			"echo before; sleep 100 & echo $! > child.pid; echo $$ > shell.pid; wait")
	}()
	shell := readPid(t, filepath.Join(dir, "shell.pid"))
	child := readPid(t, filepath.Join(dir, "child.pid"))
	cancel()
	select {
	case got := <-result:
		if want := "before\n[error: cancelled]"; got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	case <-time.After(bashPromptly):
		t.Fatalf("RunBash still running %v after cancellation", time.Since(start))
	}
	waitGone(t, "the shell", shell)
	waitGone(t, "the shell's child", child)
}

func TestBashAlreadyCancelledRunsNothing(t *testing.T) {
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if got := RunBash(ctx, BashOptions{Dir: dir}, "touch ran"); got != "[error: cancelled]" {
		t.Fatalf("got %q, want [error: cancelled]", got)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
		t.Fatal("the command ran despite the cancelled context")
	}
}

func TestBashBackgroundJobDoesNotBlockAndKeepsRunning(t *testing.T) {
	dir := t.TempDir()
	got := runBashWithin(t, context.Background(), bashPromptly, BashOptions{Dir: dir, Timeout: bashLong},
		"sleep 30 & echo $! > job.pid; echo early")
	if got != "early\n" {
		t.Fatalf("got %q, want %q", got, "early\n")
	}
	job := readPid(t, filepath.Join(dir, "job.pid"))
	if processGone(job) {
		t.Fatal("the background job was killed when the call returned")
	}
}

func TestBashHugeOutputReadBackByBothEnds(t *testing.T) {
	got := runBash(t, BashOptions{}, "printf START; head -c 3000000 /dev/zero | tr '\\0' a; printf END")
	sep := "\n" + bashTooLarge + "\n"
	if strings.Count(got, sep) != 1 {
		t.Fatalf("want the marker once on its own line; output of %d bytes", len(got))
	}
	head, tail, _ := strings.Cut(got, sep)
	if len(head) != 1<<20 || len(tail) != 1<<20 {
		t.Fatalf("kept %d + %d bytes, want 1 MiB each", len(head), len(tail))
	}
	if !strings.HasPrefix(head, "STARTaaa") || strings.Trim(head[5:], "a") != "" {
		t.Fatalf("head is not the start of the output: %.20q", head)
	}
	if !strings.HasSuffix(tail, "aaaEND") || strings.Trim(tail[:len(tail)-3], "a") != "" {
		t.Fatalf("tail is not the end of the output: %.20q", tail[len(tail)-20:])
	}
}

// With maxOutput set, the two ends are cut around the marker so that the
// whole fits: the agent's own truncation then leaves it alone, and the
// marker the reference asks for stays between the start and the end.
func TestBashHugeOutputFitsMaxOutput(t *testing.T) {
	got := runBash(t, BashOptions{MaxOutput: 16000}, "printf START; head -c 3000000 /dev/zero | tr '\\0' a; printf END; exit 3")
	if n := utf8.RuneCountInString(got); n > 16000 {
		t.Fatalf("%d characters, maxOutput 16000", n)
	}
	if Truncate(got, 16000) != got {
		t.Fatal("the agent would cut it again")
	}
	head, tail, ok := strings.Cut(got, "\n"+bashTooLarge+"\n")
	if !ok || !strings.HasPrefix(head, "STARTaaa") || !strings.HasSuffix(tail, "aaaEND\n[exit code: exit status 3]") {
		t.Fatalf("output: %.30q … %.60q", got, got[len(got)-60:])
	}
	if len(tail) < 1500 || len(head) < 10000 {
		t.Errorf("kept %d + %d characters", len(head), len(tail))
	}
}

func TestBashHugeOutputKeepsMarkersAtTheEnd(t *testing.T) {
	got := runBash(t, BashOptions{}, "head -c 3000000 /dev/zero | tr '\\0' a; exit 4")
	if !strings.HasSuffix(got, "aaa\n[exit code: exit status 4]") {
		t.Fatalf("output ends %q", got[len(got)-40:])
	}
	// What the agent then does: the marker survives the truncation.
	if !strings.HasSuffix(Truncate(got, 16000), "\n[exit code: exit status 4]") {
		t.Fatal("the exit code marker was truncated away")
	}
}

// The 1 MiB cuts fall inside two-byte characters at both ends: the halves
// are dropped, not turned into replacement characters.
func TestBashReadBackCutsOnRuneBoundaries(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	// "a" then é (2 bytes) from offset 1: every odd offset starts a rune,
	// so offset 1 MiB (even) splits one; "b" makes the size even so the
	// tail's first byte (size - 1 MiB) splits another.
	content := "a" + strings.Repeat("é", 1500000) + "b"
	if _, err := f.WriteString(content); err != nil {
		t.Fatal(err)
	}
	got, err := readBack(f, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !utf8.ValidString(got) || strings.ContainsRune(got, utf8.RuneError) {
		t.Fatal("the cuts left invalid or replacement characters")
	}
	head, tail, ok := strings.Cut(got, "\n"+bashTooLarge+"\n")
	if !ok {
		t.Fatal("no marker")
	}
	if len(head) != 1<<20-1 || !strings.HasPrefix(head, "aé") {
		t.Fatalf("head: %d bytes starting %.6q", len(head), head)
	}
	if len(tail) != 1<<20-1 || !strings.HasSuffix(tail, "éb") {
		t.Fatalf("tail: %d bytes ending %.6q", len(tail), tail[len(tail)-6:])
	}
}

func TestBashInvalidUTF8IsReplaced(t *testing.T) {
	got := runBash(t, BashOptions{}, `printf 'ok\xff\xfeend\n'`)
	if !utf8.ValidString(got) {
		t.Fatalf("invalid UTF-8 kept: %q", got)
	}
	if want := "ok\uFFFDend\n"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
	// And the JSON request carrying it stays valid.
	if _, err := json.Marshal(got); err != nil {
		t.Fatal(err)
	}
}

func TestBashEmptyCommandIsATextError(t *testing.T) {
	for _, cmd := range []string{"", "  \n\t"} {
		if got := RunBash(context.Background(), BashOptions{}, cmd); got != "[error: bash needs a command]" {
			t.Errorf("RunBash(%q) = %q", cmd, got)
		}
	}
	tool := NewBash(BashOptions{})
	for _, args := range []string{`{}`, `{"command":""}`, `{"command":"   "}`, `{"command":5}`, `not json`} {
		if got := tool.Run(context.Background(), json.RawMessage(args)); got != "[error: bash needs a command]" {
			t.Errorf("Run(%s) = %q", args, got)
		}
	}
}

func TestNewBash(t *testing.T) {
	dir := t.TempDir()
	tool := NewBash(BashOptions{Dir: dir, Timeout: 2 * time.Minute})
	if tool.Name != "bash" || tool.Kind != KindExecute {
		t.Fatalf("name %q kind %q", tool.Name, tool.Kind)
	}
	args := json.RawMessage(`{"command":"echo hi > out.txt; echo done"}`)
	if !tool.NeedsPermission(args) {
		t.Error("a bash call must need permission")
	}
	if got := tool.SummaryOf(args); got != "echo hi > out.txt; echo done" {
		t.Errorf("summary %q, want the command", got)
	}
	if got := tool.Run(context.Background(), args); got != "done\n" {
		t.Errorf("Run: got %q", got)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "out.txt")); err != nil || string(b) != "hi\n" {
		t.Errorf("Run did not use Dir: %q, %v", b, err)
	}

	d := tool.Description
	if !strings.Contains(d, "2m") || strings.Contains(d, "2m0s") || strings.Contains(d, "<bashTimeout>") {
		t.Errorf("description does not state the timeout as configured: %q", d)
	}
	if len(d) > 300 || strings.HasSuffix(d, "\n") {
		t.Errorf("description is %d bytes or ends with a newline: %q", len(d), d)
	}
	if !strings.Contains(NewBash(BashOptions{}).Description, "30s") {
		t.Error("default description does not say 30s")
	}

	props, _ := tool.Schema["properties"].(map[string]any)
	command, _ := props["command"].(map[string]any)
	if len(props) != 1 || command["type"] != "string" || command["description"] == "" {
		t.Errorf("schema properties: %v", tool.Schema["properties"])
	}
	if req, _ := tool.Schema["required"].([]any); len(req) != 1 || req[0] != "command" {
		t.Errorf("schema required: %v", tool.Schema["required"])
	}
}

func BenchmarkBashTrue(b *testing.B) {
	ctx := context.Background()
	for b.Loop() {
		if got := RunBash(ctx, BashOptions{}, "true"); got != NoOutput {
			b.Fatalf("got %q", got)
		}
	}
}

// A command that prints without end is killed once its output passes the
// cap, and the model reads why after the end of the output.
func TestBashOutputCapKillsTheCommand(t *testing.T) {
	start := time.Now()
	got := runBashWithin(t, context.Background(), bashPromptly, BashOptions{Timeout: bashLong}, "yes")
	if !strings.HasSuffix(got, "y\n"+bashCapMarker) || !strings.Contains(got, "\n"+bashTooLarge+"\n") {
		t.Fatalf("output ends %q", got[max(0, len(got)-80):])
	}
	if bashCapMarker != "[error: output passed 64 MiB — command killed]" {
		t.Errorf("marker %q", bashCapMarker)
	}
	t.Logf("killed at the cap after %s", time.Since(start).Round(time.Millisecond))
}

// A job left running that keeps printing to the output file, which nobody
// reads any more, is killed once the file passes the cap.
func TestBashBackgroundJobKilledAtTheCap(t *testing.T) {
	dir := t.TempDir()
	got := runBashWithin(t, context.Background(), bashPromptly, BashOptions{Dir: dir, Timeout: bashLong},
		"(sleep 0.3; exec yes) & echo $! > job.pid; echo left")
	if got != "left\n" {
		t.Fatalf("got %q", got)
	}
	job := readPid(t, filepath.Join(dir, "job.pid"))
	var peak int64
	deadline := time.Now().Add(bashPromptly)
	for !processGone(job) {
		if st, err := os.Stat("/proc/" + strconv.Itoa(job) + "/fd/1"); err == nil {
			peak = max(peak, st.Size())
		}
		if peak > 4*BashOutputCap || time.Now().After(deadline) {
			t.Fatalf("the job still runs, output %d MiB", peak>>20)
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Logf("largest size seen %d MiB", peak>>20)
}

// What left the process group (setsid) dies with a timed-out or cancelled
// call too: found by the cookie in its environment, or, without it, by
// the output file it holds. Neither is left to keep running.
func TestBashTimeoutKillsWhatLeftTheGroup(t *testing.T) {
	dir := t.TempDir()
	cmd := `setsid bash -c 'echo $$ > cookie.pid; exec sleep 300' > /dev/null 2>&1 &
setsid env -u MM_CALL bash -c 'echo $$ > holder.pid; exec sleep 300' &
sleep 100`
	got := runBashWithin(t, context.Background(), bashPromptly, BashOptions{Dir: dir, Timeout: time.Second}, cmd)
	if got != "[error: 1s timeout exceeded]" {
		t.Fatalf("got %q", got)
	}
	waitGone(t, "a setsid child with the cookie", readPid(t, filepath.Join(dir, "cookie.pid")))
	waitGone(t, "a setsid child without the cookie", readPid(t, filepath.Join(dir, "holder.pid")))

	// Cancelled.
	ctx, cancel := context.WithCancel(context.Background())
	result := make(chan string, 1)
	go func() {
		result <- RunBash(ctx, BashOptions{Dir: dir, Timeout: time.Hour},
			`setsid bash -c 'echo $$ > cancelled.pid; exec sleep 300' > /dev/null 2>&1 & sleep 100`)
	}()
	pid := readPid(t, filepath.Join(dir, "cancelled.pid"))
	cancel()
	select {
	case got := <-result:
		if got != bashCancelled {
			t.Fatalf("got %q", got)
		}
	case <-time.After(bashPromptly):
		t.Fatal("still running after the cancellation")
	}
	waitGone(t, "a setsid child of a cancelled call", pid)
}

// Each call has its own cookie, which is all the environment gains.
func TestBashCookie(t *testing.T) {
	env := []string{"PATH=" + os.Getenv("PATH")}
	cookie := func() string {
		t.Helper()
		got := runBash(t, BashOptions{Env: env}, "env -u _ -u PWD -u SHLVL | sort")
		lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
		if len(lines) != 2 || lines[1] != env[0] || !strings.HasPrefix(lines[0], "MM_CALL=") || len(lines[0]) < len("MM_CALL=")+16 {
			t.Fatalf("environment %q", got)
		}
		return lines[0]
	}
	if a, b := cookie(), cookie(); a == b {
		t.Fatalf("two calls, one cookie %q", a)
	}
}
