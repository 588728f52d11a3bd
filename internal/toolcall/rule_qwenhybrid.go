package toolcall

import "strings"

// qwenHybridRe matches the head of Qwen3.5/3.6's hybrid frame: the
// Qwen3-Coder <function=NAME> token written as a JSON key of a Hermes
// object, {"function=NAME", …} or, with the quote moved, {"function="NAME",
// … and {"name="NAME", ….
var qwenHybridRe = lazyRegexp(`^\{\s*"(function|name)=("?)([A-Za-z_][A-Za-z0-9_.\-]*)"\s*,`)

// qwenHybridFrame is rule "qwen_hybrid_frame": inside call markup, Qwen3.5
// and 3.6 sometimes fuse their two templates (Qwen3-Coder's
// <function=NAME><parameter=…> and Hermes' {"name": …, "arguments": …})
// into {"function=NAME","arguments":{…}}. tetherto/qvac's Hermes parser
// repairs exactly that key (repairFunctionEqualsJson, PR #2677): the rest
// of the object is read as the call's, with NAME as its name. The other
// fused heads the same models write ({"function="NAME", "k="v"…},
// {"name="NAME", "arguments": …}: scouzi1966/maclocal-api#141) name the
// tool but hold no readable arguments; they are call attempts answered
// with a correction, never run. Only tried right after a call wrapper (q is
// its '{'), so JSON data elsewhere is untouched.
func (sc *scan) qwenHybridFrame(start, q int) (group, bool) {
	s := sc.s
	m := qwenHybridRe().FindStringSubmatch(s[q:min(len(s), q+200)])
	if m == nil {
		return group{}, false
	}
	name := m[3]
	head := len(m[0])
	if m[1] == "function" && m[2] == "" {
		// {"function=NAME", <members>}: the object is {"name": NAME, <members>}.
		prefix := `{"name":` + quoteIdent(name) + ","
		t := prefix + s[q+head:]
		r := readValue(t, 0, false)
		if r.fail == failNone {
			if cs, ok := callsFrom(r.v, append(r.notes, "function=NAME key read as the name"), "JSON in call markup", true); ok {
				end := q + head + (r.end - len(prefix))
				return group{start: start, end: sc.closers(end), cands: cs}, true
			}
		}
	}
	// The arguments cannot be read: the call ends at its wrapper's closer.
	end := len(s)
	if i := strings.Index(s[q:], "</tool_call>"); i >= 0 {
		end = sc.closers(q + i)
	}
	c := candidate{name: name, fail: failSyntax, msg: "a " + m[1] + "= key fused into the JSON", fromText: true, format: "JSON in call markup"}
	return group{start: start, end: end, cands: []candidate{c}}, true
}

// quoteIdent quotes an identifier (letters, digits, _ . -) as a JSON string.
func quoteIdent(s string) string { return `"` + s + `"` }
