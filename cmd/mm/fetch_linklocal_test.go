package main_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
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

// Through an HTTP proxy (which resolves names itself, as glibc does, and
// reads 2852039166 or 0251.0376.0251.0376 as 169.254.169.254), the
// address written in the URL is the only thing mm can check: every form
// of it is refused before anything reaches the proxy. The proxy here is
// a recorder on 127.0.0.1; nothing else is dialed.
func TestFetchContentRefusesLinkLocalFormsThroughProxy(t *testing.T) {
	var mu sync.Mutex
	var seen []string
	proxy := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, r.Method+" "+r.URL.String())
		mu.Unlock()
		http.NotFound(w, r)
	}))
	defer proxy.Close()
	forms := []string{"2852039166", "0251.0376.0251.0376", "0xa9fea9fe", "169.254.43518", "169.254.169.254.", "[64:ff9b::a9fe:a9fe]"}
	var turns []llmtest.Turn
	for _, h := range forms {
		turns = append(turns, call("fetch_content", `{"url":"http://`+h+`/latest/meta-data/"}`))
	}
	turns = append(turns, llmtest.Turn{Text: "done"})
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nfetchContentTool: true\n")
	srv := llmtest.New(t, turns...)
	env := []string{"HTTP_PROXY=" + proxy.URL, "http_proxy=" + proxy.URL, "NO_PROXY=", "no_proxy="}
	r := mm(t, dir, srv, env, "", "-c", cfg, "-p", "read")
	res := toolResults(srv)
	if r.code != 0 || len(res) != len(forms) {
		t.Fatalf("exit %d, results %q\n%s", r.code, res, r.stderr)
	}
	for i, got := range res {
		if !strings.HasPrefix(got, "[fetch_content: ") || !strings.Contains(got, "is a link-local address") {
			t.Errorf("%s: the model read %q", forms[i], got)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(seen) > 0 {
		t.Errorf("the proxy was asked for %q", seen)
	}
}
