package webmd

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"mm/internal/version"
)

// The reference's request limits.
const (
	DefaultTimeout = 30 * time.Second // for the whole fetch, robots.txt included
	MaxPageBytes   = 5 << 20          // pages above are refused
	MaxRedirects   = 10
	// robots.txt redirects are followed up to RFC 9309's five.
	maxRobotsRedirects = 5
)

// UserAgent is what mm sends: mm/<version>.
func UserAgent() string {
	return "mm/" + version.Module()
}

// robotsToken is the product token mm looks for in robots.txt.
const robotsToken = "mm"

// Fetcher downloads pages politely. The zero value is ready to use.
type Fetcher struct {
	// Client sends the requests; nil is a plain http.Client. Its
	// CheckRedirect is replaced: every redirect target is checked
	// against its site's robots.txt.
	Client *http.Client
	// Timeout bounds the whole fetch; <= 0 is DefaultTimeout.
	Timeout time.Duration
	// Robots keeps robots.txt files; nil is a cache shared by the
	// process.
	Robots *RobotsCache
	// UserAgent overrides mm/<version> (tests).
	UserAgent string
	// AllowLinkLocal lets the fetch reach link-local addresses
	// (linklocal.go); by default they are refused, after DNS
	// resolution and on every redirect. A given Client's own dialer
	// is not checked, only its URLs.
	AllowLinkLocal bool

	guardOnce sync.Once
	guarded   *http.Transport
}

var sharedRobots = NewRobotsCache()

// Page is a fetched page, decoded.
type Page struct {
	URL     *url.URL // final URL, after redirects
	HTML    []byte   // the page in UTF-8
	Charset string   // the encoding it was read in
}

func (f *Fetcher) timeout() time.Duration {
	if f.Timeout <= 0 {
		return DefaultTimeout
	}
	return f.Timeout
}

func (f *Fetcher) userAgent() string {
	if f.UserAgent != "" {
		return f.UserAgent
	}
	return UserAgent()
}

func (f *Fetcher) robots() *RobotsCache {
	if f.Robots != nil {
		return f.Robots
	}
	return sharedRobots
}

func (f *Fetcher) client() http.Client {
	if f.Client != nil {
		return *f.Client
	}
	if f.AllowLinkLocal {
		return http.Client{}
	}
	// One transport per Fetcher: its connections are reused.
	f.guardOnce.Do(func() { f.guarded = guardedTransport() })
	return http.Client{Transport: f.guarded}
}

// checkURL refuses, before anything is sent, a link-local address
// written in a URL (unless allowed).
func (f *Fetcher) checkURL(u *url.URL) error {
	if f.AllowLinkLocal {
		return nil
	}
	return checkLinkLocalURL(u)
}

// Fetch GETs u after checking robots.txt, follows up to 10 redirects
// (each target checked against its robots.txt too), refuses what is not
// HTML or is over 5 MiB, and decodes the page to UTF-8. Failures are
// *Error values.
func (f *Fetcher) Fetch(ctx context.Context, u *url.URL) (*Page, error) {
	timeout := f.timeout()
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()

	if err := f.checkURL(u); err != nil {
		return nil, err
	}
	if err := f.checkRobots(ctx, u); err != nil {
		return nil, f.wrap(ctx, err, timeout)
	}
	client := f.client()
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > MaxRedirects {
			return errorf(ErrInput, "more than %d redirects, the last to %s", MaxRedirects, req.URL)
		}
		if req.URL.Scheme != "http" && req.URL.Scheme != "https" {
			return errorf(ErrInput, "redirected to %s, which is not http or https", req.URL)
		}
		if err := f.checkURL(req.URL); err != nil {
			return err
		}
		return f.checkRobots(req.Context(), req.URL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, errorf(ErrUsage, "cannot make a request for %s: %v", u, err)
	}
	req.Header.Set("User-Agent", f.userAgent())
	req.Header.Set("Accept", "text/html,application/xhtml+xml;q=0.9,*/*;q=0.5")
	resp, err := client.Do(req)
	if err != nil {
		return nil, f.wrap(ctx, err, timeout)
	}
	defer resp.Body.Close()
	final := resp.Request.URL
	if resp.StatusCode >= 300 {
		return nil, errorf(ErrInput, "HTTP %s from %s", statusText(resp), final)
	}
	if resp.ContentLength > MaxPageBytes {
		return nil, errorf(ErrConversion, "the page is larger than 5 MiB (%d bytes)", resp.ContentLength)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxPageBytes+1))
	if err != nil {
		return nil, f.wrap(ctx, err, timeout)
	}
	if len(body) > MaxPageBytes {
		return nil, errorf(ErrConversion, "the page is larger than 5 MiB")
	}
	ct := resp.Header.Get("Content-Type")
	mediaType := ""
	if ct != "" {
		mediaType, _, _ = mime.ParseMediaType(ct)
		if mediaType == "" {
			mediaType = strings.ToLower(strings.TrimSpace(strings.Split(ct, ";")[0]))
		}
	} else {
		// No type given: guess it, but take no charset from the guess.
		mediaType, _, _ = mime.ParseMediaType(http.DetectContentType(body))
	}
	if mediaType != "text/html" && mediaType != "application/xhtml+xml" {
		return nil, errorf(ErrConversion, "%s is not an HTML page (%s)", final, mediaType)
	}
	text, charset, err := Decode(body, ct)
	if err != nil {
		return nil, err
	}
	return &Page{URL: final, HTML: text, Charset: charset}, nil
}

func statusText(resp *http.Response) string {
	if t := http.StatusText(resp.StatusCode); t != "" {
		return fmt.Sprintf("%d %s", resp.StatusCode, t)
	}
	return fmt.Sprint(resp.StatusCode)
}

// wrap turns a transport failure into an input error, keeping an *Error
// the redirect check returned.
func (f *Fetcher) wrap(ctx context.Context, err error, timeout time.Duration) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	if errors.Is(ctx.Err(), context.DeadlineExceeded) || errors.Is(err, context.DeadlineExceeded) {
		return errorf(ErrInput, "no complete answer within %s", timeout)
	}
	if errors.Is(err, context.Canceled) {
		return errorf(ErrInput, "cancelled")
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	if e := unreachable(err, hostOf(ue)); e != nil {
		return e
	}
	return errorf(ErrInput, "cannot fetch %s: %v", hostOf(ue), err)
}

// unreachable is the error for a host whose name does not resolve or that
// refuses or never takes the connection; nil for other failures.
func unreachable(err error, host string) *Error {
	var dns *net.DNSError
	if errors.As(err, &dns) {
		return errorf(ErrInput, "cannot reach %s: %v", dns.Name, dns.Err)
	}
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" {
		return errorf(ErrInput, "cannot reach %s: %v", host, op.Err)
	}
	// An address written without a scheme gets https://; a plain HTTP
	// server there answers the TLS handshake with HTTP.
	// net/http words that case itself (a plain error); any other answer
	// that is not TLS is a RecordHeaderError.
	var rh tls.RecordHeaderError
	if errors.As(err, &rh) || strings.Contains(err.Error(), "server gave HTTP response to HTTPS client") {
		return errorf(ErrInput, "cannot reach %s over https: it does not speak TLS (for a plain HTTP server, write the address with http://)", host)
	}
	return nil
}

func hostOf(ue *url.Error) string {
	if ue == nil {
		return "the page"
	}
	if u, err := url.Parse(ue.URL); err == nil && u.Host != "" {
		return u.Host
	}
	return ue.URL
}

// checkRobots fails when the robots.txt of u's origin forbids u to mm, or
// cannot be read.
func (f *Fetcher) checkRobots(ctx context.Context, u *url.URL) error {
	origin := u.Scheme + "://" + u.Host
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	if u.RawQuery != "" {
		path += "?" + u.RawQuery
	}
	if path == "/robots.txt" {
		return nil
	}
	cache := f.robots()
	r := cache.get(origin)
	if r == nil {
		var err error
		r, err = f.fetchRobots(ctx, origin)
		if err != nil {
			return err
		}
		cache.put(origin, r)
	}
	if !r.Allowed(robotsToken, path) {
		return errorf(ErrInput, "%s/robots.txt forbids mm to fetch %s", origin, path)
	}
	return nil
}

// fetchRobots reads origin/robots.txt: a 2xx is parsed, a 4xx (or too many
// redirects) allows everything, a 5xx or no answer forbids everything. A
// host that cannot be reached at all is reported as unreachable.
func (f *Fetcher) fetchRobots(ctx context.Context, origin string) (*Robots, error) {
	client := f.client()
	tooMany := false
	client.CheckRedirect = func(req *http.Request, via []*http.Request) error {
		if len(via) > maxRobotsRedirects {
			tooMany = true
			return http.ErrUseLastResponse
		}
		return f.checkURL(req.URL)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, origin+"/robots.txt", nil)
	if err != nil {
		return nil, errorf(ErrInput, "cannot read %s/robots.txt: %v", origin, err)
	}
	req.Header.Set("User-Agent", f.userAgent())
	resp, err := client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		// A link-local address refused on the way (dial, redirect).
		var refused *Error
		if errors.As(err, &refused) {
			return nil, refused
		}
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		// A host that cannot be reached has no page to forbid either:
		// say so, rather than blame a robots.txt that was never read.
		if e := unreachable(err, hostOf(ue)); e != nil {
			return nil, e
		}
		return nil, errorf(ErrInput, "cannot read %s/robots.txt (%v), so the site is treated as forbidden", origin, err)
	}
	defer resp.Body.Close()
	switch {
	case tooMany, resp.StatusCode >= 400 && resp.StatusCode < 500:
		return AllowAll, nil
	case resp.StatusCode >= 200 && resp.StatusCode < 300:
		body, err := io.ReadAll(io.LimitReader(resp.Body, maxRobotsBytes))
		if err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, errorf(ErrInput, "cannot read %s/robots.txt (%v), so the site is treated as forbidden", origin, err)
		}
		return ParseRobots(body), nil
	}
	return nil, errorf(ErrInput, "%s/robots.txt answered HTTP %s, so the site is treated as forbidden", origin, statusText(resp))
}

// ParseURL reads the url argument: without a scheme, https:// is added
// (`k33g.org`); a scheme typed without its colon is repaired
// (`https//k33g.org`); only http and https are accepted.
func ParseURL(raw string) (*url.URL, error) {
	s := strings.TrimSpace(raw)
	if s == "" {
		return nil, errorf(ErrUsage, "url is empty — give the page's address, such as https://example.com/docs")
	}
	low := strings.ToLower(s)
	for _, scheme := range []string{"https", "http"} {
		if strings.HasPrefix(low, scheme+"//") {
			s = s[:len(scheme)] + ":" + s[len(scheme):]
			low = strings.ToLower(s)
			break
		}
		if strings.HasPrefix(low, scheme+":/") && !strings.HasPrefix(low, scheme+"://") {
			s = s[:len(scheme)] + "://" + strings.TrimLeft(s[len(scheme)+1:], "/")
			low = strings.ToLower(s)
			break
		}
	}
	switch {
	case strings.HasPrefix(low, "//"):
		s = "https:" + s
	case !strings.Contains(s, "://"):
		if scheme, ok := otherScheme(s); ok {
			return nil, errorf(ErrUsage, "%q is not a web address: only http and https are fetched, not %s", raw, scheme)
		}
		s = "https://" + s
	}
	u, err := url.Parse(s)
	if err != nil {
		return nil, errorf(ErrUsage, "cannot read the url %q: %v", raw, err)
	}
	u.Scheme = strings.ToLower(u.Scheme)
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, errorf(ErrUsage, "%q is not a web address: only http and https are fetched, not %s", raw, u.Scheme)
	}
	if u.Host == "" || u.Hostname() == "" {
		return nil, errorf(ErrUsage, "the url %q has no host", raw)
	}
	u.Fragment = ""
	return u, nil
}

// otherScheme reports a URL with a scheme but no "//" (mailto:x@y,
// javascript:…), telling it from a host and port (localhost:8080/x).
func otherScheme(s string) (string, bool) {
	i := strings.IndexByte(s, ':')
	if i <= 0 {
		return "", false
	}
	scheme := s[:i]
	for j := 0; j < len(scheme); j++ {
		c := scheme[j]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || j > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.')) {
			return "", false
		}
	}
	rest := s[i+1:]
	port := rest
	if k := strings.IndexAny(port, "/?#"); k >= 0 {
		port = port[:k]
	}
	if port != "" && strings.Trim(port, "0123456789") == "" {
		return "", false // host:port
	}
	return strings.ToLower(scheme), true
}

// ParseBaseURL reads a baseUrl argument: it must be absolute.
func ParseBaseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || !u.IsAbs() || u.Host == "" && u.Scheme != "file" {
		return nil, errorf(ErrUsage, "baseUrl %q is not an absolute URL — give one such as https://example.com/docs/", raw)
	}
	return u, nil
}

// Request is one fetch_content call.
type Request struct {
	URL     string
	BaseURL string // "" is the page's final URL
	Options        // BaseURL is set from the fields above
}

// Result is a converted page.
type Result struct {
	URL      *url.URL // the final URL
	Markdown string   // "" when nothing is left once cleaned
	Charset  string
}

// Get checks a request, fetches the page and converts it. Usage errors
// come first, before any network access.
func (f *Fetcher) Get(ctx context.Context, req Request) (*Result, error) {
	u, err := ParseURL(req.URL)
	if err != nil {
		return nil, err
	}
	opt := req.Options
	tables, ok := ParseTables(string(opt.Tables))
	if !ok {
		return nil, errorf(ErrUsage, "tables is %q — use html or flatten", opt.Tables)
	}
	opt.Tables = tables
	if strings.TrimSpace(req.BaseURL) != "" {
		if opt.BaseURL, err = ParseBaseURL(req.BaseURL); err != nil {
			return nil, err
		}
	}
	page, err := f.Fetch(ctx, u)
	if err != nil {
		return nil, err
	}
	if opt.BaseURL == nil {
		opt.BaseURL = page.URL
	}
	return &Result{URL: page.URL, Markdown: Convert(page.HTML, opt), Charset: page.Charset}, nil
}
