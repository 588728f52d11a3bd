package agent

import (
	"bytes"
	"strings"

	"github.com/firebase/genkit/go/ai"
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
	"<｜tool", "<｜DSML", "<|DSML", "<‖DSML",
	"```json", "```tool", "```xml",
	// Openers of the formats issue #25's rounds taught the recovery layer:
	// only special tokens and wrappers no prose writes, so that an answer
	// is never held for a common word (a bare name line or a pythonic list
	// cannot be told from prose while it streams; it is shown as it comes).
	"<start_function_call>", "[TOOL_CALL]", "<|START_ACTION|>", "<|tools_prefix|>",
	"]<]minimax[>[", "<minimax:", "<seed:tool_call", "<TOOLCALL>", "<tool_use>",
	// Round 15: DSML with its bars lost or doubled, Continue's tool block
	// with its fence left off; round 16t: prompt-prix's call label.
	"<DSML", "<｜｜DSML", "TOOL_NAME:", "**Tool Call:**",
	// Round 18: CodeAct's action, Gorilla's marker, Xing's pairs,
	// InternLM's action token.
	"<execute_bash>", "<<function>>", "<param_key>", "<|action_start|>",
	// Round 21: K2 Horizon's namespaced markup, Grok's call element,
	// Functionary v2's framing tokens.
	"<ifm|tool_call", "<xai:function_call", "<|from|>", "<|recipient|>",
	// Round 22: Qwen-Agent's markers, as its prompt writes them and in
	// brackets.
	"✿FUNCTION✿", "[FUNCTION]",
	// Round 23: ATEM's block without its header; round 24: the text
	// forms of a copied tool-use transcript.
	"<atem:", "[Calling tool", "Calling tool: ",
	// Cline's and Roo Code's format: the tool's name as a tag, for mm's
	// own tools and Cline's names for the same work. A tag is rarer in
	// prose than a ```json fence, which is held already; a held answer
	// that is no call is shown whole when the reply ends.
	"<bash>", "<read_file>", "<write_file>", "<edit_file>", "<fetch_content>", "<lsp>",
	"<execute_command>", "<write_to_file>", "<replace_in_file>",
}

// maxMarker is the length of the longest call marker.
var maxMarker = func() int {
	n := 0
	for _, m := range callMarkers {
		n = max(n, len(m))
	}
	return n
}()

// textGuard holds back, while the answer streams, what may be a tool call
// written as text. It keeps only what it has not shown yet (trailing
// blanks, the start of a possible marker), never the whole answer, and
// looks at each byte a bounded number of times: a server streaming
// megabytes, even of blanks, costs it linear time and no copy. The whole
// raw text is given back by complete once the reply has ended.
type textGuard struct {
	shown int    // bytes of the answer already passed on
	held  bool   // a marker was seen: nothing more until the reply ends
	buf   []byte // the answer from shown on: what is not shown yet

	scanned int // bytes of buf already searched for whole markers
	// The bare JSON call {"name": is matched byte by byte: st is the state
	// (0 none, 1 after "{" and blanks, 2 inside `"name"` with k bytes
	// matched, 3 after `"name"` and blanks), brace the "{" in buf.
	st, k, brace int
	keys         uint8 // the bareCallKeys state 2 still matches
	// nb is the end of the last byte of buf that is not a blank.
	nb int
	// before caches lastShowable: the end of the last non-blank byte of
	// buf before index beforeAt.
	beforeAt, before int

	raw string // the whole raw text, set by complete
}

// isBlank is what trailing blanks are, for holding them back.
func isBlank(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

// isSpace is RE2's \s, between the parts of a bare call.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' }

// bareCallKeys open a bare JSON call: the usual {"name": …}, LangChain's
// {"action": …} and {"tool": …}, smolagents' and Command R's
// {"tool_name": …}, LMDeploy's {"function": …}, which the recovery layer
// also reads (internal/toolcall rule_callshapes.go, rule_round9o.go).
var bareCallKeys = []string{`"name"`, `"action"`, `"tool"`, `"tool_name"`, `"function"`}

// step feeds one byte at index at of buf to the bare-call matcher and
// reports a whole `{"name":` (or another of bareCallKeys, starting at
// g.brace).
func (g *textGuard) step(c byte, at int) bool {
	switch g.st {
	case 1:
		if isSpace(c) {
			return false
		}
		if c == '"' {
			g.st, g.k, g.keys = 2, 1, 1<<len(bareCallKeys)-1
			return false
		}
	case 2:
		// keys is the set of bareCallKeys still matching after k bytes.
		var left uint8
		done := false
		for i, key := range bareCallKeys {
			if g.keys&(1<<i) != 0 && g.k < len(key) && key[g.k] == c {
				left |= 1 << i
				done = done || g.k+1 == len(key)
			}
		}
		if left != 0 {
			g.k++
			g.keys = left
			if done {
				g.st = 3
			}
			return false
		}
	case 3:
		if isSpace(c) {
			return false
		}
		if c == ':' {
			return true
		}
	}
	if c == '{' {
		g.st, g.brace = 1, at
	} else {
		g.st = 0
	}
	return false
}

// add takes a piece of the answer and returns what can be shown now.
func (g *textGuard) add(piece string) string {
	if g.held || piece == "" {
		return ""
	}
	off := len(g.buf)
	g.buf = append(g.buf, piece...)

	// A whole marker: only where one can end in the new bytes.
	first := -1
	from := max(0, g.scanned-maxMarker+1)
	// Only markers whose first byte is in the window are searched for:
	// prose rarely holds '<', '[', ']' or '`', so most are skipped.
	var present [256]bool
	for _, c := range g.buf[from:] {
		present[c] = true
	}
	for _, m := range callMarkers {
		if !present[m[0]] {
			continue
		}
		if i := bytes.Index(g.buf[from:], []byte(m)); i >= 0 && (first < 0 || from+i < first) {
			first = from + i
		}
	}
	g.scanned = len(g.buf)
	for j := off; j < len(g.buf); j++ {
		c := g.buf[j]
		if !isBlank(c) {
			g.nb = j + 1
		}
		if g.step(c, j) {
			if first < 0 || g.brace < first {
				first = g.brace
			}
			break
		}
	}
	if first >= 0 {
		g.held = true
		out := strings.TrimRight(string(g.buf[:first]), " \t\n")
		g.shown += len(out)
		g.buf = nil
		return out
	}

	// Trailing blanks wait for what follows them: before a call's markup
	// they would be left dangling. So does what may start a marker.
	end := len(g.buf)
	if g.st != 0 {
		end = g.brace
	} else if n := partialMarker(g.buf); n > 0 {
		end -= n
	}
	safe := g.nb
	if end < len(g.buf) {
		safe = g.lastShowable(end)
	}
	if safe <= 0 {
		return ""
	}
	out := string(g.buf[:safe])
	g.shown += safe
	n := copy(g.buf, g.buf[safe:])
	g.buf = g.buf[:n]
	g.scanned = max(0, g.scanned-safe)
	g.nb = max(0, g.nb-safe)
	g.brace -= safe
	g.beforeAt = -1
	return out
}

// lastShowable is the end of the last non-blank byte of buf before end.
func (g *textGuard) lastShowable(end int) int {
	if g.beforeAt == end && end > 0 {
		return g.before
	}
	i := end
	for i > 0 && isBlank(g.buf[i-1]) {
		i--
	}
	g.beforeAt, g.before = end, i
	return i
}

// partialMarker is the length of the end of b that could be the start of a
// literal marker still arriving ("<tool" before "_call>").
func partialMarker(b []byte) int {
	start := max(0, len(b)-maxMarker)
	for i := start; i < len(b); i++ {
		switch b[i] { // the first bytes of callMarkers
		case '<', '[', ']', '`', 'f', 'T', '*': // 'T', '*': TOOL_NAME:, **Tool Call:**
			tail := b[i:]
			for _, m := range callMarkers {
				if len(tail) < len(m) && strings.HasPrefix(m, string(tail)) {
					return len(tail)
				}
			}
		}
	}
	return 0
}

// complete gives the guard the whole raw text of the reply, once it has
// ended, for finish.
func (g *textGuard) complete(raw string) { g.raw = raw }

// finish returns what is left to show once the reply is complete. clean is
// the answer without the call markup the recovery layer took out (equal to
// the raw text when it took nothing).
func (g *textGuard) finish(clean string) string {
	text := g.raw
	if g.shown > len(text) {
		return ""
	}
	if clean == text {
		return text[g.shown:]
	}
	shown := text[:g.shown]
	if strings.HasPrefix(clean, shown) {
		return clean[len(shown):]
	}
	return ""
}

// rawText is the text of a reply as the server sent it: its text parts,
// joined (the client makes one, so this does not copy).
func rawText(m *ai.Message) string {
	if m == nil {
		return ""
	}
	var parts []string
	for _, p := range m.Content {
		if p.IsText() {
			parts = append(parts, p.Text)
		}
	}
	if len(parts) == 1 {
		return parts[0]
	}
	return strings.Join(parts, "")
}
