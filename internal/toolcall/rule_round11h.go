package toolcall

import "strings"

// Rules of round 11h (widened-threads-round11h.jsonl), each from the
// documentation or parser of its format.

// functionGemmaUnstopped is rule "functiongemma_unstopped_repeat":
// FunctionGemma's turn ends with its call. Google's FunctionGemma
// formatting guide has the model write
// <start_function_call>call:NAME{…}<end_function_call> and then wait for
// <start_function_response>, which it names as an additional stop sequence
// for the engine; every call, parallel ones too, has its own start and end
// markers, and Ollama's functiongemma parser reads nothing else. Where the
// engine does not stop there (docker/model-runner#1045: "<end_function_call>
// is not treated as a stop token, so the call repeats until max_tokens"),
// the model goes on writing call:…<end_function_call> again and again, with
// no start marker, until the token limit cuts one.
//
// When a whole FunctionGemma call is followed, glued to its end marker and
// up to the end of the reply, only by such bare call:…<end_function_call>
// pieces (the last one possibly cut), they are text written after the turn
// should have stopped, as made-up turns are (turnframe.go): they are
// removed and the one call is kept. A token limit that ends such a reply cut
// the removed text, not the call that is kept, so the caller no longer reads
// the reply as cut. Any other text after the end marker (a line break,
// prose, a closing fence) leaves the reply as it is; whether the remaining
// block is a call at all is still decided by functionGemma (a call named in
// prose, or in a file's content, is not one).
func functionGemmaUnstopped(s string) string {
	i := strings.Index(s, fgStart)
	if i < 0 {
		return s
	}
	body := s[i+len(fgStart):]
	if !strings.HasPrefix(body, "call:") {
		return s
	}
	e := strings.Index(body, fgEnd)
	if e < 0 || !strings.Contains(body[:e], "{") {
		return s
	}
	if !functionGemmaOwnLead(s[:i]) { // rule_redteam12.go
		return s
	}
	keep := i + len(fgStart) + e + len(fgEnd)
	if !gluedBareCalls(s[keep:]) {
		return s
	}
	return s[:keep]
}

// gluedBareCalls reports whether tail is one or more bare FunctionGemma
// calls written end to end with nothing else, the last one possibly cut:
// call:…<end_function_call>call:…<end_function_call>call:…
func gluedBareCalls(tail string) bool {
	if !strings.HasPrefix(tail, "call:") || strings.Contains(tail, fgStart) ||
		strings.Contains(tail, "```") || strings.ContainsAny(tail, "\n\r") {
		return false
	}
	parts := strings.Split(tail, fgEnd)
	for k, p := range parts {
		last := k == len(parts)-1
		switch {
		case strings.HasPrefix(p, "call:"):
		case last && strings.HasPrefix("call:", p): // "" after a whole one, or a cut "ca"
		default:
			return false
		}
	}
	return true
}

// functionGemmaCopyAt is the other half of rule
// "functiongemma_unstopped_repeat": a bare call: glued to a visible end
// marker (at k) — FunctionGemma's <end_function_call>, or the <tool_call|>
// that functionGemma rewrites it to and Gemma 4 writes — is not Gemma 4's
// call with its tokens stripped (gemmaStrippedAt: where the end token is
// still there, the opener of the next call would be too; both formats give
// every call its own opener) but text written after the turn should have
// stopped. Where it runs to the end of the reply functionGemmaUnstopped has
// already removed it; anywhere else (a reply quoting the loop, prose after
// it) it is left as text, with FunctionGemma's <escape> delimiters that no
// other reader knows. A call on its own line after the marker is not
// affected.
func functionGemmaCopyAt(s string, k int) bool {
	return strings.HasSuffix(s[:k], fgEnd) || strings.HasSuffix(s[:k], "<tool_call|>")
}
