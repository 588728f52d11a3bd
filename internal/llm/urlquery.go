package llm

import (
	"net/http"
	"strings"
)

// A base URL may carry a query (…/v1?token=…, for a proxy that takes its
// key there). Every path mm asks (/models, /chat/completions, /props) goes
// before it, and the query goes with every request: the endpoint keeps the
// base without its query (Endpoint.BaseURL, to which paths are appended)
// and the query apart (Endpoint.Query), which queryTransport adds to each
// request of the engine's HTTP client. Printed, its values are masked
// (RedactURL).

// splitQuery cuts a base URL into the part paths are appended to, without
// a trailing slash, and its raw query ("" when none). A fragment is
// dropped: it never reaches a server.
func splitQuery(raw string) (base, query string) {
	raw, _, _ = strings.Cut(raw, "#")
	base, query, _ = strings.Cut(raw, "?")
	return strings.TrimRight(base, "/"), query
}

// withQuery is u with the raw query appended ("" leaves it as is).
func withQuery(u, query string) string {
	if query == "" {
		return u
	}
	return u + "?" + query
}

// Shown is the endpoint as printed: its query values and password masked.
func (ep *Endpoint) Shown() string {
	return RedactURL(withQuery(ep.BaseURL, ep.Query))
}

// WithQuery makes every request of client carry the base URL's query,
// after the request's own parameters. The errors net/http makes quote the
// URL the caller built, which has no query: the token is never in them.
func WithQuery(client *http.Client, query string) {
	if query == "" {
		return
	}
	next := client.Transport
	if next == nil {
		next = http.DefaultTransport
	}
	client.Transport = queryTransport{next: next, query: query}
}

type queryTransport struct {
	next  http.RoundTripper
	query string
}

func (t queryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	// A RoundTripper must not change the request it is given.
	r := req.Clone(req.Context())
	u := *req.URL
	if u.RawQuery == "" {
		u.RawQuery = t.query
	} else {
		u.RawQuery += "&" + t.query
	}
	r.URL = &u
	return t.next.RoundTrip(r)
}
