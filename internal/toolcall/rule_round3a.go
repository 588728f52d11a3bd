package toolcall

import "strings"

// Rules for formats that the real replies of
// testdata/widened-threads-round3a.jsonl use (round 3 of issue #25). Each
// is written from the parser, template or format description that defines
// the shape, not from one reply; each is reached from a one-line hook in
// the scanner.

// gemmaColonKwRe is a keyword argument written key: value.
var gemmaColonKwRe = lazyRegexp(`^([A-Za-z_][A-Za-z0-9_]*)[ \t]*:`)

// gemmaColonArgs is rule "gemma_colon_args": Gemma 4's parenthesis call
// with its keywords separated by a colon, call:NAME(key: "value", key2:
// 'v2') — the form Hermes Agent's gemma4 tool-call parser lists among the
// ones Gemma 4 writes ("Parenthesis syntax: call:name(key: \"value\",
// key2: 'value2')", NousResearch/hermes-agent#7449). Read only where
// gemmaParen is (after <|tool_call>, with the call: prefix) and only when
// the `=` reading failed. p is the '('.
func gemmaColonArgs(s, name string, p int) (candidate, int, bool) {
	c := candidate{name: name, fromText: true}
	args := map[string]any{}
	p++
	for {
		p = skipSpace(s, p)
		if p >= len(s) {
			c.fail = failEOF
			return c, len(s), true
		}
		if s[p] == ')' {
			p++
			break
		}
		m := gemmaColonKwRe().FindStringSubmatch(s[p:min(len(s), p+100)])
		if m == nil {
			return c, p, false
		}
		key := m[1]
		p += len(m[0])
		p = skipSpace(s, p)
		r := pyStringValue(s, p, readValue(s, p, true))
		if r.fail != failNone {
			if r.fail == failEOF {
				c.fail = failEOF
				return c, len(s), true
			}
			return c, p, false
		}
		c.notes = append(c.notes, r.notes...)
		if _, dup := args[key]; !dup {
			args[key] = r.v
		}
		p = skipSpace(s, r.end)
		if p < len(s) && s[p] == ',' {
			p++
			continue
		}
		if p < len(s) && s[p] == ')' {
			continue
		}
		return c, p, false
	}
	c.args = args
	c.notes = append(c.notes, "key: value arguments")
	return c, p, true
}

// paramCloserBody is rule "param_opener_missing": Qwen3-Coder's template
// closes every value with </parameter> before </function>
// (<function=NAME>\n<parameter=P>\nV\n</parameter>\n</function>); a body
// with no parameter tag but that closer is a value whose <parameter=…>
// opener was lost (lidge-jun/opencodex#5499). The value runs to that
// closer, as a GLM value whose <arg_value> is lost runs to its
// </arg_value> (vLLM's glm47 parser); with no parameter name it is the
// tool's single required string argument, like any raw body.
func paramCloserBody(body string) string {
	t := strings.TrimRight(body, " \t\r\n")
	if !strings.HasSuffix(t, "</parameter>") || strings.Contains(t, "<parameter") {
		return body
	}
	t = strings.TrimSuffix(t, "</parameter>")
	t = strings.TrimSuffix(t, "\n")
	if strings.Contains(t, "</parameter>") {
		return body
	}
	return t
}

// functionKeyCall is rule "function_key_call": inside llama.cpp's generic
// {"tool_calls": […]} envelope, an element that names its tool under
// "function" as a string, {"function": NAME, "arguments"|"args": {…}} —
// one of the shapes the GLM tool parsers' JSON fallbacks accept
// ({name, arguments}, {function, arguments}; ml-explore/mlx-lm#792,
// lablup/mlxcel#765). Only there: the envelope makes the element a call
// attempt; the same object elsewhere is data.
func functionKeyCall(v any) (candidate, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return candidate{}, false
	}
	name, ok := m["function"].(string)
	if !ok || strings.TrimSpace(name) == "" {
		return candidate{}, false
	}
	if _, has := m["name"]; has {
		return candidate{}, false
	}
	cp := make(map[string]any, len(m))
	for k, x := range m {
		switch k {
		case "function":
			cp["name"] = x
		case "args":
			cp["arguments"] = x
		default:
			cp[k] = x
		}
	}
	c, ok := callObject(cp)
	if ok {
		c.notes = append(c.notes, "function read as the tool name")
	}
	return c, ok
}

// minimaxOpenerLost is rule "minimax_opener_lost": MiniMax-M2's call is
// <minimax:tool_call><invoke name="NAME"><parameter name="P">V</parameter>
// </invoke></minimax:tool_call> (MiniMax-M2's tool_calling_guide and chat
// template). A reply whose parameter elements start lines and that ends
// with the call's closers, </invoke> (and </minimax:tool_call>), with no
// <invoke opener anywhere, is a call whose opener — and so its tool name —
// was lost (EKKOLearnAI/hermes-studio#942): a call attempt that names no
// tool, answered with the list of tools, as an empty <tool_call></tool_call>
// is. Only at the end of the reply, closers on lines of their own.
func minimaxOpenerLost(content string) bool {
	if strings.Contains(content, "<invoke") {
		return false
	}
	t := strings.TrimRight(content, " \t\r\n")
	if strings.HasSuffix(t, "</minimax:tool_call>") {
		t = strings.TrimRight(t[:len(t)-len("</minimax:tool_call>")], " \t\r\n")
	}
	if !strings.HasSuffix(t, "</invoke>") {
		return false
	}
	t = t[:len(t)-len("</invoke>")]
	if i := strings.LastIndexByte(t, '\n'); i < 0 || strings.TrimSpace(t[i+1:]) != "" {
		return false
	}
	if !closerAfterLastValue(t, "</parameter>") {
		return false
	}
	return strings.HasPrefix(t, "<parameter name=") || strings.Contains(t, "\n<parameter name=")
}
