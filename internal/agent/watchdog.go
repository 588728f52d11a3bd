package agent

import (
	"context"
	"sync"
	"time"

	"mm/internal/config"
)

// watchdog ends a model call whose stream has gone silent. What counts as
// life is what a model produces, not what a server sends to look alive:
//
//   - Before the first token it allows firstToken (the server may be
//     reading a long prompt). A llama.cpp progress report that moves
//     forward restarts that wait; keep-alive comments and empty chunks
//     (role chunk, usage chunk) do not, so a server that only pings ends
//     the call after firstToken.
//   - After the first token it allows between from one token (text,
//     reasoning, a tool-call piece) to the next. Keep-alives, empty chunks
//     and progress do not count: the reference's watchdogTimeout is the
//     silence between two streamed tokens.
//
// It watches the model's stream only: tools run outside of it, so a long
// command never counts against it.
type watchdog struct {
	firstToken, between time.Duration
	cancel              context.CancelCauseFunc

	mu        sync.Mutex
	timer     *time.Timer
	started   bool // first token seen
	stopped   bool
	fired     bool // the timer ran out
	processed int  // highest progress report seen, -1 before the first
}

func startWatchdog(firstToken, between time.Duration, cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{firstToken: firstToken, between: between, cancel: cancel, processed: -1}
	if w.firstToken < w.between {
		w.firstToken = w.between
	}
	if w.between > 0 {
		w.timer = time.AfterFunc(w.firstToken, w.expire)
	}
	return w
}

func (w *watchdog) expire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.stopped = true
	w.fired = true
	if w.started {
		w.cancel(&StopError{Msg: "connection hang detected after " + config.FormatDuration(w.between)})
	} else {
		w.cancel(&StopError{Msg: "no first token from the server after " + config.FormatDuration(w.firstToken)})
	}
}

// progress is a llama.cpp prompt-progress report: before the first token,
// one that moves forward restarts the wait. A report that repeats or goes
// back proves nothing (a server can send the same one forever).
func (w *watchdog) progress(processed int) {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped || w.started || processed <= w.processed {
		return
	}
	w.processed = processed
	w.timer.Reset(w.firstToken)
}

// keepAlive is a sign of life that carries nothing: a keep-alive comment,
// an empty chunk. It does not feed the watchdog, before or after the first
// token; it exists so the decision is written down in one place.
func (w *watchdog) keepAlive() {}

// token is a piece of the answer: text, reasoning, or a tool call.
func (w *watchdog) token() {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	w.started = true
	w.timer.Reset(w.between)
}

func (w *watchdog) stop() {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.stopped = true
	w.timer.Stop()
}

// expired reports whether the call ended because no first token came in
// time.
func (w *watchdog) expired() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.fired && !w.started
}
