package toolcall

import (
	"strings"
)

// Readers for the markup around calls: control tokens (<|…|>, DeepSeek's
// <｜…｜>, Gemma's <|…>), XML-style tags (with DeepSeek's DSML prefix), and
// XML-style argument values.

type tokKind int

const (
	tkNone      tokKind = iota
	tkWrapper           // a block of calls follows: <|tool_call|>, <｜tool▁calls▁begin｜>
	tkCallBegin         // one call follows: <｜tool▁call▁begin｜>, <|tool_call_begin|>
	tkSep               // between name and arguments: <｜tool▁sep｜>
	tkCloser            // ends a call or block, or the turn
	tkOutput            // a tool result the model wrote itself
	tkGemma             // Gemma 4's <|tool_call>
)

// tokenAt reads a control token at s[i]. gemma reports the <|name> form
// (no closing bar) Gemma 4 uses.
func tokenAt(s string, i int) (name string, end int, gemma, ok bool) {
	var p int
	switch {
	case strings.HasPrefix(s[i:], "<|"):
		p = i + 2
	case strings.HasPrefix(s[i:], "<｜"):
		p = i + len("<｜")
	default:
		return "", 0, false, false
	}
	limit := min(len(s), p+80)
	for k := p; k < limit; k++ {
		switch {
		case s[k] == '\n' || s[k] == '<':
			return "", 0, false, false
		case strings.HasPrefix(s[k:], "|>"):
			return s[p:k], k + 2, false, true
		case strings.HasPrefix(s[k:], "｜>"):
			return s[p:k], k + len("｜>"), false, true
		case s[k] == '>':
			return s[p:k], k + 1, true, true
		}
	}
	return "", 0, false, false
}

// normTok folds the spellings of one token: tool▁calls▁begin,
// tool_calls_begin and "tool calls begin" are the same marker.
func normTok(name string) string {
	var b strings.Builder
	for _, r := range name {
		switch r {
		case '▁', '_', ' ', '\\', '-':
			continue
		}
		if r >= 'A' && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return b.String()
}

func classifyTok(n string, gemma bool) tokKind {
	if gemma {
		if n == "toolcall" {
			return tkGemma
		}
		return tkNone
	}
	if k, ok := templateTok(n); ok {
		return k
	}
	if strings.HasPrefix(n, "/") {
		return tkCloser
	}
	has := func(w string) bool { return strings.Contains(n, w) }
	begins := has("begin") || has("start")
	switch {
	case has("output") || has("response") || has("result"):
		if begins {
			return tkOutput
		}
		if has("end") {
			return tkCloser
		}
	case has("sep") || (has("argument") && begins):
		return tkSep
	case has("call") || has("function"):
		if has("end") {
			return tkCloser
		}
		if begins {
			if has("calls") || has("section") {
				return tkWrapper
			}
			return tkCallBegin
		}
		switch n {
		case "toolcall", "toolcalls", "functioncall", "functioncalls", "functools":
			return tkWrapper
		case "call":
			return tkCloser
		}
	case n == "pythontag":
		return tkWrapper
	}
	switch n {
	case "end", "return", "endofsentence", "eomid", "eotid", "imend", "eos", "endoftext", "endofturn":
		return tkCloser
	}
	return tkNone
}

// xtag is an XML-style tag.
type xtag struct {
	name  string // lower case, without a DSML prefix
	close bool
	eq    string // <function=NAME>
	attrs map[string]string
	end   int
	dsml  bool
}

// dsmlPrefix skips DeepSeek's ｜DSML｜ tag prefix (also written with ASCII
// bars or spaces, and, as leaked DeepSeek-V4 output shows, with ‖ or
// doubled bars: lsdefine/GenericAgent#804).
func dsmlPrefix(s string, p int) (int, bool) {
	q := p
	skipBar := func() bool {
		n := 0
		for n < 2 {
			switch {
			case strings.HasPrefix(s[q:], "｜"):
				q += len("｜")
			case strings.HasPrefix(s[q:], "‖"):
				q += len("‖")
			case q < len(s) && s[q] == '|':
				q++
			default:
				return n > 0
			}
			n++
		}
		return true
	}
	skipSp := func() {
		for q < len(s) && s[q] == ' ' {
			q++
		}
	}
	bar := skipBar()
	skipSp()
	if !strings.HasPrefix(strings.ToUpper(s[q:min(len(s), q+4)]), "DSML") {
		return p, false
	}
	q += 4
	skipSp()
	if !skipBar() && !bar && !dsmlBareWord(s[q:]) {
		return p, false
	}
	// The space a detokenizer puts after a special token (DeepSeek V4.1's
	// <｜｜DSML｜｜ invoke, CommandCodeAI/command-code#909).
	skipSp()
	return q, true
}

// dsmlBareWord: DSML with both bars lost, glued to its tag's word
// (<DSMLtool_calls>, <DSMLinvoke name=…>, ds2api's dsml_no_separator
// fixture: round 15h). Only DSML's own words, so <DSMLfoo> stays a tag.
func dsmlBareWord(s string) bool {
	l := strings.ToLower(s[:min(len(s), 14)])
	for _, w := range []string{"tool_calls", "function_calls", "invoke", "parameter"} {
		if strings.HasPrefix(l, w) {
			return true
		}
	}
	return false
}

var wrapperTags = map[string]bool{
	"tool_call": true, "tool_calls": true, "tools": true, "tool": true, "response": true,
	"json": true, "xml": true, "function_call": true, "functioncall": true, "function_calls": true,
	"tool_code": true, "toolcall": true, "tool_use": true, "functions": true, "minimax:tool_call": true,
	"tool_request": true, // schwab/mcp-client-for-ollama's parser tests (round 16t)
}

// readTag reads an XML-style tag at s[i] ('<').
func readTag(s string, i int) (xtag, bool) {
	var t xtag
	p := i + 1
	if p < len(s) && s[p] == '/' {
		t.close = true
		p++
	}
	if q, ok := dsmlPrefix(s, p); ok {
		p, t.dsml = q, true
	}
	n := p
	for n < len(s) && (isIdent(s[n]) || s[n] == ':' || s[n] == '-' || s[n] == '.') {
		n++
	}
	if n == p || !isLetter(s[p]) {
		return t, false
	}
	t.name = strings.ToLower(s[p:n])
	p = n
	limit := min(len(s), i+400)
	if p < len(s) && s[p] == '=' && !t.close {
		e := p + 1
		for e < limit && s[e] != '>' && s[e] != '\n' && s[e] != '<' {
			e++
		}
		if e >= limit || s[e] != '>' {
			return t, false
		}
		t.eq = strings.Trim(strings.TrimSpace(s[p+1:e]), `"'`)
		t.end = e + 1
		return t, true
	}
	for p < limit {
		for p < limit && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r') {
			p++
		}
		if p >= limit {
			return t, false
		}
		if s[p] == '>' {
			t.end = p + 1
			return t, true
		}
		if e, ok := dsmlTagEnd(s, p); ok && t.dsml {
			t.end = e
			return t, true
		}
		if strings.HasPrefix(s[p:], "/>") {
			t.end = p + 2
			return t, true
		}
		a := p
		for p < limit && (isIdent(s[p]) || s[p] == '-' || s[p] == ':') {
			p++
		}
		if p == a {
			return t, false
		}
		key := strings.ToLower(s[a:p])
		for p < limit && s[p] == ' ' {
			p++
		}
		if p >= limit || s[p] != '=' {
			if t.attrs == nil {
				t.attrs = map[string]string{}
			}
			t.attrs[key] = ""
			continue
		}
		p++
		for p < limit && s[p] == ' ' {
			p++
		}
		if p >= limit {
			return t, false
		}
		var val string
		if q := s[p]; q == '"' || q == '\'' {
			e := strings.IndexByte(s[p+1:limit], q)
			if e < 0 {
				return t, false
			}
			val = s[p+1 : p+1+e]
			p += e + 2
		} else {
			a := p
			for p < limit && s[p] != ' ' && s[p] != '>' {
				p++
			}
			val = s[a:p]
		}
		if t.attrs == nil {
			t.attrs = map[string]string{}
		}
		t.attrs[key] = val
	}
	return t, false
}

// xmlValue applies the value rules of XML-style arguments: one separator
// after the opening tag (a newline, or one space when the value starts on
// the tag line) and one newline before the closing tag are not part of the
// value.
func xmlValue(raw string) string {
	// A value wrapped whole in a CDATA section is its inside, as XML
	// readers (Roo Code's tool parser) take it: rule "xml_cdata_value".
	if t := strings.TrimSpace(raw); strings.HasPrefix(t, "<![CDATA[") && strings.HasSuffix(t, "]]>") && !strings.Contains(t[len("<![CDATA["):len(t)-len("]]>")], "]]>") {
		return t[len("<![CDATA[") : len(t)-len("]]>")]
	}
	return xmlSeparators(raw)
}

// xmlSeparators drops the separator after the opening tag and the newline
// before the closing one.
func xmlSeparators(raw string) string {
	switch {
	case strings.HasPrefix(raw, "\r\n"):
		raw = raw[2:]
	case strings.HasPrefix(raw, "\n"), strings.HasPrefix(raw, " "):
		raw = raw[1:]
	}
	switch {
	case strings.HasSuffix(raw, "\r\n"):
		raw = raw[:len(raw)-2]
	case strings.HasSuffix(raw, "\n"):
		raw = raw[:len(raw)-1]
	}
	return raw
}

// cutPartialCloser removes a closing tag that lost its '>' at the end of a
// value (</parameter, </｜DSML｜parameter).
func cutPartialCloser(v string) string {
	t := strings.TrimRight(v, " \t\r\n")
	k := strings.LastIndex(t, "</")
	if k < 0 || strings.ContainsAny(t[k:], "> \n") {
		return v
	}
	tail := strings.ToLower(t[k:])
	if strings.HasSuffix(tail, "parameter") || strings.HasSuffix(tail, "arg_value") || strings.HasSuffix(tail, "arg_key") {
		return t[:k]
	}
	return v
}

// structural reports whether the tag at s[i] ends an XML-style value whose
// own closer is missing: the next parameter, the end of the call, or the
// next call.
func structural(s string, i int) bool {
	t, ok := readTag(s, i)
	if !ok {
		// <parameter=P=VALUE is not a well-formed tag but starts a value.
		return strings.HasPrefix(s[i:], "<parameter=")
	}
	switch t.name {
	case "parameter", "arg_key", "arg_value":
		return true
	case "function", "invoke", "tool_call", "function_calls":
		return true
	}
	return false
}

// valueEnd finds where a value starting at p ends: at its closer (the tag
// named closer), which is consumed, or at the next structural tag, or at
// the end of the text. It returns the value's end and where reading goes on.
// A value (parameter, arg_value) may itself hold tags: templateValueEnd.
func valueEnd(s string, p int, closer string) (int, int, bool) {
	if closer == "parameter" || closer == "arg_value" {
		return templateValueEnd(s, p, closer)
	}
	for k := p; k < len(s); {
		j := strings.IndexByte(s[k:], '<')
		if j < 0 {
			break
		}
		j += k
		if t, ok := readTag(s, j); ok && t.close && (t.name == closer || driftedCloser(t.name, closer)) {
			return j, t.end, true
		}
		if structural(s, j) {
			if e, next, ok := nestedValueEnd(s, j, closer); ok {
				return e, next, true
			}
			return j, j, false
		}
		k = j + 1
	}
	return len(s), len(s), false
}

type kv struct {
	k    string
	v    any
	json bool // DSML string="false": the value is JSON
	// ownCloser: the value ends with a closer named after its own key
	// instead of </parameter> (ownNameCloser: rule_round10a.go).
	ownCloser bool
	// cut: the value has no closer and runs to the end of the text
	// (cutShellCommand: rule_round12l.go).
	cut bool
	// open: the value has no closer and ends at the next tag
	// (cutWrappedValue: rule_round17.go).
	open bool
}

// readParam reads one <parameter=…> (or <parameter name="…">) at s[p].
func readParam(s string, p int) (kv, int, bool) {
	q := p + 1
	dsml := false
	if d, ok := dsmlPrefix(s, q); ok {
		q, dsml = d, true
	}
	word := "parameter"
	if strings.HasPrefix(strings.ToLower(s[q:min(len(s), q+6)]), "param=") {
		// <param=K>V</param>: LocalAI's grammar for Qwen3-Coder-style
		// calls (rule "param_tag", round 15p); only the = form, so HTML's
		// <param name=…> is never a parameter.
		word = "param"
	} else if paramNameTag(s, p) { // rule_round20.go
		word = "param"
	} else if !strings.HasPrefix(strings.ToLower(s[q:min(len(s), q+9)]), "parameter") {
		return kv{}, p, false
	}
	q += len(word)
	var key string
	var valStart int
	isJSON := false
	if q < len(s) && s[q] == '=' {
		e := q + 1
		for e < len(s) && s[e] != '>' && s[e] != '=' && s[e] != '\n' && s[e] != '<' {
			e++
		}
		if e >= len(s) {
			return kv{}, p, false
		}
		key = strings.Trim(strings.TrimSpace(s[q+1:e]), `"'`)
		switch s[e] {
		case '>':
			valStart = e + 1
		case '=':
			// <parameter=P=VALUE</parameter>: the value glued into the tag.
			valStart = e + 1
		default:
			return kv{}, p, false
		}
	} else {
		t, ok := readTag(s, p)
		if !ok || t.name != word {
			return kv{}, p, false
		}
		key = t.attrs["name"]
		valStart = t.end
		isJSON = t.attrs["string"] == "false"
	}
	if key == "" {
		return kv{}, p, false
	}
	ve, next, closed := valueEnd(s, valStart, word)
	if e, n, ok := cdataValueEnd(s, valStart, word); ok { // rule_round15.go
		ve, next, closed = e, n, true
	}
	raw := s[valStart:ve]
	if !closed {
		raw = messageEndValue(cutPartialCloser(raw), ve == len(s))
	}
	val := xmlValue(raw)
	out := kv{k: key, v: val, json: isJSON, ownCloser: !closed && ownNameCloser(key, raw), cut: !closed && ve == len(s), open: !closed && ve < len(s)}
	if xmlNullValue(dsml, val) { // rule_round7c.go
		out.v = nil
	}
	if isJSON {
		if v, ok := decodeText(val); ok {
			out.v = v
		} else if v, ok := decodeStrict(strings.TrimSpace(val)); ok {
			out.v = v
		}
	}
	return out, next, true
}

// readArgPairs reads GLM's <arg_key>K</arg_key><arg_value>V</arg_value>
// pairs starting at s[p].
func readArgPairs(s string, p int) ([]kv, int) {
	var out []kv
	// Xing 4.0's GLM-like markup names its pairs <param_key>/<param_value>
	// (rule "glm_param_pairs", ms-swift's xing4_0 agent template).
	keyTag, valTag := "arg_key", "arg_value"
	if strings.HasPrefix(s[skipSpace(s, p):], "<param_key>") {
		keyTag, valTag = "param_key", "param_value"
	}
	if pairs, end, ok := glmPositionalPairs(s, p, keyTag, valTag); ok { // rule_round22.go
		return pairs, end
	}
	for {
		q := skipSpace(s, p)
		if !strings.HasPrefix(s[q:], "<"+keyTag+">") {
			return out, p
		}
		ks := q + len(keyTag) + 2
		ke, next, _ := valueEnd(s, ks, keyTag)
		key := strings.TrimSpace(s[ks:ke])
		q = skipStrayCloser(s, skipSpace(s, next), keyTag)
		var val string
		// found: a key with no value at all is an absent argument (rule
		// "glm_key_without_value" in rule_threads.go), not an empty one.
		found, cut := true, false
		if strings.HasPrefix(s[q:], "<"+valTag+">") {
			vs := q + len(valTag) + 2
			ve, n2, closed := valueEnd(s, vs, valTag)
			raw := s[vs:ve]
			cut = !closed && ve == len(s)
			if !closed {
				raw = messageEndValue(cutPartialCloser(raw), ve == len(s))
			}
			val = glmArgValue(raw) // rule_round22.go
			next = n2
		} else if v, n2, ok := glmValueNoOpener(s, q); ok && keyTag == "arg_key" {
			val, next = v, n2
		} else {
			found = false
		}
		if key != "" && found {
			out = append(out, kv{k: key, v: val, cut: cut})
		}
		if next <= p {
			return out, p
		}
		p = next
	}
}

// readXMLArgs reads arguments written as XML-style parameters (a server that
// put the markup itself in the arguments).
func readXMLArgs(text string) (map[string]any, bool) {
	args := map[string]any{}
	if strings.Contains(text, "<arg_key>") {
		pairs, _ := readArgPairs(text, strings.Index(text, "<arg_key>"))
		for _, p := range pairs {
			if _, dup := args[p.k]; !dup {
				args[p.k] = p.v
			}
		}
		return args, len(args) > 0
	}
	for i := 0; i < len(text); {
		j := strings.Index(text[i:], "<parameter")
		if j < 0 {
			break
		}
		j += i
		p, next, ok := readParam(text, j)
		if !ok {
			i = j + 1
			continue
		}
		if _, dup := args[p.k]; !dup {
			args[p.k] = p.v
		}
		i = max(next, j+1)
	}
	return args, len(args) > 0
}

func skipSpace(s string, p int) int {
	for p < len(s) && (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r') {
		p++
	}
	return p
}
