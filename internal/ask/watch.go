package ask

import (
	"fmt"
	"sync"
	"time"

	"mm/internal/config"
)

// watch is an ask's watchdog: every event of the asked agent (text, a
// thought, a tool call, a permission answered, and its `_mm/progress`
// reports) is a sign of life; a silence longer than the limit ends the
// ask. The limit follows the asked agent's model calls, as its own
// watchdog does: while it reads its prompt (from the prompt sent, and
// again once each of its tool calls has ended, until its next text,
// thought or call) it is the asked agent's firstTokenTimeout, never
// shorter than this agent's watchdogTimeout, plus readGrace; otherwise
// (starting the child, streaming, running a tool) this agent's
// watchdogTimeout. While this agent's user is asked something on the
// child's behalf, nothing is expected of the child and the watch is
// paused.
type watch struct {
	d     time.Duration // watchdogTimeout; 0: no watch
	first time.Duration // the asked agent's firstTokenTimeout

	mu      sync.Mutex
	timer   *time.Timer
	reading bool // the asked agent reads a prompt: the limit is first
	paused  int
	fired   chan struct{}
	done    bool
	// firedReading says the watch ran out while the asked agent read.
	firedReading bool
}

// readGrace is how much longer than the asked agent's firstTokenTimeout
// the watch waits while it reads: its own watchdog runs out at that
// limit too, and what it then says (`no first token from the server
// after …`, its server's fault) is the better reason; the watch is for a
// child that itself hangs.
const readGrace = time.Second

func newWatch(d, first time.Duration) *watch {
	w := &watch{d: d, first: max(first, d), fired: make(chan struct{})}
	if d > 0 {
		w.timer = time.AfterFunc(d, w.expire)
	}
	return w
}

func (w *watch) expire() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.done || w.paused > 0 {
		return
	}
	w.done = true
	w.firedReading = w.reading
	close(w.fired)
}

// limit is the silence allowed now (w.mu held).
func (w *watch) limit() time.Duration {
	if w.reading {
		return w.first + readGrace
	}
	return w.d
}

// reset restarts the wait, reading or not (w.mu held).
func (w *watch) reset(reading bool) {
	w.reading = reading
	if !w.done && w.paused == 0 {
		w.timer.Reset(w.limit())
	}
}

// alive is a sign of life: the wait starts again, with the same limit.
func (w *watch) alive() {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reset(w.reading)
}

// read is the start of one of the asked agent's model calls: it reads
// its prompt, and the limit is its firstTokenTimeout.
func (w *watch) read() {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reset(true)
}

// token is something its model produced (text, a thought, a call): the
// limit is this agent's watchdogTimeout again.
func (w *watch) token() {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	w.reset(false)
}

// reason is why the watch ended the ask, once fired.
func (w *watch) reason() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.firedReading && w.first > w.d {
		return fmt.Sprintf("no sign of life from it for %s (its firstTokenTimeout)", config.FormatDuration(w.first))
	}
	return fmt.Sprintf("no sign of life from it for %s (watchdogTimeout)", config.FormatDuration(w.d))
}

// pause stops the watch until resume (which counts as a sign of life).
func (w *watch) pause() {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	w.paused++
	w.timer.Stop()
	w.mu.Unlock()
}

func (w *watch) resume() {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	w.paused--
	if !w.done && w.paused == 0 {
		w.timer.Reset(w.limit())
	}
	w.mu.Unlock()
}

func (w *watch) stop() {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	w.done = true
	w.timer.Stop()
	w.mu.Unlock()
}
