package fetchcmd

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/webmd"
)

func server(t *testing.T) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: mm\nDisallow: /no\n")
		case "/page":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<h1>T</h1><p><a href="x">x</a> <s>old</s></p><table><tr><td rowspan=2>a</td><td>b</td></tr><tr><td>c</td></tr></table>`)
		case "/empty":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<nav>only</nav>`)
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(context.Background(), args, &out, &errb, &webmd.Fetcher{Robots: webmd.NewRobotsCache()})
	return code, out.String(), errb.String()
}

func TestCommand(t *testing.T) {
	srv := server(t)
	code, out, _ := runCmd(srv.URL + "/page")
	want := "# T\n\n[x](" + srv.URL + "/x) old\n\n<table>\n<tr><td rowspan=\"2\">a</td><td>b</td></tr>\n<tr><td>c</td></tr>\n</table>\n"
	if code != 0 || out != want {
		t.Errorf("exit %d\n got %q\nwant %q", code, out, want)
	}
	// Flags after the URL, every option.
	code, out, _ = runCmd(srv.URL+"/page", "--tables", "flatten", "--strikethrough", "--task-list", "--base-url", "https://b.example/")
	want = "# T\n\n[x](https://b.example/x) ~~old~~\n\n| a | b |\n| --- | --- |\n| a | c |\n"
	if code != 0 || out != want {
		t.Errorf("exit %d\n got %q\nwant %q", code, out, want)
	}
}

func TestCommandOutputFile(t *testing.T) {
	srv := server(t)
	file := filepath.Join(t.TempDir(), "sub", "p.md")
	code, out, errs := runCmd("-o", file, srv.URL+"/page")
	if code != 0 || out != "" || !strings.Contains(errs, "saved 8 lines of Markdown") {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errs)
	}
	data, _ := os.ReadFile(file)
	if !strings.HasPrefix(string(data), "# T\n") {
		t.Errorf("file %q", data)
	}
}

func TestCommandLocalFile(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "p.html")
	os.WriteFile(file, []byte("<meta charset=\"iso-8859-1\"><p>caf\xe9 <a href=\"rel.html\">r</a></p>"), 0o644)
	code, out, errs := runCmd(file)
	if code != 0 || out != "café [r](rel.html)\n" {
		t.Errorf("exit %d, %q, %q", code, out, errs)
	}
	code, out, _ = runCmd("--base-url", "https://x.org/d/", "file://"+file)
	if code != 0 || out != "café [r](https://x.org/d/rel.html)\n" {
		t.Errorf("exit %d, %q", code, out)
	}
}

func TestCommandExitCodes(t *testing.T) {
	srv := server(t)
	cases := []struct {
		args   []string
		code   int
		stderr string
	}{
		{nil, 3, "give one URL"},
		{[]string{"a", "b"}, 3, "give one URL"},
		{[]string{"--nope", "x"}, 3, "flag provided but not defined"},
		{[]string{"--tables", "grid", srv.URL + "/page"}, 3, "error 3 (usage)"},
		{[]string{"ftp://x"}, 3, "error 3 (usage)"},
		{[]string{srv.URL + "/no"}, 2, "error 2 (input)"},
		{[]string{srv.URL + "/missing"}, 2, "HTTP 404"},
		{[]string{srv.URL + "/empty"}, 1, "has no text content"},
	}
	for _, tc := range cases {
		code, _, errs := runCmd(tc.args...)
		if code != tc.code || !strings.Contains(errs, tc.stderr) {
			t.Errorf("%v: exit %d, stderr %q; want %d with %q", tc.args, code, errs, tc.code, tc.stderr)
		}
	}
	// Help asked for is the answer: on stdout.
	if code, out, errs := runCmd("-h"); code != 0 || !strings.HasPrefix(out, "usage: mm fetch") || errs != "" {
		t.Errorf("-h: exit %d, stdout %q, stderr %q", code, out, errs)
	}
}
