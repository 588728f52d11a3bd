package main_test

// Without a bash on the PATH (Windows without Git for Windows, a
// container without one), the bash tool is not declared and the user is
// told why; the other tools work. The rule is the same on every platform,
// so it is tested here with a PATH that holds no bash.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

const noBashWarning = "[warning: no bash on the PATH — the bash tool is not declared (on Windows, Git for Windows provides bash.exe)]"

// noBashPath is a PATH of one empty directory: mm itself is started by
// its absolute path and needs nothing else from the PATH to start.
func noBashPath(t *testing.T) string {
	return "PATH=" + t.TempDir()
}

// declaredTools is the names of the tools of a chat request.
func declaredTools(t *testing.T, req llmtest.Request) []string {
	t.Helper()
	var body struct {
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal([]byte(req.Body), &body); err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range body.Tools {
		names = append(names, tool.Function.Name)
	}
	return names
}

// -p: the warning on stderr, no bash in the request's tools nor in the
// system prompt, a bash call answered as any unknown tool's, and
// read_file still works.
func TestNoBashOnPathOneShot(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "notes.txt"), "hello\n")
	srv := llmtest.New(t,
		call("bash", `{"command":"echo hi"}`),
		call("read_file", `{"path":"notes.txt"}`),
		llmtest.Turn{Text: "done"},
	)
	// The correction itself, without the constrained retry before it
	// (retry_test.go).
	cmd := mmCommand(t, dir, srv, "-c", writeConfig(t, dir, "toolCallRetry: false\n"), "-p", "look")
	cmd.Env = append(cmd.Env, noBashPath(t))
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("mm: %v\nstdout: %s\nstderr: %s", err, out, stderr.String())
	}
	if n := strings.Count(stderr.String(), noBashWarning); n != 1 {
		t.Errorf("the warning is on stderr %d times, want once:\n%s", n, stderr.String())
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d chat requests, want 3", len(reqs))
	}
	names := declaredTools(t, reqs[0])
	if got := strings.Join(names, ","); strings.Contains(","+got+",", ",bash,") || !strings.Contains(got, "read_file") {
		t.Errorf("declared tools %s: want read_file and no bash", got)
	}
	if sys := systemOf(t, reqs[0]); strings.Contains(sys, "bash") {
		t.Errorf("the system prompt still mentions bash:\n%s", sys)
	}
	want := "there is no tool named bash; the tools are: " + strings.Join(names, ", ")
	if got := lastContent(t, reqs[1]); !strings.Contains(got, want) {
		t.Errorf("the bash call was answered %q, want it to contain %q", got, want)
	}
	if got := toolResult(t, srv, 2); !strings.Contains(got, "hello") {
		t.Errorf("read_file answered %q", got)
	}
}

// The line mode: the warning under the banner, whose tools lack bash.
func TestNoBashOnPathBanner(t *testing.T) {
	srv := llmtest.New(t)
	s := startREPL(t, t.TempDir(), srv, []string{noBashPath(t)})
	// startREPL waited for the key hint, which follows the banner and its
	// warnings: they are on screen.
	txt := s.text()
	at := strings.Index(txt, "mm ")
	if at < 0 {
		t.Fatalf("no banner:\n%s", txt)
	}
	banner, _, _ := strings.Cut(txt[at:], "\n")
	if !strings.Contains(banner, "tools: read_file") || strings.Contains(banner, "bash") {
		t.Errorf("the banner declares bash or lacks read_file:\n%s", banner)
	}
	if !strings.Contains(txt, noBashWarning) {
		t.Errorf("no warning under the banner:\n%s", txt)
	}
}

// The bash that runs the commands is the one found on the PATH when the
// tool was declared.
func TestBashFoundOnPathRuns(t *testing.T) {
	bin := t.TempDir()
	fake := "#!/bin/sh\necho \"fake bash: $*\"\n"
	if err := os.WriteFile(filepath.Join(bin, "bash"), []byte(fake), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t, call("bash", `{"command":"echo hi"}`), llmtest.Turn{Text: "done"})
	cmd := mmCommand(t, t.TempDir(), srv, "-p", "run")
	cmd.Env = append(cmd.Env, "PATH="+bin)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		t.Fatalf("mm: %v\nstdout: %s\nstderr: %s", err, out, stderr.String())
	}
	if strings.Contains(stderr.String(), "no bash on the PATH") {
		t.Errorf("warned although a bash is on the PATH:\n%s", stderr.String())
	}
	// Declared as always: first, and the system prompt tells of it.
	req := srv.ChatRequests()[0]
	if names := declaredTools(t, req); len(names) == 0 || names[0] != "bash" {
		t.Errorf("declared tools %v: want bash first", names)
	}
	if !strings.Contains(systemOf(t, req), "Use bash") {
		t.Errorf("the system prompt does not tell of bash:\n%s", systemOf(t, req))
	}
	if got := toolResult(t, srv, 1); !strings.Contains(got, "fake bash: -c echo hi") {
		t.Errorf("the bash call read %q, want the fake bash's output", got)
	}
}

// mm -acp: the warning where the other start-up warnings go (stderr, the
// editor's log), and the session's request declares no bash.
func TestNoBashOnPathACP(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: "done"})
	c := startACP(t, dir, srv, []string{noBashPath(t)})
	c.initialize()
	sid := c.newSession(dir)
	if got := c.stopReason(c.prompt(sid, "hi")); got != "end_turn" {
		t.Fatalf("stop reason %q", got)
	}
	if !strings.Contains(c.stderr.String(), noBashWarning) {
		t.Errorf("no warning on stderr:\n%s", c.stderr.String())
	}
	if names := declaredTools(t, srv.ChatRequests()[0]); strings.Contains(","+strings.Join(names, ",")+",", ",bash,") {
		t.Errorf("declared tools %v: bash is not on the PATH", names)
	}
}

// mm --ask: the asked agent (mm -acp, with the same PATH) declares no
// bash, and the one warning line is on this mm's stderr.
func TestNoBashOnPathAsk(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "asked"})
	parentCfg, _ := askPair(t, dir, child, "", "")
	r := mm(t, dir, nil, []string{noBashPath(t)}, "", "-c", parentCfg, "--ask", "reviewer", "hi")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if n := strings.Count(r.stderr, noBashWarning); n != 1 {
		t.Errorf("the warning is on stderr %d times, want once:\n%s", n, r.stderr)
	}
	if names := declaredTools(t, child.ChatRequests()[0]); strings.Contains(","+strings.Join(names, ",")+",", ",bash,") {
		t.Errorf("the asked agent declared %v: bash is not on the PATH", names)
	}
}
