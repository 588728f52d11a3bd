package tools

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func fetchServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			fmt.Fprint(w, "User-agent: *\nDisallow: /private\n")
		case "/doc":
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, `<html><head><title>T</title><script>x()</script></head><body><nav>menu</nav>`+
				`<h1>Doc</h1><p>See <a href="/other">other</a> <del>old</del>.</p>`+
				`<ul><li><input type="checkbox" checked> done</li></ul></body></html>`)
		case "/empty":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<html><body><nav><a href="/">Home</a></nav><script>app()</script></body></html>`)
		case "/long":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<p>%s</p>", strings.Repeat("word ", 2000))
		case "/pdf":
			w.Header().Set("Content-Type", "application/pdf")
			fmt.Fprint(w, "%PDF")
		case "/slow":
			<-r.Context().Done()
		default:
			http.NotFound(w, r)
		}
	}))
	t.Cleanup(srv.Close)
	return srv
}

func callJSON(v map[string]any) json.RawMessage {
	b, _ := json.Marshal(v)
	return b
}

func TestFetchContentDeclaration(t *testing.T) {
	tool := NewFetchContent(FetchOptions{})
	if tool.Name != "fetch_content" || tool.Kind != KindFetch {
		t.Fatalf("name %q kind %q", tool.Name, tool.Kind)
	}
	if strings.TrimSpace(tool.Description) == "" || len(tool.Description) > 400 {
		t.Errorf("description of %d bytes", len(tool.Description))
	}
	props := tool.Schema["properties"].(map[string]any)
	for _, k := range []string{"url", "output", "baseUrl", "tables", "strikethrough", "taskList"} {
		p, ok := props[k].(map[string]any)
		if !ok || p["description"] == "" {
			t.Errorf("property %s missing or undescribed", k)
		}
	}
	if len(props) != 6 {
		t.Errorf("%d properties, want 6", len(props))
	}
	if req := tool.Schema["required"].([]any); len(req) != 1 || req[0] != "url" {
		t.Errorf("required = %v", req)
	}
	if tool.NeedsPermission(callJSON(map[string]any{"url": "x.org"})) {
		t.Error("a fetch without output needs permission")
	}
	if !tool.NeedsPermission(callJSON(map[string]any{"url": "x.org", "output": "doc.md"})) {
		t.Error("a fetch with output does not need permission")
	}
	if tool.NeedsPermission(callJSON(map[string]any{"url": "x.org", "output": "  "})) {
		t.Error("a blank output needs permission")
	}
	if got := tool.SummaryOf(callJSON(map[string]any{"url": "k33g.org"})); got != "https://k33g.org" {
		t.Errorf("summary %q", got)
	}
	if got := tool.SummaryOf(callJSON(map[string]any{"url": "https://k33g.org/a", "output": "notes/a.md"})); got != "https://k33g.org/a → notes/a.md" {
		t.Errorf("summary %q", got)
	}
}

func TestFetchContentRun(t *testing.T) {
	srv := fetchServer(t)
	dir := t.TempDir()
	tool := NewFetchContent(FetchOptions{Dir: dir})
	run := func(args map[string]any) string {
		return tool.Run(context.Background(), callJSON(args))
	}

	got := run(map[string]any{"url": srv.URL + "/doc"})
	want := "# Doc\n\nSee [other](" + srv.URL + "/other) old.\n\n- done\n"
	if got != want {
		t.Errorf("plain:\n got %q\nwant %q", got, want)
	}
	got = run(map[string]any{"url": srv.URL + "/doc", "strikethrough": true, "taskList": "true", "baseUrl": "https://docs.example/v2/"})
	want = "# Doc\n\nSee [other](https://docs.example/other) ~~old~~.\n\n- [x] done\n"
	if got != want {
		t.Errorf("options:\n got %q\nwant %q", got, want)
	}

	// Saved to a file, in directories that do not exist yet.
	got = run(map[string]any{"url": srv.URL + "/doc", "output": "notes/web/doc.md"})
	want = "[fetch_content: saved 5 lines of Markdown (" + fmt.Sprint(len("# Doc\n\nSee [other]("+srv.URL+"/other) old.\n\n- done\n")) +
		" bytes) from " + srv.URL + "/doc to notes/web/doc.md — the content is not shown]"
	if got != want {
		t.Errorf("saved:\n got %q\nwant %q", got, want)
	}
	data, err := os.ReadFile(filepath.Join(dir, "notes/web/doc.md"))
	if err != nil || string(data) != "# Doc\n\nSee [other]("+srv.URL+"/other) old.\n\n- done\n" {
		t.Errorf("file: %q %v", data, err)
	}
	entries, _ := os.ReadDir(filepath.Join(dir, "notes/web"))
	if len(entries) != 1 {
		t.Errorf("temporary files left: %v", entries)
	}
	if p := FetchOutputPath(FetchOptions{Dir: dir}, callJSON(map[string]any{"url": "x", "output": "notes/web/doc.md"})); p != filepath.Join(dir, "notes/web/doc.md") {
		t.Errorf("FetchOutputPath = %q", p)
	}

	// A page with nothing left: the reference's text, and no file.
	got = run(map[string]any{"url": srv.URL + "/empty", "output": "empty.md"})
	if want := "[fetch_content: " + srv.URL + "/empty has no text content once scripts, navigation and ads are removed — nothing saved]"; got != want {
		t.Errorf("empty:\n got %q\nwant %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "empty.md")); err == nil {
		t.Error("a file was written for an empty page")
	}
}

func TestFetchContentFailures(t *testing.T) {
	srv := fetchServer(t)
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "adir"), 0o755)
	tool := NewFetchContent(FetchOptions{Dir: dir, Timeout: 100 * time.Millisecond})
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"url": ""}, "[fetch_content: error 3 (usage) — url is empty"},
		{map[string]any{"url": "ftp://x.org/a"}, "[fetch_content: error 3 (usage) — "},
		{map[string]any{"url": srv.URL + "/doc", "tables": "grid"}, `[fetch_content: error 3 (usage) — tables is "grid" — use html or flatten]`},
		{map[string]any{"url": srv.URL + "/doc", "baseUrl": "docs/"}, "[fetch_content: error 3 (usage) — baseUrl"},
		{map[string]any{"url": srv.URL + "/private/x"}, "[fetch_content: error 2 (input) — " + srv.URL + "/robots.txt forbids mm to fetch /private/x]"},
		{map[string]any{"url": srv.URL + "/missing"}, "[fetch_content: error 2 (input) — HTTP 404 Not Found from " + srv.URL + "/missing]"},
		{map[string]any{"url": srv.URL + "/slow"}, "[fetch_content: error 2 (input) — no complete answer within 100ms]"},
		{map[string]any{"url": srv.URL + "/pdf"}, "[fetch_content: error 1 (conversion) — " + srv.URL + "/pdf is not an HTML page (application/pdf)]"},
		{map[string]any{"url": srv.URL + "/doc", "output": "adir"}, "[fetch_content: error 1 (conversion) — cannot write adir: "},
	}
	for _, tc := range cases {
		got := tool.Run(context.Background(), callJSON(tc.args))
		if !strings.HasPrefix(got, tc.want) || !strings.HasSuffix(got, "]") {
			t.Errorf("%v:\n got %q\nwant prefix %q", tc.args, got, tc.want)
		}
	}
	if got := tool.Run(context.Background(), json.RawMessage(`{"url": 3}`)); !strings.HasPrefix(got, "[fetch_content: error 3 (usage) — cannot read the arguments") {
		t.Errorf("bad arguments: %q", got)
	}
}

func TestFetchContentTruncates(t *testing.T) {
	srv := fetchServer(t)
	tool := NewFetchContent(FetchOptions{MaxOutput: 300})
	got := tool.Run(context.Background(), callJSON(map[string]any{"url": srv.URL + "/long"}))
	if n := len([]rune(got)); n > 300+60 || !strings.Contains(got, "characters cut") {
		t.Errorf("%d characters: %q", n, got)
	}
}
