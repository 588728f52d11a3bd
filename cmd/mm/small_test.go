package main_test

// Issue #10, "mm fetch and small things", through the built binary:
// `mm fetch` on local files and unreachable hosts, its help and its
// empty-page message, fetch_content's unreachable host, and the version a
// plain `go build` prints.

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// closedPort is an address on 127.0.0.1 where nothing listens.
func closedPort(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// A name without a scheme is a file when it exists, and refused as a
// missing file when it looks like one; it never becomes a lookup of a
// host named "page.html" or "www".
func TestFetchLocalFileWithoutScheme(t *testing.T) {
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "www"), 0o755)
	os.WriteFile(filepath.Join(dir, "page.html"), []byte("<h1>Local</h1><p>from disk</p>"), 0o644)
	os.WriteFile(filepath.Join(dir, "www", "index.html"), []byte("<p>mirrored</p>"), 0o644)

	r := mm(t, dir, nil, nil, "", "fetch", "page.html")
	if r.code != 0 || r.stdout != "# Local\n\nfrom disk\n" {
		t.Errorf("existing page.html: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	r = mm(t, dir, nil, nil, "", "fetch", "www/index.html")
	if r.code != 0 || r.stdout != "mirrored\n" {
		t.Errorf("existing www/index.html: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	for _, missing := range []string{"missing.html", "www/missing.html", "./gone.htm", "nodir/page.html"} {
		r = mm(t, dir, nil, nil, "", "fetch", missing)
		want := "mm fetch: error 2 (input) — no such file: " + missing + " (for a web page, write its address with https://)\n"
		if r.code != 2 || r.stderr != want || r.stdout != "" {
			t.Errorf("missing %s: exit %d stderr %q, want %q", missing, r.code, r.stderr, want)
		}
	}
	// A directory is no page, and is not missing either.
	for _, d := range []string{"./", "www/", "./www"} {
		r = mm(t, dir, nil, nil, "", "fetch", d)
		want := "mm fetch: error 2 (input) — " + d + " is a directory: name an HTML file in it\n"
		if r.code != 2 || r.stderr != want {
			t.Errorf("directory %s: exit %d stderr %q, want %q", d, r.code, r.stderr, want)
		}
	}
}

// A host that cannot be reached is said to be unreachable, not forbidden
// by a robots.txt that was never read.
func TestFetchUnreachableHost(t *testing.T) {
	addr := closedPort(t)
	for target, want := range map[string]string{
		"http://" + addr + "/page":   "mm fetch: error 2 (input) — cannot reach " + addr + ": ",
		"https://nothing.invalid/x":  "mm fetch: error 2 (input) — cannot reach nothing.invalid: ",
		"nothing.invalid/index.html": "mm fetch: error 2 (input) — cannot reach nothing.invalid: ",
	} {
		r := mm(t, t.TempDir(), nil, nil, "", "fetch", target)
		if r.code != 2 || !strings.HasPrefix(r.stderr, want) || strings.Contains(r.stderr, "robots.txt") {
			t.Errorf("%s: exit %d stderr %q, want it to start with %q", target, r.code, r.stderr, want)
		}
	}
}

// fetch_content reads the same: the model is told the host is
// unreachable.
func TestFetchContentToolUnreachableHost(t *testing.T) {
	addr := closedPort(t)
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nfetchContentTool: true\n")
	srv := llmtest.New(t, call("fetch_content", `{"url":"http://`+addr+`/docs"}`), llmtest.Turn{Text: "gone"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "read the docs")
	if r.code != 0 {
		t.Fatalf("exit %d stderr:\n%s", r.code, r.stderr)
	}
	msgs := srv.ChatRequests()[1].JSON["messages"].([]any)
	got, _ := msgs[len(msgs)-1].(map[string]any)["content"].(string)
	if want := "[fetch_content: error 2 (input) — cannot reach " + addr + ": "; !strings.HasPrefix(got, want) || strings.Contains(got, "robots.txt") {
		t.Errorf("the model read %q, want it to start with %q", got, want)
	}
}

// Help is asked for: it goes to stdout, exit 0.
func TestFetchHelpOnStdout(t *testing.T) {
	for _, flag := range []string{"--help", "-h", "-help"} {
		r := mm(t, t.TempDir(), nil, nil, "", "fetch", flag)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "usage: mm fetch URL|FILE.html") || r.stderr != "" {
			t.Errorf("mm fetch %s: exit %d stdout %q stderr %q", flag, r.code, r.stdout, r.stderr)
		}
	}
	// A mistake still goes to stderr, with the usage.
	r := mm(t, t.TempDir(), nil, nil, "", "fetch", "--bogus")
	if r.code != 3 || r.stdout != "" || !strings.Contains(r.stderr, "usage: mm fetch") {
		t.Errorf("mm fetch --bogus: exit %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}

// A page with nothing left once cleaned is an error of its class; only
// with -o is there something that was not saved.
func TestFetchEmptyPageMessage(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "empty.html"), []byte("<nav>menu</nav><script>x()</script>"), 0o644)
	const base = "mm fetch: error 1 (conversion) — empty.html has no text content once scripts, navigation and ads are removed"
	r := mm(t, dir, nil, nil, "", "fetch", "empty.html")
	if r.code != 1 || r.stderr != base+"\n" || r.stdout != "" {
		t.Errorf("to stdout: exit %d stderr %q", r.code, r.stderr)
	}
	r = mm(t, dir, nil, nil, "", "fetch", "empty.html", "-o", "out.md")
	if r.code != 1 || r.stderr != base+" — nothing saved\n" {
		t.Errorf("with -o: exit %d stderr %q", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "out.md")); err == nil {
		t.Error("-o wrote a file for an empty page")
	}
}

// A plain `go build` in a git checkout prints the module version Go
// recorded, with the commit and its date, not "dev"; the Makefile's -X
// still wins. The sources are copied into a fresh repository: Go records
// no VCS information in a linked worktree, and the machine's go env may
// turn stamping off, which GOFLAGS in the environment overrides.
func TestVersionOfPlainGoBuild(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	src := t.TempDir()
	listed, err := exec.Command("git", "-C", repo, "ls-files", "-z", "--cached", "--others", "--exclude-standard").Output()
	if err != nil {
		t.Skipf("not in a git checkout: %v", err)
	}
	for _, name := range strings.Split(strings.TrimRight(string(listed), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(repo, name))
		if err != nil {
			continue // deleted in the work tree
		}
		dst := filepath.Join(src, name)
		os.MkdirAll(filepath.Dir(dst), 0o755)
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	gitEnv := append(cleanEnv(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.invalid", "GIT_COMMITTER_NAME=t",
		"GIT_COMMITTER_EMAIL=t@example.invalid", "GIT_AUTHOR_DATE=2026-12-01T10:00:00Z", "GIT_COMMITTER_DATE=2026-12-01T10:00:00Z")
	run := func(env []string, name string, args ...string) string {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir, cmd.Env = src, env
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out.String())
		}
		return out.String()
	}
	run(gitEnv, "git", "init", "-q")
	run(gitEnv, "git", "add", "-A")
	run(gitEnv, "git", "commit", "-q", "--no-verify", "--no-gpg-sign", "-m", "snapshot")
	rev := strings.TrimSpace(run(gitEnv, "git", "rev-parse", "HEAD"))

	goEnv := append(cleanEnv(), "GOFLAGS=-buildvcs=true -trimpath")
	bin := filepath.Join(t.TempDir(), "mm")
	version := func() string {
		t.Helper()
		out, err := exec.Command(bin, "-version").Output()
		if err != nil {
			t.Fatal(err)
		}
		return string(out)
	}
	run(goEnv, "go", "build", "-ldflags", "-s -w", "-o", bin, "./cmd/mm")
	want := "mm v0.0.0-20261201100000-" + rev[:12] + " (rev " + rev[:7] + ", 2026-12-01)\n"
	if got := version(); got != want {
		t.Errorf("clean checkout: got %q, want %q", got, want)
	}
	// An uncommitted change is said.
	os.WriteFile(filepath.Join(src, "README.md"), []byte("changed\n"), 0o644)
	run(goEnv, "go", "build", "-ldflags", "-s -w", "-o", bin, "./cmd/mm")
	want = "mm v0.0.0-20261201100000-" + rev[:12] + "+dirty (rev " + rev[:7] + ", 2026-12-01, modified)\n"
	if got := version(); got != want {
		t.Errorf("modified checkout: got %q, want %q", got, want)
	}
	// The Makefile's version wins.
	run(goEnv, "go", "build", "-ldflags", "-s -w -X mm/internal/version.Version=v9.8.7", "-o", bin, "./cmd/mm")
	if got := version(); got != "mm v9.8.7\n" {
		t.Errorf("with -X: got %q", got)
	}
}

// An address without a scheme gets https://; a plain HTTP server there is
// said to be one, not blamed on its robots.txt.
func TestFetchPlainHTTPServerWithoutScheme(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "<p>plain</p>")
	}))
	defer srv.Close()
	host := strings.TrimPrefix(srv.URL, "http://")
	r := mm(t, t.TempDir(), nil, nil, "", "fetch", host+"/page.html")
	want := "mm fetch: error 2 (input) — cannot reach " + host + " over https: it does not speak TLS (for a plain HTTP server, write the address with http://)\n"
	if r.code != 2 || r.stderr != want {
		t.Errorf("exit %d stderr %q, want %q", r.code, r.stderr, want)
	}
}
