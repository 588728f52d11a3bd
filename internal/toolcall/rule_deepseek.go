package toolcall

import (
	"strings"
)

// DeepSeek rules, written from the formats' parsers:
//
//   - R1/V3 (llama.cpp's deepseek-r1 parser, vLLM's deepseek_v3):
//     <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>NAME
//     ```json {…} ```<｜tool▁call▁end｜><｜tool▁calls▁end｜>
//   - V3.1 (vLLM's deepseek_v31): <｜tool▁call▁begin｜>NAME<｜tool▁sep｜>{…}<｜tool▁call▁end｜>
//   - V3.2/V4 DSML (llama.cpp's common/parsers/deepseek.cpp): XML-style tags
//     prefixed with ｜DSML｜.

// deepseekElided is the rule "deepseek call-begin elided": the block opener
// followed directly by function<｜tool▁sep｜>NAME (R1) or NAME<｜tool▁sep｜>
// (V3.1), the per-call <｜tool▁call▁begin｜> left out (vLLM's deepseek_v3
// malformed-input test). The name and the separator make the call
// unambiguous; it is read as a call segment. ns..ne is the identifier read
// after the opener, r the first non-space after it.
func (sc *scan) deepseekElided(start, ns, ne, r int) (group, bool) {
	s := sc.s
	name, _, gemma, ok := tokenAt(s, r)
	if !ok || gemma || classifyTok(normTok(name), false) != tkSep || ne == ns {
		return group{}, false
	}
	g, ok := sc.segment(start, ns)
	if !ok {
		return g, false
	}
	for i := range g.cands {
		g.cands[i].notes = append(g.cands[i].notes, "missing call-begin token supplied")
	}
	return g, true
}

// jsonArgsEnd is the rule "deepseek/kimi JSON arguments": after the
// separator of a DeepSeek or Kimi call the arguments are one JSON object
// (after R1's NAME and ```json header), so markers inside its strings are
// data, not the end of the call (a file being written that documents the
// markup). It returns where the object ends, or -1 when the arguments are
// not a whole object (the call is then read up to the next marker, as
// before).
func jsonArgsEnd(s string, p int) int {
	q := p
	limit := min(len(s), p+200)
	// R1: function<｜tool▁sep｜>NAME\n```json\n{; V3.1/Kimi: {.
	for q < limit && s[q] != '{' {
		if s[q] == '<' || s[q] == '}' {
			return -1
		}
		q++
	}
	if q >= limit {
		return -1
	}
	r := readValue(s, q, false)
	if r.fail != failNone {
		return -1
	}
	return r.end
}

// argsFenceHeader is the rule "json fence header in arguments": R1 writes
// its arguments in a ```json fence, and a server whose parser starts
// reading after the ``` passes `json\n{…}` on as the arguments
// (tenstorrent/tt-inference-server#3683). The header, and a whole fence,
// are not part of the object.
func argsFenceHeader(text string) (string, bool) {
	t := text
	fenced := strings.HasPrefix(t, "```")
	if fenced {
		t = t[3:]
	}
	if len(t) >= 4 && strings.EqualFold(t[:4], "json") {
		t = t[4:]
	} else if !fenced {
		return text, false
	}
	t = strings.TrimSpace(t)
	if fenced {
		t = strings.TrimSpace(strings.TrimSuffix(t, "```"))
	}
	if t == "" || t[0] != '{' {
		return text, false
	}
	return t, true
}

// danglingOpener is the rule "dangling call opener": a server that parsed
// the call into tool_calls may leave the block's opening marker at the tail
// of the text (`…<｜DSML｜function_calls`, stdapi-ai/stdapi.ai#182). When
// calls run, that marker is not part of the answer.
func danglingOpener(text string) string {
	k := strings.LastIndexByte(text, '<')
	if k < 0 {
		return text
	}
	rest := strings.TrimSpace(text[k:])
	if len(rest) > 40 || strings.ContainsAny(rest, "\n") {
		return text
	}
	cut := false
	if name, end, gemma, ok := tokenAt(rest, 0); ok && !gemma && end == len(rest) {
		cut = classifyTok(normTok(name), false) == tkWrapper
	} else if q, ok := dsmlPrefix(rest, 1); ok {
		tail := strings.TrimSuffix(strings.ToLower(rest[q:]), ">")
		cut = tail != "" && (strings.HasPrefix("function_calls", tail) || strings.HasPrefix("tool_calls", tail))
	}
	if !cut {
		return text
	}
	return strings.TrimSpace(text[:k])
}

// dsmlTagEnd is the rule "mangled DSML closer": DeepSeek writes a DSML tag
// with a stray bar before its '>' (`</｜DSML｜function_calls｜>`,
// sgl-project/sglang#25233). It reports the end of such a tag at s[p].
func dsmlTagEnd(s string, p int) (int, bool) {
	for _, b := range []string{"｜>", "‖>", "|>"} {
		if strings.HasPrefix(s[p:], b) {
			return p + len(b), true
		}
	}
	return 0, false
}
