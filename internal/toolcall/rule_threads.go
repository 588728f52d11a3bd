package toolcall

import (
	"strings"
)

// Rules for server replies and calls quoted in issue threads
// (testdata/widened-threads-structured.jsonl), each written from the
// format or the server behaviour the thread documents, not from one case.

// emptyServerCall is rule "empty_server_call" (OpenAI chat completions: a
// tool call is its function, a name and its arguments). An entry with
// neither — LM Studio's {"id": "", "type": "function"} next to a final
// answer (lmstudio-bug-tracker#830) — names no tool and carries no
// argument: there is no call to correct, and the text is the answer. Only
// with text beside it: alone, the entry is all the reply has, and the
// correction is what the model is told.
func emptyServerCall(rc RawCall, content string) bool {
	if strings.TrimSpace(rc.Name) != "" || strings.TrimSpace(content) == "" {
		return false
	}
	switch strings.TrimSpace(rc.Arguments) {
	case "", "null", "{}":
		return true
	}
	return false
}

// argsHoldCall is rule "args_hold_call": a server call's arguments that
// are not JSON are the value of a single-argument tool (a harmony raw
// body), but not when they hold a call themselves — an object with a name
// and its arguments, or Qwen3-Coder's parameter markup. That is a call the
// server could not parse and passed on wrapped (Rapid-MLX's
// <malformed_json_arguments>, Rapid-MLX#2656), and its text is no command
// or URL.
func argsHoldCall(body string) bool {
	if strings.Contains(body, "<parameter=") || strings.Contains(body, "</parameter>") || strings.Contains(body, "</function>") {
		return true
	}
	return argsKeyRe().MatchString(body) && nameKeyRe().MatchString(body)
}

var (
	argsKeyRe = lazyRegexp(`"(arguments|parameters)"\s*:`)
	nameKeyRe = lazyRegexp(`"name"\s*:`)
)

// pyEndsReply is rule "pythonic_call_ends_reply" (Llama 3.1's prompt
// format: a call in Python syntax after <|python_tag|> is the end of the
// message, closed by <|eom_id|>). A name(k=v) line standing alone, with
// the tag gone, is a call only when nothing but further such calls follows
// it; with prose after it ("…in your own code.") it is an example shown to
// the user.
func (sc *scan) pyEndsReply(end int) bool {
	for _, line := range strings.Split(sc.s[end:], "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		i := strings.IndexByte(t, '(')
		if i <= 0 || !strings.HasSuffix(strings.TrimRight(t, ";"), ")") {
			return false
		}
		name := strings.TrimSuffix(t[:i], ".call")
		for k := 0; k < len(name); k++ {
			if !isIdent(name[k]) && name[k] != '.' {
				return false
			}
		}
		if sc.ts.resolve(name) == "" {
			return false
		}
	}
	return true
}

// paramTags is rule "args_as_param_tags" (vmlx's Qwen parser fix,
// jjang-ai/vmlx#192: Qwen3-Coder sent function.arguments as
// "<command>…</command>"): arguments text made only of <K>V</K> elements,
// every K a property of the tool, is those arguments — each value the text
// between its tags, one newline after the opener and before the closer not
// part of it, as for the other XML-style values. Anything else around or
// between the elements, an unknown K, or a K given twice, and the text is
// not read this way.
func paramTags(body string, o *objSchema) (map[string]any, bool) {
	s := strings.TrimSpace(body)
	if !strings.HasPrefix(s, "<") || !strings.HasSuffix(s, ">") {
		return nil, false
	}
	out := map[string]any{}
	for s != "" {
		if s[0] != '<' {
			return nil, false
		}
		e := strings.IndexByte(s, '>')
		if e < 2 {
			return nil, false
		}
		k := s[1:e]
		if _, ok := o.props[k]; !ok {
			return nil, false
		}
		if _, dup := out[k]; dup {
			return nil, false
		}
		closer := "</" + k + ">"
		c := strings.Index(s[e+1:], closer)
		if c < 0 {
			return nil, false
		}
		v := s[e+1 : e+1+c]
		v = strings.TrimPrefix(v, "\n")
		v = strings.TrimSuffix(v, "\n")
		out[k] = v
		s = strings.TrimSpace(s[e+1+c+len(closer):])
	}
	return out, len(out) > 0
}
