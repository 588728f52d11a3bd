package toolcall

import (
	"encoding/json"
	"sort"
	"strings"
)

// Rules for chat-template formats beyond Hermes, Mistral and Llama 3, each
// written from the format's parser or documentation (named on each rule).
// The scanner reaches them through small hooks: classifyTok (tokens),
// angle (Apertus), at (Functionary's recipient form), callObject (Cohere's
// tool_name), bracket (a reply that is only a pythonic list), pyOwnLine
// (Gemma's tool_code block) and reasoningRegions (Cohere's thinking).

// tkApertus is Apertus' <|tools_prefix|>: a list of {NAME: {arguments}}.
const tkApertus tokKind = 100

// templateTok classifies the tokens of these formats. Rule "cohere_action"
// (llama.cpp common/chat.cpp Command R7B, Ollama model/parsers/cohere.go):
// <|START_ACTION|>[…]<|END_ACTION|> holds the calls. Rule
// "apertus_name_as_key" (llama.cpp's Apertus format, FUNC_NAME_AS_KEY):
// <|tools_prefix|>[{"NAME": {…}}]<|tools_suffix|>.
func templateTok(n string) (tokKind, bool) {
	switch n {
	case "startaction":
		return tkWrapper, true
	case "endaction", "toolssuffix":
		return tkCloser, true
	case "toolsprefix":
		return tkApertus, true
	}
	return tkNone, false
}

// cohereName is rule "cohere_action"'s call object: Command R writes
// {"tool_call_id", "tool_name", "parameters"} (the tool_use template and
// llama.cpp's Command R7B parser), so tool_name names the tool.
func cohereName(m map[string]any) (string, bool) {
	name, ok := m["tool_name"].(string)
	if !ok || strings.TrimSpace(name) == "" {
		return "", false
	}
	if _, ok := m["parameters"]; !ok {
		return "", false
	}
	return name, true
}

var (
	cohereThinkOpen  = lazyRegexp(`<\|START_THINKING\|>`)
	cohereThinkClose = lazyRegexp(`<\|END_THINKING\|>`)
)

// cohereReasoning: Command R7B's <|START_THINKING|>…<|END_THINKING|> is
// reasoning; an <|END_THINKING|> alone closes thinking the prompt opened
// (Ollama's cohere parser starts in the thinking state).
func cohereReasoning(s string) []region {
	if !strings.Contains(s, "_THINKING|>") {
		return nil
	}
	return pairRegions(s, cohereThinkOpen(), cohereThinkClose())
}

// apertus reads rule "apertus_name_as_key": after <|tools_prefix|>, a JSON
// list whose elements each have one key, the tool name, holding the
// arguments object.
func (sc *scan) apertus(j, p int) (group, bool) {
	s := sc.s
	q := skipSpace(s, p)
	if q >= len(s) || (s[q] != '[' && s[q] != '{') {
		return group{}, false
	}
	r := readValue(s, q, false)
	const format = "Apertus <|tools_prefix|>"
	if r.fail != failNone {
		// A list that does not read: the call was attempted, and the model
		// is told why.
		c := candidate{name: apertusFirstKey(s[q:]), fail: r.fail, msg: r.msg, key: r.key, fromText: true, format: format}
		end := r.end
		if r.fail == failEOF {
			end = len(s)
		}
		return group{start: j, end: max(end, q+1), cands: []candidate{c}}, true
	}
	list, ok := r.v.([]any)
	if !ok {
		list = []any{r.v}
	}
	var cs []candidate
	for _, el := range list {
		m, ok := el.(map[string]any)
		if !ok || len(m) == 0 {
			return group{}, false
		}
		if len(m) > 1 {
			// Several names in one element: which call is meant is not
			// clear, so none runs and the model is told the shape.
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			cs = append(cs, candidate{name: keys[0], fail: failSyntax, msg: "write each call as its own {\"NAME\": {arguments}} element", fromText: true, format: format})
			continue
		}
		for name, args := range m {
			c := candidate{name: name, fromText: true, format: format, notes: append(append([]string(nil), r.notes...), "Apertus name-as-key call read")}
			if a, ok := args.(map[string]any); ok {
				c.args = a
			} else {
				c.fail, c.msg = failSyntax, "the arguments are not an object"
			}
			cs = append(cs, c)
		}
	}
	if len(cs) == 0 {
		return group{}, false
	}
	return group{start: j, end: sc.closers(r.end), cands: cs}, true
}

// apertusFirstKey is the tool name of a list that does not read, for the
// correction: the first quoted key.
func apertusFirstKey(s string) string {
	i := strings.IndexByte(s, '"')
	if i < 0 {
		return ""
	}
	k := strings.IndexByte(s[i+1:], '"')
	if k < 0 {
		return ""
	}
	return s[i+1 : i+1+k]
}

// functionaryRecipient reads rule "functionary_recipient" (Functionary v3.2,
// llama.cpp's FUNCTIONARY_V3_2 parser): each message starts with >>>NAME
// and a newline; "all" is the text for the user, any other recipient is a
// call whose body runs to the next >>> — JSON arguments, or for a code tool
// the raw code.
func (sc *scan) functionaryRecipient(j int) (group, bool) {
	s := sc.s
	if !strings.HasPrefix(s[j:], ">>>") || (j > 0 && s[j-1] == '>') {
		return group{}, false
	}
	p := j + 3
	e := p
	for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
		e++
	}
	if e == p || !(isLetter(s[p]) || s[p] == '_') {
		return group{}, false
	}
	nl := e
	for nl < len(s) && (s[nl] == ' ' || s[nl] == '\t' || s[nl] == '\r') {
		nl++
	}
	if nl >= len(s) || s[nl] != '\n' || s[p:e] == "all" || sc.insideFence(strings.LastIndexByte(s[:j], '\n')+1) {
		return group{}, false
	}
	q := skipSpace(s, nl+1)
	if q < len(s) && s[q] == '{' {
		g, ok := sc.nameThenJSON(j, p, e, q, "functionary >>>NAME")
		if g, ok = functionaryGroup(s, g, ok); ok {
			sc.sawOpener = true
		}
		return g, ok
	}
	sc.sawOpener = true
	end := len(s)
	if k := strings.Index(s[nl+1:], ">>>"); k >= 0 {
		end = nl + 1 + k
	}
	c := bodyCandidate(s[p:e], s[nl+1:end], "functionary >>>NAME")
	return group{start: j, end: end, cands: []candidate{c}}, true
}

// functionaryBare is rule "functionary_recipient" with the leading >>>
// consumed by the prompt (llama.cpp's FUNCTIONARY_V3_2 tests:
// "special_function\n{…}"): the reply's first line is a declared tool's
// name alone and the JSON arguments start the next line. Only at the start
// of the reply and only for a declared tool: elsewhere a word above an
// object is prose.
func (sc *scan) functionaryBare(q int) (group, bool) {
	s := sc.s
	ls, le, ok := lineAbove(s, q)
	if !ok || strings.TrimSpace(s[:ls]) != "" {
		return group{}, false
	}
	p := ls
	for p < le && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	e := p
	for e < le && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
		e++
	}
	if e == p || strings.TrimSpace(s[e:le]) != "" || sc.ts.resolve(s[p:e]) == "" {
		return group{}, false
	}
	g, ok := sc.nameThenJSON(p, p, e, q, "functionary NAME\\n{…}")
	return functionaryGroup(s, g, ok)
}

// inToolCode is rule "gemma_tool_code" (Gemma's prompted function calling:
// the call is written as Python in a ```tool_code block): a call there is
// a call attempt even to a tool that is not declared.
func (sc *scan) inToolCode(i int) bool {
	if !sc.toolCodeRead {
		sc.toolCodeRead = true
		sc.toolCode = toolCodeBlocks(sc.s)
	}
	// The last opener that ends before i; i is inside its block when its
	// first line has ended before i and no fence has begun after that
	// line and ended before i.
	k := sort.Search(len(sc.toolCode), func(k int) bool { return sc.toolCode[k].open+len("```tool_code") > i }) - 1
	if k < 0 {
		return false
	}
	b := sc.toolCode[k]
	return b.body >= 0 && b.body < i && b.fence+len("```") > i
}

// toolCodeBlock is a ```tool_code opener at open, the newline ending its
// line at body (-1: none), and the first fence from there at fence
// (len(s): none).
type toolCodeBlock struct{ open, body, fence int }

func toolCodeBlocks(s string) []toolCodeBlock {
	var out []toolCodeBlock
	for from := 0; ; {
		f := strings.Index(s[from:], "```tool_code")
		if f < 0 {
			return out
		}
		f += from
		b := toolCodeBlock{open: f, body: -1, fence: len(s)}
		if nl := strings.IndexByte(s[f:], '\n'); nl >= 0 {
			b.body = f + nl
			if c := strings.Index(s[b.body:], "```"); c >= 0 {
				b.fence = b.body + c
			}
		}
		out = append(out, b)
		from = f + 1
	}
}

// pyWholeReply is rule "pythonic_whole_reply" (vLLM's pythonic and
// llama4_pythonic parsers: the reply is calls only when the whole of it is
// a list [f(k=v), …]): such a reply is a call attempt even when a name is
// not a declared tool, so that the model learns which tools exist.
func (sc *scan) pyWholeReply(j int) (group, bool) {
	s := sc.s
	if strings.TrimSpace(s[:j]) != "" {
		return group{}, false
	}
	g, ok := sc.pyList(j, j, true)
	if !ok || len(g.cands) == 0 || strings.TrimSpace(s[g.end:]) != "" {
		return group{}, false
	}
	if r := strings.TrimRight(s[:g.end], " \t\r\n"); !strings.HasSuffix(r, "]") && !strings.HasSuffix(r, "|>") {
		return group{}, false
	}
	constructors := true
	for _, c := range g.cands {
		if _, ok := c.args.(map[string]any); !ok || c.fail != failNone {
			return group{}, false
		}
		constructors = constructors && capWordsName(c.name) && sc.ts.resolve(c.name) == ""
	}
	if constructors {
		return group{}, false
	}
	return g, true
}

// templateMayHaveCalls is the quick check for the two rules whose calls
// need no declared name: a ```tool_code block, and a reply that is only a
// pythonic list.
func templateMayHaveCalls(s string) bool {
	if strings.Contains(s, "```tool_code") {
		return true
	}
	t := strings.TrimLeft(s, " \t\r\n")
	return strings.HasPrefix(t, "[") && isPyListStart(t, 0)
}

// firstCallMap is the call object of a value that did not read: the object
// itself, or the first object of a list (a list of calls in call markup
// whose arguments never close, as Nemotron's <TOOLCALL>[…] with a brace
// missing).
func firstCallMap(v any) map[string]any {
	switch x := v.(type) {
	case map[string]any:
		return x
	case []any:
		if len(x) > 0 {
			m, _ := x[0].(map[string]any)
			return m
		}
	}
	return nil
}

// pyStringValue is rule "python_unescaped_quote" (vLLM's lfm2 parser test
// NESTED_QUOTE_FUNCTION_OUTPUT: bash(command='sed -n '360,450p' f.py')): a
// string argument that closed where no , or ) follows was cut at a quote
// of the same style inside it; read again with the unescaped-quote rule,
// it is kept when it then ends where an argument ends.
func pyStringValue(s string, p int, r readResult) readResult {
	if _, ok := r.v.(string); !ok || r.fail != failNone || pyArgEnd(s, r.end) {
		return r
	}
	h := readPass(s, p, true, true)
	if _, ok := h.v.(string); ok && h.fail == failNone && pyArgEnd(s, h.end) {
		h.notes = append(h.notes, "unescaped quote in a string")
		return h
	}
	// Quotes of both kinds nested in the value (a python -c payload in a
	// shell command): the string runs to the first quote of its style after
	// which the argument ends; \' inside it is a quote.
	o := skipSpace(s, p)
	q := s[o]
	if q != '\'' && q != '"' {
		return r
	}
	for k := r.end; k < len(s); k++ {
		if s[k] == q && s[k-1] != '\\' && pyArgEnd(s, k+1) {
			v := strings.ReplaceAll(s[o+1:k], "\\"+string(q), string(q))
			notes := append(append([]string(nil), r.notes...), "unescaped quote in a string")
			return readResult{v: v, end: k + 1, notes: notes}
		}
	}
	return r
}

// pyArgEnd: at s[i], after spaces, an argument ends — the end of the
// text, a comma and the next keyword (k=), or the call's ) followed by what
// may follow a call (the end, , ] ; a newline or a token).
func pyArgEnd(s string, i int) bool {
	i = skipSpace(s, i)
	if i >= len(s) {
		return true
	}
	switch s[i] {
	case ',':
		return kwRe().MatchString(s[skipSpace(s, i+1):min(len(s), i+101)])
	case ')':
		k := i + 1
		for k < len(s) && (s[k] == ' ' || s[k] == '\t') {
			k++
		}
		return k >= len(s) || strings.IndexByte(",];\r\n<", s[k]) >= 0
	}
	return false
}

// paddedInt returns the zero-padded integer t (digits only) read up to j
// as its decimal value (rule "python_zero_padded_int").
func (p *lenient) paddedInt(j int, neg bool, t string) (json.Number, bool) {
	t = strings.TrimLeft(t, "0")
	if t == "" {
		t = "0"
	}
	if neg && t != "0" {
		t = "-" + t
	}
	p.note("zero-padded integer")
	p.i = j
	return json.Number(t), true
}

// lineAbove is the line that ends right before s[q] (an object opening the
// next line): its start and end, without the line break. The formats that
// write a call as NAME on a line and its JSON on the next (Functionary's
// bare recipient, the markerless NAME\n{…}) read the name there.
func lineAbove(s string, q int) (ls, le int, ok bool) {
	if q == 0 || s[q-1] != '\n' {
		return 0, 0, false
	}
	le = q - 1
	if le > 0 && s[le-1] == '\r' {
		le--
	}
	return strings.LastIndexByte(s[:le], '\n') + 1, le, true
}
