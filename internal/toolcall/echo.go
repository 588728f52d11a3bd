package toolcall

import "mm/internal/textcut"

// What the model wrote and a correction quotes back (a tool name, an
// argument's key, an excerpt of its arguments) is cut: a looping model can
// write a 200 KB "name", and quoting it whole would fill the context
// window with the correction. The cut is on a character boundary and ends
// with "…".
const (
	maxEchoName = 64  // a tool name or an argument key, in characters
	maxEchoText = 200 // an excerpt of the arguments, in characters
)

// EchoName is a name or key the model wrote, fit to quote back to it (or
// to show): cut to 64 characters. The agent uses it for its own messages
// about calls.
func EchoName(s string) string { return echo(s, maxEchoName) }

// EchoText is a longer piece of what the model wrote, fit to quote back:
// cut to 200 characters.
func EchoText(s string) string { return echo(s, maxEchoText) }

func echoName(s string) string { return EchoName(s) }
func echoText(s string) string { return EchoText(s) }

func echo(s string, n int) string {
	if len(s) <= n {
		return s
	}
	if p := textcut.FirstRunes(s, n); len(p) < len(s) {
		return p + "…"
	}
	return s
}
