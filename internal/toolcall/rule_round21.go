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
// changes only its own format's tokens, so text without them is returned
// unchanged (and the reply's own text is shown when nothing is found:
// recoverReply).
func round21Rewrites(s string, ts *toolset) string {
	if !strings.Contains(s, "<") {
		return s
	}
	return xaiFunctionCall(gemmaCollapsedOpener(functionUnderscoreName(minicpmCollapsedAttrs(ifmNamespace(s)), ts)))
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
	if !strings.Contains(s, "<ifm|tool_call") {
		return s
	}
	s = strings.ReplaceAll(strings.ReplaceAll(s, "</ifm|", "</"), "<ifm|", "<")
	for {
		i := strings.Index(s, "<arg_type>")
		if i < 0 {
			return s
		}
		e := strings.Index(s[i:], "</arg_type>")
		if e < 0 {
			return s
		}
		s = s[:i] + s[i+e+len("</arg_type>"):]
	}
}

// minicpmCollapsedAttrs is rule "minicpm_collapsed_attr": MiniCPM 5's
// <function name="…"><param name="…"> loses the space before name= when
// the detokenizer collapses it, or keeps byte-level BPE's space marker Ġ
// in its place (aphrodite-engine's minicpm5xml parser accepts both:
// test_collapsed_tags_current_weather, test_tokenizer_space_marker).
func minicpmCollapsedAttrs(s string) string {
	if !strings.Contains(s, "name=") {
		return s
	}
	for _, tag := range []string{"function", "param"} {
		for _, sep := range []string{"", "Ġ"} {
			s = strings.ReplaceAll(s, "<"+tag+sep+`name="`, "<"+tag+` name="`)
		}
	}
	return s
}

// functionUnderscoreName is rule "function_underscore_name": Qwen3-Coder's
// <function=NAME> drifted to <function_NAME> (opencode's
// tool-call-leak.test.ts, a capture from vLLM with Qwen3.6-27B). Read as
// <function=NAME> only for a declared tool's name followed by a
// <parameter= tag, the format's own next token.
func functionUnderscoreName(s string, ts *toolset) string {
	const op = "<function_"
	for i := 0; ; {
		k := strings.Index(s[i:], op)
		if k < 0 {
			return s
		}
		k += i
		ns := k + len(op)
		e := ns
		for e < len(s) && (isIdent(s[e]) || s[e] == '-') {
			e++
		}
		if e < len(s) && s[e] == '>' && ts.exactTool(s[ns:e]) != "" && strings.HasPrefix(s[skipSpace(s, e+1):], "<parameter=") {
			s = s[:k] + "<function=" + s[ns:]
		}
		i = k + 1
	}
}

// gemmaCollapsedOpener is rule "gemma_collapsed_opener": Gemma 4's
// <|tool_call>call:NAME{…}<tool_call|> written with its opener collapsed
// to <tool_call:NAME{ (nicedreamzapp/claude-code-local#45: an abliterated
// Gemma 4 31B), or with a bare ':' for "call:" (vllm-project/vllm#53431,
// which vLLM's gemma4 parser now accepts), and a stray '>' after the
// closing brace. Only a NAME followed by its '{' is rewritten.
func gemmaCollapsedOpener(s string) string {
	if !strings.Contains(s, "<tool_call:") && !strings.Contains(s, "<|tool_call>:") {
		return s
	}
	var b strings.Builder
	for {
		i, n := strings.Index(s, "<tool_call:"), len("<tool_call:")
		if j := strings.Index(s, "<|tool_call>:"); j >= 0 && (i < 0 || j < i) {
			i, n = j, len("<|tool_call>:")
		}
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		e := i + n
		for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
			e++
		}
		if e == i+n || e >= len(s) || s[e] != '{' {
			b.WriteString(s[:i+1])
			s = s[i+1:]
			continue
		}
		b.WriteString(s[:i] + "<|tool_call>call:" + s[i+n:e])
		s = s[e:]
		if c := strings.Index(s, "}><tool_call|>"); c >= 0 && !strings.Contains(s[:c], "<tool_call|>") {
			s = s[:c+1] + s[c+2:]
		}
	}
}

// xaiFunctionCall is rule "xai_function_call": Grok's native call markup,
// <xai:function_call name="NAME"><parameter name="K">V</parameter>…
// </xai:function_call>, leaked into the content (claudish's analysis of
// Grok Code Fast logs). It is Anthropic's invoke element under another
// name, and is read as one; an opener with no name is a call that names
// no tool (xaiNoName).
func xaiFunctionCall(s string) string {
	if !strings.Contains(s, "xai:function_call") {
		return s
	}
	s = strings.ReplaceAll(s, "<xai:function_call ", "<invoke ")
	return strings.ReplaceAll(s, "</xai:function_call>", "</invoke>")
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

// selfClosingToolAttrs is rule "self_closing_tool_attrs": the whole reply
// one self-closing element named after a declared tool, its arguments as
// attributes (<bash command="ls -l" />: g0t4/ask-openai.nvim's log of
// qwen2.5-coder over Ollama). Every attribute must be one of the tool's
// arguments; a reply with anything else around the element is not read.
func selfClosingToolAttrs(content string, ts *toolset) (candidate, bool) {
	t := strings.TrimSpace(content)
	if !strings.HasPrefix(t, "<") || !strings.HasSuffix(t, "/>") {
		return candidate{}, false
	}
	tg, ok := readTag(t, 0)
	if !ok || tg.close || tg.end != len(t) || len(tg.attrs) == 0 {
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
		args[k] = v
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
// test_non_streaming_nested_tool_call). A value made only of such child
// elements is written as the JSON it stands for; the schema's coercion
// then types its leaves. Anything else stays the text it is.
func m3NestedValue(v string) string {
	x, ok := m3Children(strings.TrimSpace(v), 0)
	if !ok {
		return v
	}
	b, err := json.Marshal(x)
	if err != nil {
		return v
	}
	return string(b)
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
	if rest := strings.TrimSuffix(v[q:], ">"); rest != "parameter" {
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
	// "a documentation example … You should never execute these examples
	// directly. They are for illustration purposes only.").
	illustrationRe = lazyRegexp(`(?i)\b(for illustration( purposes)?( only)?|for illustrative purposes|(a |an )?(documentation|illustrative) examples?|(never|not|n't) (execute|run|call) (these|this|the|such) examples?)\b`)
	// parserAcceptsRe: the lead-in says what a parser, template or
	// grammar accepts or expects ("Your parser only accepts the
	// documented spelling:"): the markup after it is that spelling shown.
	parserAcceptsRe = lazyRegexp(`(?i)\b(parsers?|templates?|grammars?|regex(es)?|patterns?|spellings?)\b[^.!?\n]{0,60}\b(accepts?|expects?|requires?|recogni[sz]es|matches|handles|understands)\b`)
	// continuesRe: the words after the markup carry on the sentence that
	// led into it, in lower case ("…the documented spelling: ``` … ```
	// but the 31B writes … instead", "Grok leaks this: ``` … ``` when
	// streaming."): a spelling compared or a fault described, not a step
	// taken. Only conjunctions and prepositions count: "then I'll check
	// it" after a call is the model's next step.
	continuesRe = lazyRegexp(`^(but|whereas|while|versus|vs\.?|when|whenever|instead|because|since|in|on|from|into|inside|within|with|without|under)\s`)
)

// shownRound21 is rule "shown_round21": markup that the paragraph leading
// into it calls an illustration, that follows what a parser accepts, or
// that sits inside a sentence going on after it, is shown, not made.
func shownRound21(prose string, prev, start int, before, after string) bool {
	para := prose[max(prev, start-600):start]
	if i := strings.LastIndex(para, "\n\n"); i >= 0 && strings.TrimSpace(para[i:]) != "" {
		para = para[i:]
	}
	return illustrationRe().MatchString(para) || parserAcceptsRe().MatchString(before) && !modelActs(before) || continuesRe().MatchString(strings.TrimSpace(after))
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
