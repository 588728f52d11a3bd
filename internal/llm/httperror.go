package llm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html"
	"mime"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// httpError turns an HTTP error answer into the user's message: the JSON
// error's message when there is one (llama.cpp, Ollama and OpenAI all send
// {"error": …}), the title of an HTML page (a proxy's), else the start of
// the body. A context overflow is said plainly (overflow.go); a server
// loading its model is marked for the client to wait (loading.go).
func httpError(p Provider, model, url string, status int, header http.Header, body []byte) *EngineError {
	url = RedactURL(url)
	msg := ""
	var env struct {
		Error json.RawMessage `json:"error"`
	}
	if json.Unmarshal(body, &env) == nil && len(env.Error) > 0 {
		if o, ok := parseOverflow(env.Error); ok {
			return &EngineError{Status: status, Overflow: true, Msg: OverflowMessage(p, model, o.tokens, o.window, false)}
		}
		msg = errorMessage(env.Error)
	}
	if msg == "" && isHTML(header, body) {
		msg = "an HTML page"
		if t := pageTitle(body); t != "" {
			msg += fmt.Sprintf(" titled %q", t)
		}
		msg += " (a proxy between mm and the model server?)"
	}
	if msg == "" {
		msg = clip(string(bytes.TrimSpace(body)), 300)
	}
	if msg == "" {
		msg = http.StatusText(status)
	}
	e := &EngineError{Status: status, Msg: "the server answered HTTP " + itoa(status) + " to POST " + url + ": " + msg}
	if status == http.StatusServiceUnavailable {
		// llama-server (and Docker Model Runner's, and llmman's) answer
		// every request with 503 "Loading model" until the model is in
		// memory; a server that says when to come back means it too.
		e.loading = strings.Contains(strings.ToLower(msg), "loading")
		e.retryAfter = retryAfter(header.Get("Retry-After"), time.Now())
		e.wait = e.loading || e.retryAfter > 0
	}
	return e
}

// isHTML: the server says so, or the body starts like a page.
func isHTML(header http.Header, body []byte) bool {
	if mt, _, _ := mime.ParseMediaType(header.Get("Content-Type")); mt == "text/html" || mt == "application/xhtml+xml" {
		return true
	}
	return strings.HasPrefix(http.DetectContentType(body), "text/html")
}

var titleRe = regexp.MustCompile(`(?is)<title[^>]*>(.*?)</title>`)

// pageTitle is the page's <title>, on one line, cut to 100 bytes.
func pageTitle(body []byte) string {
	m := titleRe.FindSubmatch(body)
	if m == nil {
		return ""
	}
	return clip(strings.Join(strings.Fields(html.UnescapeString(string(m[1]))), " "), 100)
}

// retryAfter reads a Retry-After header: seconds, or an HTTP date. 0 when
// absent or unreadable.
func retryAfter(v string, now time.Time) time.Duration {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0
	}
	if n, err := strconv.Atoi(v); err == nil {
		if n <= 0 {
			return 0
		}
		return time.Duration(min(n, 3600)) * time.Second
	}
	if t, err := http.ParseTime(v); err == nil && t.After(now) {
		return min(t.Sub(now), time.Hour)
	}
	return 0
}
