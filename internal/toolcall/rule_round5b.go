package toolcall

import "strings"

// Rules of round 5b (widened-threads-round5b.jsonl), each from the parser or
// template of its format. They run only when nothing else was found in the
// reply (toolcall.go), never on a well-formed call.

// glmValueNoKeyRe is a GLM call block whose values have lost their keys:
// <tool_call>NAME, then only <arg_value>…</arg_value> elements, then
// </tool_call>, as the whole reply or its last line(s).
var glmValueNoKeyRe = lazyRegexp(`(?:^|\n)[ \t]*<tool_call>[ \t]*([A-Za-z_][\w.-]{0,63})[ \t]*\n?((?:\s*<arg_value>[\s\S]*?</arg_value>)+)\s*</tool_call>\s*$`)

// glmValueNoKey is rule "glm_value_without_key": GLM's template writes every
// argument as <arg_key>K</arg_key><arg_value>V</arg_value>; a block that
// names a declared tool and gives values with no <arg_key> at all
// (PrimeIntellect-ai/renderers#114: "the missing-<arg_key> shape
// (<tool_call>bash\n<arg_value>…</arg_value></tool_call>)", which vLLM's
// glm47 parser reads as one long name and drops) is a call of that tool whose
// arguments cannot be read: it gets the correction for its missing
// arguments, never a run (mm does not guess which argument a value was).
// Keys opened with the wrong tag (<arg_value>K</arg_key>) are lost keys too.
func glmValueNoKey(content string, ts *toolset) (candidate, bool) {
	if !strings.Contains(content, "</arg_value>") {
		return candidate{}, false
	}
	ix := glmValueNoKeyRe().FindStringSubmatchIndex(content)
	if ix == nil {
		return candidate{}, false
	}
	m := []string{content[ix[0]:ix[1]], content[ix[2]:ix[3]], content[ix[4]:ix[5]]}
	// A key opened with <arg_value> and closed with </arg_key> (sigit's GLM
	// parser tests, round 17t) is no key either: no <arg_key> opens one.
	if strings.Contains(m[2], "<arg_key>") || ts.resolve(m[1]) == "" {
		return candidate{}, false
	}
	// A block quoted after "The shape from the issue is:" or run on from
	// "…its input ends with" is shown (red team 17r; endsSentence,
	// wireLeadShows: rule_round17.go).
	if before := content[:ix[0]]; strings.TrimSpace(before) != "" {
		lead := sentenceBefore(content, 0, ix[0])
		if !endsSentence(before) || notIntended(lead, "") || wireLeadShows(lead) {
			return candidate{}, false
		}
	}
	return candidate{name: m[1], args: map[string]any{}, fromText: true, format: "GLM values without keys"}, true
}

// harmonyHeaderNoMessage is rule "harmony_header_without_message": a harmony
// message to a tool is `<|channel|>commentary to=functions.NAME
// [<|constrain|>json]<|message|>{…}` (openai/harmony docs/format.md); in
// long conversations gpt-oss writes words after <|constrain|> and ends the
// message there (openai/harmony#114: "the model outputting reasoning after
// <|constrain|> tokens"; tilesprivacy/tiles#145 quotes
// "<|constrain|>write: edit file with content.<|end|>"). A reply whose last
// message is such a header addressed to a declared tool, with no
// <|message|> after it, names the tool but gives no arguments: the
// correction for the missing arguments, never a run. Before it there may be
// text with no harmony token (prose, reasoning) and one analysis message.
func harmonyHeaderNoMessage(content string, ts *toolset) (candidate, bool) {
	t := strings.TrimSpace(content)
	r := strings.LastIndex(t, "to=functions.")
	if r < 0 {
		return candidate{}, false
	}
	hs := max(strings.LastIndex(t[:r], "<|channel|>"), strings.LastIndex(t[:r], "<|start|>"))
	if hs < 0 || strings.Contains(t[hs:], "<|message|>") {
		return candidate{}, false
	}
	before := strings.TrimSuffix(strings.TrimSpace(t[:hs]), "<|start|>assistant")
	if a := strings.LastIndex(before, "<|channel|>analysis<|message|>"); a >= 0 && strings.HasSuffix(before, "<|end|>") {
		before = before[:a]
	}
	if strings.Contains(before, "<|") {
		return candidate{}, false
	}
	p := r + len("to=functions.")
	e := p
	for e < len(t) && (isIdent(t[e]) || t[e] == '.' || t[e] == '-') {
		e++
	}
	name := t[p:e]
	name = name[:len(name)-gluedContentType(ts, name)]
	if ts.resolve(name) == "" {
		return candidate{}, false
	}
	return candidate{name: name, args: map[string]any{}, fromText: true, format: "harmony header without a message"}, true
}

// proseInWrapper (rule "prose_in_call_wrapper", used by emptyCallWrapper):
// inner is the reply up to its final </tool_call>. When the last
// <tool_call> opener ends its line, the closer starts one, and the body
// between them is one line of words with no markup, JSON or key=value
// (nothing a call could be read from), it returns the opener's index;
// otherwise -1.
func proseInWrapper(inner string) int {
	if !strings.HasSuffix(strings.TrimRight(inner, " \t"), "\n") {
		return -1
	}
	t := strings.TrimRight(inner, " \t\r\n")
	o := strings.LastIndex(t, "<tool_call>")
	if o < 0 {
		return -1
	}
	if !strings.HasPrefix(t[o+len("<tool_call>"):], "\n") && !strings.HasPrefix(t[o+len("<tool_call>"):], "\r\n") {
		return -1
	}
	body := strings.TrimSpace(t[o+len("<tool_call>"):])
	if body == "" || strings.ContainsAny(body, "<>{}[]=`\n") || !strings.Contains(body, " ") {
		return -1
	}
	return o
}
