package toolcall

import (
	"strconv"
	"strings"
)

// Rule "generic_markup": the last reader, for call markup that no format's
// rule knows. Rounds 10–12 of fresh output (issue #25) each brought a format
// no rule read — Step3's <steptml:invoke>, DSML tags named after the tool,
// LongCat's <longcat_arg_key>, GLM 4.7's NAME key=value — and about one
// case in five was lost to them before its rule was written. What those
// formats share is what any call needs: a declared tool's name in a slot
// of the markup (a name attribute, a tag named after the tool, the word
// after a call token) and that tool's own parameter names as keys. This
// reader reads those two things from the declared schemas, not from one
// format's spelling, and only where the markup is plainly the model's act:
// it starts its own line, nothing but the markup follows it to the end of
// the reply, and no lead-in shows it as an example (notIntended). Code,
// reasoning and inline code are never read.

// genericMarkupCalls reads the calls of the markup closing s; lead is the
// text before it. Any doubt about one call (text left over between its
// values, a key of no tool) drops the whole block.
func genericMarkupCalls(s string, ts *toolset) (cands []candidate, lead string, noName, ok bool) {
	if !strings.ContainsAny(s, "<[") {
		return nil, "", false, false
	}
	code := append(append(codeRegions(s), heredocRegions(s)...), plainFenceRegions(s)...)
	skip := append(append(reasoningRegions(s), code...), inlineCodeRegions(blank(s, code))...)
	m := blank(s, mergeRegions(skip))
	start, found := genericBlockStart(m, ts)
	if !found || !genericBlockCloses(m, start) {
		return nil, "", false, false
	}
	if !genericLeadActs(m, start) {
		return nil, "", false, false
	}
	slots := genericSlots(m, start, ts)
	if len(slots) == 0 {
		return nil, "", genericNoName(m, start, ts), false
	}
	for k, sl := range slots {
		end := len(s)
		if k+1 < len(slots) {
			end = slots[k+1].at
		}
		if end < sl.args {
			return nil, "", false, false // two readings overlap: no guess
		}
		c, clean := genericArgs(s, sl, end, ts)
		if !clean || genericImplausible(c) {
			return nil, "", false, false
		}
		cands = append(cands, c)
	}
	// One call of the block cut: none of it runs (each cut call is
	// corrected), as for every other format.
	var cut []candidate
	for _, c := range cands {
		if c.fail == failEOF {
			cut = append(cut, c)
		}
	}
	if len(cut) > 0 {
		cands = cut
	}
	return cands, strings.TrimSpace(s[:start]), false, true
}

// genericNoName reports a block of call markup that names no tool at all
// and holds nothing but tokens or a broken object: <|START_ACTION|>{"tool_name":
// invalid}<|END_ACTION|>, [TOOL_CALLS] [{"name": }], a Kimi section with
// only its end tokens. The model tried a call; it is told the call has no
// name (and the constrained retry may follow) instead of being shown the
// markup as its answer. Prose inside the markup (<tool_call>Hello</tool_call>),
// a name of any kind, an unfinished sentence before it ("MiniMax's call
// token is") keep it an answer.
func genericNoName(m string, start int, ts *toolset) bool {
	// Control tokens only, as the whole reply: XML tags named action or
	// invoke are also Struts, Android, BPEL and plugin.xml elements (red
	// team 13n003, 13n017, 13n023), and markup after a sentence may be
	// quoted (13n019).
	if !genericStrongAt(m, start) || (m[start] == '<' && !strings.HasPrefix(m[start:], "<|") && !strings.HasPrefix(m[start:], "<｜")) {
		return false
	}
	if strings.TrimSpace(m[:start]) != "" && !genericLeadActs(m, start) {
		return false
	}
	body := genericStripTokens(m[start:])
	body = strings.TrimSpace(strings.TrimPrefix(body, "[TOOL_CALLS]"))
	if body == "" && strings.Count(m[start:], "<") < 2 {
		return false // an opener alone: quoted as the answer ("The opener is:\n<｜tool▁calls▁begin｜>")
	}
	if body != "" && body[0] != '{' && body[0] != '[' {
		return false
	}
	if strings.Join(strings.Fields(body), "") == "[]" || strings.Join(strings.Fields(body), "") == "{}" {
		return false // an empty call list holds no call (vllm#58072: granite-e001)
	}
	// A broken object must have tried to name its tool ({"name": },
	// {"tool_name": invalid}); [TOOL_CALLS]{"content": Movement complete}
	// is an answer in a fake marker (mistral-008). A name given as a
	// string is a name, not none.
	if body == "" || callNameKeyRe().MatchString(body) && !namedValueRe().MatchString(body) {
		return true
	}
	// The arguments alone, of one declared tool, inside call markup
	// (Kimi's call with no functions.NAME:0, Gemma's <|tool_call> with no
	// call:NAME): the call lost its name.
	return argsOfATool(body, ts)
}

// argsOfATool reports an object whose keys are all parameters of one
// declared tool and hold every argument it requires.
func argsOfATool(body string, ts *toolset) bool {
	obj, ok := readValue(body, 0, false).v.(map[string]any)
	if !ok || len(obj) == 0 {
		return false
	}
	for _, n := range ts.names {
		o := ts.schema(n)
		if o == nil {
			continue
		}
		all := true
		for k := range obj {
			if !o.has(k) {
				all = false
				break
			}
		}
		for _, r := range o.required {
			if _, ok := obj[r]; !ok {
				all = false
			}
		}
		if all {
			return true
		}
	}
	return false
}

// callNameKeyRe is a key a call object names its tool under; namedValueRe the
// same with a string value.
var (
	callNameKeyRe = lazyRegexp(`"(name|tool_name|tool|function|recipient_name)"\s*:`)
	namedValueRe  = lazyRegexp(`"(name|tool_name|tool|function|recipient_name)"\s*:\s*"`)
)

// genericStrongAt: call markup no answer writes for another reason at
// m[i].
func genericStrongAt(m string, i int) bool {
	if strings.HasPrefix(m[i:], "[TOOL_CALLS]") {
		return true
	}
	var n string
	if name, _, _, ok := tokenAt(m, i); ok {
		n = normTok(name)
	} else if t, ok := tagAt(m, i); ok && !t.close {
		n = normTok(genericLocal(t.name))
	}
	return strings.Contains(n, "toolcall") || strings.Contains(n, "functioncall") || strings.Contains(n, "action") || n == "invoke" || n == "tooluse"
}

// plainFenceRegions are the ``` and ~~~ blocks of any language: markup
// shown in a fence is never read by this reader (the fenced formats have
// their own rules).
func plainFenceRegions(s string) []region {
	var out []region
	open, marker := -1, ""
	for i := 0; i < len(s); {
		e := strings.IndexByte(s[i:], '\n')
		if e < 0 {
			e = len(s)
		} else {
			e += i
		}
		line := strings.TrimSpace(s[i:e])
		switch {
		case open < 0 && (strings.HasPrefix(line, "```") || strings.HasPrefix(line, "~~~")):
			open, marker = i, line[:3]
		case open >= 0 && strings.HasPrefix(line, marker) && strings.Trim(line, marker[:1]) == "":
			out = append(out, region{open, min(e+1, len(s))})
			open = -1
		}
		i = e + 1
	}
	if open >= 0 {
		out = append(out, region{open, len(s)})
	}
	return out
}

// codeSpans are the parts of s a reader of special-token formats leaves
// alone: fences of any kind (labelled or plain) and inline code spans
// outside them, merged.
func codeSpans(s string) []region {
	code := append(codeRegions(s), plainFenceRegions(s)...)
	return mergeRegions(append(code, inlineCodeRegions(blank(s, code))...))
}

// genericSlot is where a tool's name was found: at is the start of the
// markup that names it, args where its arguments may begin.
type genericSlot struct {
	name   string
	at     int
	args   int
	closer string // the tag a tool-named element closes with (<bash>…</bash>)
	py     bool   // NAME( … ): pythonic arguments
	attrs  map[string]string
}

// genericLocal is a tag's name without its namespace (steptml:invoke →
// invoke, minimax:tool_call → tool_call).
func genericLocal(name string) string {
	if i := strings.LastIndexAny(name, ":."); i >= 0 {
		return name[i+1:]
	}
	return name
}

// genericCallWord reports a token or tag name (normTok form) that names
// call markup: tool_call, function_calls, invoke, tool_use…, not a tool's
// output.
func genericCallWord(n string) bool {
	if strings.Contains(n, "response") || strings.Contains(n, "result") || strings.Contains(n, "output") {
		return false
	}
	for _, w := range []string{"tool", "call", "function", "invoke", "action"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// genericParamWord is a tag that holds one argument.
func genericParamWord(local string) bool {
	switch local {
	case "parameter", "param", "arg", "argument", "arg_key", "arg_value", "key", "value":
		return true
	}
	return strings.HasSuffix(local, "_parameter") || strings.HasSuffix(local, "arg_key") || strings.HasSuffix(local, "arg_value")
}

// exactTool is the declared tool a word names exactly (case aside, with
// the functions. prefix and a :N index taken off); no near name is guessed
// here, since this reader has no format to vouch for the markup.
func (ts *toolset) exactTool(w string) string {
	if w == "" {
		return ""
	}
	return ts.lower[strings.ToLower(cleanName(w))]
}

// genericBlockStart finds the first call markup that starts its own line
// (or follows a sentence's end on it). The line's start is carried along,
// not looked for again at each '<' (a long line of them would be read once
// per '<').
func genericBlockStart(m string, ts *toolset) (int, bool) {
	ls, prev := 0, 0
	for i := 0; i < len(m); {
		j := strings.IndexAny(m[i:], "<[")
		if j < 0 {
			break
		}
		j += i
		if m[j] == '[' && !strings.HasPrefix(m[j:], "[TOOL_CALLS]") {
			i = j + 1
			continue
		}
		if nl := strings.LastIndexByte(m[prev:j], '\n'); nl >= 0 {
			ls = prev + nl + 1
		}
		prev = j
		if genericOpenerAt(m, j, ts) {
			if at, ok := genericLineStart(m, ls, j, ts); ok {
				return at, true
			}
		}
		i = j + 1
	}
	return 0, false
}

// genericOpenerAt reports call markup opening at m[j]: a control token or a
// tag whose name is call markup, or a tag that names a declared tool. A
// separator (<|tool_call_argument_begin|>, <｜tool▁sep｜>) opens nothing.
func genericOpenerAt(m string, j int, ts *toolset) bool {
	if m[j] == '[' {
		return true // [TOOL_CALLS]: genericBlockStart
	}
	if name, _, _, isTok := tokenAt(m, j); isTok {
		n := normTok(name)
		if strings.HasPrefix(n, "/") || strings.Contains(n, "end") || strings.Contains(n, "arg") || strings.Contains(n, "sep") {
			return false
		}
		return genericCallWord(n)
	}
	t, isTag := tagAt(m, j)
	if !isTag || t.close {
		return false
	}
	local := genericLocal(t.name)
	if genericParamWord(local) {
		return false
	}
	return genericCallWord(normTok(local)) || ts.exactTool(local) != ""
}

// genericLineStart: only blanks, a sentence's end, or a Kimi-style bare
// NAME:INDEX (which then starts the block) come before the markup at j on
// the line starting at ls. Only the line's last 200 bytes are read.
func genericLineStart(m string, ls, j int, ts *toolset) (int, bool) {
	from := max(ls, j-200)
	pre := strings.TrimSpace(m[from:j])
	if pre == "" || strings.HasSuffix(pre, ".") || strings.HasSuffix(pre, "!") || strings.HasSuffix(pre, "?") {
		return j, true
	}
	// "Let me look: <tool_call>…", not a word glued to a colon (bash:).
	if strings.HasSuffix(pre, ":") && strings.ContainsAny(pre, " \t") {
		return j, true
	}
	if from == ls && genericBareID(pre, ts) != "" {
		return from + strings.Index(m[from:j], pre), true
	}
	// NAME<|token|> after a sentence or other markup (Inkling's
	// <|message_model|>bash<|content_invoke_tool_json|>{…}).
	if _, at, ok := genericNameBefore(m, j, ts); ok {
		if lead := genericStripTokens(m[from:at]); lead == "" || strings.ContainsAny(lead[len(lead)-1:], ".!?:") {
			return at, true
		}
	}
	return 0, false
}

// genericNameBefore reads a declared tool's name glued to the markup at j,
// with only markup or the line's start before it.
func genericNameBefore(m string, j int, ts *toolset) (string, int, bool) {
	k := j
	for k > 0 && j-k < 64 && (isIdent(m[k-1]) || m[k-1] == '.' || m[k-1] == ':' || m[k-1] == '-') {
		k--
	}
	if k == j || (k > 0 && m[k-1] != '>' && m[k-1] != '\n') {
		return "", 0, false
	}
	n := ts.exactTool(m[k:j])
	return n, k, n != ""
}

// genericBareID is the tool of a bare NAME:INDEX (Kimi's id without its
// functions. prefix and its tokens).
func genericBareID(w string, ts *toolset) string {
	i := strings.LastIndexByte(w, ':')
	if i <= 0 || strings.Trim(w[i+1:], "0123456789") != "" || i+1 == len(w) {
		return ""
	}
	return ts.exactTool(w[:i])
}

// genericBlockCloses: nothing but the markup follows the block's start to
// the end of the reply. After the last tag or token only blanks may come,
// unless that tag opens a value the reply was cut in (or ends without
// closing).
func genericBlockCloses(m string, start int) bool {
	tail := strings.TrimRight(m[start:], " \t\r\n")
	last := strings.LastIndexByte(tail, '>')
	if strings.HasPrefix(tail, "[TOOL_CALLS]") && last < 0 {
		last = len("[TOOL_CALLS]") - 1
	}
	if last < 0 {
		return false
	}
	after := strings.TrimSpace(tail[last+1:])
	if after == "" {
		return true
	}
	// A JSON value after the last markup ends the reply: it is the call's
	// body (Kimi's arguments, [TOOL_CALLS] [{…}]), if nothing follows it.
	if after[0] == '{' || after[0] == '[' {
		q := start + last + 1
		q = skipSpace(m, q)
		r := readValue(m[:start+len(tail)], q, false)
		if strings.TrimSpace(m[r.end:]) == "" {
			return true
		}
		// A broken object on the markup's last line, closed as the reply
		// ends ([TOOL_CALLS] [{"name": }]).
		if r.fail == failSyntax && !strings.Contains(after, "\n") && strings.ContainsAny(after[len(after)-1:], "}]") {
			return true
		}
	}
	// Find the markup that ends at last: a value opened by it and never
	// closed runs to the end.
	open := strings.LastIndexByte(tail[:last], '<')
	if open < 0 {
		return false
	}
	p := start + open
	if name, e, _, ok := tokenAt(m, p); ok && e == start+last+1 {
		n := normTok(name)
		return !strings.HasPrefix(n, "/") && !strings.Contains(n, "end") && genericCallWord(n)
	}
	if t, ok := tagAt(m, p); ok && t.end == start+last+1 && !t.close {
		// A value tag, or a call's own opener, cut; not any tag.
		local := genericLocal(t.name)
		return genericParamWord(local) || genericCallWord(normTok(local)) || t.eq != "" || t.attrs["name"] != ""
	}
	return false
}

// genericSlots finds the declared tools the block names, in order.
func genericSlots(m string, start int, ts *toolset) []genericSlot {
	var out []genericSlot
	add := func(sl genericSlot) {
		// <｜tool▁sep｜>edit_file then <steptml:invoke name="edit_file">:
		// one call named twice, when nothing came between the two.
		if n := len(out); n > 0 {
			prev := out[n-1]
			if prev.args > sl.at {
				// The same name read twice (NAME<|token|>{"name": NAME}):
				// one slot, the later reading of its arguments.
				if prev.name == sl.name {
					sl.at = prev.at
					out[n-1] = sl
				}
				return
			}
			if prev.name == sl.name && genericStripTokens(m[prev.args:sl.at]) == "" {
				sl.at = prev.at
				out[n-1] = sl
				return
			}
		}
		out = append(out, sl)
	}
	for i := start; i < len(m) && len(out) < maxGroups; {
		// A line of the block that starts with NAME:INDEX glued to a call
		// token names a call too (Kimi's id without functions.). A line
		// that merely starts with a tool's name (NAME(…) in a file's
		// content) does not: red team 13n119.
		if i == start || m[i-1] == '\n' {
			p := skipSpace(m, i)
			w, we := genericWord(m, p)
			if n := genericBareID(w, ts); n != "" && we < len(m) && m[we] == '<' && genericOpenerAt(m, we, ts) {
				add(genericSlot{name: n, at: p, args: we})
				i = we
				continue
			}
		}
		if m[i] != '<' {
			i++
			continue
		}
		if n, at, ok := genericNameBefore(m, i, ts); ok && genericOpenerAt(m, i, ts) {
			add(genericSlot{name: n, at: at, args: i})
		}
		if sl, ok := genericSlotAt(m, i, ts); ok {
			add(sl)
			i = max(sl.args, i+1)
			continue
		}
		i++
	}
	return out
}

// genericSlotAt reads a tool's name in the markup at m[i].
func genericSlotAt(m string, i int, ts *toolset) (genericSlot, bool) {
	after := func(p int) (genericSlot, bool) {
		q := skipSpace(m, p)
		if t, ok := tagAt(m, q); ok && !t.close && (t.name == "name" || t.name == "tool_name") {
			q = skipSpace(m, t.end)
			w, we := genericWord(m, q)
			if n := ts.exactTool(w); n != "" {
				if ct, ok := tagAt(m, skipSpace(m, we)); ok && ct.close && ct.name == t.name {
					return genericSlot{name: n, at: i, args: ct.end}, true
				}
			}
			return genericSlot{}, false
		}
		w, we := genericWord(m, q)
		if n := ts.exactTool(w); n != "" {
			sl := genericSlot{name: n, at: i, args: we}
			sl.py = we < len(m) && m[we] == '('
			return sl, true
		}
		// {"tool_name": "bash", …}: a call object names its tool, after
		// markup no format's rule reads (a wrapper the scanner knows,
		// <tool_call> or <|tool_call|>, had its JSON read there, with the
		// lead-in checks that go with it).
		if q < len(m) && m[q] == '{' && !knownWrapperAt(m, i) {
			if obj, ok := readValue(m, q, false).v.(map[string]any); ok {
				if n := ts.exactTool(genericObjectName(obj)); n != "" {
					return genericSlot{name: n, at: i, args: q}, true
				}
			}
		}
		return genericSlot{}, false
	}
	if name, e, _, ok := tokenAt(m, i); ok {
		n := normTok(name)
		if strings.HasPrefix(n, "/") || strings.Contains(n, "end") {
			return genericSlot{}, false
		}
		return after(e)
	}
	t, ok := tagAt(m, i)
	if !ok || t.close {
		return genericSlot{}, false
	}
	local := genericLocal(t.name)
	if genericParamWord(local) {
		return genericSlot{}, false
	}
	callish := genericCallWord(normTok(local))
	// A name attribute names a tool only on call markup (<x:invoke
	// name=…>, <function=…>): <tool name="bash"> of a Galaxy tool file or
	// <function name=…> of GObject-Introspection is not (red team 13n007,
	// 13n016; the second has parameters, not a call's).
	if n := ts.exactTool(t.eq); n != "" && callish {
		return genericSlot{name: n, at: i, args: t.end, attrs: t.attrs}, true
	}
	if n := ts.exactTool(t.attrs["name"]); n != "" && callish && !strings.Contains(t.name, "-") {
		return genericSlot{name: n, at: i, args: t.end, attrs: t.attrs}, true
	}
	// A tag named after the tool only in a namespace (<x:read_file>,
	// DSML's <｜DSML｜read_file>): a bare <bash> or <lsp> is Cline's format
	// (its own rule) or a config file's element (13n002, 13n010).
	if n := ts.exactTool(local); n != "" && (t.dsml || local != t.name) {
		return genericSlot{name: n, at: i, args: t.end, closer: t.name, attrs: t.attrs}, true
	}
	if callish {
		// <name>bash</name>: the tool named in its own element
		// (<tool_call><name>bash</name><arguments>{…}</arguments>: 13n108).
		return after(t.end)
	}
	return genericSlot{}, false
}

// genericWord reads a name at m[p]: letters, digits, _ - . and a :N index.
func genericWord(m string, p int) (string, int) {
	e := p
	for e < len(m) && (isIdent(m[e]) || m[e] == '-' || m[e] == '.') {
		e++
	}
	if e < len(m) && m[e] == ':' {
		d := e + 1
		for d < len(m) && m[d] >= '0' && m[d] <= '9' {
			d++
		}
		if d > e+1 {
			e = d
		}
	}
	return strings.TrimRight(m[p:e], "."), e
}

// genericStripTokens removes control tokens and tags from a stretch of
// markup, leaving what was written between them.
func genericStripTokens(w string) string {
	var b strings.Builder
	for i := 0; i < len(w); {
		if w[i] == '<' {
			if _, e, _, ok := tokenAt(w, i); ok {
				i = e
				b.WriteByte(' ')
				continue
			}
			if t, ok := tagAt(w, i); ok {
				i = t.end
				b.WriteByte(' ')
				continue
			}
		}
		b.WriteByte(w[i])
		i++
	}
	// DeepSeek's type word before <｜tool▁sep｜> is markup too.
	return strings.TrimSpace(strings.ReplaceAll(b.String(), "function", ""))
}

// genericArgs reads one call's arguments between its name and end: a JSON
// object, pythonic arguments, or one value per parameter of the tool in
// any of the shapes XML-style formats give them. clean is false when text
// is left between the values: prose around markup is not a call.
func genericArgs(s string, sl genericSlot, end int, ts *toolset) (c candidate, clean bool) {
	c = candidate{name: sl.name, fromText: true, format: "generic markup"}
	body := s[:end]
	rest := func(from int) bool { return genericStripTokens(body[min(from, end):end]) == "" }
	if sl.py {
		pc, p, ok := pyArgs(body, sl.name, sl.args)
		if !ok {
			return c, false
		}
		pc.format = c.format
		return pc, rest(p)
	}
	// Tokens and separators between the name and a JSON object.
	q := sl.args
	argsTag := "" // the element the object is in
	for {
		q = skipSpace(body, q)
		if _, e, _, ok := tokenAt(body, q); ok {
			q = e
			continue
		}
		// <function>bash</function>{…}: the closer of the tag that held
		// the name (hermes-13h001); <arguments>{…}</arguments>: the
		// element that holds the object (13n108).
		if t, ok := tagAt(body, q); ok && (t.close || genericArgsTag(t.name)) {
			if !t.close {
				argsTag = t.name
			}
			q = t.end
			continue
		}
		break
	}
	if q < len(body) && body[q] == '{' {
		r := readValue(body, q, false)
		obj, isObj := r.v.(map[string]any)
		switch {
		case r.fail == failEOF:
			c.fail = failEOF
			return c, true
		case r.fail == failSyntax && argsTag != "":
			// Rule "broken_object_in_arguments" (round 18h, llxprt's
			// malformed generic XML): the name is in its slot and the
			// object in its element, closed; only the object is broken.
			// The call was meant; the model is told it could not be read.
			if k := strings.Index(strings.ToLower(body[q:]), "</"+argsTag+">"); k >= 0 {
				c.fail, c.msg = failSyntax, r.msg
				return c, rest(q + k + len(argsTag) + 3)
			}
			return c, false
		case r.fail != failNone || !isObj:
			return c, false
		}
		if genericObjectName(obj) != "" {
			args, ok := genericObjectArgs(obj)
			if !ok {
				c.fail, c.msg = failSyntax, "the arguments are not a JSON object"
				return c, rest(r.end)
			}
			obj = args
		}
		c.args, c.notes = obj, r.notes
		return c, rest(r.end)
	}
	o := ts.schema(sl.name)
	args := map[string]any{}
	put := func(k string, v any) {
		if str, ok := v.(string); ok && k == "command" {
			// As cline_command_entities (rule_round12q.go): a shell never
			// means &gt;; file content and other arguments keep theirs.
			v = genericEntities(str)
		}
		if _, dup := args[k]; !dup && k != "" {
			args[k] = v
		}
	}
	// <tool_use name="read_file" path="go.mod"/>: a parameter given as an
	// attribute of the call's own tag (red team 13n101, 13n115).
	for k, v := range sl.attrs {
		if o != nil && k != "name" && o.has(k) {
			put(k, v)
		} else if !genericCallAttr(k) {
			// <invoke name="bash" partnerLink="shell" operation="run">
			// is BPEL, not a call (red team 14r036).
			return candidate{}, false
		}
	}
	closeAt := end
	if sl.closer != "" {
		if k := strings.Index(strings.ToLower(body[sl.args:]), "</"+sl.closer+">"); k >= 0 {
			closeAt = sl.args + k
		}
	}
	// from is where the text not yet read as a value starts.
	from, cut := sl.args, false
	gap := func(to int) bool { return genericStripTokens(body[from:to]) == "" }
	for k := sl.args; k < closeAt; {
		j := strings.IndexByte(body[k:closeAt], '<')
		if j < 0 {
			break
		}
		j += k
		next, read := j, false
		if p, n, ok := readParam(body[:closeAt], j); ok {
			put(p.k, p.v)
			next, read, cut = n, true, cut || p.cut
		} else if t, ok := tagAt(body, j); ok && !t.close {
			local := genericLocal(t.name)
			switch {
			case strings.HasSuffix(local, "arg_key") || local == "key":
				key, n, kc := genericElement(body, t, closeAt)
				vt, vok := tagAt(body, skipSpace(body, n))
				vl := genericLocal(vt.name)
				if !vok || vt.close || !(strings.HasSuffix(vl, "arg_value") || vl == "value") {
					return c, false
				}
				val, n2, vc := genericElement(body, vt, closeAt)
				put(strings.TrimSpace(key), val)
				next, read, cut = n2, true, cut || kc || vc
			case genericParamWord(local):
				key := t.attrs["name"]
				if key == "" {
					key = t.eq
				}
				val, n, vc := genericElement(body, t, closeAt)
				put(key, val)
				next, read, cut = n, true, cut || vc
			case o != nil && o.has(local):
				val, n, vc := genericElement(body, t, closeAt)
				put(local, val)
				next, read, cut = n, true, cut || vc
			}
		}
		if !read {
			k = j + 1
			continue
		}
		if !gap(j) {
			return c, false
		}
		from, k = next, max(next, j+1)
	}
	if len(args) == 0 && o != nil && !strings.HasPrefix(strings.TrimSpace(body[sl.args:closeAt]), "{") {
		pairs, used := genericPairs(body[sl.args:closeAt])
		for _, kv := range pairs {
			if !o.has(kv.k) {
				return c, false
			}
			put(kv.k, kv.v)
		}
		from = sl.args + used
	}
	if from < closeAt && !gap(closeAt) {
		return c, false
	}
	if closeAt < end && !rest(closeAt) {
		return c, false // text after a tool-named element's closer
	}
	if cut {
		c.fail = failEOF
	}
	c.args, c.xml = args, true
	return c, true
}

// genericElement reads the value of the element t opens: up to its own
// closer, or, when it has none, up to the next tag that closes anything.
// A value with no closer at all runs to the end and is cut.
func genericElement(s string, t xtag, limit int) (string, int, bool) {
	closer := "</" + t.name + ">"
	if k := strings.Index(strings.ToLower(s[t.end:limit]), closer); k >= 0 {
		return xmlValue(s[t.end : t.end+k]), t.end + k + len(closer), false
	}
	// Without its own closer, the value ends at a call's or parameter's
	// closer (a drifted </parameter>), never at a tag of its own content
	// (</title> in an HTML file: red team 13n124).
	for k := t.end; k < limit; {
		j := strings.Index(s[k:limit], "</")
		if j < 0 {
			break
		}
		j += k
		if ct, ok := tagAt(s, j); ok && ct.close {
			if l := genericLocal(ct.name); genericParamWord(l) || genericCallWord(normTok(l)) {
				return xmlValue(s[t.end:j]), ct.end, false
			}
		}
		k = j + 2
	}
	return xmlValue(cutPartialCloser(s[t.end:limit])), limit, true
}

// genericPairs reads key=value pairs written after a tool's name
// (<tool_call>bash command="ls -la"</tool_call>): a double-quoted value is
// a Go/JSON string, a single-quoted one is taken as written, a bare one
// runs to the next blank.
func genericPairs(w string) (out []kv, used int) {
	if i := strings.IndexByte(w, '<'); i >= 0 {
		w = w[:i]
	}
	for i := 0; i < len(w); {
		for i < len(w) && (w[i] == ' ' || w[i] == '\t' || w[i] == '\n' || w[i] == '\r') {
			i++
		}
		a := i
		for i < len(w) && isIdent(w[i]) {
			i++
		}
		if i == a || i >= len(w) || w[i] != '=' {
			return out, used
		}
		key := w[a:i]
		i++
		var val string
		switch {
		case i < len(w) && w[i] == '"':
			e := i + 1
			for e < len(w) && w[e] != '"' {
				if w[e] == '\\' {
					e++
				}
				e++
			}
			if e >= len(w) {
				return out, used
			}
			raw := w[i : e+1]
			if u, err := strconv.Unquote(raw); err == nil {
				val = u
			} else {
				val = raw[1 : len(raw)-1]
			}
			i = e + 1
		case i < len(w) && w[i] == '\'':
			e := strings.IndexByte(w[i+1:], '\'')
			if e < 0 {
				return out, used
			}
			val = w[i+1 : i+1+e]
			i += e + 2
		default:
			b := i
			for i < len(w) && w[i] != ' ' && w[i] != '\t' && w[i] != '\n' {
				i++
			}
			val = w[b:i]
		}
		out = append(out, kv{k: key, v: val})
		used = i
	}
	return out, used
}

// genericNameKeys and genericArgKeys are the keys call objects of every
// format name a tool and hold its arguments under (OpenAI's name and
// arguments, Llama's parameters, Command's tool_name and parameters,
// Inkling's args, CAMEL's tool_args, Anthropic's input).
var (
	genericNameKeys = []string{"name", "tool_name", "tool", "function", "recipient_name"}
	genericArgKeys  = []string{"arguments", "parameters", "args", "tool_args", "input", "kwargs"}
)

// genericObjectName is the tool a call object names, or "".
func genericObjectName(obj map[string]any) string {
	for _, k := range genericNameKeys {
		if n, ok := obj[k].(string); ok {
			return n
		}
	}
	// {"type": "function", "function": {"name", "arguments"}}: OpenAI's
	// shape (red team 13n107).
	if f, ok := obj["function"].(map[string]any); ok {
		if n, ok := f["name"].(string); ok {
			return n
		}
	}
	return ""
}

// genericObjectArgs is a call object's arguments: under one of the
// argument keys, or, when it has none, its other keys. A string that is
// not a JSON object is not arguments.
func genericObjectArgs(obj map[string]any) (map[string]any, bool) {
	if f, ok := obj["function"].(map[string]any); ok {
		if _, named := obj["name"]; !named {
			obj = f
		}
	}
	for _, k := range genericArgKeys {
		v, ok := obj[k]
		if !ok {
			continue
		}
		switch a := v.(type) {
		case map[string]any:
			return a, true
		case string:
			if d, ok := decodeStrict(a); ok {
				if dm, ok := d.(map[string]any); ok {
					return dm, true
				}
			}
		case nil:
			return map[string]any{}, true
		}
		return nil, false
	}
	rest := map[string]any{}
	for k, v := range obj {
		rest[k] = v
	}
	for _, k := range genericNameKeys {
		delete(rest, k)
	}
	delete(rest, "id")
	delete(rest, "type")
	return rest, true
}

// knownWrapperAt reports markup at m[i] that the content scanner reads
// calls after: a token it classifies, a wrapper tag.
func knownWrapperAt(m string, i int) bool {
	if name, _, gemma, ok := tokenAt(m, i); ok {
		return classifyTok(normTok(name), gemma) != tkNone
	}
	t, ok := tagAt(m, i)
	return ok && wrapperTags[t.name]
}

// genericLeadActs: with no format to vouch for the markup, only the model
// announcing its step lets it run. Before the block there is nothing but
// markup and reasoning, or the last sentence is the model acting ("Let me
// check the weather.", "Running the tests now."), and nothing in it shows
// the markup (notIntended). A description ("Step3 wraps each call in
// steptml tags:"), a heading, a transcript or "for you to review" leaves
// it text (red team 13n001, 13n021, 13n022, 13n031).
func genericLeadActs(m string, start int) bool {
	lead := genericStripTokens(m[:start])
	if lead == "" {
		return true
	}
	before := sentenceBefore(m, 0, start)
	if notIntended(before, "") {
		return false
	}
	last := lead
	if i := strings.LastIndexByte(strings.TrimRight(last, "\n "), '\n'); i >= 0 {
		last = last[i+1:]
	}
	last = sentenceBefore(last, 0, len(last))
	if strings.TrimSpace(last) == "" {
		last = lead
	}
	return (modelActs(last) || firstPersonStepRe().MatchString(last) || gerundStepRe().MatchString(last) && !showingGerundRe().MatchString(last) || nextStepLead(last)) && // nextStepLead: rule_round14r.go
		!transcriptLineRe().MatchString(strings.TrimSpace(last))
}

// showingGerundRe is a gerund that shows or cites, not a step
// ("Quoting the MiniMax docs...", red team 18r).
var showingGerundRe = lazyRegexp(`(?i)^\s*(quoting|showing|citing|copying|pasting|explaining|describing|illustrating|demonstrating|summarizing|summarising|recalling|repeating)\b`)

// gerundStepRe is a step told as a gerund at the sentence's start, ending
// the sentence ("Making the files now.", "Creating the config:", "Getting the file now..."), beyond
// actRe's list of verbs.
var gerundStepRe = lazyRegexp(`^\s*[A-Z][a-z]+ing\b[^.!?:…]{0,60}(\.\.\.|…|[.!:])\s*$`)

// transcriptLineRe is a speaker's label of a pasted transcript
// ("Assistant: let me check", "User: …"): red team 13n020.
var transcriptLineRe = lazyRegexp(`(?i)^(assistant|user|system|model|ai|human|bot|agent)\s*:`)

// genericImplausible: a value no real call of this tool holds (markup
// where a path or URL goes: <type name="filename"/>), so the markup was
// read wrongly.
func genericImplausible(c candidate) bool {
	args, ok := c.args.(map[string]any)
	if !ok {
		return false
	}
	for _, k := range []string{"path", "url"} {
		if v, ok := args[k].(string); ok && strings.ContainsAny(v, "<>") {
			return true
		}
	}
	return false
}

// genericEntities decodes the XML entities of a command written as escaped
// XML (&amp;&amp; for &&: red team 13n117). A value with a raw
// '<' or '&' besides is not escaped XML and is kept.
func genericEntities(v string) string {
	if !strings.Contains(v, "&") || strings.Contains(v, "<") {
		return v
	}
	stripped := v
	for _, e := range []string{"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#39;"} {
		stripped = strings.ReplaceAll(stripped, e, "")
	}
	if stripped == v || strings.Contains(stripped, "&") {
		return v
	}
	return xmlEntityReplacer.Replace(v)
}

var xmlEntityReplacer = strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&quot;", `"`, "&apos;", "'", "&#39;", "'")

// tagAt is readTag at s[i] when a tag can start there (i may be the end).
func tagAt(s string, i int) (xtag, bool) {
	if i < 0 || i >= len(s) || s[i] != '<' {
		return xtag{}, false
	}
	return readTag(s, i)
}

// genericArgsTag is an element that holds a call's arguments whole.
func genericArgsTag(name string) bool {
	switch genericLocal(name) {
	case "arguments", "parameters", "args", "input", "arguments_json":
		return true
	}
	return false
}
