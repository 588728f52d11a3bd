//go:build mmtesthooks

package tui

import "strings"

// With -tags mmtesthooks a question "panic in the turn" or "panic in the
// view" panics there: the tests check that the terminal is restored and
// the panic reported (cmd/mm TestTUIPanicRestoresTerminal).
func init() {
	testPanic = func(where, question string) {
		if strings.TrimSpace(question) == "panic in the "+where {
			panic("a test's panic in the " + where)
		}
	}
}
