package agent

import (
	"context"
	"sync"
	"time"

	"mm/internal/config"
)

// watchdog ends a model call whose stream has gone silent. Before the first
// token it allows firstToken (the server may be reading a long prompt; each
// progress report or keep-alive restarts the wait); after it, between
// tokens, it allows between. It watches the model's stream only: tools run
// outside of it, so a long command never counts against it.
type watchdog struct {
	firstToken, between time.Duration
	cancel              context.CancelCauseFunc

	mu      sync.Mutex
	timer   *time.Timer
	started bool // first token seen
	stopped bool
}

func startWatchdog(firstToken, between time.Duration, cancel context.CancelCauseFunc) *watchdog {
	w := &watchdog{firstToken: firstToken, between: between, cancel: cancel}
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
	if w.started {
		w.cancel(&StopError{Msg: "connection hang detected after " + config.FormatDuration(w.between)})
	} else {
		w.cancel(&StopError{Msg: "no first token from the server after " + config.FormatDuration(w.firstToken)})
	}
}

// alive is a sign of life that is not a token: a progress report or a
// keep-alive comment. It restarts the current wait.
func (w *watchdog) alive() { w.reset(false) }

// token is a piece of the answer: text, reasoning, or a tool call.
func (w *watchdog) token() { w.reset(true) }

func (w *watchdog) reset(token bool) {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.stopped {
		return
	}
	if token {
		w.started = true
	}
	d := w.firstToken
	if w.started {
		d = w.between
	}
	w.timer.Reset(d)
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
