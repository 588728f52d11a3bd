package toolcall

import (
	"fmt"
	"strings"
)

// Rules of round 22 (widened-threads-round22a/b/c.jsonl), each written
// from the parser or documentation of its format and reached from a
// one-line hook.

// keyLostOpeningQuote is rule "key_lost_opening_quote": Kimi K2's
// arguments with a key whose opening quote is missing,
// {"command":"git diff HEAD",description":"…"} (mastra-ai/mastra#11078;
// mastra's tryRepairJson restores it: "should fix multiple missing opening
// quotes"). After a bare key, a '"' right before its ':' is the key's
// closing quote.
func keyLostOpeningQuote(s string, j int) bool {
	if j >= len(s) || s[j] != '"' {
		return false
	}
	k := j + 1
	for k < len(s) && s[k] == ' ' {
		k++
	}
	return k < len(s) && s[k] == ':'
}

// glmArgValue is rule "glm_cdata_is_text": GLM's <arg_value> is raw text;
// Ollama's GLM 4.6 parser keeps a value that looks like a CDATA section as
// it is written (glm46_test.go, "CDATA-like content that should be
// treated as text"). The CDATA reading is Cline's and Roo Code's XML
// (xmlValue), not GLM's.
func glmArgValue(raw string) string {
	if strings.HasPrefix(strings.TrimSpace(raw), "<![CDATA[") {
		return xmlSeparators(raw)
	}
	return xmlValue(raw)
}

// glmPositionalPairs is rule "glm_keys_then_values": GLM markup with all
// its <arg_key> elements first and then all its <arg_value> elements, as
// many of each; Ollama's GLM parser pairs them by position
// (glm46_test.go, TestGLMToolCallXMLOrderPreservation "all keys then all
// values").
func glmPositionalPairs(s string, p int, keyTag, valTag string) ([]kv, int, bool) {
	read := func(q int, tag string) (string, int, bool) {
		q = skipSpace(s, q)
		op, cl := "<"+tag+">", "</"+tag+">"
		if !strings.HasPrefix(s[q:], op) {
			return "", q, false
		}
		e := strings.Index(s[q+len(op):], cl)
		if e < 0 {
			return "", q, false
		}
		return s[q+len(op) : q+len(op)+e], q + len(op) + e + len(cl), true
	}
	var keys, vals []string
	q := p
	for {
		k, n, ok := read(q, keyTag)
		if !ok {
			break
		}
		keys, q = append(keys, strings.TrimSpace(k)), n
	}
	if len(keys) < 2 {
		return nil, p, false
	}
	for {
		v, n, ok := read(q, valTag)
		if !ok {
			break
		}
		vals, q = append(vals, glmArgValue(v)), n
	}
	if len(vals) != len(keys) {
		return nil, p, false
	}
	out := make([]kv, len(keys))
	for i := range keys {
		out[i] = kv{k: keys[i], v: vals[i]}
	}
	return out, q, true
}

// harmonyConstrainedHead is rule "harmony_constrained_no_recipient": a
// commentary message with no recipient is read the same with its content
// type given, <|channel|>commentary<|constrain|>json<|message|>
// (iSevenDays/simple-proxy's harmony_constrain_token_test.go): the
// constraint is dropped so that harmonyArgsNoRecipient sees its head.
func harmonyConstrainedHead(t, head string) (string, string) {
	const op = "<|channel|>commentary<|constrain|>"
	if !strings.Contains(t, op) { // Index is fast; LastIndex scans byte by byte
		return t, head
	}
	i := strings.LastIndex(t, op)
	if i < 0 {
		return t, head
	}
	w := i + len(op)
	e := w
	for e < len(t) && t[e] >= 'a' && t[e] <= 'z' {
		e++
	}
	if e == w || e-w > 12 || !strings.HasPrefix(t[e:], "<|message|>") {
		return t, head
	}
	// Only a reply that is this message (after its own <|start|>, or
	// analysis messages): prose before it shows what a server returned.
	if pre := strings.TrimSpace(t[:i]); pre != "" && !strings.HasPrefix(pre, "<|") {
		return t, head
	}
	return t[:i] + "<|channel|>commentary" + t[e:], head
}

// nestedOtherCall is rule "server_args_call_another_tool": a server call
// of one tool whose arguments are a whole call of another declared tool,
// {"name": "write_file", "arguments": {…}} under read_file
// (microsoft/autogen#2548). Which tool was meant is not plain: neither
// runs, and the model is told to send the one it means.
func nestedOtherCall(rc RawCall, ts *toolset) (Rejection, bool) {
	outer := ts.resolve(rc.Name)
	if outer == "" || !strings.Contains(rc.Arguments, `"name"`) {
		return Rejection{}, false
	}
	v, ok := decodeStrict(strings.TrimSpace(rc.Arguments))
	m, isObj := v.(map[string]any)
	if !ok || !isObj || len(m) != 2 {
		return Rejection{}, false
	}
	name, _ := m["name"].(string)
	inner := ts.resolve(name)
	if _, hasArgs := m["arguments"].(map[string]any); !hasArgs || inner == "" || inner == outer {
		return Rejection{}, false
	}
	return Rejection{Name: outer, Tool: outer, Reason: fmt.Sprintf("your %s call's arguments are a whole call of %s; nothing was run — send the one call you mean, with its own arguments", outer, inner)}, true
}

// reactJSONAction is rule "react_json_action": the ReAct step of
// LangChain's and Dify's JSON agents, Action: {"action": NAME,
// "action_input": {…}} on the Action line itself, bare or in an inline
// fence (```{…}``` or ```[{…}]```), after a Thought line (Dify's
// test_cot_output_parser: "# no code block", "# list"). Read only when
// the step ends the reply.
func reactJSONAction(content string, ts *toolset) (candidate, string, bool) {
	t := strings.TrimSpace(content)
	if !strings.Contains(t, "\nAction:") {
		return candidate{}, "", false
	}
	ls := strings.LastIndex(t, "\nAction:")
	if ls < 0 {
		return candidate{}, "", false
	}
	lead := t[:ls]
	th := strings.LastIndex(lead, "\n") + 1
	if w := strings.TrimSpace(lead[th:]); !strings.HasPrefix(w, "Thought:") && !strings.HasPrefix(w, "Through:") {
		return candidate{}, "", false
	}
	// The step is the reply: the Thought line opens it. Words before it
	// (an explanation, a log quoted, a refusal, reasoning) show a step,
	// and red team 22r ran every one of them.
	if strings.TrimSpace(lead[:th]) != "" {
		return candidate{}, "", false
	}
	rest := strings.TrimSpace(t[ls+len("\nAction:"):])
	// LangChain's client stops at the Observation the tool fills.
	rest = strings.TrimSpace(strings.TrimSuffix(rest, "Observation:"))
	if strings.HasPrefix(rest, "```") {
		if !strings.HasSuffix(rest, "```") || len(rest) < 6 {
			return candidate{}, "", false
		}
		rest = strings.TrimSpace(strings.TrimPrefix(rest[3:len(rest)-3], "json"))
	}
	if !strings.HasPrefix(rest, "{") && !strings.HasPrefix(rest, "[") {
		return candidate{}, "", false
	}
	r := readValue(rest, 0, false)
	if r.fail != failNone || strings.TrimSpace(rest[r.end:]) != "" {
		return candidate{}, "", false
	}
	v := r.v
	if l, ok := v.([]any); ok && len(l) == 1 {
		v = l[0]
	}
	m, ok := v.(map[string]any)
	if !ok {
		return candidate{}, "", false
	}
	name, _ := m["action"].(string)
	args, ok := actionInputArgs(name, m["action_input"], ts)
	if !ok || len(m) != 2 {
		return candidate{}, "", false
	}
	return candidate{name: name, args: args, notes: r.notes, fromText: true, format: "ReAct Action: {action, action_input}"}, strings.TrimSpace(lead[:th]), true
}

// actionInputArgs reads a LangChain action_input as NAME's arguments: an
// object as they are; a list of strings as bash's command (an argv,
// langchainjs's chat_convo_output_parser test); a string as a tool's one
// required string argument.
func actionInputArgs(name string, in any, ts *toolset) (map[string]any, bool) {
	tool := ts.resolve(name)
	if tool == "" {
		return nil, false
	}
	switch x := in.(type) {
	case map[string]any:
		return x, true
	case []any:
		if tool == "bash" {
			return map[string]any{"command": x}, true
		}
	case string:
		if sch := ts.schema(tool); len(sch.required) == 1 && sch.props[sch.required[0]].typ == "string" {
			return map[string]any{sch.required[0]: x}, true
		}
	}
	return nil, false
}

// functionKeyList is rule "function_key_list": the whole reply a JSON list
// of {"function": NAME, "args": {…}} objects (AutoGen's Ollama client
// test, test_manual_tool_calling_parsing: a model that named its calls
// so), each naming a declared tool with an arguments object. The single
// object is functionKeyReply's.
func functionKeyList(content string, ts *toolset) ([]candidate, bool) {
	t := strings.TrimSpace(content)
	if !strings.HasPrefix(t, "[") || !strings.HasSuffix(t, "]") {
		return nil, false
	}
	r := readValue(t, 0, false) // a trailing comma is mended
	l, isList := r.v.([]any)
	if r.fail != failNone || !isList || len(l) == 0 || strings.TrimSpace(t[r.end:]) != "" {
		return nil, false
	}
	var cs []candidate
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok || len(m) != 2 {
			return nil, false
		}
		name := ""
		for _, k := range []string{"function", "tool"} {
			if n, ok := m[k].(string); ok {
				name = n
			}
		}
		var args map[string]any
		for _, k := range []string{"args", "arguments", "parameters"} {
			if a, ok := m[k].(map[string]any); ok {
				args = a
			} else if str, ok := m[k].(string); ok { // double-encoded
				if dv, ok := decodeText(str); ok {
					args, _ = dv.(map[string]any)
				}
			}
		}
		if name == "" || args == nil || ts.resolve(name) == "" || isSchemaShape(args) {
			return nil, false // a tool's definition (its parameters a schema) is not a call
		}
		cs = append(cs, candidate{name: name, args: args, fromText: true, format: "[{function, args}] list"})
	}
	return cs, true
}

// envelopeInActedFence is rule "tool_calls_envelope_fenced": the
// {"tool_calls": […]} envelope of toolCallsNoName alone in a json fence
// after a lead-in where the model acts ("I'll perform these in
// parallel:", guoqingbao/xinfer#265), its entries naming their tool under
// a key no format uses (call_type).
func envelopeInActedFence(s string) (string, bool) {
	t := strings.TrimSpace(s)
	f := strings.Index(t, "```")
	if f < 0 || !strings.HasSuffix(t, "```") {
		return "", false
	}
	lead := t[:f]
	body := t[f+3 : len(t)-3]
	body = strings.TrimPrefix(body, "json")
	if strings.Contains(body, "```") || !(modelActs(lead) || firstPersonRe().MatchString(lead) && !showingRe().MatchString(lead)) || notIntended(lead, "") {
		return "", false
	}
	return body, true
}

// showingRe: a first-person lead-in that shows or explains ("I'll show
// you the shape of the request body:"), not one that acts.
var showingRe = lazyRegexp(`(?i)\b(show|explain|illustrate|describe|demonstrate|give you|example|shape|format|looks? like)\b`)

// toolTagParams is rule "tool_tag_with_parameter_tags": Cline's tool-name
// element holding Qwen3-Coder's <parameter=K>V</parameter> arguments, the
// two formats fused (<read_file><parameter=path>…</parameter></read_file>:
// nanocoder's detectMalformedToolCall test), as the whole reply. It is
// read as <function=NAME> with those parameters.
func toolTagParams(s string, ts *toolset) (string, bool) {
	t := strings.TrimSpace(s)
	lead := ""
	if i := strings.LastIndex(t, "\n<"); i >= 0 && (!strings.HasPrefix(t, "<") || strings.HasPrefix(t, "<think>")) {
		// A lead-in line where the model acts ("Let me check.").
		lead, t = t[:i], t[i+1:]
		if pre := strings.TrimSpace(stripReasoning(lead)); pre != "" && (!modelActs(pre) || notIntended(sentenceBefore(pre, 0, len(pre)), "")) {
			return "", false
		}
	}
	if !strings.HasPrefix(t, "<") {
		return "", false
	}
	e := strings.IndexByte(t, '>')
	if e < 2 {
		return "", false
	}
	name := t[1:e]
	if ts.exactTool(name) == "" || !strings.HasSuffix(t, "</"+name+">") {
		return "", false
	}
	body := strings.TrimSpace(t[e+1 : len(t)-len(name)-3])
	if !strings.HasPrefix(body, "<parameter=") || !strings.HasSuffix(body, "</parameter>") {
		return "", false
	}
	return lead + "\n<function=" + name + ">\n" + body + "\n</function>", true
}

// qwenAgentBrackets is rule "qwen_agent_brackets": Qwen-Agent's
// ✿FUNCTION✿/✿ARGS✿ markers written as bracketed words, [FUNCTION] NAME
// then [ARGS] {…} (QwenLM/Qwen-Agent#311: streamed replies that began
// " [FUNCTION] get_current_weather\n[ARGS] {…"). Only a reply that opens
// with [FUNCTION] is read so.
func qwenAgentBrackets(s string) string {
	t := s
	if r := strings.Index(t, "</think>"); r >= 0 && strings.HasPrefix(strings.TrimSpace(t), "<think>") {
		t = t[r+len("</think>"):] // reasoning before the reply
	}
	if !strings.HasPrefix(strings.TrimLeft(t, " \t\r\n"), "[FUNCTION]") || strings.Contains(t, "[RESULT]") {
		return s // a transcript with the results written in is shown (red team 22r)
	}
	return strings.NewReplacer("[FUNCTION]", qwenAgentFunction+":", "[ARGS]", qwenAgentArgs+":").Replace(s)
}

// triedRe: a lead-in that reports a call as already tried ("Also
// tried:", nanocoder's tool-parser test): the call after it is a report.
var triedRe = lazyRegexp(`(?i)(^|[.!?\n]\s*|\b(also|already|previously|i|we)\s+)(tried|attempted)\s*:\s*$`)

// jsonInSentence is rule "json_inside_a_sentence": a bare call object
// (no call markup around it) with words before it on its line and a
// sentence going on after it in lower case ("Here is a tool call: {…}
// and some more text", nanocoder's json-parser test) is part of that
// sentence: shown, not made.
func jsonInSentence(s string, first, last group) bool {
	if len(first.cands) == 0 || first.cands[0].format != "JSON in the text" {
		return false
	}
	ls := strings.LastIndexByte(s[:first.start], '\n') + 1
	if s[first.start] != '{' || strings.TrimSpace(s[ls:first.start]) == "" || strings.ContainsAny(s[ls:first.start], "<[|`") {
		return false // an object after a marker or a token is that format's
	}
	rest := strings.TrimLeft(s[min(last.end, len(s)):], " \t")
	return rest != "" && rest[0] >= 'a' && rest[0] <= 'z'
}

// clineBlockFirst is rule "cline_block_whole_reply": a reply that is one
// Cline-style element of a declared tool (<write_file><path>…</path>
// <content>…</content></write_file>, inside <tool_call> or not, its
// closer perhaps eaten), whose values hold JSON or markup, is read as
// that block before anything else: a file's content that is a JSON call
// ({"name": "bash", …}) is the file's text, never a call of its own (red
// team 22r ran bash `rm -rf /` from a fixture being written). Only when
// every child is one of the tool's arguments, each closed.
func clineBlockFirst(content string, ts *toolset) (candidate, string, bool) {
	// The block ends the reply; it opens a line, after any lead-in.
	for i := 0; i < len(content); {
		if content[i] == '<' && (i == 0 || content[i-1] == '\n') {
			if c, ok := clineBlockAt(content[i:], ts); ok {
				return c, content[:i], true
			}
		}
		n := strings.IndexByte(content[i:], '\n')
		if n < 0 {
			break
		}
		i += n + 1
	}
	return candidate{}, "", false
}

func clineBlockAt(content string, ts *toolset) (candidate, bool) {
	t := strings.TrimSpace(content)
	if strings.HasPrefix(t, "<tool_call>") {
		t = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(t[len("<tool_call>"):]), "</tool_call>"))
	}
	if !strings.HasPrefix(t, "<") {
		return candidate{}, false
	}
	e := strings.IndexByte(t, '>')
	if e < 2 {
		return candidate{}, false
	}
	name := ts.exactTool(t[1:e])
	if name == "" || t[1:e] != name && ts.resolve(t[1:e]) != name || !strings.HasSuffix(t, "</"+t[1:e]+">") {
		return candidate{}, false
	}
	sch := ts.schema(name)
	body := t[e+1 : len(t)-len(t[1:e])-3]
	args := map[string]any{}
	nested := false
	for {
		body = strings.TrimLeft(body, " \t\r\n")
		if body == "" {
			break
		}
		g := strings.IndexByte(body, '>')
		if body[0] != '<' || g < 2 || !sch.has(body[1:g]) {
			return candidate{}, false
		}
		k := body[1:g]
		c := strings.Index(body[g+1:], "</"+k+">")
		if c < 0 {
			return candidate{}, false
		}
		v := body[g+1 : g+1+c]
		nested = nested || strings.ContainsAny(v, "{<")
		if _, dup := args[k]; dup {
			return candidate{}, false
		}
		args[k] = xmlValue(v)
		body = body[g+1+c+len("</"+k+">"):]
	}
	if !nested || len(args) == 0 {
		return candidate{}, false // the usual readers read it the same
	}
	return candidate{name: name, args: args, xml: true, fromText: true, format: "Cline XML, whole reply"}, true
}

// cjkGluedName is rule "glm4_name_after_cjk_stop": GLM-4's call opens a
// new <|assistant|> message holding the name on its line and the JSON on
// the next; with that token dropped, the name is glued to the end of the
// sentence before it ("首先执行第一步：调用 `read_file` 获取温度数据。read_file\n{…}",
// zai-org/GLM-4#474). After a CJK full stop or a full-width colon, which
// end a sentence with no space after them, a declared name ending the
// line is that line's name — only when the line announces the model's own
// step (cjkActs) and says nothing of a refusal, a past run, an example,
// a format or a log (cjkShown): red team 22r ran each of those.
func cjkGluedName(line string, ts *toolset) (int, bool) {
	for _, stop := range []string{"。", "："} {
		i := strings.LastIndex(line, stop)
		if i < 0 {
			continue
		}
		n := i + len(stop)
		name := line[n:]
		if name == "" || ts.exactTool(name) == "" {
			continue
		}
		for j := 0; j < len(name); j++ {
			if !isIdent(name[j]) {
				return 0, false
			}
		}
		lead := line[:i]
		if !cjkActsRe().MatchString(lead) || cjkShownRe().MatchString(lead) {
			return 0, false
		}
		return n, true
	}
	return 0, false
}

var (
	// cjkActsRe: "I'll first…", "let me…", "first…", "next…", "call…",
	// "run…".
	cjkActsRe = lazyRegexp(`我(先|来|将|会|要|现在|马上)|让我|首先|接下来|调用|执行`)
	// cjkShownRe: negation, a past run, an example, a format, a log, a
	// definition ("…是：").
	cjkShownRe = lazyRegexp(`不|别|没|已经|过|例|示例|格式|日志|记录|输出|是：|是这样`)
)

// stripReasoning drops the reasoning blocks of a lead-in.
func stripReasoning(s string) string {
	return blank(s, reasoningRegions(s))
}
