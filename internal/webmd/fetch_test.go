package webmd

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"mm/internal/version"
)

// site is an httptest server with a robots.txt and pages, counting what
// it serves.
type site struct {
	*httptest.Server
	mu      sync.Mutex
	robots  func(w http.ResponseWriter, r *http.Request)
	pages   map[string]http.HandlerFunc
	agents  []string
	robotsN atomic.Int32
}

func newSite(t *testing.T, robots string) *site {
	s := &site{pages: map[string]http.HandlerFunc{}}
	s.robots = func(w http.ResponseWriter, r *http.Request) {
		if robots == "" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, robots)
	}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.mu.Lock()
		s.agents = append(s.agents, r.Header.Get("User-Agent"))
		h := s.pages[r.URL.Path]
		s.mu.Unlock()
		if r.URL.Path == "/robots.txt" {
			s.robotsN.Add(1)
			s.robots(w, r)
			return
		}
		if h == nil {
			http.NotFound(w, r)
			return
		}
		h(w, r)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *site) page(path, contentType, body string) {
	s.handle(path, func(w http.ResponseWriter, r *http.Request) {
		if contentType == "" {
			w.Header()["Content-Type"] = nil // no type at all: the client guesses
		} else {
			w.Header().Set("Content-Type", contentType)
		}
		fmt.Fprint(w, body)
	})
}

func (s *site) handle(path string, h http.HandlerFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.pages[path] = h
}

func newFetcher() *Fetcher {
	return &Fetcher{Robots: NewRobotsCache()}
}

func fetch(t *testing.T, f *Fetcher, rawURL string) (*Page, *Error) {
	t.Helper()
	u, err := ParseURL(rawURL)
	if err != nil {
		t.Fatalf("ParseURL(%q): %v", rawURL, err)
	}
	p, err := f.Fetch(context.Background(), u)
	if err != nil {
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("Fetch returned %T %v, want *Error", err, err)
		}
		return nil, e
	}
	return p, nil
}

func wantErr(t *testing.T, e *Error, code Code, substr string) {
	t.Helper()
	if e == nil {
		t.Fatalf("no error, want error %d containing %q", code, substr)
	}
	if e.Code != code || !strings.Contains(e.Reason, substr) {
		t.Fatalf("error %q, want code %d containing %q", e.Error(), code, substr)
	}
}

func TestFetchOK(t *testing.T) {
	s := newSite(t, "User-agent: *\nDisallow: /private\n")
	s.page("/doc", "text/html; charset=utf-8", "<p>Hello <a href=\"/x\">x</a></p>")
	f := newFetcher()
	p, e := fetch(t, f, s.URL+"/doc")
	if e != nil {
		t.Fatal(e)
	}
	if string(p.HTML) != "<p>Hello <a href=\"/x\">x</a></p>" || p.URL.String() != s.URL+"/doc" {
		t.Errorf("page %q at %s", p.HTML, p.URL)
	}
	want := "mm/" + version.String()
	for _, ua := range s.agents {
		if ua != want {
			t.Errorf("User-Agent %q, want %q", ua, want)
		}
	}
	if len(s.agents) != 2 {
		t.Errorf("%d requests, want robots.txt then the page", len(s.agents))
	}
}

func TestFetchRobots(t *testing.T) {
	t.Run("forbidden page", func(t *testing.T) {
		s := newSite(t, "User-agent: mm\nDisallow: /private\n")
		s.page("/private/a", "text/html", "<p>secret</p>")
		_, e := fetch(t, newFetcher(), s.URL+"/private/a")
		wantErr(t, e, ErrInput, "robots.txt forbids mm to fetch /private/a")
	})
	t.Run("404 allows all", func(t *testing.T) {
		s := newSite(t, "")
		s.page("/a", "text/html", "<p>a</p>")
		if _, e := fetch(t, newFetcher(), s.URL+"/a"); e != nil {
			t.Fatal(e)
		}
	})
	t.Run("403 allows all", func(t *testing.T) {
		s := newSite(t, "")
		s.robots = func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(403) }
		s.page("/a", "text/html", "<p>a</p>")
		if _, e := fetch(t, newFetcher(), s.URL+"/a"); e != nil {
			t.Fatal(e)
		}
	})
	t.Run("5xx forbids all", func(t *testing.T) {
		s := newSite(t, "")
		s.robots = func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(503) }
		s.page("/a", "text/html", "<p>a</p>")
		_, e := fetch(t, newFetcher(), s.URL+"/a")
		wantErr(t, e, ErrInput, "robots.txt answered HTTP 503")
	})
	t.Run("unreachable robots.txt forbids all", func(t *testing.T) {
		s := newSite(t, "")
		s.robots = func(w http.ResponseWriter, r *http.Request) {
			// Drop the connection without an answer.
			conn, _, err := w.(http.Hijacker).Hijack()
			if err == nil {
				conn.Close()
			}
		}
		s.page("/a", "text/html", "<p>a</p>")
		_, e := fetch(t, newFetcher(), s.URL+"/a")
		wantErr(t, e, ErrInput, "cannot read "+s.URL+"/robots.txt")
	})
	t.Run("redirected robots.txt is followed", func(t *testing.T) {
		s := newSite(t, "")
		s.robots = func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, "/real-robots", http.StatusMovedPermanently)
		}
		s.page("/real-robots", "text/plain", "User-agent: *\nDisallow: /a\n")
		s.page("/a", "text/html", "<p>a</p>")
		_, e := fetch(t, newFetcher(), s.URL+"/a")
		wantErr(t, e, ErrInput, "forbids")
	})
}

func TestRobotsCache(t *testing.T) {
	s := newSite(t, "User-agent: *\nAllow: /\n")
	s.page("/a", "text/html", "<p>a</p>")
	now := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	f := &Fetcher{Robots: &RobotsCache{Now: func() time.Time { return now }}}
	for i := 0; i < 3; i++ {
		if _, e := fetch(t, f, s.URL+"/a"); e != nil {
			t.Fatal(e)
		}
	}
	if n := s.robotsN.Load(); n != 1 {
		t.Fatalf("robots.txt read %d times in a row, want 1 (cached)", n)
	}
	now = now.Add(23 * time.Hour)
	fetch(t, f, s.URL+"/a")
	if n := s.robotsN.Load(); n != 1 {
		t.Fatalf("robots.txt read again after 23h")
	}
	now = now.Add(2 * time.Hour)
	fetch(t, f, s.URL+"/a")
	if n := s.robotsN.Load(); n != 2 {
		t.Fatalf("robots.txt read %d times after 25h, want 2", n)
	}

	// A failure is not kept: the next call reads robots.txt again.
	var fail atomic.Bool
	fail.Store(true)
	s2 := newSite(t, "")
	s2.robots = func(w http.ResponseWriter, r *http.Request) {
		if fail.Load() {
			w.WriteHeader(500)
		}
	}
	s2.page("/a", "text/html", "<p>a</p>")
	_, e := fetch(t, f, s2.URL+"/a")
	wantErr(t, e, ErrInput, "HTTP 500")
	fail.Store(false)
	if _, e := fetch(t, f, s2.URL+"/a"); e != nil {
		t.Fatalf("after the outage: %v", e)
	}
}

func TestFetchRedirects(t *testing.T) {
	s := newSite(t, "")
	for i := 0; i < 12; i++ {
		next := fmt.Sprintf("/r%d", i+1)
		s.handle(fmt.Sprintf("/r%d", i), func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, next, http.StatusFound)
		})
	}
	for i := 0; i <= 12; i++ {
		s.page(fmt.Sprintf("/r%d", i)+"/end", "text/html", "x")
	}
	// /r0 → … → /r10 is 10 redirects; /r10 must be a page for that.
	s.page("/r10", "text/html", "<p>ten</p>")
	p, e := fetch(t, newFetcher(), s.URL+"/r0")
	if e != nil {
		t.Fatalf("10 redirects: %v", e)
	}
	if p.URL.Path != "/r10" {
		t.Errorf("final URL %s, want /r10", p.URL)
	}
	s.handle("/r10", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/r11", http.StatusFound) })
	s.page("/r11", "text/html", "<p>eleven</p>")
	_, e = fetch(t, newFetcher(), s.URL+"/r0")
	wantErr(t, e, ErrInput, "more than 10 redirects")
}

func TestFetchRedirectForbiddenByRobots(t *testing.T) {
	other := newSite(t, "User-agent: *\nDisallow: /closed\n")
	other.page("/closed", "text/html", "<p>closed</p>")
	other.page("/open", "text/html", "<p>open <a href=\"rel\">r</a></p>")
	s := newSite(t, "")
	s.handle("/go-closed", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/closed", http.StatusFound)
	})
	s.handle("/go-open", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, other.URL+"/open", http.StatusMovedPermanently)
	})
	_, e := fetch(t, newFetcher(), s.URL+"/go-closed")
	wantErr(t, e, ErrInput, other.URL+"/robots.txt forbids mm to fetch /closed")
	if other.robotsN.Load() != 1 {
		t.Errorf("the redirect target's robots.txt was read %d times", other.robotsN.Load())
	}

	// The final URL after redirects is the default base.
	res, err := newFetcher().Get(context.Background(), Request{URL: s.URL + "/go-open"})
	if err != nil {
		t.Fatal(err)
	}
	if want := "open [r](" + other.URL + "/rel)\n"; res.Markdown != want {
		t.Errorf("got %q, want %q", res.Markdown, want)
	}
}

func TestFetchFailures(t *testing.T) {
	s := newSite(t, "")
	s.page("/pdf", "application/pdf", "%PDF-1.4")
	s.page("/json", "application/json; charset=utf-8", "{}")
	s.handle("/gone", func(w http.ResponseWriter, r *http.Request) { http.Error(w, "no", 410) })
	s.handle("/redirect-loop-300", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusMultipleChoices)
	})
	big := strings.Repeat("a", MaxPageBytes+1)
	s.page("/big", "text/html", big)
	s.handle("/big-chunked", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		for i := 0; i < 6; i++ {
			fmt.Fprint(w, strings.Repeat("b", 1<<20))
			w.(http.Flusher).Flush()
		}
	})
	s.page("/exact", "text/html", "<p>"+strings.Repeat("c", MaxPageBytes-7)+"</p>")
	s.page("/replacement", "text/html; charset=iso-2022-kr", "<p>x</p>")
	f := newFetcher()

	_, e := fetch(t, f, s.URL+"/pdf")
	wantErr(t, e, ErrConversion, "is not an HTML page (application/pdf)")
	_, e = fetch(t, f, s.URL+"/json")
	wantErr(t, e, ErrConversion, "application/json")
	_, e = fetch(t, f, s.URL+"/gone")
	wantErr(t, e, ErrInput, "HTTP 410 Gone")
	_, e = fetch(t, f, s.URL+"/missing")
	wantErr(t, e, ErrInput, "HTTP 404 Not Found")
	_, e = fetch(t, f, s.URL+"/redirect-loop-300")
	wantErr(t, e, ErrInput, "HTTP 300")
	_, e = fetch(t, f, s.URL+"/big")
	wantErr(t, e, ErrConversion, "larger than 5 MiB")
	_, e = fetch(t, f, s.URL+"/big-chunked")
	wantErr(t, e, ErrConversion, "larger than 5 MiB")
	if p, e := fetch(t, f, s.URL+"/exact"); e != nil || len(p.HTML) != MaxPageBytes {
		t.Errorf("a page of exactly 5 MiB: %v", e)
	}
	_, e = fetch(t, f, s.URL+"/replacement")
	wantErr(t, e, ErrConversion, "cannot decode")

	// A port nobody listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	_, e = fetch(t, f, "http://"+addr+"/x")
	wantErr(t, e, ErrInput, "cannot reach "+addr+": ")
}

func TestFetchNeverAnswers(t *testing.T) {
	release := make(chan struct{})
	s := newSite(t, "")
	s.handle("/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	defer close(release)
	f := &Fetcher{Robots: NewRobotsCache(), Timeout: 100 * time.Millisecond}
	_, e := fetch(t, f, s.URL+"/slow")
	wantErr(t, e, ErrInput, "no complete answer within 100ms")

	// A robots.txt that never answers counts against the same budget.
	s2 := newSite(t, "")
	s2.robots = func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
	_, e = fetch(t, f, s2.URL+"/a")
	wantErr(t, e, ErrInput, "no complete answer within 100ms")

	if (&Fetcher{}).timeout() != 30*time.Second {
		t.Error("the default timeout is not 30s")
	}
}

func TestFetchSniffsType(t *testing.T) {
	s := newSite(t, "")
	s.page("/html", "", "<!DOCTYPE html><html><body><p>caf\xc3\xa9</p></body></html>")
	s.page("/bin", "", "\x00\x01\x02binary")
	s.page("/xhtml", "application/xhtml+xml", "<html xmlns=\"http://www.w3.org/1999/xhtml\"><body><p>x</p></body></html>")
	f := newFetcher()
	p, e := fetch(t, f, s.URL+"/html")
	if e != nil || !strings.Contains(string(p.HTML), "café") {
		t.Fatalf("sniffed page: %v", e)
	}
	_, e = fetch(t, f, s.URL+"/bin")
	wantErr(t, e, ErrConversion, "not an HTML page")
	if _, e = fetch(t, f, s.URL+"/xhtml"); e != nil {
		t.Fatal(e)
	}
}

func TestParseURL(t *testing.T) {
	ok := map[string]string{
		"k33g.org":                    "https://k33g.org",
		"https//k33g.org":             "https://k33g.org",
		"http//k33g.org/a":            "http://k33g.org/a",
		"HTTPS://K33g.org/A":          "https://K33g.org/A",
		"https:/k33g.org":             "https://k33g.org",
		"//k33g.org/x":                "https://k33g.org/x",
		"  example.com/docs?q=1#frag": "https://example.com/docs?q=1",
		"localhost:8080/x":            "https://localhost:8080/x",
		"http://127.0.0.1:9/":         "http://127.0.0.1:9/",
	}
	for in, want := range ok {
		u, err := ParseURL(in)
		if err != nil || u.String() != want {
			t.Errorf("ParseURL(%q) = %v, %v; want %s", in, u, err, want)
		}
	}
	bad := map[string]string{
		"":                    "url is empty",
		"   ":                 "url is empty",
		"ftp://x.org/f":       "not ftp",
		"mailto:a@b.org":      "not mailto",
		"javascript:alert(1)": "not javascript",
		"file:///etc/passwd":  "not file",
		"https://":            "has no host",
		"http://[::1":         "cannot read the url",
	}
	for in, want := range bad {
		_, err := ParseURL(in)
		var e *Error
		if !errors.As(err, &e) || e.Code != ErrUsage || !strings.Contains(e.Reason, want) {
			t.Errorf("ParseURL(%q) = %v, want usage error with %q", in, err, want)
		}
	}
}

func TestGetUsageErrorsBeforeNetwork(t *testing.T) {
	s := newSite(t, "")
	f := newFetcher()
	for _, req := range []Request{
		{URL: ""},
		{URL: "gopher://x"},
		{URL: s.URL, Options: Options{Tables: "grid"}},
		{URL: s.URL, BaseURL: "/relative/"},
	} {
		_, err := f.Get(context.Background(), req)
		var e *Error
		if !errors.As(err, &e) || e.Code != ErrUsage {
			t.Errorf("Get(%+v) = %v, want a usage error", req, err)
		}
	}
	if len(s.agents) != 0 {
		t.Errorf("%d requests made for usage errors", len(s.agents))
	}
	if got := (&Error{Code: ErrUsage, Reason: "r"}).Error(); got != "error 3 (usage) — r" {
		t.Errorf("Error() = %q", got)
	}
}

func TestGetOptions(t *testing.T) {
	s := newSite(t, "")
	s.page("/p", "text/html", `<p><a href="a">a</a> <del>d</del></p><ul><li><input type="checkbox" checked> t</li></ul><table><tr><td rowspan=2>x</td><td>y</td></tr><tr><td>z</td></tr></table>`)
	res, err := newFetcher().Get(context.Background(), Request{
		URL: s.URL + "/p", BaseURL: "https://base.example/dir/",
		Options: Options{Strikethrough: true, TaskList: true, Tables: "flatten"},
	})
	if err != nil {
		t.Fatal(err)
	}
	want := "[a](https://base.example/dir/a) ~~d~~\n\n- [x] t\n\n| x | y |\n| --- | --- |\n| x | z |\n"
	if res.Markdown != want {
		t.Errorf("got %q\nwant %q", res.Markdown, want)
	}
}
