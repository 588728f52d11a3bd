package toolcall

import "strings"

// XML-style value rules for the formats whose values are raw text between
// tags: MiniMax-M2 (<parameter name="K">V</parameter>, its chat template
// writes V unescaped), GLM (<arg_value>V</arg_value>) and DSML.

// templateValueEnd is the rule "closer where the template puts one": the
// templates write a value's closer right before the next argument, the end
// of the call, or the end of the message, and nothing else. A value that
// itself holds a closer or a tag (a file whose content is XML, a TODO that
// mentions <tool_call>: vllm-project/vllm#44060, ggml-org/llama.cpp#15904)
// therefore ends at the first closer so placed, when one comes before the
// next argument or the end of the call. A closer that drifted
// (driftedCloser) counts as one, and a whole call block in the value
// followed by its closer is part of it (nestedValueEnd). Otherwise the value ends as before:
// at its first closer, or, when that is missing, at the next structural tag.
func templateValueEnd(s string, p int, closer string) (int, int, bool) {
	firstClose, firstNext, firstStruct := -1, -1, -1
	for k := p; k < len(s); {
		j := strings.IndexByte(s[k:], '<')
		if j < 0 {
			break
		}
		j += k
		t, ok := readTag(s, j)
		if ok && t.close && (t.name == closer || driftedCloser(t.name, closer)) {
			if closerFollowed(s, t.end) {
				// Tags and closers seen before it are data.
				return j, t.end, true
			}
			if firstClose < 0 {
				firstClose, firstNext = j, t.end
			}
			k = t.end
			continue
		}
		if structural(s, j) {
			// A whole call block inside the value, followed by the value's
			// own closer, is the value's text (nestedValueEnd).
			if firstClose < 0 {
				if e, next, ok := nestedValueEnd(s, j, closer); ok {
					return e, next, true
				}
			}
			if firstStruct < 0 {
				firstStruct = j
			}
			if hardStop(s, j, t, ok) {
				break
			}
		}
		k = j + 1
	}
	if firstClose >= 0 && (firstStruct < 0 || firstClose < firstStruct) {
		return firstClose, firstNext, true
	}
	if firstStruct >= 0 {
		return firstStruct, firstStruct, false
	}
	return len(s), len(s), false
}

// closerFollowed reports whether what follows a value's closer at s[e] is
// what the templates put there: the next argument, the end of the call or
// of the block, or the end of the text.
func closerFollowed(s string, e int) bool {
	q := skipSpace(s, e)
	if q >= len(s) {
		return true
	}
	if s[q] != '<' {
		return false
	}
	if strings.HasPrefix(s[q:], "<parameter=") {
		return true
	}
	t, ok := readTag(s, q)
	if !ok {
		return false
	}
	if t.close {
		return t.name == "invoke" || t.name == "function" || wrapperTags[t.name]
	}
	return (t.name == "parameter" && t.attrs["name"] != "") || t.name == "arg_key"
}

// hardStop reports whether the structural tag at s[j] certainly starts the
// next argument or ends the call, so that no closer after it can belong to
// the value being read.
func hardStop(s string, j int, t xtag, ok bool) bool {
	if !ok {
		return strings.HasPrefix(s[j:], "<parameter=")
	}
	if t.close {
		// A call's closer is followed by the next tag or the end of the
		// text; one followed by prose ("… and </function> to close the
		// call.") is the value's text (rule "closer where the template
		// puts one").
		return (t.name == "invoke" || t.name == "function" || wrapperTags[t.name]) && closerEndsCall(s, t.end)
	}
	switch t.name {
	case "parameter":
		return t.eq != "" || t.attrs["name"] != ""
	case "arg_key":
		return true
	case "invoke", "function":
		return t.eq != "" || t.attrs["name"] != ""
	}
	return false
}

// skipStrayCloser is the rule "glm stray closer": GLM-4.7 sometimes repeats
// a closing tag (<arg_key>path</arg_key></arg_key><arg_value>…,
// vllm-project/vllm#54971); the repeat is not part of the next value.
func skipStrayCloser(s string, q int, name string) int {
	c := "</" + name + ">"
	for strings.HasPrefix(s[q:], c) {
		q = skipSpace(s, q+len(c))
	}
	return q
}

// closerEndsCall reports whether what follows a call's closer at s[e] is
// what the templates put there: another tag, or the end of the text.
func closerEndsCall(s string, e int) bool {
	q := skipSpace(s, e)
	return q >= len(s) || s[q] == '<'
}
