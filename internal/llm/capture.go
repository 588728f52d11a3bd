package llm

import (
	"context"

	"github.com/firebase/genkit/go/ai"
)

// Genkit runs a model through its action wrapper (core.ActionDef.Run),
// which, whatever the log level, turns the model's output into JSON
// several times per call: a debug log line, the schema validation
// (marshalled, then parsed twice), and a tracing span attribute. For a
// reply of tens of megabytes that is hundreds of megabytes of garbage
// (mm measured ~900 MB peak RSS for a 50 MB reply).
//
// A caller that reads the answer from its own stream callback (the agent)
// puts a Capture in the context of the call: the client then hands the
// whole response to the Capture and returns to Genkit a lean one, with
// the finish reason and usage but no parts and no copy of the request.
// Without a Capture, Generate returns the whole response as usual.

type captureKey struct{}

// Capture receives the whole answer of one model call made with its
// context.
type Capture struct {
	resp    *ai.ModelResponse
	partial string
}

// WithCapture returns a context whose model call delivers its whole
// response to the returned Capture.
func WithCapture(ctx context.Context) (context.Context, *Capture) {
	c := &Capture{}
	return context.WithValue(ctx, captureKey{}, c), c
}

// Response is the whole response of the call, nil when the call failed or
// never reached the client.
func (c *Capture) Response() *ai.ModelResponse { return c.resp }

// Partial is the text streamed before the call failed.
func (c *Capture) Partial() string { return c.partial }

func captureFrom(ctx context.Context) *Capture {
	c, _ := ctx.Value(captureKey{}).(*Capture)
	return c
}

// lean is what Genkit gets when a Capture took the response.
func lean(full *ai.ModelResponse) *ai.ModelResponse {
	return &ai.ModelResponse{
		Message:       &ai.Message{Role: ai.RoleModel, Content: []*ai.Part{}},
		FinishMessage: full.FinishMessage,
		FinishReason:  full.FinishReason,
		LatencyMs:     full.LatencyMs,
		Usage:         full.Usage,
	}
}
