package ask

import (
	"sync"
	"time"
)

// watch is an ask's watchdog: every event of the asked agent (text, a
// thought, a tool call, a permission answered) is a sign of life; a
// silence longer than watchdogTimeout ends the ask. While this agent's
// user is asked something on the child's behalf, nothing is expected of
// the child and the watch is paused.
type watch struct {
	d time.Duration

	mu     sync.Mutex
	timer  *time.Timer
	paused int
	fired  chan struct{}
	done   bool
}

func newWatch(d time.Duration) *watch {
	w := &watch{d: d, fired: make(chan struct{})}
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
	close(w.fired)
}

// alive is a sign of life.
func (w *watch) alive() {
	if w.timer == nil {
		return
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if !w.done && w.paused == 0 {
		w.timer.Reset(w.d)
	}
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
		w.timer.Reset(w.d)
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
