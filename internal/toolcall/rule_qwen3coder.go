package toolcall

import "strings"

// Rules for the Qwen3-Coder markup <function=NAME><parameter=P>V</parameter>
// (also Seed-OSS inside <seed:tool_call>), written from the parsers of vLLM
// (qwen3coder_tool_parser), SGLang (Qwen3CoderDetector) and llama.cpp.

// driftedCloser (rule "drifted parameter closer"): SGLang's
// Qwen3CoderDetector tests a close marker "the grammar let drift"
// (</parameter1>, </parameter_x>) that must end the value, not leak into
// it. A closing tag named closer followed by digits or an _suffix is read as
// closer.
func driftedCloser(name, closer string) bool {
	if len(name) <= len(closer) || !strings.HasPrefix(name, closer) {
		return false
	}
	rest := name[len(closer):]
	if rest[0] != '_' && (rest[0] < '0' || rest[0] > '9') {
		return false
	}
	for i := 0; i < len(rest); i++ {
		if !isIdent(rest[i]) {
			return false
		}
	}
	return true
}

// maxNestedBlocks is more examples of call markup than one value holds; it
// keeps the reading linear on adversarial text.
const maxNestedBlocks = 8

// nestedValueEnd (rule "call markup inside a value"): a value may hold the
// same markup as text — a write_file whose content documents the format. A
// <tool_call> or <function=…> that opens inside the value and closes again
// is part of it, provided the value's own closer follows (after any number
// of such blocks, up to maxNestedBlocks); otherwise the tag starts the next
// call (a closer left out), as before. j is the structural tag where the
// value would have ended; it returns the value's end and where reading goes
// on.
func nestedValueEnd(s string, j int, closer string) (int, int, bool) {
	for n := 0; n < maxNestedBlocks; n++ {
		e, ok := blockEnd(s, j)
		if !ok {
			return 0, 0, false
		}
		// What follows the block: the value's closer, more text, another
		// block, or a tag that ends the value without its closer.
		for k := e; ; {
			x := strings.IndexByte(s[k:], '<')
			if x < 0 {
				return 0, 0, false
			}
			x += k
			if t, ok := readTag(s, x); ok && t.close && (t.name == closer || driftedCloser(t.name, closer)) {
				return x, t.end, true
			}
			if structural(s, x) {
				j = x
				break
			}
			k = x + 1
		}
	}
	return 0, 0, false
}

// blockEnd returns the end of the <tool_call> or <function=…> block that
// opens at s[j], nested blocks of the same name included.
func blockEnd(s string, j int) (int, bool) {
	t, ok := readTag(s, j)
	if !ok || t.close || (t.name != "tool_call" && t.name != "function") {
		return 0, false
	}
	depth := 0
	for k := j; k < len(s); {
		x := strings.IndexByte(s[k:], '<')
		if x < 0 {
			break
		}
		x += k
		tg, ok := readTag(s, x)
		if !ok || tg.name != t.name {
			k = x + 1
			continue
		}
		k = tg.end
		if !tg.close {
			depth++
		} else if depth--; depth == 0 {
			return tg.end, true
		}
	}
	return 0, false
}
