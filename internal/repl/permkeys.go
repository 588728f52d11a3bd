package repl

import (
	"time"

	"mm/internal/agent"
)

// The window mode (internal/tui) answers a permission with the same keys,
// the same guard and the same words as the line mode: they are shared from
// here rather than copied, so the two never drift apart.

// PermissionGuard is permGuard: how long the prompt must have been on
// screen, and the keyboard quiet, before a key answers it.
const PermissionGuard time.Duration = permGuard

// PermissionKey is the answer key k gives (p only when prefix is offered).
func PermissionKey(k rune, prefix string) (agent.Decision, bool) {
	d, _, ok := decision(k, prefix)
	return d, ok
}

// PermissionWord is the line mode's `→ …` word for an answer.
func PermissionWord(d agent.Decision, prefix string) string { return prefixWord(d, prefix) }

// History is the line mode's .mm/history (history.go), for the window
// mode: the same file, the same checks on it, the same encoding.
type History struct{ h *history }

// OpenHistory is openHistory: the warning, when not "", says why no
// history is kept.
func OpenHistory(root string) (*History, string) {
	h, warning := openHistory(root)
	return &History{h}, warning
}

// Lines are the questions, oldest first, sanitised.
func (h *History) Lines() []string { return h.h.lines }

// Add appends a question to the file.
func (h *History) Add(q string) { h.h.add(q) }

// Close closes the file.
func (h *History) Close() { h.h.close() }
