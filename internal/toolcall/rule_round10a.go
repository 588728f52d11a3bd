package toolcall

import "strings"

// Round 10a's rules (widened-threads-round10a.jsonl).

// dsmlNamedCall is rule "dsml_named_call": a DSML-marked tag named after a
// declared tool, whose body is nothing but DSML-marked fields
// <｜DSML｜KEY>VALUE</｜DSML｜KEY>, closed by </｜DSML｜invoke> or by its own
// name, is that tool's call with those arguments. It follows pi-free's Cline
// XML bridge (apmantza/pi-free#381), which reads exactly this payload that
// Cline/DeepSeek-compatible providers emit (the tool name as the tag, the
// arguments as DSML fields, the outer close written invoke) and "keeps
// unknown or partial markup as ordinary text". It is safe for the same
// reasons: the name must be a declared tool, every field must close with
// its own name, at least one field must be there, the block must close,
// and nothing else may stand in the body; anything else is left to the
// other rules.
func (sc *scan) dsmlNamedCall(j int, t xtag) (group, bool) {
	if !t.dsml || t.close || t.eq != "" || len(t.attrs) > 0 || sc.ts.resolve(t.name) == "" {
		return group{}, false
	}
	s := sc.s
	args := map[string]any{}
	p := t.end
	for {
		p = skipSpace(s, p)
		if p >= len(s) || s[p] != '<' {
			return group{}, false
		}
		f, ok := readTag(s, p)
		if !ok || !f.dsml || f.eq != "" {
			return group{}, false
		}
		if f.close {
			if (f.name != "invoke" && f.name != t.name) || len(args) == 0 {
				return group{}, false
			}
			p = f.end
			break
		}
		end := dsmlFieldEnd(s, f.end, f.name)
		if end < 0 {
			return group{}, false
		}
		if _, dup := args[f.name]; dup {
			return group{}, false
		}
		args[f.name] = xmlValue(strings.TrimSpace(s[f.end:end]))
		c, _ := readTag(s, end)
		p = c.end
	}
	sc.sawOpener = true
	c := candidate{name: t.name, args: args, xml: true, fromText: true, format: "DSML tool-name tag with DSML fields"}
	return group{start: j, end: sc.closers(p), cands: []candidate{c}}, true
}

// dsmlFieldEnd is where the DSML field named key that starts at p closes
// (the position of its </｜DSML｜key>), or -1 when another tag comes first.
func dsmlFieldEnd(s string, p int, key string) int {
	for k := p; k < len(s); {
		x := strings.IndexByte(s[k:], '<')
		if x < 0 {
			return -1
		}
		x += k
		if c, ok := readTag(s, x); ok && c.dsml {
			if c.close && c.name == key {
				return x
			}
			return -1
		}
		k = x + 1
	}
	return -1
}

// hy3Call is rule "hy3_sentinel_call": Hy3 (Tencent Hunyuan 3) writes a call
// as <tool_call:opensource>NAME<tool_sep:opensource>{JSON}<arg_value:opensource>
// (the form its chat_template.jinja gives, quoted in ml-explore/mlx-lm#1211).
// The block opens with the declared tool's name right after the sentinel,
// then either the separator and one JSON object, or no arguments at all
// before the next :opensource sentinel (the drifted close the PR reports,
// <tool_call:opensource>NAME</arg_value:opensource>). The first is the call;
// the second is a call whose required arguments are missing, which build
// answers with the correction naming them (nothing runs). A name that is
// not a declared tool, text between the name and the sentinels, or a JSON
// body that is not an object make it no call.
func (sc *scan) hy3Call(j int, t xtag) (group, bool) {
	if t.name != "tool_call:opensource" || t.close {
		return group{}, false
	}
	s := sc.s
	p := t.end
	ne := p
	for ne < len(s) && (isIdent(s[ne]) || s[ne] == '-' || s[ne] == '.') {
		ne++
	}
	name := s[p:ne]
	if name == "" || sc.ts.resolve(name) == "" {
		return group{}, false
	}
	q := skipSpace(s, ne)
	var args any = map[string]any{}
	var notes []string
	if strings.HasPrefix(s[q:], "<tool_sep:opensource>") {
		r := readValue(s, skipSpace(s, q+len("<tool_sep:opensource>")), false)
		if r.fail != failNone {
			return group{}, false
		}
		m, ok := r.v.(map[string]any)
		if !ok {
			return group{}, false
		}
		args, notes, q = m, r.notes, skipSpace(s, r.end)
	}
	c, ok := readTag(s, q)
	if !ok || !strings.HasSuffix(c.name, ":opensource") {
		return group{}, false
	}
	sc.sawOpener = true
	cand := candidate{name: name, args: args, fromText: true, format: "Hy3 <tool_call:opensource> sentinels", notes: notes}
	return group{start: j, end: sc.closers(c.end), cands: []candidate{cand}}, true
}

// ownNameCloser is rule "own_name_closer": a parameter of the
// <invoke name=…>/<parameter name=…> grammar whose value ends with a closer
// named after the parameter itself (<parameter name="content">…</content>)
// instead of </parameter>. anthropics/claude-code#83088 (and #44826,
// #84362) measure this drift: the parser that follows the grammar reads the
// value on to the next </parameter>, so the parameters after it are
// swallowed into it and never arrive. Where the value really ends is a
// guess either way (the model may have meant </content> as text), so the
// call does not run; the correction names the arguments to send again.
// Only a value whose own closer is missing and whose last text is exactly
// </KEY> for its own KEY is marked; a value that merely holds </content>
// and is closed by </parameter> is data as before.
func ownNameCloser(key, raw string) bool {
	return key != "" && strings.HasSuffix(strings.TrimSpace(raw), "</"+strings.ToLower(key)+">")
}

// strayWordLine is rule "stray_word_line": for reading the lead-in of a
// call, a last line that is one bare lower-case word (the stray sampled
// token 'court' or 'card' that anthropics/claude-code#68719, #69529, #72352
// and #79469 show right before a malformed <invoke>) is not part of the
// sentence that leads into the call, so "…like this:\n```\ncourt\n" is
// still read as a demonstration. The word is kept in the text; only the
// intent rules read past it, which can make a call shown, never make one.
func strayWordLine(before string) string {
	t := strings.TrimRight(before, " \t\r\n")
	k := strings.LastIndexByte(t, '\n')
	if k < 0 {
		return before
	}
	w := t[k+1:]
	if len(w) < 2 || len(w) > 12 {
		return before
	}
	for i := 0; i < len(w); i++ {
		if w[i] < 'a' || w[i] > 'z' {
			return before
		}
	}
	return t[:k+1]
}

// markupNamedRe: the lead-in speaks about the markup itself, naming its tag
// (as `<tool_call>`, "<invoke>", or tool_call/function_calls as a word with
// its underscore) with a noun of form after it.
var markupNamedRe = lazyRegexp("(?i)[`\"']?<?/?\\b(tool_call|tool_calls|function_calls|invoke|function=[a-z_]*)\\b>?[`\"']?\\s+(block|blocks|tag|tags|element|elements|format|syntax|wrapper|markup)\\b")

// namesMarkup is rule "lead_in_names_markup": a lead-in that talks about
// the call markup by its tag name ("A `<tool_call>` block wraps one JSON
// object…:", "I wrap a JSON object in tool_call tags, like") introduces an
// example of the format, not a step: jjang-ai/vmlx#199's "Explain the
// <tool_call> tag format, but do not call tools" and zeroclaw's Tool Use
// Protocol restated to the user. A model that acts says what it does
// ("Let me read it:"), not how the markup is built; a lead-in that also
// announces the model's own step (announcesAct, actsIn) still leads into a
// real call.
//
// raw is the lead-in with its line breaks (before has them folded), for
// own_markup_retry, which reads the line that names the block.
func namesMarkup(before, raw string) bool {
	if !markupNamedRe().MatchString(before) {
		return false
	}
	l := strings.ToLower(before)
	if strings.Contains(l, "here is") || strings.Contains(l, "here's") {
		return false
	}
	return !actsIn(before) && !announcesAct(before) && !(ownRetryMarkup(raw) && !retryByOther(raw)) // ownRetryMarkup: rule_redteam11.go; retryByOther: rule_redteam12.go
}

// inlineFunctionMention is rule "inline_function_mention": a
// <function=NAME> tag in the middle of a line of prose, with no parameter,
// no body and no closer, is a mention of the markup, not a call attempt:
// raullenchai/Rapid-MLX#1513 measures "Docs mention </tool_call> and
// <function=name> together." turned into a call of a tool named "name". A
// call written in this format has parameters or a JSON body, and a call
// without arguments closes with </function>; text on its line before the
// tag and words after it that end the sentence (. ! ?) on the same line
// are prose.
func inlineFunctionMention(s string, start int, t xtag) bool {
	if t.name != "function" || t.eq == "" {
		return false
	}
	ls := strings.LastIndexByte(s[:start], '\n') + 1
	if strings.TrimSpace(s[ls:start]) == "" {
		return false
	}
	le := strings.IndexByte(s[t.end:], '\n')
	if le < 0 {
		le = len(s) - t.end
	}
	rest := s[t.end : t.end+le]
	if i := strings.IndexAny(rest, "<{"); i >= 0 {
		// What follows the sentence (a turn token) is not read.
		rest = rest[:i]
	}
	rest = strings.TrimSpace(rest)
	if rest == "" || !strings.ContainsAny(rest[len(rest)-1:], ".!?") || !strings.ContainsAny(rest, "abcdefghijklmnopqrstuvwxyz") {
		return false
	}
	// Nothing of the call may follow on the next lines either (read
	// within a bound, so that a reply of many such lines stays linear).
	after := s[t.end+le : min(len(s), t.end+le+1000)]
	return !strings.Contains(after, "<parameter") && !strings.Contains(after, "</function>")
}
