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

// nestedValueEnd (rule "call markup inside a value"): a value may hold the
// same markup as text — a write_file whose content documents the format. A
// <tool_call> or <function=…> that opens inside the value and closes again
// is part of it, provided the value's own closer follows; otherwise the tag
// starts the next call (a closer left out), as before. It returns the value's
// end and where reading goes on.
func nestedValueEnd(s string, j int, closer string) (int, int, bool) {
	t, ok := readTag(s, j)
	if !ok || t.close || (t.name != "tool_call" && t.name != "function") {
		return 0, 0, false
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
			continue
		}
		if depth--; depth == 0 {
			e, next, closed := valueEnd(s, tg.end, closer)
			return e, next, closed
		}
	}
	return 0, 0, false
}
