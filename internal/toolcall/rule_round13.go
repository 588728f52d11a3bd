package toolcall

import "strings"

// Rules of round 13 (issue #25), each written from a format's source, not
// from its case.

// Rule "qwen_agent_fncall" (QwenLM/Qwen-Agent qwen_agent/llm/fncall_prompts/
// qwen_fncall_prompt.py, and alibaba/rtp-llm's qwen_agent renderer): Qwen-
// Agent prompts Qwen models to call tools as
//
//	✿FUNCTION✿: NAME
//	✿ARGS✿: {JSON}
//
// and stops generation at ✿RESULT✿. A server that was sent no functions
// returns those lines as content. The ✿ markers are Qwen-Agent's own, so
// prose does not write them; a made-up ✿RESULT✿ after a call is not read.
const (
	qwenAgentFunction = "✿FUNCTION✿"
	qwenAgentArgs     = "✿ARGS✿"
	qwenAgentResult   = "✿RESULT✿"
)

// qwenAgentCalls reads the ✿FUNCTION✿/✿ARGS✿ pairs of s, and the text
// before the first.
func qwenAgentCalls(s string, ts *toolset) ([]candidate, string, bool) {
	first := strings.Index(s, qwenAgentFunction)
	if first < 0 {
		return nil, "", false
	}
	skip := mergeRegions(append(reasoningRegions(s), codeSpans(s)...))
	if inRegions(skip, first) || notIntended(sentenceBefore(s, 0, first), "") {
		return nil, "", false
	}
	var out []candidate
	rest := s[first:]
	if r := strings.Index(rest, qwenAgentResult); r >= 0 {
		rest = rest[:r]
	}
	for _, part := range strings.Split(rest, qwenAgentFunction)[1:] {
		part = strings.TrimLeft(strings.TrimPrefix(strings.TrimLeft(part, " "), ":"), " ")
		nl := strings.IndexByte(part, '\n')
		if nl < 0 {
			nl = len(part)
		}
		name := strings.TrimSpace(part[:nl])
		if name == "" || strings.ContainsAny(name, " \t{}") {
			return nil, "", false
		}
		c := candidate{name: name, fromText: true, format: "Qwen-Agent ✿FUNCTION✿"}
		body := strings.TrimSpace(part[nl:])
		if !strings.HasPrefix(body, qwenAgentArgs) {
			out = append(out, c) // no ✿ARGS✿: a missing argument is named
			continue
		}
		body = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(body, qwenAgentArgs), ":"))
		r := readValue(body, 0, false)
		switch {
		case r.fail != failNone:
			c.fail, c.msg, c.key = r.fail, r.msg, r.key
		case strings.TrimSpace(body[r.end:]) != "":
			return nil, "", false // prose after the arguments: not this format's reply
		default:
			c.args, c.notes = r.v, r.notes
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, "", false
	}
	return out, strings.TrimSpace(s[:first]), true
}

// Rule "mistral_args_without_brace" (mistralai/mistral-common
// tests/experimental/test_tools.py, the case that removes the arguments'
// opening brace): [TOOL_CALLS]NAME[ARGS]"key": value…} is a call whose
// object lost its '{'. mistral-common refuses it; mm answers it with a
// correction rather than guess the brace (a declared name after
// [TOOL_CALLS][ARGS] is no answer's prose). Only a quoted key followed by
// ':' right after [ARGS] reads so.
func mistralArgsWithoutBrace(s string, ns, ne, q int) (candidate, bool) {
	if !strings.Contains(s[max(0, ns-16):ns], "[TOOL_CALLS]") {
		return candidate{}, false
	}
	if !strings.Contains(s[ne:q], "[ARGS]") || s[q] != '"' {
		return candidate{}, false
	}
	k := strings.IndexByte(s[q+1:], '"')
	if k < 0 || !strings.HasPrefix(strings.TrimLeft(s[q+2+k:], " "), ":") {
		return candidate{}, false
	}
	return candidate{name: s[ns:ne], fail: failSyntax, msg: "the arguments have no opening '{'", fromText: true, format: "mistral [TOOL_CALLS]"}, true
}

// Rule "cut_call_object" (huggingface/smolagents#97: TGI's grammar-
// constrained {"function": {"_name": …}} cut by the token limit inside a
// string): a reply that is one JSON object, whose first key is a call's
// (name, function, tool_name, tool_calls…), cut by the token limit before
// it closes, was a call; it is answered with the cut correction instead of
// being shown as the answer. An object whose first key is anything else is
// data, cut or not.
func cutCallObject(s string) bool {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") {
		return false
	}
	m := firstKeyRe().FindStringSubmatch(t)
	if m == nil {
		return false
	}
	switch m[1] {
	case "name", "function", "tool_name", "tool", "tool_calls", "function_call", "action", "tool_call":
	case "type": // OpenAI's {"type": "function", "function": {…}} (red team 14r044)
		if !typedCallRe().MatchString(t) {
			return false
		}
	default:
		return false
	}
	return readValue(t, 0, false).fail == failEOF
}

var (
	firstKeyRe  = lazyRegexp(`^\{\s*"([A-Za-z_]+)"\s*:`)
	typedCallRe = lazyRegexp(`^\{\s*"type"\s*:\s*"function"\s*,\s*"function"\s*:\s*\{\s*"name"\s*:`)
)

// Rule "cline_xml_blocks" (RooCodeInc/Roo-Code XmlToolCallFallbackParser,
// which reads every tool block of a message): clineXMLCall reads the block
// that ends the reply; the blocks before it, each a declared tool's block
// on its own lines, run too when the text after each is the model's next
// step ("Now let me also check the other file.") and its own lead-in does
// not show it. lead is what precedes the last block; text is the reply
// without the blocks read (the steps between them kept). A block followed
// by a description ("That is how Roo reads a file.") stays text, and so do
// the blocks before it.
func clineEarlierBlocks(lead string, ts *toolset) ([]candidate, string, bool) {
	var out []candidate
	var steps []string
	for len(out) < 8 {
		t := strings.TrimRight(lead, " \t\r\n")
		// Blocks glued or on the next line with nothing between
		// (<read_file>…</read_file><read_file>…: cline's
		// parseAssistantMessage.spec.ts, round 15t).
		if endsWithToolBlock(t, ts) {
			if c, before, ok := clineXMLCall(t, ts); ok && ts.resolve(c.name) != "" {
				out = append([]candidate{c}, out...)
				lead = before
				continue
			}
		}
		// The step between this block and the next: the last paragraph
		// (for MCP-namespaced blocks, the last line).
		p := strings.LastIndex(t, "\n\n")
		if l := strings.LastIndexByte(t, '\n'); l > p && strings.Contains(t[:l], ".") && endsWithToolBlock(t[:l], ts) {
			if m := strings.LastIndex(t[:l], "</"); m >= 0 && mcpName(strings.TrimSuffix(t[m+2:l], ">")) {
				p = l
			}
		}
		if p < 0 {
			break
		}
		between := strings.TrimSpace(t[p:])
		c, before, ok := clineXMLCall(t[:p], ts)
		if !ok || ts.resolve(c.name) == "" {
			if endsWithToolBlock(t[:p], ts) && formatTalkRe().MatchString(between) {
				// A block, words on how it looks, the same kind of block
				// ("That is how the read tool looks.", 14r038): the blocks
				// are shown, the last one too.
				return nil, "", true
			}
			break
		}
		// MCP-namespaced blocks (<filesystem.read_file>, mcp-client-for-
		// ollama's parser tests, round 16t) are only ever a client's
		// calls: any one plain line may stand between them.
		if !clineStepBetween(between) && !(mcpBlockEnd(t[:p]) && !strings.ContainsAny(between, "<\n")) {
			if formatTalkRe().MatchString(between) {
				return nil, "", true
			}
			break
		}
		out = append([]candidate{c}, out...)
		steps = append([]string{between}, steps...)
		lead = before
	}
	var text []string
	for _, t := range append([]string{strings.TrimSpace(lead)}, steps...) {
		if t != "" {
			text = append(text, t)
		}
	}
	return out, strings.Join(text, "\n\n"), false
}

// clineStepBetween: the paragraph between two tool blocks is the model's
// next step ("Now let me also check the other file.", "And the second
// one:", "Then the tests.": 14r029–14r031); markup outside inline code in
// it is not.
func clineStepBetween(between string) bool {
	if between == "" || strings.Contains(blank(between, inlineCodeRegions(between)), "<") {
		return false
	}
	return modelActs(between) || firstPersonStepRe().MatchString(between) || nextStepLead(between) // nextStepLead: rule_round14r.go
}

// endsWithToolBlock: s ends with a declared tool's closing tag, its
// opening tag before it.
func endsWithToolBlock(s string, ts *toolset) bool {
	s = strings.TrimSpace(s)
	if !strings.HasSuffix(s, ">") {
		return false
	}
	o := strings.LastIndex(s, "</")
	if o < 0 {
		return false
	}
	name := s[o+2 : len(s)-1]
	return ts.resolve(mcpToolPart(name)) != "" && (strings.Contains(s[:o], "<"+name+">") || strings.Contains(s[:o], "<"+name+" "))
}

// formatTalkRe: a sentence about how a tool's markup looks, not about the
// work.
var formatTalkRe = lazyRegexp(`(?i)\b(how|the way)\b[^.!?]*\b(looks?|is written|are written|is formatted|is called|are called)\b|\b(format|syntax|markup|schema)\b`)

// mcpBlockEnd: s ends with the closer of an MCP-namespaced block.
func mcpBlockEnd(s string) bool {
	s = strings.TrimSpace(s)
	m := strings.LastIndex(s, "</")
	return m >= 0 && strings.HasSuffix(s, ">") && mcpName(s[m+2:len(s)-1])
}
