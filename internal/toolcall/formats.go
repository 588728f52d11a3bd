package toolcall

import (
	"strings"
)

// Readers for each way a call is written in the text. Each takes the
// position where its markup starts and returns the group of calls it read
// (empty when what it read is not a call), with the span to remove from the
// text.

// plausibleJSON is the cheap test before reading a bare { or [ as JSON:
// an object must start with a key, a list with an object.
func plausibleJSON(s string, q int) bool {
	p := skipSpace(s, q+1)
	if p >= len(s) {
		return false
	}
	if s[q] == '[' {
		return s[p] == '{'
	}
	switch c := s[p]; {
	case c == '"' || c == '\'' || c == '}':
		return true
	case strings.HasPrefix(s[p:], gemmaQuote):
		return true
	case isLetter(c) || c == '_':
		e := p
		for e < len(s) && (isIdent(s[e]) || s[e] == '-') {
			e++
		}
		e = skipSpace(s, e)
		return e < len(s) && s[e] == ':'
	}
	return false
}

// jsonAt reads JSON call objects (or a list of them) at s[q]. strong says
// call markup surrounds it, so that a cut or unreadable object is still a
// call attempt.
func (sc *scan) jsonAt(start, q int, strong bool) (group, bool) {
	s := sc.s
	if !strong && (!plausibleJSON(s, q) || (q > 0 && strings.IndexByte("'\"`=", s[q-1]) >= 0)) {
		// Not JSON, or JSON inside a quoted string (echo '{…}', -d '{…}'):
		// data for a command, not a call.
		return group{}, false
	}
	r := readValue(s, q, false)
	if r.fail != failNone {
		if r2, ok := quotedArgumentsObject(s, q); ok { // rule_round9l.go
			r = r2
		} else if strong && r.fail == failSyntax {
			// Inside call markup the call is meant: a missing comma between
			// members is mended there too (member_missing_comma,
			// rule_round18.go), never in JSON an answer shows.
			if r2 := readValueMended(s, q); r2.fail == failNone {
				r = r2
			}
		}
	}
	format := "JSON in the text"
	if strong {
		format = "JSON in call markup"
	}
	switch r.fail {
	case failNone:
		shaped := false
		if v, ok := functionKeyReply(s, q, r.end, r.v, sc.ts); !strong && ok { // rule_callshapes.go
			r.v = v
			r.notes = append(r.notes, "function key read as the name")
		}
		if !strong && smolagentsOutOfPlace(s, start, r.end, r.v) { // rule_redteam9.go
			return group{start: q, end: r.end}, true
		}
		if v, ok := callShapes(r.v, sc.ts, strong); ok && (strong || langChainAlone(s, q, r.end) || smolagentsAction(s, q, r.v)) { // rule_callshapes.go; langChainAlone: rule_redteam7.go
			r.v = v
			r.notes = append(r.notes, "another client's call object read")
			shaped = true
		}
		cs, ok := callsFrom(r.v, r.notes, format, strong)
		if shaped {
			keepStringArgs(cs) // rule_round10p.go
		}
		if !ok {
			if cs, ok := sc.genericEnvelope(q, r); ok {
				return group{start: start, end: r.end, cands: cs}, true
			}
			// Data, not a call: skip it whole so that nothing nested in it
			// is taken for a call.
			return group{start: q, end: r.end}, true
		}
		return group{start: start, end: sc.closers(r.end), cands: cs}, true
	case failEOF:
		if g, ok := sc.openLlamaEnvelope(start, q); ok {
			return g, true
		}
		cs := partialCalls(r.v, r.notes, format, strong, r.items)
		if len(cs) == 0 {
			if strong {
				return group{}, false
			}
			// The rest of the text is inside this value: whatever is
			// nested in it is not a top-level call.
			return group{start: q, end: len(s)}, true
		}
		return group{start: start, end: len(s), cands: cs}, true
	}
	m, _ := r.v.(map[string]any)
	if strong {
		m = firstCallMap(r.v)
	}
	name, _ := m["name"].(string)
	_, hasArgs := m["arguments"]
	_, hasParams := m["parameters"]
	if name == "" || !(hasArgs || hasParams || strong) {
		if !strong && r.end > q {
			// Unreadable JSON: what it holds is nested, not a top-level
			// call; skipping it keeps the scan linear.
			return group{start: q, end: r.end}, true
		}
		return group{}, false
	}
	c := candidate{name: name, fail: r.fail, msg: r.msg, key: r.key, fromText: true, format: format}
	return group{start: start, end: r.end, cands: []candidate{c}}, true
}

// callObject reads {"name": …, "arguments"|"parameters": …}.
func callObject(v any) (candidate, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return candidate{}, false
	}
	name, ok := m["name"].(string)
	if !ok {
		name, ok = cohereName(m)
	}
	if !ok || strings.TrimSpace(name) == "" || callRecord(m) {
		return candidate{}, false
	}
	args, hasArgs := m["arguments"]
	key := "arguments"
	// Llama's parameters, and langchain4j's inputs (rule "call_args_keys",
	// round 13: quarkiverse/quarkus-langchain4j#662). Anthropic's input and
	// Google's args stay data outside call markup (TestRuleCallShapes,
	// TestRuleGoogleArgs).
	for _, k := range []string{"parameters", "inputs"} {
		if hasArgs {
			break
		}
		args, hasArgs = m[k]
		key = k
	}
	if !hasArgs {
		return candidate{}, false
	}
	c := candidate{name: name}
	if key != "arguments" {
		c.notes = append(c.notes, key+" read as arguments")
	}
	switch a := args.(type) {
	case map[string]any:
		// A tool description repeated back (its parameters are a schema)
		// is not a call.
		if isSchemaShape(a) {
			return candidate{}, false
		}
		c.args = a
	case string:
		if dv, ok := decodeText(a); ok {
			if dm, ok := dv.(map[string]any); ok {
				c.args = dm
				c.notes = append(c.notes, "double-encoded arguments decoded")
				break
			}
		}
		t := strings.TrimSpace(a)
		if t != "" && (t[0] == '{' || t[0] == '[') {
			// JSON text in a string: read it, never take it as a raw body.
			r := readValue(t, 0, false)
			c.notes = append(c.notes, r.notes...)
			if r.fail != failNone {
				c.fail, c.msg, c.key = r.fail, r.msg, r.key
				break
			}
			if m, ok := r.v.(map[string]any); ok {
				c.args = m
				c.notes = append(c.notes, "double-encoded arguments decoded")
				break
			}
			c.fail, c.msg = failSyntax, "the arguments are not an object"
			break
		}
		c.args, c.strArgs = a, true
	case nil:
	default:
		c.fail, c.msg = failSyntax, "the arguments are not an object"
	}
	return c, true
}

// isSchemaShape reports whether "arguments" are a JSON schema: a properties
// object, or every value a {"type": …} description.
func isSchemaShape(a map[string]any) bool {
	if _, ok := a["properties"].(map[string]any); ok {
		return true
	}
	if len(a) == 0 {
		return false
	}
	for _, v := range a {
		m, ok := v.(map[string]any)
		if !ok {
			return false
		}
		if _, ok := m["type"].(string); !ok {
			return false
		}
	}
	return true
}

// openAIShape unwraps {"type":"function","function":{"name","arguments"}}
// (an OpenAI tool call written out), accepted inside call markup only: in
// prose it is documentation of the wire format.
func openAIShape(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	if _, hasName := m["name"]; hasName {
		return v
	}
	if f, ok := m["function"].(map[string]any); ok {
		if _, ok := f["name"].(string); ok {
			return f
		}
	}
	return v
}

func callsFrom(v any, notes []string, format string, strong bool) ([]candidate, bool) {
	env := false
	if u, ok := genericEnvelope(v); ok {
		v, env = u, true
		notes = append(append([]string(nil), notes...), "generic tool_calls envelope read")
	}
	var list []any
	switch x := v.(type) {
	case map[string]any:
		list = []any{x}
	case []any:
		list = x
	}
	if len(list) == 0 {
		return nil, false
	}
	var out []candidate
	for _, e := range list {
		if strong {
			e = openAIShape(e)
		} else if f, ok := llamaFunctionShape(e); ok {
			e = f
		}
		c, ok := callObject(e)
		if !ok && strong {
			c, ok = googleArgs(e)
		}
		if !ok && strong && len(list) == 1 {
			c, ok = nameOnlyCall(e)
		}
		if !ok && env {
			c, ok = functionKeyCall(e) // rule_round3a.go
		}
		if !ok && strong && len(list) == 1 {
			c, ok = argsOnlyCall(e)
		}
		if !ok {
			return nil, false
		}
		c.fromText, c.format = true, format
		c.notes = append(append([]string(nil), notes...), c.notes...)
		out = append(out, c)
	}
	return out, true
}

// partialCalls reads a value the text ended inside: the complete calls of
// a list left open are kept (complete is how many items were whole); the
// cut call is a truncation.
func partialCalls(v any, notes []string, format string, strong bool, complete int) []candidate {
	cut := func(name string) candidate {
		return candidate{name: name, fail: failEOF, fromText: true, format: format}
	}
	switch x := v.(type) {
	case map[string]any:
		name, _ := x["name"].(string)
		_, hasArgs := x["arguments"]
		_, hasParams := x["parameters"]
		if name != "" && (hasArgs || hasParams) || strong {
			c := cut(name)
			c.cutNoArgs = emptyCutArguments(x) // rule_round11s.go
			return []candidate{c}
		}
	case []any:
		var out []candidate
		for k, e := range x {
			if k < complete {
				c, ok := callObject(e)
				if !ok {
					return nil
				}
				c.fromText, c.format, c.notes = true, format, append(append([]string(nil), notes...), c.notes...)
				out = append(out, c)
				continue
			}
			if m, isMap := e.(map[string]any); isMap {
				name, _ := m["name"].(string)
				if name != "" || strong {
					out = append(out, cut(name))
				}
			}
		}
		if len(out) == 0 && strong {
			out = append(out, cut(""))
		}
		return out
	default:
		if strong {
			return []candidate{cut("")}
		}
	}
	return nil
}

// segment reads one call after a call-begin token: DeepSeek's
// function<｜tool▁sep｜>NAME```json{…}```, V3.1's NAME<｜tool▁sep｜>{…},
// Kimi's functions.NAME:0<|tool_call_argument_begin|>{…}, LFM's [{…}].
func (sc *scan) segment(start, p int) (group, bool) {
	s := sc.s
	q := skipSpace(s, p)
	if q < len(s) && (s[q] == '{' || s[q] == '[') {
		return sc.jsonAt(start, q, true)
	}
	// The segment ends at the call's end token, the next call, or the end.
	segEnd, after := len(s), len(s)
	sepAt, sepEnd := -1, -1
	for k := p; k < len(s); {
		x := strings.IndexByte(s[k:], '<')
		if x < 0 {
			break
		}
		x += k
		if name, te, gemma, ok := tokenAt(s, x); ok && !gemma {
			switch classifyTok(normTok(name), false) {
			case tkSep:
				if sepAt < 0 {
					sepAt, sepEnd = x, te
					if e := jsonArgsEnd(s, te); e > 0 {
						k = e
						continue
					}
				}
			case tkCloser:
				segEnd, after = x, te
			case tkCallBegin, tkWrapper, tkOutput:
				segEnd, after = x, x
			}
			if segEnd != len(s) {
				break
			}
			k = te
			continue
		}
		k = x + 1
	}
	var name, body string
	if sepAt >= 0 && sepAt < segEnd {
		left := strings.TrimSpace(s[p:sepAt])
		right := s[sepEnd:segEnd]
		if strings.EqualFold(left, "function") || left == "" {
			right = strings.TrimLeft(right, " \t")
			e := 0
			for e < len(right) && right[e] != '\n' && right[e] != '`' && right[e] != '{' && right[e] != ' ' {
				e++
			}
			name, body = right[:e], right[e:]
		} else {
			name, body = left, right
		}
	} else {
		seg := strings.TrimSpace(s[p:segEnd])
		e := 0
		for e < len(seg) && (isIdent(seg[e]) || seg[e] == '.' || seg[e] == '-' || seg[e] == ':') {
			e++
		}
		name, body = seg[:e], seg[e:]
	}
	if strings.TrimSpace(name) == "" {
		return group{}, false
	}
	c := bodyCandidate(name, body, "DeepSeek/Kimi call tokens")
	if c.fail == failEOF && after > segEnd {
		if cc, ok := argsBeforeCallEnd(name, body, s[segEnd:after], "DeepSeek/Kimi call tokens"); ok { // rule_round19.go
			c = cc
		}
	}
	return group{start: start, end: sc.closers(after), cands: []candidate{c}}, true
}

// bodyCandidate reads arguments written after a name: JSON (possibly in a
// ```json fence), nothing, or a raw text body.
func bodyCandidate(name, body, format string) candidate {
	c := candidate{name: name, fromText: true, format: format}
	b := strings.TrimSpace(body)
	if strings.HasPrefix(b, "```") {
		b = strings.TrimPrefix(b, "```")
		if nl := strings.IndexByte(b, '\n'); nl >= 0 && !strings.ContainsAny(b[:nl], "{[") {
			b = b[nl+1:]
		} else {
			b = strings.TrimLeft(b, "abcdefghijklmnopqrstuvwxyz")
		}
		b = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(b), "```"))
	}
	if b == "" {
		return c
	}
	if b[0] == '{' || b[0] == '[' {
		r := readValue(b, 0, false)
		c.notes = r.notes
		if r.fail != failNone {
			c.fail, c.msg, c.key = r.fail, r.msg, r.key
			return c
		}
		if _, ok := r.v.(map[string]any); !ok {
			c.fail, c.msg = failSyntax, "the arguments are not an object"
			return c
		}
		c.args = r.v
		return c
	}
	c.args = b
	return c
}

// harmonyCall reads a harmony message addressed to a tool.
func (sc *scan) harmonyCall(m harmonyMsg) {
	body := sc.s[m.bodyStart:m.bodyEnd]
	name, notes := harmonyRecipient(sc.ts, m.recipient)
	c := bodyCandidate(name, body, "harmony")
	c.notes = append(notes, c.notes...)
	sc.groups = append(sc.groups, group{start: m.start, end: sc.closers(m.end), cands: []candidate{c}})
}

// strippedHarmony reads a harmony call whose tokens the server removed:
// …commentary to=functions.NAME json{…}.
func (sc *scan) strippedHarmony(j int) (group, bool) {
	s := sc.s
	if !sc.strippedHeaderAt(j) {
		return group{}, false
	}
	p := j + len("to=")
	e := p
	for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
		e++
	}
	q := skipContentType(s, skipSpace(s, e))
	e -= strippedTypeCut(sc.ts, s[p:e])
	if n := harmonyNamespacedRecipient(sc.ts, s[p:e]); n != "" { // rule_round8j.go
		p = e - len(n)
	}
	if q >= len(s) || s[q] != '{' {
		return group{}, false
	}
	sc.sawOpener = true
	return sc.nameThenJSON(j, p, e, q, "harmony without its tokens")
}

// strippedTypeCut is gluedContentType for a stripped recipient, also in a
// nested namespace (to=api.fs.read_filejson).
func strippedTypeCut(ts *toolset, name string) int {
	if n := gluedContentType(ts, name); n > 0 || strings.Count(name, ".") < 2 {
		return n
	}
	low := strings.ToLower(name)
	for _, t := range harmonyContentTypes {
		if len(low) > len(t) && strings.HasSuffix(low, t) && harmonyNamespacedRecipient(ts, name[:len(name)-len(t)]) != "" {
			return len(t)
		}
	}
	return 0
}

// strippedKimi reads functions.NAME:0 followed by JSON arguments.
func (sc *scan) strippedKimi(j int) (group, bool) {
	s := sc.s
	e := j + len("functions.")
	for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
		e++
	}
	if e >= len(s) || s[e] != ':' {
		return group{}, false
	}
	d := e + 1
	for d < len(s) && s[d] >= '0' && s[d] <= '9' {
		d++
	}
	if d == e+1 {
		return group{}, false
	}
	q := skipSpace(s, d)
	if name, te, _, ok := tokenAt(s, q); ok && classifyTok(normTok(name), false) == tkSep {
		q = skipSpace(s, te)
	}
	if q >= len(s) || s[q] != '{' {
		return group{}, false
	}
	sc.sawOpener = true
	return sc.nameThenJSON(j, j, d, q, "Kimi call without its tokens")
}

// nameThenJSON reads a call written as a name followed by its JSON
// arguments object at s[q].
func (sc *scan) nameThenJSON(start, ns, ne, q int, format string) (group, bool) {
	s := sc.s
	c := candidate{name: s[ns:ne], fromText: true, format: format}
	r := readValue(s, q, false)
	c.notes = r.notes
	end := r.end
	switch {
	case r.fail != failNone:
		c.fail, c.msg, c.key = r.fail, r.msg, r.key
		if r.fail == failEOF {
			end = len(s)
		}
	default:
		if _, ok := r.v.(map[string]any); !ok {
			c.fail, c.msg = failSyntax, "the arguments are not an object"
		} else {
			c.args = r.v
		}
		end = sc.closers(end)
	}
	return group{start: start, end: end, cands: []candidate{c}}, true
}

// bracket handles [TOOL_CALLS], [ARGS], [TOOL_REQUEST], lists of JSON calls
// and pythonic lists.
func (sc *scan) bracket(j int) (group, bool) {
	s := sc.s
	switch {
	case strings.HasPrefix(s[j:], "[TOOL_CALL]"):
		return sc.minimaxToolCallBlock(j)
	case strings.HasPrefix(s[j:], "[Calling tool:"):
		return sc.callingToolBracket(j) // rule_round7b.go
	case strings.HasPrefix(s[j:], "[TOOL_CALLS]"):
		sc.sawOpener = true
		p := skipSpace(s, j+len("[TOOL_CALLS]"))
		if p < len(s) && (isLetter(s[p]) || s[p] == '_') {
			e := p
			for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
				e++
			}
			return sc.mistralArgs(j, p, e)
		}
		return sc.wrapped(j, p, false)
	case strings.HasPrefix(s[j:], "[ARGS]"):
		// NAME[ARGS]{…} with [TOOL_CALLS] stripped as a control token.
		k := j
		if c := strings.LastIndex(s[max(0, j-80):j], "[CALL_ID]"); c >= 0 {
			c += max(0, j-80)
			if !strings.ContainsAny(s[c:j], " \n") {
				k = c
			}
		}
		b := k
		for b > 0 && (isIdent(s[b-1]) || s[b-1] == '.' || s[b-1] == '-') {
			b--
		}
		if b == k {
			return group{}, false
		}
		sc.sawOpener = true
		return sc.mistralArgs(b, b, k)
	case strings.HasPrefix(s[j:], "[TOOL_REQUEST]"):
		sc.sawOpener = true
		return sc.wrapped(j, j+len("[TOOL_REQUEST]"), false)
	}
	if isPyListStart(s, j) {
		if g, ok := sc.pyList(j, j, false); ok {
			return g, ok
		}
		return sc.pyWholeReply(j)
	}
	return sc.jsonAt(j, j, false)
}

// mistralArgs reads NAME [CALL_ID]id [ARGS]{…} with the name at s[ns:ne].
func (sc *scan) mistralArgs(start, ns, ne int) (group, bool) {
	s := sc.s
	q := devstralSpacedArgs(s, ne) // rule_round8j.go
	if strings.HasPrefix(s[q:], "[CALL_ID]") {
		q += len("[CALL_ID]")
		for q < len(s) && s[q] != '[' && s[q] != '{' && s[q] != '\n' {
			q++
		}
	}
	if strings.HasPrefix(s[q:], "[ARGS]") {
		q += len("[ARGS]")
	}
	q = skipSpace(s, q)
	if q >= len(s) {
		c := candidate{name: s[ns:ne], fail: failEOF, fromText: true, format: "mistral [TOOL_CALLS]"}
		return group{start: start, end: len(s), cands: []candidate{c}}, true
	}
	if s[q] != '{' {
		if c, ok := mistralArgsWithoutBrace(s, ns, ne, q); ok { // rule_round13.go
			return group{start: start, end: len(s), cands: []candidate{c}}, true
		}
		return group{}, false
	}
	return sc.nameThenJSON(start, ns, ne, q, "mistral [TOOL_CALLS]")
}

// xmlCall reads <function=NAME> / <function name="NAME"> / <invoke
// name="NAME"> and its parameters (or a JSON body), with or without its
// closing tags.
func (sc *scan) xmlCall(start, j int, t xtag) (group, bool) {
	s := sc.s
	name := t.eq
	if name == "" {
		name = t.attrs["name"]
	}
	format := "XML <function=…> parameters"
	if t.name == "invoke" {
		format = "XML <invoke> parameters"
	}
	args, ok := xmlCallAttrs(t, sc.ts.schema(sc.ts.resolve(name))) // rule_redteam13.go
	if !ok {
		return group{}, false
	}
	var notes []string
	var body any
	var bodyText strings.Builder
	p := t.end
	closed := false
	ownKey, swallowed := "", false // ownNameCloser: rule_round10a.go
	var pairs []kv                 // for cutShellCommand: rule_round12l.go
loop:
	for {
		p = skipSpace(s, p)
		if p >= len(s) {
			break
		}
		switch s[p] {
		case '<':
			if kvp, next, ok := readParam(s, p); ok {
				pairs = append(pairs, kvp)
				if ownKey != "" && len(args) > 0 {
					swallowed = true
				}
				if kvp.ownCloser && ownKey == "" {
					ownKey = kvp.k
				}
				v := kvp.v
				if _, dup := args[kvp.k]; dup {
					notes = append(notes, "duplicate parameter "+kvp.k+" ignored")
				} else {
					args[kvp.k] = v
				}
				p = next
				continue
			}
			if t.name == "function" && t.eq == "" {
				if k, v, next, ok := readMiniCPMParam(s, p); ok { // rule_round9l.go
					if _, dup := args[k]; !dup {
						args[k] = v
					}
					p = next
					continue
				}
			}
			if t.name == "invoke" {
				if k, v, next, ok := readKeyElement(s, p); ok { // rule_minimaxm3.go
					if _, dup := args[k]; !dup {
						args[k] = v
					}
					p = next
					continue
				}
			}
			if tg, ok := readTag(s, p); ok {
				if tg.close && (tg.name == "function" || tg.name == "invoke") {
					p, closed = tg.end, true
					break loop
				}
				if tg.name == "tool_call" || tg.name == "function" || tg.name == "invoke" || tg.name == "function_calls" {
					break loop
				}
			}
			if _, _, _, ok := tokenAt(s, p); ok {
				break loop
			}
			bodyText.WriteByte('<')
			p++
		case '{', '[':
			if id := callIDBeforeJSON(s[p:]); id > 0 && len(args) == 0 && body == nil && bodyText.Len() == 0 { // rule_round15.go
				p += id
				notes = append(notes, "call id before the arguments skipped")
				continue
			}
			if len(args) == 0 && body == nil && bodyText.Len() == 0 {
				r := readValue(s, p, false)
				if r.fail != failNone {
					c := candidate{name: name, fail: r.fail, msg: r.msg, key: r.key, fromText: true, format: format}
					end := r.end
					if r.fail == failEOF {
						end = len(s)
					}
					return group{start: start, end: end, cands: []candidate{c}}, true
				}
				body = r.v
				notes = append(notes, r.notes...)
				p = r.end
				format = "<function=NAME>{JSON}"
				continue
			}
			fallthrough
		default:
			k := strings.IndexByte(s[p:], '<')
			if k < 0 {
				k = len(s) - p
			}
			bodyText.WriteString(s[p : p+k])
			p += k
		}
	}
	c := candidate{name: name, fromText: true, format: format, notes: notes}
	if swallowed {
		k := echoName(ownKey)
		c.fail, c.msg = failSyntax, "the "+k+" parameter is closed by </"+k+">, not </parameter>, so the parameters after it cannot be told from its value"
	} else if cutShellCommand(sc.ts, name, pairs) || cutWrappedValue(s, j, pairs) { // rule_round17.go
		// A command cut inside an open quote (Qwen3-Coder's and
		// MiniMax's <parameter> as GLM's <arg_value>).
		c.fail = failEOF
	}
	switch {
	case body != nil:
		c.args = body
	case len(args) > 0:
		c.args, c.xml = args, true
		c = xmlCommandEscaped(c, sc.ts) // rule_round17.go
	case closed && strings.TrimSpace(bodyText.String()) != "" && !strings.HasPrefix(strings.TrimSpace(bodyText.String()), "<"):
		// <function=bash>ls</function>: a raw body, taken only when the
		// call closes (an open one may be anything up to the end).
		c.args = strings.TrimSpace(paramCloserBody(bodyText.String())) // rule_round3a.go
	}
	return group{start: start, end: sc.closers(p), cands: []candidate{c}}, true
}

// pairArgs are the arguments of key/value pairs, the first of a key kept
// (GLM's and LongCat's).
func pairArgs(pairs []kv) (map[string]any, []string) {
	args := map[string]any{}
	var notes []string
	for _, kv := range pairs {
		if _, dup := args[kv.k]; dup {
			notes = append(notes, "duplicate argument "+kv.k+" ignored")
			continue
		}
		args[kv.k] = kv.v
	}
	return args, notes
}

// glm reads GLM's <tool_call>NAME<arg_key>K</arg_key><arg_value>V</arg_value>.
func (sc *scan) glm(start, ns, ne int) (group, bool) {
	s := sc.s
	pairs, p := readArgPairs(s, ne)
	args, notes := pairArgs(pairs)
	if len(pairs) == 0 && sc.ts.resolve(s[ns:ne]) == "" {
		// <tool_call>Hello</tool_call>: a marker around a word, not a call.
		return group{}, false
	}
	c := candidate{name: s[ns:ne], args: args, xml: true, fromText: true, format: "GLM <arg_key>/<arg_value>", notes: notes}
	if cutShellCommand(sc.ts, c.name, pairs) { // rule_round12l.go
		c.fail = failEOF
	} else if k := swallowedPair(pairs); k != "" { // rule_round17.go
		c.fail, c.msg = failSyntax, "the value of "+echoName(k)+" runs over a broken <arg_key>/<arg_value> pair after it"
	}
	return group{start: start, end: sc.closers(p), cands: []candidate{c}}, true
}

// glmBare reads GLM pairs whose <tool_call> was lost: the name is the word
// before the first <arg_key>.
func (sc *scan) glmBare(j int) (group, bool) {
	s := sc.s
	e := j
	for e > 0 && (s[e-1] == ' ' || s[e-1] == '\n' || s[e-1] == '\t') {
		e--
	}
	b := e
	for b > 0 && (isIdent(s[b-1]) || s[b-1] == '.' || s[b-1] == '-') {
		b--
	}
	if b == e || sc.ts.resolve(s[b:e]) == "" || !glmKeyHasValue(s, j) { // rule_redteam5.go
		return group{}, false
	}
	sc.sawOpener = true
	return sc.glm(b, b, e)
}

// gemma reads Gemma 4's call:NAME{k:<|"|>v<|"|>} (after <|tool_call> when
// strong; bare, only for a declared name, when not).
func (sc *scan) gemma(start, p int, strong bool) (group, bool) {
	s := sc.s
	q := skipSpace(s, p)
	hasCall := strings.HasPrefix(s[q:], "call:")
	if !hasCall {
		if !strong {
			return group{}, false
		}
	} else {
		q += len("call:")
	}
	e := q
	for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
		e++
	}
	name := s[q:e]
	nsName := gemmaNamespaced(name, sc.ts) // rule_round24.go
	if nsName != "" {
		name = nsName
	}
	if name == "" || (!strong && sc.ts.resolve(name) == "") {
		return group{}, false
	}
	r := gemmaRepeatedName(s, name, skipSpace(s, e)) // rule_round23.go
	if r < len(s) && s[r] == ':' {
		// The degenerate call:NAME: BEGIN_ARG … END_ARG form: positional
		// blocks with no names, often looping. Nothing in it can be read
		// safely.
		end := len(s)
		if k := strings.Index(s[r:], "<tool_call|>"); k >= 0 {
			end = r + k + len("<tool_call|>")
		}
		c := candidate{name: name, fail: failSyntax, msg: `positional BEGIN_ARG blocks have no argument names; write call:` + echoName(name) + `{key:<|"|>value<|"|>}`, fromText: true, format: "gemma"}
		return group{start: start, end: end, cands: []candidate{c}}, true
	}
	if r >= len(s) {
		if strong {
			c := candidate{name: name, fail: failEOF, fromText: true, format: "gemma"}
			return group{start: start, end: len(s), cands: []candidate{c}}, true
		}
		return group{}, false
	}
	if s[r] == '(' && hasCall && strong {
		return sc.gemmaParen(start, name, r)
	}
	if s[r] != '{' {
		return group{}, false
	}
	if strong {
		sc.sawOpener = true
	}
	if g, ok := sc.gemmaJSONInside(start, name, r); ok {
		return g, true
	}
	g, ok := sc.nameThenJSON(start, q, e, r, "gemma call:NAME{…}")
	if ok && nsName != "" {
		for i := range g.cands {
			g.cands[i].name = nsName
			g.cands[i].notes = append(g.cands[i].notes, "namespace before the name dropped")
		}
	}
	return g, ok
}

// gemmaJSONInside reads call:NAME{{"k": "v"}}: a JSON object written inside
// the envelope's own braces, the wire format NVIDIA-NeMo/Automodel#3885
// documents for Gemma 4 (call:NAME{ + the arguments as JSON + }). Only an
// object that parses whole and is followed by the envelope's } is read.
func (sc *scan) gemmaJSONInside(start int, name string, r int) (group, bool) {
	s := sc.s
	in := skipSpace(s, r+1)
	if in >= len(s) || s[in] != '{' {
		return group{}, false
	}
	v := readValue(s, in, false)
	args, ok := v.v.(map[string]any)
	if v.fail != failNone || !ok {
		return group{}, false
	}
	cl := skipSpace(s, v.end)
	if cl >= len(s) || s[cl] != '}' {
		return group{}, false
	}
	c := candidate{name: name, args: args, notes: append(v.notes, "JSON inside the call:NAME{…} envelope"), fromText: true, format: "gemma call:NAME{{…}}"}
	return group{start: start, end: sc.closers(cl + 1), cands: []candidate{c}}, true
}

// isPyListStart: [name( … — a list of Python-style calls.
func isPyListStart(s string, q int) bool {
	p := skipSpace(s, q+1)
	e := p
	for e < len(s) && (isIdent(s[e]) || s[e] == '.') {
		e++
	}
	if e == p || !(isLetter(s[p]) || s[p] == '_') {
		return false
	}
	return e < len(s) && s[e] == '('
}

// pyList reads [name(k=v), other(k=v)].
func (sc *scan) pyList(start, q int, strong bool) (group, bool) {
	s := sc.s
	p := q + 1
	var cs []candidate
	for {
		p = skipSpace(s, p)
		if p >= len(s) {
			if len(cs) == 0 && !strong {
				return group{}, false
			}
			break
		}
		e := p
		for e < len(s) && (isIdent(s[e]) || s[e] == '.') {
			e++
		}
		if e == p || e >= len(s) || s[e] != '(' {
			return group{}, false
		}
		name := strings.TrimSuffix(s[p:e], ".call")
		if !strong && sc.ts.resolve(name) == "" {
			return group{}, false
		}
		c, end, ok := pyArgs(s, name, e)
		if !ok && !strong {
			return group{}, false
		}
		c.format = "pythonic list"
		cs = append(cs, c)
		if c.fail == failEOF {
			return group{start: start, end: len(s), cands: cs}, true
		}
		if c.fail != failNone {
			// A value that is an expression: the call cannot be read,
			// and the model is told so.
			return group{start: start, end: end, cands: cs}, true
		}
		p = skipSpace(s, end)
		if p < len(s) && s[p] == ',' {
			p++
			continue
		}
		if p < len(s) && s[p] == ']' {
			p++
			break
		}
		if p >= len(s) {
			break
		}
		if !strong {
			return group{}, false
		}
		break
	}
	return group{start: start, end: sc.closers(p), cands: cs}, true
}

// pyCall reads one name(k=v) call after a wrapper.
func (sc *scan) pyCall(start, ns, ne int, strong bool) (group, bool) {
	s := sc.s
	name := strings.TrimSuffix(s[ns:ne], ".call")
	if !strong && sc.ts.resolve(name) == "" {
		return group{}, false
	}
	c, end, ok := pyArgs(s, name, skipSpace(s, ne))
	if !ok && !strong {
		return group{}, false
	}
	c.format = "pythonic call"
	if c.fail == failEOF {
		end = len(s)
	} else {
		end = sc.closers(end)
	}
	return group{start: start, end: end, cands: []candidate{c}}, true
}

// pyOwnLine reads name(k=v) standing alone on its line, for a declared
// tool name only: the same text inside a sentence is prose about code.
func (sc *scan) pyOwnLine(j int) (group, bool) {
	s := sc.s
	b := j
	for b > 0 && (isIdent(s[b-1]) || s[b-1] == '.') {
		b--
	}
	if b == j {
		return group{}, false
	}
	for k := b - 1; k >= 0 && s[k] != '\n'; k-- {
		if s[k] != ' ' && s[k] != '\t' {
			return group{}, false
		}
	}
	name := strings.TrimSuffix(s[b:j], ".call")
	if sc.ts.resolve(name) == "" && !sc.inToolCode(b) {
		return group{}, false
	}
	if sc.importBefore(b) && !sc.inToolCode(b) { // rule_round15.go
		return group{}, false
	}
	c, end, ok := pyArgs(s, name, j)
	if !ok {
		return group{}, false
	}
	claimed := false
	if c.fail != failEOF {
		le := strings.IndexByte(s[end:], '\n')
		if le < 0 {
			le = len(s) - end
		}
		if strings.Trim(s[end:end+le], " \t\r;") != "" {
			if claimed = claimAfterOpeningCall(s, b, end); !claimed { // rule_round18.go
				return group{}, false
			}
		}
	} else {
		end = len(s)
	}
	c.format = "pythonic call"
	if c.fail != failEOF && !claimed && !sc.inToolCode(b) && !sc.pyEndsReply(end) {
		return group{}, false
	}
	return group{start: b, end: sc.closers(end), cands: []candidate{c}}, true
}

var kwRe = lazyRegexp(`^([A-Za-z_][A-Za-z0-9_]*)\s*=[^=]`)

// pyArgs reads (k=v, …) at s[p] == '('. ok is false when it is not call
// syntax at all.
func pyArgs(s, name string, p int) (candidate, int, bool) {
	c := candidate{name: name, fromText: true}
	args := map[string]any{}
	var positional []any
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
		if key, ok := pyCutBeforeValue(s, p); ok { // rule_round11s.go
			c.fail, c.cutKey = failEOF, key
			return c, len(s), true
		}
		if m := kwRe().FindStringSubmatch(s[p:min(len(s), p+100)]); m != nil {
			key := m[1]
			p = skipSpace(s, p+len(key))
			p++ // =
			r := pyStringValue(s, p, readValue(s, p, true))
			if r.fail != failNone {
				c.fail, c.msg, c.key = r.fail, r.msg, r.key
				if r.fail == failSyntax {
					c.msg = "the value of " + echoName(key) + " is not a literal"
				}
				return c, r.end, true
			}
			c.notes = append(c.notes, r.notes...)
			if _, dup := args[key]; !dup {
				args[key] = r.v
			}
			p = r.end
		} else {
			r := readValue(s, p, true)
			if r.fail != failNone {
				if r.fail == failEOF {
					c.fail = failEOF
					return c, len(s), true
				}
				return c, p, false
			}
			positional = append(positional, r.v)
			p = r.end
		}
		p = skipSpace(s, p)
		if p < len(s) && s[p] == ',' {
			p++
			continue
		}
		if p < len(s) && s[p] == ')' {
			continue
		}
		if p >= len(s) {
			c.fail = failEOF
			return c, len(s), true
		}
		c.fail, c.msg = failSyntax, "the arguments are not literal values"
		return c, p, true
	}
	switch {
	case len(positional) == 0:
		c.args = args
	case len(positional) == 1 && len(args) == 0:
		if str, ok := positional[0].(string); ok {
			c.args = str
		} else if obj, ok := positional[0].(map[string]any); ok {
			// NAME({…}): the one positional argument is the arguments
			// object (paren_json_args, rule_round20.go).
			c.args = obj
			c.notes = append(c.notes, "JSON object as the one positional argument")
		} else {
			c.fail, c.msg = failSyntax, "use keyword arguments (name=value)"
		}
	default:
		c.fail, c.msg = failSyntax, "use keyword arguments (name=value)"
	}
	return c, p, true
}
