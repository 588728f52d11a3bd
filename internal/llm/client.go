package llm

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net"
	"net/http"
	"time"

	"github.com/firebase/genkit/go/ai"
)

// Client talks to one OpenAI-compatible server for one model. Its Generate
// method is the handler of mm's Genkit model.
type Client struct {
	Provider Provider
	// BaseURL is the endpoint that answered the probe (…/v1).
	BaseURL string
	Model   string
	// APIKey is sent as a bearer token when non-empty. It only ever comes
	// from the variable the configuration names (apiKeyEnv, or the
	// provider's default): no other variable is read.
	APIKey   string
	Sampling map[string]any
	HTTP     *http.Client
	Trace    *Tracer // nil: no trace
	// LoadTimeout bounds the wait for a server that is loading its model
	// (firstTokenTimeout); 0 waits until the call's context ends.
	LoadTimeout time.Duration
}

// NewHTTPClient is the HTTP client for model calls: no overall timeout (a
// first token can take minutes on a long prompt; the agent's watchdog
// decides when the server is stuck), a short dial timeout, proxies from the
// environment (never used for localhost).
func NewHTTPClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost:   4,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}}
}

// Generate sends the conversation and streams the answer. Every piece reaches
// cb as it arrives (text, reasoning, tool-call pieces, and Custom values:
// Progress and KeepAlive). The final response holds, in order, a reasoning
// part, a text part and one ToolRequest part per tool call whose Input is
// the raw arguments text (a string), unparsed.
//
// FinishMessage carries the server's finish_reason word ("stop", "length",
// "tool_calls"); Usage carries the token counts, with llama.cpp's timings
// in Usage.Custom.
//
// With an llm.Capture in ctx, the whole response goes to the Capture and
// the one returned (to Genkit) has no parts (see capture.go). The server
// is untrusted: one event is capped at MaxEvent, the answer at
// answerLimit, a JSON body at jsonLimit; past them the call ends with an
// *EngineError.
//
// A server that is loading its model (HTTP 503) is asked again until it
// answers, within LoadTimeout (see loading.go); cb gets a Progress with
// Loading set before each wait.
func (c *Client) Generate(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	body, err := BuildRequest(req, RequestOptions{Model: c.Model, Sampling: c.Sampling, Progress: c.Provider.LlamaCpp})
	if err != nil {
		return nil, &EngineError{Msg: "cannot build the request: " + err.Error()}
	}
	wait := loadWait{limit: c.LoadTimeout}
	for {
		resp, err := c.attempt(ctx, req, body, cb)
		var ee *EngineError
		if err == nil || !errors.As(err, &ee) || !ee.wait {
			return resp, err
		}
		if err := wait.wait(ctx, ee, cb); err != nil {
			return nil, err
		}
	}
}

// attempt is one POST of the request and the reading of its answer.
func (c *Client) attempt(ctx context.Context, req *ai.ModelRequest, body []byte, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
	url := c.BaseURL + "/chat/completions"
	shown := RedactURL(url)
	trace := c.Trace.begin(ctx, body)
	capture := captureFrom(ctx)
	limit := answerLimit(c.Sampling)

	hreq, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(body))
	if err != nil {
		return nil, &EngineError{Msg: redactErr(err)}
	}
	hreq.Header.Set("Content-Type", "application/json")
	hreq.Header.Set("Accept", "text/event-stream")
	// A server may close a kept-alive connection just as the next request
	// goes out on it; net/http sends such a request again on a new
	// connection only when it is marked idempotent. An empty key marks it
	// without sending a header: the request bytes stay the same. A chat
	// request has no effect but its answer, so sending it again is safe.
	hreq.Header["Idempotency-Key"] = nil
	if c.APIKey != "" {
		hreq.Header.Set("Authorization", "Bearer "+c.APIKey)
	}
	client := c.HTTP
	if client == nil {
		client = http.DefaultClient
	}
	start := time.Now()
	resp, err := client.Do(hreq)
	if err != nil {
		trace.failure(http.MethodPost, shown, err)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, engineErrorf("POST %s: %s", shown, redactErr(netReason(err, ctx)))
	}
	defer resp.Body.Close()

	mediaType, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	if resp.StatusCode >= 300 || mediaType == "application/json" {
		max := jsonLimit(limit)
		raw, rerr := io.ReadAll(io.LimitReader(resp.Body, int64(max)+1))
		over := len(raw) > max
		if over {
			raw = raw[:max]
		}
		trace.json(resp.StatusCode, raw)
		if rerr != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if resp.StatusCode >= 300 {
			return nil, httpError(c.Provider, c.Model, shown, resp.StatusCode, resp.Header, raw)
		}
		if over {
			return nil, engineErrorf("the server sent an answer over %s — mm stopped reading it", mib(max))
		}
		if rerr != nil {
			return nil, engineErrorf("the server's answer was truncated: the connection ended after %d bytes (%s)", len(raw), redactErr(rerr))
		}
		rep, err := readJSON(ctx, raw, limit, cb)
		if err != nil {
			return nil, err
		}
		return c.finish(capture, c.response(req, rep, start)), nil
	}

	var src io.Reader = resp.Body
	if w := trace.stream(resp.StatusCode); w != nil {
		defer w.Close()
		src = &teeReader{r: resp.Body, w: w}
	}
	rep, err := readStream(ctx, src, limit, cb)
	if err != nil {
		if capture != nil && rep != nil {
			capture.partial = rep.text.String()
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return c.finish(capture, c.response(req, rep, start)), nil
}

// finish hands the response to the call's Capture, if any, and returns
// what Genkit gets.
func (c *Client) finish(capture *Capture, full *ai.ModelResponse) *ai.ModelResponse {
	if capture == nil {
		return full
	}
	capture.resp = full
	return lean(full)
}

// answerLimit caps one answer: text, reasoning and tool calls together.
// max_tokens bounds what a model may write, but a token is not a fixed
// number of bytes and a hostile or broken server ignores max_tokens, so
// the cap is generous: 64 bytes a token (16 times an English token's ~4
// bytes, more than any tokenizer's longest common token), never under
// 8 MiB; 16 MiB when max_tokens is unset. A real answer never comes near
// it; a server streaming without end stops there instead of filling
// memory.
func answerLimit(sampling map[string]any) int {
	n := 0
	switch v := sampling["max_tokens"].(type) {
	case int:
		n = v
	case int64:
		n = int(v)
	case float64:
		n = int(v)
	}
	if n <= 0 {
		return 16 << 20
	}
	return max(8<<20, 64*min(n, 1<<24))
}

// jsonLimit caps a whole JSON body (a non-streaming answer, an HTTP
// error): the answer's cap, doubled for JSON's escapes and envelope,
// never under 16 MiB.
func jsonLimit(answer int) int {
	return max(16<<20, 2*answer)
}

// teeReader copies what it reads to a trace file. A write that fails
// (disk full, file removed) drops the trace file and never fails the read:
// the model call goes on untraced.
type teeReader struct {
	r io.Reader
	w *traceStream
}

func (t *teeReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	if n > 0 && t.w != nil {
		t.w.write(p[:n])
	}
	return n, err
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

func (c *Client) response(req *ai.ModelRequest, rep *reply, start time.Time) *ai.ModelResponse {
	msg := &ai.Message{Role: ai.RoleModel}
	if rep.reasoning.Len() > 0 {
		msg.Content = append(msg.Content, ai.NewReasoningPart(rep.reasoning.String(), nil))
	}
	if rep.text.Len() > 0 {
		msg.Content = append(msg.Content, ai.NewTextPart(rep.text.String()))
	}
	for _, call := range rep.rawCalls() {
		msg.Content = append(msg.Content, ai.NewToolRequestPart(&ai.ToolRequest{Name: call.Name, Ref: call.ID, Input: call.Arguments}))
	}
	resp := &ai.ModelResponse{
		Request:       req,
		Message:       msg,
		FinishMessage: rep.finish,
		FinishReason:  finishReason(rep.finish),
		LatencyMs:     float64(time.Since(start).Microseconds()) / 1000,
	}
	if rep.usage != nil || rep.timings != nil {
		u := &ai.GenerationUsage{}
		if rep.usage != nil {
			u.InputTokens = rep.usage.PromptTokens
			u.OutputTokens = rep.usage.CompletionTokens
			u.TotalTokens = rep.usage.TotalTokens
			if d := rep.usage.PromptTokensDetails; d != nil {
				u.CachedContentTokens = d.CachedTokens
			}
		} else {
			// Without include_usage support, llama.cpp's timings still
			// say how many tokens went in and out.
			u.InputTokens = int(rep.timings["prompt_n"] + rep.timings["cache_n"])
			u.CachedContentTokens = int(rep.timings["cache_n"])
			u.OutputTokens = int(rep.timings["predicted_n"])
			u.TotalTokens = u.InputTokens + u.OutputTokens
		}
		if rep.timings != nil {
			u.Custom = map[string]float64(rep.timings)
		}
		resp.Usage = u
	}
	return resp
}

func finishReason(s string) ai.FinishReason {
	switch s {
	case "stop", "tool_calls", "function_call":
		return ai.FinishReasonStop
	case "length":
		return ai.FinishReasonLength
	case "content_filter":
		return ai.FinishReasonBlocked
	case "":
		return ai.FinishReasonUnknown
	}
	return ai.FinishReasonOther
}

// RawToolCalls returns the tool calls of a response as the server sent them.
func RawToolCalls(m *ai.Message) []RawToolCall {
	var out []RawToolCall
	if m == nil {
		return nil
	}
	for i, p := range m.Content {
		if p.ToolRequest == nil {
			continue
		}
		out = append(out, RawToolCall{Index: i, ID: p.ToolRequest.Ref, Name: p.ToolRequest.Name, Arguments: ArgumentsText(p.ToolRequest.Input)})
	}
	return out
}

// IsCanceled reports whether err is a context cancellation.
func IsCanceled(err error) bool {
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded)
}
