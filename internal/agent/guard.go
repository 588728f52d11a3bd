package agent

import (
	"regexp"
	"strings"
)

// A small model often writes its tool call as text in the answer
// (`<tool_call>{"name": …}</tool_call>`, `[TOOL_CALLS]…`, a bare JSON
// object). The recovery layer turns it into a real call once the reply is
// complete, but by then the markup would already be on the user's screen
// (and on `mm -p`'s stdout). textGuard streams the answer as usual but holds
// it back from the first thing that may start such a call, until the reply
// ends and the recovery layer has said what was a call.

// callMarkers start the text forms of tool calls the recovery layer reads.
var callMarkers = []string{
	"<tool_call", "<tool_calls", "<tools>", "<tool>", "<function", "<invoke", "<arg_key>",
	"<response>", "<json>", "<xml>",
	"[TOOL_CALLS]", "functools[",
	"<|python_tag|>", "<|tool_call", "<|tool_calls", "<|channel|>", "<|start|>", "<|constrain|>", "<|call|>",
	"<｜tool", "<｜DSML",
	"```json", "```tool", "```xml",
}

// bareCall is the start of a bare JSON call object: {"name": …
var bareCall = regexp.MustCompile(`\{\s*"name"\s*:`)

// markerIndex is the position of the first call marker in s, or -1.
func markerIndex(s string) int {
	first := -1
	for _, m := range callMarkers {
		if i := strings.Index(s, m); i >= 0 && (first < 0 || i < first) {
			first = i
		}
	}
	if loc := bareCall.FindStringIndex(s); loc != nil && (first < 0 || loc[0] < first) {
		first = loc[0]
	}
	return first
}

// partialMarker is the length of the end of s that could be the start of a
// marker still arriving ("<tool" before "_call>").
func partialMarker(s string) int {
	const look = 16
	start := max(0, len(s)-look)
	for i := start; i < len(s); i++ {
		tail := s[i:]
		switch tail[0] {
		case '<', '[', '`', 'f':
			for _, m := range callMarkers {
				if len(tail) < len(m) && strings.HasPrefix(m, tail) {
					return len(tail)
				}
			}
		case '{':
			if len(strings.TrimSpace(tail[1:])) == 0 || strings.HasPrefix(`"name"`, strings.TrimSpace(tail[1:])) {
				return len(tail)
			}
		}
	}
	return 0
}

type textGuard struct {
	all   strings.Builder
	shown int  // bytes of all already passed on
	held  bool // a marker was seen: nothing more until the reply ends
}

// add takes a piece of the answer and returns what can be shown now.
func (g *textGuard) add(piece string) string {
	g.all.WriteString(piece)
	if g.held {
		return ""
	}
	text := g.all.String()
	rest := text[g.shown:]
	if i := markerIndex(rest); i >= 0 {
		g.held = true
		out := strings.TrimRight(rest[:i], " \t\n")
		g.shown += len(out)
		return out
	}
	// Trailing blanks wait for what follows them: before a call's markup
	// they would be left dangling.
	safe := len(strings.TrimRight(text[:len(text)-partialMarker(rest)], " \t\n"))
	if safe <= g.shown {
		return ""
	}
	out := text[g.shown:safe]
	g.shown = safe
	return out
}

// finish returns what is left to show once the reply is complete. clean is
// the answer without the call markup the recovery layer took out (equal to
// the raw text when it took nothing).
func (g *textGuard) finish(clean string) string {
	text := g.all.String()
	if clean == text {
		return text[g.shown:]
	}
	shown := text[:g.shown]
	if strings.HasPrefix(clean, shown) {
		return clean[len(shown):]
	}
	return ""
}
