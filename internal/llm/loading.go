package llm

import (
	"context"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/config"
)

// A server that is loading its model answers 503 (llama-server: `Loading
// model`, the g10_chat_while_loading capture) for as long as the load
// takes: seconds to minutes for a large model. That is no failure: mm asks
// again until the model answers, within firstTokenTimeout, the time it
// allows any call before its first token.

// The waits between two tries: from loadFirstWait, doubled each time, up to
// loadMaxWait, so a short load is caught quickly and a long one costs a
// request every few seconds.
const (
	loadFirstWait = 250 * time.Millisecond
	loadMaxWait   = 2 * time.Second
)

// loadWait is the wait of one call for a server that is not ready.
type loadWait struct {
	limit time.Duration // 0: until ctx ends
	start time.Time
	next  time.Duration
}

// wait sleeps before the next try: the server's Retry-After when it gives
// one, else the backoff, never past the limit. It returns the error that
// ends the call instead: ctx's when it ends (Ctrl-C, the watchdog), or the
// one that says the server took too long.
func (w *loadWait) wait(ctx context.Context, ee *EngineError, cb ai.ModelStreamCallback) error {
	now := time.Now()
	if w.start.IsZero() {
		w.start, w.next = now, loadFirstWait
	}
	d := w.next
	w.next = min(2*w.next, loadMaxWait)
	if ee.retryAfter > 0 {
		d = ee.retryAfter
	}
	if w.limit > 0 {
		left := w.limit - now.Sub(w.start)
		if left <= 0 {
			return StillLoading(ee, w.limit)
		}
		d = min(d, left)
	}
	if ee.loading && cb != nil {
		if err := cb(ctx, &ai.ModelResponseChunk{Custom: Progress{Loading: true}}); err != nil {
			return err
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// StillLoading is the error of a call that waited its whole first-token
// time for a server that was not ready. ee is the server's last answer.
func StillLoading(ee *EngineError, after time.Duration) *EngineError {
	if ee != nil && !ee.loading {
		return ee
	}
	return engineErrorf("the server was still loading the model after %s (firstTokenTimeout) — ask again once it has loaded, or raise firstTokenTimeout", config.FormatDuration(after))
}
