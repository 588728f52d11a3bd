package llm

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"mm/internal/config"
)

// ProbeTimeout is how long a base URL has to answer GET /models before mm
// tries the fallback (the reference's 2 s).
const ProbeTimeout = 2 * time.Second

// EndpointOptions says where to look for the model server.
type EndpointOptions struct {
	Provider Provider
	// BaseURL is the configured baseUrl; "" means the provider's.
	BaseURL string
	// Fallback is the configured fallback: nil means the provider's, a
	// pointer to "" means none.
	Fallback *string
	APIKey   string
	HTTP     *http.Client
}

// Endpoint is the server that answered.
type Endpoint struct {
	// BaseURL is the OpenAI-compatible base (…/v1), without a trailing
	// slash nor the configured URL's query, which is Query (urlquery.go).
	BaseURL string
	Query   string
	// Models is the body of its GET /models answer, kept because it can
	// carry the context window (llama.cpp's data[].meta.n_ctx) and says
	// which models the server serves (models.go).
	Models []byte
	// ModelsStatus is the HTTP status of that answer: 503 while the server
	// loads its model, which still counts as the server being there.
	ModelsStatus int
	// Tried lists the URLs probed, in order.
	Tried []string
}

// Candidates returns the base URLs to try, in order, without duplicates.
func (o EndpointOptions) Candidates() []string {
	base := o.BaseURL
	if base == "" {
		base = o.Provider.BaseURL
	}
	fallback := o.Provider.Fallback
	if o.Fallback != nil {
		fallback = *o.Fallback
	}
	urls := []string{trimBase(base)}
	if fb := trimBase(fallback); fb != "" && fb != urls[0] {
		urls = append(urls, fb)
	}
	return urls
}

// trimBase drops the trailing slash of a base URL's path, before its
// query when it has one.
func trimBase(u string) string {
	base, query := splitQuery(u)
	return withQuery(base, query)
}

type probeResult struct {
	body   []byte
	status int
	err    error
}

// ResolveEndpoint finds the server to talk to: GET <baseUrl>/models with a
// 2 s limit, then the fallback. Any HTTP answer counts (a server that is
// still loading its model answers 503, and is the right one to use); only a
// network failure or silence moves on. The probes run at the same time so
// a dead base URL costs no extra wait before the fallback.
func ResolveEndpoint(ctx context.Context, o EndpointOptions) (*Endpoint, error) {
	urls := o.Candidates()
	client := o.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	// The query of each candidate goes after the path probed.
	queries := make([]string, len(urls))
	for i, u := range urls {
		urls[i], queries[i] = splitQuery(u)
	}
	results := make([]chan probeResult, len(urls))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	for i, u := range urls {
		results[i] = make(chan probeResult, 1)
		go func(u string, out chan<- probeResult) {
			body, status, err := probe(ctx, client, u, o.APIKey)
			out <- probeResult{body, status, err}
		}(withQuery(u+"/models", queries[i]), results[i])
	}
	var failures []string
	for i, u := range urls {
		r := <-results[i]
		if r.err == nil {
			return &Endpoint{BaseURL: u, Query: queries[i], Models: r.body, ModelsStatus: r.status, Tried: urls[:i+1]}, nil
		}
		if ctx.Err() != nil && errors.Is(r.err, context.Canceled) {
			return nil, r.err
		}
		failures = append(failures, fmt.Sprintf("GET %s: %s", RedactURL(withQuery(u+"/models", queries[i])), redactErr(r.err)))
	}
	return nil, engineErrorf("no model server answered (%s). %s — or the scripted demo server, in mm's source: `go run ./cmd/llmtest -background`, then `AGENT_PROVIDER=llamacpp mm`",
		strings.Join(failures, "; "), upper(o.Provider.startHint(urls[0])))
}

// upper capitalises the first letter of an ASCII sentence.
func upper(s string) string {
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		return string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

func probe(ctx context.Context, client *http.Client, url, apiKey string) ([]byte, int, error) {
	ctx, cancel := context.WithTimeout(ctx, ProbeTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return nil, 0, err
	}
	if apiKey != "" {
		req.Header.Set("Authorization", "Bearer "+apiKey)
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, netReason(err, ctx)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	return body, resp.StatusCode, nil
}

// netReason turns a transport error into the few words a user needs.
func netReason(err error, ctx context.Context) error {
	var dns *net.DNSError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("no answer within %s", config.FormatDuration(ProbeTimeout))
	case errors.Is(err, context.Canceled):
		return context.Canceled
	case errors.Is(err, syscall.ECONNREFUSED):
		return errors.New("connection refused")
	case errors.As(err, &dns):
		return fmt.Errorf("unknown host %s", dns.Name)
	}
	var uerr interface{ Unwrap() error }
	if errors.As(err, &uerr) && uerr.Unwrap() != nil {
		return uerr.Unwrap()
	}
	return err
}
