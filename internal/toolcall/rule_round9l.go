package toolcall

import "strings"

// Round 9l (testdata/widened-threads-round9l.jsonl): inference servers'
// own tool parsers — MiniCPM5's <param name=…> markup (Xinference) and a
// call object whose arguments were wrapped in quotes without escaping
// (mistral.rs).

// Rule "minicpm5_param_element": MiniCPM5 writes a call as
// <function name="NAME"><param name="KEY">VALUE</param>…</function>
// (Xinference's MiniCPM5ToolParser, xinference/model/llm/tool_parsers/
// minicpm5_tool_parser.py: _FUNCTION_OPEN_RE <function\s+name=['"]…['"]\s*>,
// _PARAM_OPEN_RE <param\s+name=['"]…['"]\s*>). A value may be a CDATA
// section (<![CDATA[…]]>), inside which </param> and </function> are the
// value's text (_find_closing_tag skips CDATA); a value outside CDATA is
// JSON when it decodes (_parse_value: json.loads), which mm's XML-value
// reading already does ("Beijing" → Beijing, 3 → 3 for an integer). Only
// inside <function name=…> (never Qwen3-Coder's <function=NAME>), and only
// a <param> element that closes: an open one is left to the other rules.
func readMiniCPMParam(s string, p int) (string, any, int, bool) {
	if !strings.HasPrefix(s[p:], "<param") {
		return "", nil, p, false
	}
	t, ok := readTag(s, p)
	if !ok || t.close || t.name != "param" {
		return "", nil, p, false
	}
	key := strings.TrimSpace(t.attrs["name"])
	if key == "" {
		return "", nil, p, false
	}
	const cdOpen, cdClose, closer = "<![CDATA[", "]]>", "</param>"
	v := t.end
	// A CDATA section is the value's text, closers and all.
	if q := skipSpace(s, v); strings.HasPrefix(s[q:], cdOpen) {
		e := strings.Index(s[q+len(cdOpen):], cdClose)
		if e < 0 {
			return "", nil, p, false
		}
		inner := s[q+len(cdOpen) : q+len(cdOpen)+e]
		r := skipSpace(s, q+len(cdOpen)+e+len(cdClose))
		if !strings.HasPrefix(s[r:], closer) {
			return "", nil, p, false
		}
		return key, inner, r + len(closer), true
	}
	e := strings.Index(s[v:], closer)
	if e < 0 {
		return "", nil, p, false
	}
	raw := s[v : v+e]
	if strings.Contains(raw, "<param") || strings.Contains(raw, "</function>") {
		// The element never closed before the next one or the call's end.
		return "", nil, p, false
	}
	return key, xmlValue(raw), v + e + len(closer), true
}

// Rule "quoted_arguments_object": a call object whose arguments object was
// wrapped in quotes without escaping it — {"name":"bash","arguments":"{"command":"ls"}"}
// — is that object (mistral.rs's fix_broken_json, mistralrs-core/src/tools/mod.rs:
// "allow/handle arguments as maps in quotations": the quote before the
// object's '{' and the one after its '}' are dropped). Stricter than
// mistral.rs: only where the quote before '{' is followed by an unescaped
// '"' (so a properly encoded "{\"command\"…}" string is never touched),
// only for "arguments" or "parameters", and only when the repaired text is a
// whole object whose arguments decode as an object.
func quotedArgumentsObject(s string, q int) (readResult, bool) {
	if q >= len(s) || s[q] != '{' {
		return readResult{}, false
	}
	// The marker must come early in the object (its name and the key):
	// the prefilter keeps this off every failed read.
	head := s[q:min(len(s), q+400)]
	if !strings.Contains(head, `"{"`) {
		return readResult{}, false
	}
	for _, key := range []string{`"arguments"`, `"parameters"`} {
		k := strings.Index(head, key)
		if k < 0 {
			continue
		}
		i := skipSpace(s, q+k+len(key))
		if i >= len(s) || s[i] != ':' {
			continue
		}
		i = skipSpace(s, i+1)
		if !strings.HasPrefix(s[i:], `"{"`) {
			continue
		}
		// s[i] is the stray opening quote; the object starts at i+1.
		inner := readPass(s, i+1, false, false)
		if inner.fail != failNone {
			continue
		}
		if _, ok := inner.v.(map[string]any); !ok || inner.end >= len(s) || s[inner.end] != '"' {
			continue
		}
		fixed := s[:i] + s[i+1:inner.end] + s[inner.end+1:]
		r := readPass(fixed, q, false, false)
		if r.fail != failNone {
			continue
		}
		m, ok := r.v.(map[string]any)
		if !ok {
			continue
		}
		if _, ok := m["name"].(string); !ok {
			continue
		}
		if _, ok := m[strings.Trim(key, `"`)].(map[string]any); !ok {
			continue
		}
		r.end += 2 // the two quotes dropped before the object's end
		r.notes = append(r.notes, "quoted arguments object unwrapped")
		return r, true
	}
	return readResult{}, false
}
