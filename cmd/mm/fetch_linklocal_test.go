package main_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// fetch_content never reaches a link-local address (cloud metadata,
// 169.254.169.254), not even through a redirect from a page it may read
// (loopback is fine).
func TestFetchContentRefusesLinkLocal(t *testing.T) {
	web := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/robots.txt":
			http.NotFound(w, r)
		case "/creds":
			http.Redirect(w, r, "http://169.254.169.254/latest/meta-data/iam/", http.StatusFound)
		default:
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body><main><p>local page</p></main></body></html>"))
		}
	}))
	defer web.Close()
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nfetchContentTool: true\n")
	srv := llmtest.New(t,
		call("fetch_content", `{"url":"`+web.URL+`/page"}`),
		call("fetch_content", `{"url":"`+web.URL+`/creds"}`),
		call("fetch_content", `{"url":"http://169.254.169.254/latest/meta-data/"}`),
		llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "read")
	res := toolResults(srv)
	if r.code != 0 || len(res) != 3 {
		t.Fatalf("exit %d, results %q\n%s", r.code, res, r.stderr)
	}
	if res[0] != "local page\n" {
		t.Errorf("loopback page: %q", res[0])
	}
	want := "169.254.169.254 is a link-local address (where cloud metadata services hand out credentials): not fetched — for fetch_content, fetchAllowLinkLocal: true in your own configuration allows it"
	for i, r := range res[1:] {
		if !strings.HasPrefix(r, "[fetch_content: ") || !strings.Contains(r, want) {
			t.Errorf("call %d: the model read %q", i+2, r)
		}
	}
}
