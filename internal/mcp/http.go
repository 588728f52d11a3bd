package mcp

import (
	"net/http"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// httpTransport is a streamable HTTP server with the configured headers
// on every request, its answers read for the tools' schema texts.
func httpTransport(url string, headers map[string]string, sn *schemas) sdk.Transport {
	client := &http.Client{Transport: &headerRT{base: http.DefaultTransport, headers: headers, s: sn}}
	return &sdk.StreamableClientTransport{Endpoint: url, HTTPClient: client, DisableStandaloneSSE: true}
}

type headerRT struct {
	base    http.RoundTripper
	headers map[string]string
	s       *schemas
}

func (h *headerRT) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.headers) > 0 {
		req = req.Clone(req.Context())
		for k, v := range h.headers {
			req.Header.Set(k, v)
		}
	}
	resp, err := h.base.RoundTrip(req)
	if err == nil && resp.Body != nil {
		sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
		resp.Body = &bodyTee{r: resp.Body, s: h.s, sse: sse}
	}
	return resp, err
}
