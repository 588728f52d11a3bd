package tui

import "sync"

// LateWarnings carries the warnings the engine raises while it runs (a
// trace file that cannot be written, an MCP server that fails late) into
// the window as notices: written on stderr they would land over the
// window's rows and stay there until the next full redraw. Before the
// window is up and once it is closed they go to the fallback (stderr).
type LateWarnings struct {
	mu       sync.Mutex
	post     func(string)
	fallback func(string)
}

// NewLateWarnings is a LateWarnings that prints with fallback while no
// window shows them.
func NewLateWarnings(fallback func(string)) *LateWarnings {
	return &LateWarnings{fallback: fallback}
}

// Warn shows s: in the window while it is open, else with the fallback.
func (w *LateWarnings) Warn(s string) {
	if w == nil {
		return
	}
	w.mu.Lock()
	post := w.post
	w.mu.Unlock()
	if post != nil {
		post(s)
		return
	}
	w.fallback(s)
}

// attach routes the warnings to post until the returned func detaches it.
func (w *LateWarnings) attach(post func(string)) (detach func()) {
	if w == nil {
		return func() {}
	}
	w.mu.Lock()
	w.post = post
	w.mu.Unlock()
	return func() {
		w.mu.Lock()
		w.post = nil
		w.mu.Unlock()
	}
}
