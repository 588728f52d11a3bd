package toolcall

import (
	"encoding/json"
	"strings"
)

// Rules of round 14 (issue #25), each from a format's parser.

// Rule "kimi_k3_xtml" (xorbitsai/inference tool_parsers/tests/test_kimi_k3,
// Kimi K3's chat template): K3 writes its calls in XTML blocks,
// <|open|>KIND<|sep|> … <|close|>KIND<|sep|>:
//
//	<|open|>tools<|sep|><|open|>call tool="NAME" index="0"<|sep|>
//	<|open|>argument key="K" type="string"<|sep|>V<|close|>argument<|sep|>
//	<|close|>call<|sep|><|close|>tools<|sep|>
//
// An argument's type says how its text is read (number, boolean, object,
// array: JSON; string: as written). A call whose <|close|>call<|sep|>
// never comes is cut, and corrected. The tokens are K3's own; markup in a
// code span or fence is not read (mask).
const (
	xtmlOpen  = "<|open|>"
	xtmlClose = "<|close|>"
	xtmlSep   = "<|sep|>"
)

func kimiK3Calls(s string, ts *toolset) ([]candidate, string, bool) {
	// <|open|>tools<|sep|><|open|>call …, or with the tools block's own
	// <|sep|> and <|open|> lost between them (<|open|>toolscall …: a leak
	// quoted in kimi_k2-n004).
	first := strings.Index(s, xtmlOpen+"call ")
	if first < 0 || !strings.Contains(s[:first], xtmlOpen+"tools"+xtmlSep) {
		first = strings.Index(s, xtmlOpen+"toolscall ")
		if first < 0 {
			return nil, "", false
		}
		s = s[:first] + xtmlOpen + "tools" + xtmlSep + xtmlOpen + "call " + s[first+len(xtmlOpen+"toolscall "):]
		first += len(xtmlOpen + "tools" + xtmlSep)
	}
	if inRegions(codeSpans(s), first) {
		return nil, "", false
	}
	tools := strings.LastIndex(s[:first], xtmlOpen+"tools"+xtmlSep)
	var out []candidate
	for p := first; ; {
		k := strings.Index(s[p:], xtmlOpen+"call ")
		if k < 0 {
			break
		}
		p += k
		head := strings.Index(s[p:], xtmlSep)
		if head < 0 {
			break
		}
		t, ok := readTag("<"+s[p+len(xtmlOpen):p+head]+">", 0)
		if !ok || t.name != "call" || t.attrs["tool"] == "" {
			return nil, "", false
		}
		c := candidate{name: t.attrs["tool"], fromText: true, format: "Kimi K3 XTML"}
		body := s[p+head+len(xtmlSep):]
		end := strings.Index(body, xtmlClose+"call"+xtmlSep)
		if end < 0 {
			c.fail = failEOF // the call never closes
			end = len(body)
		}
		args := map[string]any{}
		for _, part := range strings.Split(body[:end], xtmlOpen+"argument ")[1:] {
			h := strings.Index(part, xtmlSep)
			if h < 0 {
				c.fail = failEOF
				break
			}
			at, ok := readTag("<argument "+part[:h]+">", 0)
			if !ok || at.attrs["key"] == "" {
				return nil, "", false
			}
			v := part[h+len(xtmlSep):]
			e := strings.Index(v, xtmlClose+"argument"+xtmlSep)
			if e < 0 {
				c.fail = failEOF
				break
			}
			args[at.attrs["key"]] = xtmlValue(v[:e], at.attrs["type"])
		}
		c.args = args
		// Cut before any argument: the correction names what it needs.
		c.cutNoArgs = c.fail == failEOF && len(args) == 0
		out = append(out, c)
		p += head + len(xtmlSep) + end
		if c.fail == failEOF {
			break
		}
	}
	if len(out) == 0 {
		return nil, "", false
	}
	lead := strings.TrimSuffix(strings.TrimSpace(s[:tools]), xtmlClose+"response"+xtmlSep)
	lead = strings.TrimPrefix(lead, xtmlOpen+"response"+xtmlSep)
	return out, strings.TrimSpace(strings.ReplaceAll(strings.ReplaceAll(lead, xtmlClose+"response"+xtmlSep, ""), xtmlOpen+"response"+xtmlSep, "")), true
}

// xtmlValue reads an argument's text by its declared type.
func xtmlValue(v, typ string) any {
	switch typ {
	case "number", "integer", "boolean", "object", "array", "null":
		var x any
		if json.Unmarshal([]byte(strings.TrimSpace(v)), &x) == nil {
			if n, ok := x.(float64); ok && n == float64(int64(n)) {
				return json.Number(strings.TrimSpace(v))
			}
			return x
		}
	}
	return v
}

// Rule "glimmer_atem" (ollama/ollama model/parsers/glimmer.go and its
// glimmer_test.go): Glimmer addresses a tool in a harmony-like header,
// " to=NAME<|message|>", and writes the call as ATEM XML,
//
//	<atem:function_calls><atem:invoke name="NAME">
//	<atem:parameter name="K">V</atem:parameter></atem:invoke>
//	</atem:function_calls><|eot|>
//
// A parameter's value runs to its own closer, control-token text inside
// it included. The invoke's name may carry the header's token
// (name="read_file<|message|>") or the tool's derived namespace
// (read_file.read_file), as Ollama's parser resolves them; when header
// and invoke name different tools, the invoke's is taken (its parameters
// are the call's). The header with a raw body (harmony's container.exec
// form) is the stripped-harmony reader's, not this one's.
func glimmerCalls(s string, ts *toolset) ([]candidate, bool) {
	t := strings.TrimLeft(s, " \n")
	if !strings.HasPrefix(t, "to=") {
		return nil, false
	}
	msg := strings.Index(t, "<|message|>")
	if msg < 0 || strings.ContainsAny(t[:msg], " \n") {
		return nil, false
	}
	header := t[len("to="):msg]
	body := strings.TrimLeft(t[msg+len("<|message|>"):], " \n")
	if !strings.HasPrefix(body, "<atem:function_calls>") {
		return nil, false
	}
	var out []candidate
	for p := 0; ; {
		k := strings.Index(body[p:], "<atem:invoke")
		if k < 0 {
			break
		}
		p += k
		// The tag ends at its first '>' that does not end a token
		// (name="read_file<|message|>">: the quote lost before one).
		e := -1
		for k := p; k < len(body); k++ {
			if body[k] == '>' && (k == 0 || body[k-1] != '|') {
				e = k - p
				break
			}
		}
		if e < 0 {
			break
		}
		tag := body[p : p+e+1]
		name := ""
		if i := strings.Index(tag, `name="`); i >= 0 {
			if j := strings.IndexByte(tag[i+6:], '"'); j >= 0 {
				name = tag[i+6 : i+6+j]
			} else {
				name = tag[i+6:] // name="read_file<|message|>">: the quote lost
			}
		}
		name = strings.TrimSpace(strings.ReplaceAll(strings.TrimSuffix(name, ">"), "<|message|>", ""))
		if i := strings.IndexByte(name, '.'); i > 0 && name[:i] == name[i+1:] {
			name = name[:i] // read_file.read_file: the tool's own namespace
		}
		if name == "" {
			name = header
		}
		c := candidate{name: name, fromText: true, format: "Glimmer ATEM"}
		rest := body[p+e+1:]
		end := strings.Index(rest, "</atem:invoke>")
		if end < 0 {
			end = len(rest)
		}
		args := map[string]any{}
		inv := rest[:end]
		for q := 0; ; {
			k := strings.Index(inv[q:], `<atem:parameter name="`)
			if k < 0 {
				break
			}
			q += k + len(`<atem:parameter name="`)
			j := strings.Index(inv[q:], `">`)
			if j < 0 {
				break
			}
			key := inv[q : q+j]
			q += j + 2
			ve := strings.Index(inv[q:], "</atem:parameter>")
			if ve < 0 {
				c.fail = failEOF
				break
			}
			if _, dup := args[key]; !dup {
				args[key] = xmlValue(inv[q : q+ve])
			}
			q += ve
		}
		c.args, c.xml = args, true
		out = append(out, c)
		p += e + 1 + end
	}
	return out, len(out) > 0
}

// Rule "pythonic_braces" (meta-llama/llama-stack
// tests/unit/models/test_decode_assistant_message.py): a reply that is
// nothing but [NAME{…}] for a declared tool, braces where Llama's
// pythonic call has parentheses, is a call whose arguments cannot be read;
// it is corrected, not shown. Only as the whole reply: inside prose the
// same text may be Gemma's or a template's.
func pythonicBraces(s string, ts *toolset) (candidate, bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "}]") {
		return candidate{}, false
	}
	i := strings.IndexByte(t, '{')
	if i < 2 {
		return candidate{}, false
	}
	name := strings.TrimSpace(t[1:i])
	if ts.exactTool(name) == "" || strings.ContainsAny(name, " (") {
		return candidate{}, false
	}
	return candidate{name: name, fromText: true, fail: failSyntax, msg: "use NAME(key=value) or a JSON object, not NAME{…}", format: "pythonic"}, true
}
