package toolcall

import "strings"

// Rules of round 5c (widened-threads-round5c.jsonl), each from the parser
// of its format.

// FunctionGemma's markers (Gemma 3 270M fine-tuned for calls): Ollama's
// functiongemma parser (model/parsers/functiongemma.go) reads
// <start_function_call>call:NAME{key:<escape>value<escape>}<end_function_call>.
const (
	fgStart  = "<start_function_call>"
	fgEnd    = "<end_function_call>"
	fgEscape = "<escape>"
)

// functionGemma is rule "functiongemma_markup": FunctionGemma writes Gemma 4's
// call:NAME{…} body between <start_function_call> and <end_function_call>,
// with <escape> as its string delimiter where Gemma 4 has <|"|> (Ollama's
// functiongemma parser and its tests: call:get_weather{city:<escape>Paris<escape>}).
// Inside those markers the text is rewritten as Gemma 4's markup, which the
// gemma reader then reads. It applies only where the reply is FunctionGemma
// markup: no tag or JSON before the first marker, after any reasoning (a
// file whose content shows the markup, inside another call, keeps it).
func functionGemma(s string) string {
	i := strings.Index(s, fgStart)
	if i < 0 {
		return s
	}
	pre, leads := markupLeads(s, i)
	// The template writes the call right after the content
	// (content_before_tool_call: "Let me check.<start_function_call>"): the
	// marker starts its line or follows a finished sentence, as a block
	// opener does (rule_round4b.go); after a word it is named in prose
	// (round 6).
	if !leads || !openerAfterContent(pre) {
		return s
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i >= 0 {
		body := s[i+len(fgStart):]
		if !strings.HasPrefix(strings.TrimLeft(body, " \t"), "call:") {
			b.WriteString(s[i:])
			return b.String()
		}
		end := strings.Index(body, fgEnd)
		closed := end >= 0
		if !closed {
			end = len(body)
		}
		b.WriteString("<|tool_call>")
		b.WriteString(strings.ReplaceAll(body[:end], fgEscape, gemmaQuote))
		if !closed {
			return b.String()
		}
		b.WriteString("<tool_call|>")
		rest := body[end+len(fgEnd):]
		n := strings.Index(rest, fgStart)
		if n < 0 {
			b.WriteString(rest)
			return b.String()
		}
		b.WriteString(rest[:n])
		s, i = rest, n
	}
	return b.String()
}

// gemmaMissingComma is rule "gemma_missing_comma": after a value closed by
// Gemma's <|"|> token the next key may follow with no comma
// (command:<|"|>look<|"|>angle:90, read as two arguments by yzma's Gemma
// parser, hybridgroup/yzma#243). The token cannot occur inside the value,
// so where it closed the value is certain; the comma is only implied when a
// bare key and ':' come right after it. p.i is after the value and spaces.
func (p *lenient) gemmaMissingComma(valueStart int) bool {
	if !strings.HasPrefix(p.s[valueStart:], gemmaQuote) {
		return false
	}
	back := strings.TrimRight(p.s[:p.i], " \t\r\n")
	if !strings.HasSuffix(back, gemmaQuote) {
		return false
	}
	j := p.i
	for j < len(p.s) && (isIdent(p.s[j]) || p.s[j] == '-') {
		j++
	}
	if j == p.i || !(isLetter(p.s[p.i]) || p.s[p.i] == '_') || j >= len(p.s) || p.s[j] != ':' {
		return false
	}
	p.note("missing comma after a <|\"|> string")
	return true
}

// qwenToolCallEndsThink is rule "tool_call_ends_think": Qwen3.5 sometimes
// opens <tool_call> inside <think> and never writes </think>; vLLM's Qwen3
// reasoning parser (vllm-project/vllm#35687) and SGLang's
// (sgl-project/sglang#25881) take that <tool_call> as the implicit end of
// the reasoning. A think block that never closes ends at a <tool_call>
// starting a line when what follows it is that call and nothing else: the
// reply ends with its </tool_call> (or inside the call, cut). A call
// rehearsed in reasoning that goes on, or a closed think block, is not
// affected.
func qwenToolCallEndsThink(s string, regs []region) []region {
	for k := range regs {
		r := regs[k]
		if r.end != len(s) {
			continue
		}
		if loc := thinkOpen().FindStringIndex(s[r.start:]); loc == nil || loc[0] != 0 {
			continue
		}
		const open, close = "<tool_call>", "</tool_call>"
		j := strings.Index(s[r.start:], "\n"+open)
		if j < 0 {
			continue
		}
		at := r.start + j + 1
		rest := s[at+len(open):]
		if strings.Contains(rest, open) || strings.Contains(rest, "</think>") {
			continue
		}
		if c := strings.Index(rest, close); c >= 0 && strings.TrimSpace(rest[c+len(close):]) != "" {
			continue
		}
		// The reasoning leads into the call: a call it refuses, reports
		// or shows as an example ("I must not run this:") is rehearsed,
		// and stays in the reasoning (round 6).
		if notIntended(sentenceBefore(s, r.start, at), "") {
			continue
		}
		regs[k].end = at
	}
	return regs
}
