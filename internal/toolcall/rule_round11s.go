package toolcall

import "strings"

// Rules written for the parser-test cases of widened-threads-round11s.jsonl,
// each from the format's parser named in its comment.

// step3CallBegins are the spellings of the token that opens one Step3 call:
// Step3's tokenizer writes it with ASCII underscores (vLLM's
// step3_tool_parser, SGLang's Step3Detector and its Rust Step3Parser);
// DeepSeek's ▁ spelling, which the same readers accept for the section, is
// taken too.
var step3CallBegins = []string{"<｜tool_call_begin｜>", "<｜tool▁call▁begin｜>"}

// step3Headers are the DeepSeek-style header some Step3 calls carry between
// the call token and the invoke (SGLang's Rust tests; vLLM's whitespace test
// writes `function<｜tool_sep｜>edit_file\n`).
var step3Headers = []string{"function<｜tool_sep｜>", "function<｜tool▁sep｜>"}

const (
	step3Invoke     = "<steptml:invoke"
	step3InvokeEnd  = "</steptml:invoke>"
	step3Param      = "<steptml:parameter"
	step3ParamClose = "</steptml:parameter>"
)

// step3Steptml is rule "step3_steptml": Step3's tool calls (vLLM's
// step3_tool_parser and its tests, SGLang's Step3Detector and its Rust
// Step3Parser tests) are DeepSeek's section tokens around a MiniMax-style
// invoke in the steptml namespace:
//
//	<｜tool_calls_begin｜><｜tool_call_begin｜>[function<｜tool_sep｜>[NAME]]
//	<steptml:invoke name="NAME"><steptml:parameter name="K">V</steptml:parameter>…</steptml:invoke>
//	<｜tool_call_end｜>…<｜tool_calls_end｜>
//
// Those parsers read each parameter by name with its value raw between the
// tags (whitespace kept: vLLM's TestStep3ParameterWhitespace). The rule
// drops the namespace from the invoke and its own parameter tags, and the
// header (whose name, when written, must be the invoke's), so that mm's
// <invoke> reader reads the call inside the DeepSeek tokens as it reads
// MiniMax's, with all its checks (a declared tool, its required arguments,
// a cut block corrected, not run). A header naming another tool than the
// invoke makes a call without a name, corrected; a value cut before its
// closer leaves the whole reply as it came (nothing runs). It rewrites only an invoke that stands
// right after a call token, only the parameter tags directly in its body
// (a value holding steptml text keeps it), and nothing at all unless the
// first such call token begins the reply's markup (markupLeads: no tag or
// JSON before it, after any reasoning), so a file that shows Step3 markup
// inside a JSON or tagged call keeps its text; prose and fences quoting the
// markup are left to the <invoke> reader's own quoting checks.
func step3Steptml(s string) string {
	if !strings.Contains(s, step3Invoke) {
		return s
	}
	var b strings.Builder
	last, first := 0, true
	for p := 0; p < len(s); {
		i, tl := step3NextCallBegin(s, p)
		if i < 0 {
			break
		}
		q := i + tl
		hs := skipSpace(s, q)
		he := hs
		head := ""
		for _, h := range step3Headers {
			if strings.HasPrefix(s[hs:], h) {
				he = hs + len(h)
				n := he
				for n < len(s) && (isIdent(s[n]) || s[n] == '.' || s[n] == '-') {
					n++
				}
				head = s[he:n]
				he = n
				break
			}
		}
		v := skipSpace(s, he)
		if !strings.HasPrefix(s[v:], step3Invoke) {
			p = q
			continue
		}
		t, ok := readTag(s, v)
		if !ok || t.close || t.name != "steptml:invoke" {
			return s
		}
		if strings.TrimSpace(t.attrs["name"]) == "" {
			p = q // no name: left as it is, for the no-name correction
			continue
		}
		if head != "" && head != t.attrs["name"] {
			// Two names for one call: which tool was meant cannot be told,
			// so the call is written without a name, to be corrected (the
			// DeepSeek reader would take the header's name and the markup
			// for its argument).
			if first {
				if !step3Leads(s, i) {
					return s
				}
				first = false
			}
			b.WriteString(s[last:q] + `function<｜tool_sep｜><steptml:invoke name="">`)
			p, last = t.end, t.end
			continue
		}
		if first {
			if !step3Leads(s, i) {
				return s
			}
			first = false
		}
		var body strings.Builder
		end, ok := step3Body(s, t.end, &body)
		if !ok {
			// A value cut before its closer: the reply is left as it
			// came, and nothing runs on part of a value.
			return s
		}
		b.WriteString(s[last:q] + s[q:hs]) // the header is dropped
		b.WriteString("<invoke" + s[v+len(step3Invoke):t.end] + body.String())
		p, last = end, end
	}
	if first {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// step3Leads says whether the Step3 call token at i, with the section
// token before it if there is one, begins the reply's markup.
func step3Leads(s string, i int) bool {
	lead := i
	pre := strings.TrimRight(s[:i], " \t\r\n")
	for _, sec := range []string{"<｜tool_calls_begin｜>", "<｜tool▁calls▁begin｜>"} {
		if strings.HasSuffix(pre, sec) {
			lead = len(pre) - len(sec)
		}
	}
	_, ok := markupLeads(s, lead)
	return ok
}

// step3NextCallBegin finds the next call token at or after p.
func step3NextCallBegin(s string, p int) (int, int) {
	best, bl := -1, 0
	for _, tok := range step3CallBegins {
		if k := strings.Index(s[p:], tok); k >= 0 && (best < 0 || p+k < best) {
			best, bl = p+k, len(tok)
		}
	}
	return best, bl
}

// step3Body writes an invoke's body from p, its own parameter tags and its
// closer without the namespace, and returns where it stopped: after the
// closer, or at the first thing that is not a parameter of the body (left
// as it is). It fails on a parameter whose value has no closer.
func step3Body(s string, p int, b *strings.Builder) (int, bool) {
	for {
		k := skipSpace(s, p)
		switch {
		case strings.HasPrefix(s[k:], step3InvokeEnd):
			b.WriteString(s[p:k] + "</invoke>")
			return k + len(step3InvokeEnd), true
		case strings.HasPrefix(s[k:], step3Param):
			t, ok := readTag(s, k)
			if !ok || t.close || t.name != "steptml:parameter" {
				return p, true
			}
			e := strings.Index(s[t.end:], step3ParamClose)
			if e < 0 {
				return p, false
			}
			e += t.end
			b.WriteString(s[p:k] + "<parameter" + s[k+len(step3Param):t.end] + step3Value(s[t.end:e]) + "</parameter>")
			p = e + len(step3ParamClose)
		default:
			return p, true
		}
	}
}

// step3Value keeps a Step3 value exactly as written: the parsers take
// the text between the tags as it is (vLLM's TestStep3ParameterWhitespace:
// "whitespace around it is data rather than markup"), while mm's shared XML
// value reader drops one newline or space after the opening tag and one
// newline before the closer (Qwen3-Coder's layout). Where the value begins
// with white space it is written with one space more, and where it ends
// with a newline, with one newline more: that reader takes them off again.
func step3Value(v string) string {
	if v != "" && (v[0] == ' ' || v[0] == '\n' || v[0] == '\r') {
		v = " " + v
	}
	if strings.HasSuffix(v, "\n") {
		v += "\n"
	}
	return v
}

// pyCutKeyRe matches what is left of a pythonic call cut right after an
// argument's equals sign: the name, =, and nothing but space to the end.
var pyCutKeyRe = lazyRegexp(`^([A-Za-z_][A-Za-z0-9_]*)\s*=\s*$`)

// pyCutBeforeValue is rule "pythonic_cut_before_value": SGLang's
// PythonicDetector keeps `[get_weather(location=` in its buffer and emits
// nothing (test_parse_streaming_partial_tool_call): a pythonic call whose
// reply ends right after KEY= is a call cut before its value. mm read
// nothing there (the keyword reader wants a character after =), so the
// model was told nothing; the rule makes it a cut call, rejected as
// truncated, its reason naming the argument whose value never came. It
// runs nothing, and only where pyArgs already reads a call of a declared
// tool (a pythonic list or a call on its own line), at the very end of the
// reply.
func pyCutBeforeValue(s string, p int) (string, bool) {
	m := pyCutKeyRe().FindStringSubmatch(s[p:])
	if m == nil {
		return "", false
	}
	return m[1], true
}

// cutKeyReason is the correction of a call cut before the value of key.
func cutKeyReason(name, display, key string) string {
	what := "your tool call"
	if name != "" {
		what = "your " + name + " call"
	} else if display != "" {
		what = "your " + display + " call"
	}
	return what + " was cut off right after " + key + "=, before the value of " + key + "; it was not run — send the call again, complete"
}

// emptyCutArguments says whether a call object the reply ended inside has
// its "arguments" (or "parameters") object opened and still empty: nothing
// of the arguments was written before the cut.
func emptyCutArguments(m map[string]any) bool {
	for _, k := range []string{"arguments", "parameters"} {
		if v, ok := m[k]; ok {
			a, isMap := v.(map[string]any)
			return isMap && len(a) == 0
		}
	}
	return false
}

// cutBeforeArguments is rule "cut_before_arguments": vLLM's granite-20b-fc
// and internlm2 parser tests hold the call cut right after its arguments
// object opened (`<function_call> {"name": "func", "arguments": {`,
// malformed_input_outputs[0]); the parsers make no call of it. mm already
// rejects the cut call; when not one argument was written, the model is
// also told which arguments the tool needs, as it is for an XML call cut
// right after its function tag (bash needs the argument command). It
// changes only the words of a rejection: nothing more runs.
func cutBeforeArguments(name, args string) string {
	return neverClosesReason(name, "") + "; it needs " + args
}
