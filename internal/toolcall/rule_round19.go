package toolcall

import "strings"

// Round 19 of issue #25: the rules its blind cases asked for, each from its
// format's documentation or parser (testdata/widened-threads-round19t.jsonl,
// FastDeploy's DeepSeek and ERNIE parser tests).

// argsBeforeCallEnd is rule "args_closed_by_call_end": DeepSeek V3.1's
// arguments object missing only its last closers right before
// <｜tool▁call▁end｜> ends there. FastDeploy's DeepSeek parser falls back
// to a partial JSON reader for it, and the call's end token says the model
// finished the call, as closed_by_call_closer reads a Hermes object cut
// before </tool_call>. A value cut inside a string stays cut. It is tried
// only when the body alone does not read and the segment ended at a
// DeepSeek closer token: Kimi K2's object cut before <|tool_call_end|> is
// not run (kimi_k2-w007: vLLM's Kimi parser passes it on broken, and no
// Kimi parser mends it).
func argsBeforeCallEnd(name, body, closer, format string) (candidate, bool) {
	b := strings.TrimSpace(body)
	if b == "" || b[0] != '{' || !strings.HasPrefix(closer, "<｜") {
		return candidate{}, false
	}
	c := bodyCandidate(name, b+closer, format)
	if c.fail != failNone || c.args == nil {
		return candidate{}, false
	}
	return c, true
}

// bodyOpensJSON is rule "body_opens_json": a raw body that ends by opening
// an object or a list ("invalid json{", FastDeploy's
// test_extract_tool_calls_invalid_json) is JSON the model began and broke,
// never the value of a string argument.
func bodyOpensJSON(t string) bool {
	t = strings.TrimSpace(t)
	return t != "" && (t[len(t)-1] == '{' || t[len(t)-1] == '[')
}

// notURLBody is rule "url_body_is_a_url": a raw body is taken as
// fetch_content's url only when it could be one — one word, no blank, no
// brace. A sentence or broken JSON there is told, not fetched.
func notURLBody(key, t string) bool {
	return key == "url" && strings.ContainsAny(strings.TrimSpace(t), " \t\r\n{}[]")
}

// elidedNameKeyRe is a call object's first key, its opening brace gone.
var elidedNameKeyRe = lazyRegexp(`^"name"[ \t]*:[ \t]*"`)

// braceElided is rule "call_object_brace_elided": a Hermes-style wrapper
// whose JSON lost its opening brace (<tool_call>"name": "X", "arguments":
// {…}</tool_call>, FastDeploy's ERNIE X1 test_extract_tool_calls_invalid_json,
// whose fallback still reads the name). The object is read with the brace
// put back, up to the wrapper's closer: a whole call runs, a broken one is
// answered with a correction like any call in markup.
func (sc *scan) braceElided(start, q int) (group, bool) {
	s := sc.s
	if !elidedNameKeyRe().MatchString(s[q:]) {
		return group{}, false
	}
	end := -1
	for k := q; k < len(s); k++ {
		if s[k] == '<' {
			if _, ok := closerEnd(s, k); ok {
				end = k
				break
			}
		}
	}
	if end < 0 {
		return group{}, false
	}
	ce, _ := closerEnd(s, end)
	r := readValue("{"+s[q:ce], 0, false)
	if r.fail != failNone {
		// The name is read, the arguments are not: a call attempt,
		// answered with a correction (as jsonAt answers one in markup).
		m, _ := r.v.(map[string]any)
		name, _ := m["name"].(string)
		if name == "" {
			return group{}, false
		}
		c := candidate{name: name, fail: r.fail, msg: r.msg, key: r.key, fromText: true, format: "JSON in call markup"}
		return group{start: start, end: sc.closers(end), cands: []candidate{c}}, true
	}
	cs, ok := callsFrom(r.v, append(r.notes, "opening brace of the call object missing"), "JSON in call markup", true)
	if !ok {
		return group{}, false
	}
	return group{start: start, end: sc.closers(end), cands: cs}, true
}
