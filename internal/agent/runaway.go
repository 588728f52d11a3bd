package agent

import (
	"fmt"
	"strings"
)

// A tool call whose streamed arguments go on repeating (a small model that
// derails writes the same few characters for minutes, and every piece feeds
// the watchdog) is stopped as soon as the last runawayWindow characters are
// one pattern of runawayMinUnit to runawayMaxUnit characters repeated, or
// the arguments pass runawayMaxBytes.
const (
	runawayWindow   = 256
	runawayMinUnit  = 4
	runawayMaxUnit  = 64
	runawayMaxBytes = 256 << 10
)

// runawayCheck returns the stop message for arguments that ran away, or "".
func runawayCheck(args string) string {
	if len(args) > runawayMaxBytes {
		return fmt.Sprintf("the model's tool call ran away: its arguments passed %d KB (%d characters so far: %q) — generation stopped; rephrase the request, or try another model",
			runawayMaxBytes>>10, len(args), tail(args, 40))
	}
	if len(args) < runawayWindow {
		return ""
	}
	w := args[len(args)-runawayWindow:]
	for unit := runawayMinUnit; unit <= runawayMaxUnit; unit++ {
		if periodic(w, unit) {
			return fmt.Sprintf("the model's tool call ran away: its arguments repeat the same pattern (%d characters so far: %q repeated) — generation stopped; rephrase the request, or try another model",
				len(args), w[len(w)-unit:])
		}
	}
	return ""
}

// periodic reports whether s repeats with the given period.
func periodic(s string, period int) bool {
	for i := period; i < len(s); i++ {
		if s[i] != s[i-period] {
			return false
		}
	}
	return true
}

func tail(s string, n int) string {
	if len(s) <= n {
		return s
	}
	s = s[len(s)-n:]
	return strings.ToValidUTF8(s, "")
}
