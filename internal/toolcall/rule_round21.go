package toolcall

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Rules of round 21 (widened-threads-round21a/b/c/d.jsonl), each written
// from the parser or documentation of its format and reached from a
// one-line hook.

// round21Rewrites spells five formats' markup the way a reader already
// reads it, before the content is scanned. Each rewrite is exact: it
// changes only its own format's tokens, and only in the blocks that lead
// the reply (leadingBlocks): markup quoted inside another call's value (a
// file that documents the format) is left as written, and so is the text
// the user sees when nothing is found (recoverReply).
func round21Rewrites(s string, ts *toolset) string {
	if !strings.Contains(s, "<") {
		return s
	}
	return xaiFunctionCall(gemmaCollapsedOpener(functionUnderscoreName(minicpmCollapsedAttrs(ifmNamespace(s)), ts)))
}

// leadingBlocks finds the blocks of one format that lead the reply: each
// opens where only prose stands before it (no '<', '{' or '[' since the
// reply's start or the block before), at a line's start when lineStart,
// and ends after its closer (or at the end of the text). open reports
// the length of an opener at s[i], 0 for none.
func leadingBlocks(s, marker string, open func(s string, i int) int, closer string, lineStart bool) []region {
	var out []region
	for p := 0; p < len(s); {
		k := strings.Index(s[p:], marker)
		if k < 0 {
			break
		}
		i := p + k
		before := s[p:i]
		if r := strings.LastIndex(before, "</think>"); r >= 0 {
			before = before[r+len("</think>"):] // reasoning before the reply
		}
		if strings.ContainsAny(strings.NewReplacer("<tool_call>", "", "<tool_calls>", "").Replace(before), "<{[") {
			break // other markup before it: this may be quoted inside it
		}
		if lineStart {
			b := i
			for b > 0 && (s[b-1] == ' ' || s[b-1] == '\t') {
				b--
			}
			if b > 0 && s[b-1] != '\n' {
				break
			}
		}
		n := open(s, i)
		if n == 0 {
			break
		}
		e := len(s)
		if c := strings.Index(s[i+n:], closer); c >= 0 {
			e = i + n + c + len(closer)
		}
		out = append(out, region{i, e})
		p = e
	}
	return out
}

// rewriteBlocks applies f to each block of s, the rest kept as it is.
func rewriteBlocks(s string, blocks []region, f func(string) string) string {
	if len(blocks) == 0 {
		return s
	}
	var b strings.Builder
	last := 0
	for _, r := range blocks {
		b.WriteString(s[last:r.start])
		b.WriteString(f(s[r.start:r.end]))
		last = r.end
	}
	b.WriteString(s[last:])
	return b.String()
}

func fixedOpener(op string) func(string, int) int {
	return func(s string, i int) int { return len(op) }
}

// ifmNamespace is rule "k2_horizon_ifm": K2 Horizon writes GLM's markup
// with every tag in an ifm| namespace and, in its typed form, a type
// element between key and value (aphrodite-engine's k2_horizon tool
// parser: <ifm|tool_calls><ifm|tool_call>NAME<ifm|arg_key>K</ifm|arg_key>
// [<ifm|arg_type>T</ifm|arg_type>]<ifm|arg_value>V</ifm|arg_value>
// </ifm|tool_call></ifm|tool_calls>, or a JSON {name, arguments} inside
// the call tags). Without the namespace it is GLM's markup (the type is a
// hint the schema already gives) or a wrapped JSON call.
func ifmNamespace(s string) string {
	const op = "<ifm|tool_call"
	if !strings.Contains(s, op) {
		return s
	}
	closer := "</ifm|tool_calls>"
	if !strings.Contains(s, closer) {
		closer = "</ifm|tool_call>"
	}
	return rewriteBlocks(s, leadingBlocks(s, op, fixedOpener(op), closer, false), func(b string) string {
		return dropElements(strings.ReplaceAll(strings.ReplaceAll(b, "</ifm|", "</"), "<ifm|", "<"), "arg_type") // dropElements: rule_round23.go
	})
}

// minicpmCollapsedAttrs is rule "minicpm_collapsed_attr": MiniCPM 5's
// <function name="…"><param name="…"> loses the space before name= when
// the detokenizer collapses it, or keeps byte-level BPE's space marker Ġ
// in its place (aphrodite-engine's minicpm5xml parser accepts both:
// test_collapsed_tags_current_weather, test_tokenizer_space_marker).
func minicpmCollapsedAttrs(s string) string {
	if !strings.Contains(s, "<function") || !strings.Contains(s, "name=") {
		return s
	}
	open := func(s string, i int) int {
		for _, op := range []string{`<functionname="`, `<functionĠname="`} {
			if strings.HasPrefix(s[i:], op) {
				return len(op)
			}
		}
		return 0
	}
	return rewriteBlocks(s, leadingBlocks(s, "<function", open, "</function>", false), func(b string) string {
		for _, tag := range []string{"function", "param"} {
			for _, sep := range []string{"", "Ġ"} {
				b = strings.ReplaceAll(b, "<"+tag+sep+`name="`, "<"+tag+` name="`)
			}
		}
		return b
	})
}

// functionUnderscoreName is rule "function_underscore_name": Qwen3-Coder's
// <function=NAME> drifted to <function_NAME> (opencode's
// tool-call-leak.test.ts, a capture from vLLM with Qwen3.6-27B). Read as
// <function=NAME> only at a line's start, for a declared tool's name
// followed by a <parameter=K> tag of one of that tool's arguments, the
// format's own next token, on its own line.
func functionUnderscoreName(s string, ts *toolset) string {
	const op = "<function_"
	if !strings.Contains(s, op) {
		return s
	}
	open := func(s string, i int) int {
		ns := i + len(op)
		e := ns
		for e < len(s) && (isIdent(s[e]) || s[e] == '-') {
			e++
		}
		name := ""
		if e < len(s) && s[e] == '>' {
			name = ts.exactTool(s[ns:e])
		}
		if name == "" {
			return 0
		}
		q := skipSpace(s, e+1)
		if !strings.HasPrefix(s[q:], "<parameter=") {
			return 0
		}
		k := q + len("<parameter=")
		ke := strings.IndexByte(s[k:], '>')
		if ke < 0 || !ts.schema(name).has(s[k:k+ke]) {
			return 0
		}
		if r := k + ke + 1; r < len(s) && s[r] != '\n' && s[r] != '\r' {
			return 0 // the value on the tag's line: a sentence, not the layout
		}
		return len(op)
	}
	return rewriteBlocks(s, leadingBlocks(s, op, open, "</function>", true), func(b string) string {
		return "<function=" + b[len(op):]
	})
}

// gemmaCollapsedOpener is rule "gemma_collapsed_opener": Gemma 4's
// <|tool_call>call:NAME{…}<tool_call|> written with its opener collapsed
// to <tool_call:NAME{ (nicedreamzapp/claude-code-local#45: an abliterated
// Gemma 4 31B), or with a bare ':' for "call:" (vllm-project/vllm#53431,
// which vLLM's gemma4 parser now accepts), and a stray '>' after the
// closing brace. Only a NAME followed by its '{' is rewritten; the
// collapsed opener, no special token, only at a line's start.
func gemmaCollapsedOpener(s string) string {
	if !strings.Contains(s, "<tool_call:") && !strings.Contains(s, "<|tool_call>:") && !strings.Contains(s, "<call>") {
		return s
	}
	// <|tool_call>:call:NAME{ — the stray colon before call: (vLLM's
	// test_colon_prefixed_tool_call, rule_round24.go).
	s = strings.ReplaceAll(s, "<|tool_call>:call:", "<|tool_call>call:")
	nameBrace := func(s string, e int) bool {
		b := e
		for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
			e++
		}
		return e > b && e < len(s) && s[e] == '{'
	}
	fix := func(op string) func(string) string {
		return func(b string) string {
			b = "<|tool_call>call:" + b[len(op):]
			if c := strings.Index(b, "}><tool_call|>"); c >= 0 {
				b = b[:c+1] + b[c+2:]
			}
			return b
		}
	}
	for _, f := range []struct {
		op        string
		lineStart bool
	}{{"<tool_call:", true}, {"<|tool_call>:", false}, {"<call>", true}} {
		op := f.op
		open := func(s string, i int) int {
			if !nameBrace(s, i+len(op)) {
				return 0
			}
			// <call>NAME{k:<|"|>…: the opener split by a multimodal input
			// (vLLM's test_fragmented_call_tag_from_multimodal), read
			// only with Gemma's own quote after its first key
			// (rule_round24.go).
			if op == "<call>" && !gemmaQuotedFirstKey(s, i+len(op)) {
				return 0
			}
			return len(op)
		}
		s = rewriteBlocks(s, leadingBlocks(s, op, open, "<tool_call|>", f.lineStart), fix(op))
	}
	return s
}

// xaiFunctionCall is rule "xai_function_call": Grok's native call markup,
// <xai:function_call name="NAME"><parameter name="K">V</parameter>…
// </xai:function_call>, leaked into the content (claudish's analysis of
// Grok Code Fast logs). It is Anthropic's invoke element under another
// name, and is read as one; an opener with no name is a call that names
// no tool (callBegunNoName).
func xaiFunctionCall(s string) string {
	const op = "<xai:function_call "
	if !strings.Contains(s, op) {
		return s
	}
	return rewriteBlocks(s, leadingBlocks(s, op, fixedOpener(op), "</xai:function_call>", false), func(b string) string {
		b = "<invoke " + b[len(op):]
		return strings.ReplaceAll(b, "</xai:function_call>", "</invoke>")
	})
}

// callBegunNoName is rule "call_begun_no_name": a reply that is only the
// start of a call — Grok's <xai:function_call> opener with no name, or
// the "{\"" a tool grammar forced before the stream ended (mudler/LocalAI#9988)
// — names no tool: the correction lists them.
func callBegunNoName(s string) bool {
	switch strings.TrimSpace(s) {
	case "<xai:function_call>", `{"`:
		return true
	}
	return false
}

// gemmaNextCallAt is rule "gemma_calls_in_one_block": Gemma 4 writes
// several call:NAME{…} back to back inside one <|tool_call>…<tool_call|>
// (vllm-mlx's test_multiple_tool_calls_in_one_block); a call: right after
// the closing brace of the one before, inside that still open block, is
// the next call.
func gemmaNextCallAt(s string, k int) bool {
	if k == 0 || s[k-1] != '}' {
		return false
	}
	o := strings.LastIndex(s[:k], "<|tool_call>")
	return o >= 0 && !strings.Contains(s[o:k], "<tool_call|>")
}

// gemmaBareBodyAt is rule "gemma_body_at_line_start": Gemma 4's call body
// NAME{k:<|"|>v<|"|>} written without <|tool_call>call: (mattn/tensai#217:
// "a small model writing the call body in Gemma 4's spelling but
// forgetting the <|tool_call>call: in front"). Read only for a declared
// tool's name that opens a line, whose first argument is quoted with
// Gemma's own <|"|> delimiter: that delimiter is in no other format.
func (sc *scan) gemmaBareBodyAt(j int) (group, bool) {
	s := sc.s
	ns := j
	for ns > 0 && (isIdent(s[ns-1]) || s[ns-1] == '-') {
		ns--
	}
	if ns == j || (ns > 0 && s[ns-1] != '\n') || sc.ts.exactTool(s[ns:j]) == "" {
		return group{}, false
	}
	k := j + 1
	for k < len(s) && isIdent(s[k]) {
		k++
	}
	if k == j+1 || !strings.HasPrefix(s[k:], ":"+gemmaQuote) {
		return group{}, false
	}
	return sc.nameThenJSON(ns, ns, j, j, "gemma NAME{…} without its opener")
}

// selfClosingToolAttrs is rule "self_closing_tool_attrs": a reply made of
// self-closing elements named after declared tools, one per line, their
// arguments as attributes (<bash command="ls -l" />: g0t4/ask-openai.nvim's
// log of qwen2.5-coder over Ollama). Every attribute must be one of the
// tool's arguments, and its value is read as XML writes an attribute
// (&quot; is '"'); a reply with anything else around the elements is not
// read.
func selfClosingToolAttrs(content string, ts *toolset) ([]candidate, bool) {
	t := strings.TrimSpace(content)
	if !strings.HasPrefix(t, "<") || !strings.HasSuffix(t, "/>") {
		return nil, false
	}
	var cs []candidate
	for _, line := range strings.Split(t, "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		c, ok := selfClosingLine(line, ts)
		if !ok {
			return nil, false
		}
		cs = append(cs, c)
	}
	return cs, len(cs) > 0
}

func selfClosingLine(t string, ts *toolset) (candidate, bool) {
	tg, ok := readTag(t, 0)
	if !ok || tg.close || tg.end != len(t) || !strings.HasSuffix(t, "/>") || len(tg.attrs) == 0 {
		return candidate{}, false
	}
	name := ts.exactTool(tg.name)
	if name == "" {
		return candidate{}, false
	}
	sch := ts.schema(name)
	args := map[string]any{}
	for k, v := range tg.attrs {
		if !sch.has(k) {
			return candidate{}, false
		}
		args[k] = xmlEntityReplacer.Replace(v)
	}
	return candidate{name: name, args: args, xml: true, fromText: true, format: "self-closing <NAME attr=…/>", notes: []string{"arguments read from the tag's attributes"}}, true
}

// functionaryV2Calls is rule "functionary_v2_recipient": Functionary's
// v2 framing with its tokens left in the text (vllm-mlx's
// TestFunctionaryToolParser::test_recipient_format, MeetKai's v2
// template): <|from|>assistant, <|recipient|>NAME, <|content|>ARGS, one
// message each, "all" as the recipient for text to the user. Read only
// when the reply opens with that framing.
func functionaryV2Calls(s string, ts *toolset) ([]candidate, string, bool) {
	const from, rcpt, cont = "<|from|>", "<|recipient|>", "<|content|>"
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, from) && !strings.HasPrefix(t, rcpt) {
		return nil, "", false
	}
	var cs []candidate
	var text []string
	for _, m := range strings.Split(t, from) {
		// A transcript's other turns (<|from|>user, a tool's result
		// <|from|>bash) make the whole a conversation shown, not this
		// reply's calls.
		if role, _, _ := strings.Cut(m, "\n"); strings.TrimSpace(m) != "" && strings.HasPrefix(t, from) && strings.TrimSpace(role) != "assistant" {
			return nil, "", false
		}
		r := strings.Index(m, rcpt)
		c := strings.Index(m, cont)
		if r < 0 || c < r {
			if strings.TrimSpace(m) != "" {
				return nil, "", false
			}
			continue
		}
		name := strings.TrimSpace(m[r+len(rcpt) : c])
		body := m[c+len(cont):]
		if e := strings.Index(body, "<|stop|>"); e >= 0 {
			body = body[:e]
		}
		body = strings.TrimSpace(body)
		if name == "all" {
			text = append(text, body)
			continue
		}
		if ts.resolve(name) == "" {
			return nil, "", false
		}
		v := readValue(body, 0, false)
		c1 := candidate{name: name, fromText: true, format: "functionary v2 <|recipient|>", notes: v.notes}
		switch {
		case v.fail != failNone:
			c1.fail, c1.msg, c1.key = v.fail, v.msg, v.key
		case strings.TrimSpace(body[v.end:]) != "":
			return nil, "", false
		default:
			c1.args = v.v
		}
		cs = append(cs, c1)
	}
	return cs, strings.Join(text, "\n"), len(cs) > 0
}

// m3NestedValue is rule "m3_nested_elements": MiniMax-M3 writes an array
// argument as <NAME><item>…</item>…</NAME> and an object as its fields'
// elements (aphrodite-engine's minimax_m3 parser,
// test_non_streaming_nested_tool_call). Read only for an argument whose
// schema wants an array or an object, from XML-style markup, and only
// when the value is made of such child elements alone: a string argument
// (a file's XML or HTML) is never turned into JSON.
func m3NestedValue(v string, xml bool) (any, bool) {
	if !xml {
		return nil, false
	}
	return m3Children(strings.TrimSpace(v), 0)
}

func m3Children(body string, depth int) (any, bool) {
	if depth > 4 || !strings.HasPrefix(body, "<") {
		return nil, false
	}
	var keys []string
	var vals []any
	for body != "" {
		g := strings.IndexByte(body, '>')
		if body[0] != '<' || g < 2 || !isKey(body[1:g]) {
			return nil, false
		}
		k := body[1:g]
		c := strings.Index(body[g+1:], "</"+k+">")
		if c < 0 {
			return nil, false
		}
		inner := body[g+1 : g+1+c]
		var val any = inner
		if t := strings.TrimSpace(inner); strings.HasPrefix(t, "<") {
			sub, ok := m3Children(t, depth+1)
			if !ok {
				return nil, false
			}
			val = sub
		}
		keys, vals = append(keys, k), append(vals, val)
		body = strings.TrimLeft(body[g+1+c+len("</"+k+">"):], " \t\r\n")
	}
	allItems := true
	for _, k := range keys {
		allItems = allItems && k == "item"
	}
	if allItems {
		return vals, true
	}
	obj := map[string]any{}
	for i, k := range keys {
		if _, dup := obj[k]; dup {
			return nil, false
		}
		obj[k] = vals[i]
	}
	return obj, true
}

// dsmlCloserTail is rule "dsml_closer_in_value": a server's streaming
// DSML parser that let DeepSeek-V4's parameter closer into the value
// ("Paris</｜DSML｜parameter": vllm-project/vllm#53417, fixing #53227). The
// closer is model markup, never part of a value: it is cut off the end.
func dsmlCloserTail(v string) (string, bool) {
	i := strings.LastIndex(v, "</")
	if i < 0 {
		return v, false
	}
	q, ok := dsmlPrefix(v, i+2)
	if !ok {
		return v, false
	}
	// Only the partial closer a streaming regexp lets through, with no
	// '>' and after some value: "</｜DSML｜parameter>" whole, or a value
	// that is nothing else, may be a file's own text.
	if v[q:] != "parameter" || strings.TrimSpace(v[:i]) == "" {
		return v, false
	}
	return v[:i], true
}

// propertiesWrapped is rule "properties_wrapped_args": the model copied
// the schema's "properties" level into its call, one argument named
// properties holding the real arguments as an object, or as JSON or a
// Python dict in text (aphrodite-engine's minicpm5xml parser unwraps it:
// test_properties_wrapped_arguments). Unwrapped only when the tool has no
// argument of that name and every key inside is one of the tool's.
func propertiesWrapped(o *objSchema, args map[string]any) (map[string]any, bool) {
	if len(args) != 1 || o.has("properties") {
		return nil, false
	}
	v, ok := args["properties"]
	if !ok {
		return nil, false
	}
	m, ok := v.(map[string]any)
	if str, isStr := v.(string); isStr {
		r := readValue(strings.TrimSpace(str), 0, false)
		m, ok = r.v.(map[string]any)
		ok = ok && r.fail == failNone
	}
	if !ok || len(m) == 0 {
		return nil, false
	}
	for k := range m {
		if !o.has(k) {
			return nil, false
		}
	}
	return m, true
}

// dsmlCloserArgs applies dsmlCloserTail to a server call's string
// arguments.
func dsmlCloserArgs(c candidate) candidate {
	args, ok := c.args.(map[string]any)
	if !ok {
		return c
	}
	var out map[string]any
	for k, v := range args {
		str, isStr := v.(string)
		if !isStr {
			continue
		}
		if t, cut := dsmlCloserTail(str); cut {
			if out == nil {
				out = make(map[string]any, len(args))
				for k2, v2 := range args {
					out[k2] = v2
				}
			}
			out[k] = t
		}
	}
	if out == nil {
		return c
	}
	c.args = out
	c.notes = append(c.notes, "DeepSeek's DSML closer cut off a value's end")
	return c
}

// toolCallsNoName is rule "tool_calls_text_no_name": an OpenAI-style
// envelope written as the whole reply, {"tool_calls": […]} or
// {"toolCalls": […]}, whose entries have no name and no function object
// (microsoft/vscode#280719: Grok's {"id", "type": "bash", "command"}). It
// is a call attempt in no format mm reads: the correction lists the tools.
func toolCallsNoName(s string) bool {
	t := strings.TrimSpace(s)
	return toolCallsEnvelopeNoName(t)
}

// toolCallsNoNameFenced: the same envelope alone in a fence after an
// acting lead-in (envelopeInActedFence, rule_round22.go).
func toolCallsNoNameFenced(s string) bool {
	body, ok := envelopeInActedFence(s)
	return ok && toolCallsEnvelopeNoName(strings.TrimSpace(body))
}

func toolCallsEnvelopeNoName(t string) bool {
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
		return false
	}
	var env map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &env) != nil || len(env) != 1 {
		return false
	}
	raw, ok := env["tool_calls"]
	if !ok {
		raw, ok = env["toolCalls"]
	}
	var entries []map[string]any
	if !ok || json.Unmarshal(raw, &entries) != nil || len(entries) == 0 {
		return false
	}
	for _, e := range entries {
		if _, has := e["name"]; has {
			return false
		}
		for _, k := range []string{"status", "exitCode", "exit_code", "stdout", "output", "result", "error"} {
			if _, has := e[k]; has {
				return false // a record of calls made: data
			}
		}
		if _, has := e["function"]; has {
			return false
		}
	}
	return true
}

// alsoMissing is rule "missing_beside_bad_value": when an argument's value
// cannot be used and a required argument is absent too, the correction
// names both (qwen-code's xml-tool-call-fallback test: an edit with only
// old_string has neither the file nor a whole edit), so that the model's
// next call is whole.
func (n *normalizer) alsoMissing(o *objSchema, out map[string]any) {
	if n.reject == "" {
		return
	}
	for _, r := range o.required {
		if _, ok := out[r]; !ok {
			n.reject += fmt.Sprintf("; it also needs the argument %s (%s)", r, article(o.props[r].typ))
			return
		}
	}
}

var (
	// illustrationRe: the paragraph that leads into the markup says it is
	// an example not to be run (qwen-code's xml-tool-call-fallback test:
	// "This is a documentation example … You should never execute these
	// examples directly. They are for illustration purposes only."). Not
	// the words as a topic ("the documentation examples in README.md").
	illustrationRe = lazyRegexp(`(?i)(\bfor illustration( purposes)?( only)?\b|\bfor illustrative purposes\b|(\bnever|\bnot|n't) (execute|run|call) (these|such) examples\b|\bthis is (a|an) (documentation|illustrative) example\b)`)
	// parserAcceptsRe: the lead-in says what a parser, template or
	// grammar accepts or expects ("Your parser only accepts the
	// documented spelling:"): the markup after it is that spelling shown.
	parserAcceptsRe = lazyRegexp(`(?i)\b(parsers?|templates?|grammars?|regex(es)?|patterns?|spellings?)\b[^.!?\n]{0,60}\b(accepts?|expects?|requires?|recogni[sz]es|matches|handles|understands)\b`)
	// continuesRe: the words after the markup carry on the sentence that
	// led into it, in lower case ("…the documented spelling: ``` … ```
	// but the 31B writes … instead"): a spelling compared, not a step
	// taken ("but first, …" is the model's next step: butStepRe).
	continuesRe = lazyRegexp(`^(but|whereas|versus|vs\.?|instead of)\s`)
	butStepRe   = lazyRegexp(`(?i)^but (first|then|also|before|now|let|i|we)\b`)
	// reportedRe: the lead-in reports what a model, a server or a log
	// produced, its verb right before the colon ("Gemma wrote this
	// instead of a real call:", "Grok Code Fast leaked this into the
	// content:", "Lines like these showed up in the chat instead of tool
	// calls:", "Here is what K2 Horizon streamed before the parser fix:",
	// "The raw completion from vLLM was:"): output shown, not a step the
	// model takes. The verb takes its object or a place ("wrote this",
	// "showed up in the chat"): "Opening the file the other agent wrote:"
	// is the model's step. Never with the model as the subject
	// (ownVoiceRe).
	reportedRe = lazyRegexp(`(?i)(\b(leaked|wrote|emitted|produced|returned|printed|streamed|generated|spat out|showed up|appeared|came back|sent back)(( (this|these|it|that|the following))( (into|in|to|on|as|instead of|before|after|when|during|from)\b[^.!?\n:]{0,50})?|( (into|in|to|on|as|instead of|before|after|when|during|from)\b[^.!?\n:]{0,50}))|\bwhat\b[^.!?\n:]{0,40}\b(wrote|streamed|returned|sent|produced|printed|emitted|leaked|output)\b[^.!?\n:]{0,40}|\b(output|completion|response|reply|stream)\b[^.!?\n:]{0,40}\b(was|were|looked like))\s*:\s*$`)
	ownVoiceRe = lazyRegexp(`(?i)\b(i|we|i'll|i'm|we'll|let me|let's|i've|we've|my|our)\b`)
	// faultHeadingRe: a heading right before the markup that names an
	// example or a fault ("### Example of the fault").
	faultHeadingRe = lazyRegexp(`(?i)^#{1,6} .*\b(examples?|fault|bug|error|problem|issue|wrong|broken|leak(ed)?|before)\b`)
	// describedAfterRe: the sentence after the markup says what it is
	// ("That line is what the stripped harmony output looked like").
	describedAfterRe = lazyRegexp(`(?i)^(that|this|these|those)( line| lines| block| output| text| reply)? (is|was|are|were) what\b`)
)

// shownRound21 is rule "shown_round21": markup that the paragraph leading
// into it calls an illustration, that follows what a parser accepts or a
// report of what something else produced, that sits under a heading
// naming a fault, or that a sentence goes on or describes after it, is
// shown, not made.
func shownRound21(prose string, prev, start int, before, after string) bool {
	para := prose[max(prev, start-600):start]
	if i := strings.LastIndex(para, "\n\n"); i >= 0 && strings.TrimSpace(para[i:]) != "" {
		para = para[i:]
	}
	lead := strings.TrimSpace(fenceTailRe().ReplaceAllString(strings.TrimRight(strayWordLine(before), " \t\r\n"), ""))
	if (reportedRe().MatchString(lead) || reportedComesBackRe().MatchString(lead)) && !ownVoiceRe().MatchString(lead) || triedRe().MatchString(lead) { // triedRe: rule_round22.go; reportedComesBackRe: rule_round23.go
		return true
	}
	heading := strings.TrimSpace(fenceTailRe().ReplaceAllString(strings.TrimRight(prose[max(prev, start-300):start], " \t\r\n"), ""))
	if i := strings.LastIndexByte(heading, '\n'); i >= 0 {
		heading = strings.TrimSpace(heading[i+1:])
	}
	a := strings.TrimSpace(after)
	return illustrationRe().MatchString(para) || parserAcceptsRe().MatchString(before) && !modelActs(before) || continuesRe().MatchString(a) && !butStepRe().MatchString(a) || faultHeadingRe().MatchString(heading) || describedAfterRe().MatchString(a) && !ownVoiceRe().MatchString(a)
}

// afterStrayBraces is rule "stray_closing_braces": a call object closed by
// more braces than it opened ({"tool": …, "arguments": {…}}}}: ryrobes/larsql's
// "Extra data" capture of a small model) ends where the object ends; the
// extra closing braces after it, and only they, are skipped. The fence
// that holds the object alone as the whole reply is read as that reply
// (aloneInActedFence, rule "fenced_whole_reply").
func afterStrayBraces(s string, end int) int {
	k := end
	for k < len(s) && (s[k] == '}' || s[k] == ' ') {
		k++
	}
	if k > end && strings.TrimSpace(s[end:k]) != "" {
		return k
	}
	return end
}

// dedupeWritten is rule "repeated_call_blocks": the server's calls are
// deduplicated as before (dedupe), and a call written in the text that
// repeats one of them is the same call seen twice. Among the calls
// written in the text, a repeat runs again when another call stands
// between the two (Granite's parser test: a read, a command, and "Now
// another bbox call", the same read again); the same call written twice
// in a row is a model looping, and runs once.
func dedupeWritten(calls []Call, fromServer int) []Call {
	fromServer = min(fromServer, len(calls))
	if len(calls) < 2 || fromServer == len(calls) {
		return dedupe(calls) // nothing written in the text to compare
	}
	server := dedupe(calls[:fromServer])
	seen := map[string]bool{}
	for _, c := range server {
		seen[c.Name+"\x00"+canonical(c.Arguments)] = true
	}
	out := append(make([]Call, 0, len(calls)), server...)
	prev := ""
	for _, c := range calls[fromServer:] {
		k := c.Name + "\x00" + canonical(c.Arguments)
		if seen[k] || k == prev {
			continue
		}
		prev = k
		out = append(out, c)
	}
	return out
}

// m2ElementArgs is rule "m2_element_args": M3's arguments written as
// elements named after the parameters (<path>…</path>, m3Elements) inside
// M2's own <minimax:tool_call> wrapper, with no namespace tokens to strip
// (red team 21r). The wrapper is MiniMax's, so its invoke is read as M3's
// would be; only when that wrapper leads the reply (leadingBlocks), and
// the values stay text unless the schema wants an array or an object
// (m3NestedValue).
func m2ElementArgs(s string) string {
	const op = "<minimax:tool_call>"
	if !strings.Contains(s, op) || !strings.Contains(s, "<invoke name=") {
		return s
	}
	return rewriteBlocks(s, leadingBlocks(s, op, fixedOpener(op), "</minimax:tool_call>", false), m3Elements)
}
