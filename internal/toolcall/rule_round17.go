package toolcall

import (
	"strings"
	"unicode/utf8"
)

// cutWrappedValue is rule "cut_wrapped_value" (round 17p): a call inside
// its wrapper (<tool_call>, DSML's function_calls) whose last parameter has
// no closer and runs to the end of the text, while every parameter before
// it closed, was cut by the stream: lmdeploy's Qwen3.5 and DeepSeek-V3.2
// parser tests stop inside <parameter=url>… and string="true">rm -rf build,
// and their parsers hold such a value as partial, never as the argument. A
// server's stop string eats the last closer only (</tool_call>), never the
// parameter's and the function's with it. A model that writes no closers
// at all (Continue's Qwen3-Coder replies: no wrapper, every value open up
// to the next tag) is read as before ("value at the end of the message").
func cutWrappedValue(s string, j int, pairs []kv) bool {
	if len(pairs) == 0 || !pairs[len(pairs)-1].cut || !wrapperBefore(s[:j]) {
		return false
	}
	for _, p := range pairs[:len(pairs)-1] {
		if p.open {
			return false
		}
	}
	return true
}

// wrapperBefore reports whether before ends with a call wrapper's opener:
// <tool_call>, <minimax:tool_call>, <｜DSML｜function_calls>.
func wrapperBefore(before string) bool {
	t := strings.TrimRight(before, " \t\r\n")
	if !strings.HasSuffix(t, ">") {
		return false
	}
	k := strings.LastIndexByte(t, '<')
	if k < 0 {
		return false
	}
	tag := strings.ToLower(t[k:])
	return !strings.HasPrefix(tag, "</") && (strings.HasSuffix(tag, "tool_call>") || strings.HasSuffix(tag, "function_calls>"))
}

// xmlCommandEscaped is rule "xml_command_escaped" (round 17p): a bash
// command in a <parameter> written as escaped XML throughout (MiMo's
// Qwen3-Coder-style calls: printf &quot;a&amp;b&quot;, which lmdeploy's
// MiMo parser unescapes) is decoded, as the XML tool format's commands are
// (cline_command_entities): a shell never means &quot;. Only when the
// value is escaped XML throughout (genericEntities: no raw '<', no '&'
// outside an entity; here no raw '>' or '"' either), and only the
// command: file content keeps its entities.
func xmlCommandEscaped(c candidate, ts *toolset) candidate {
	if ts.resolve(c.name) != "bash" {
		return c
	}
	args, ok := c.args.(map[string]any)
	if !ok {
		return c
	}
	cmd, ok := args["command"].(string)
	if !ok || strings.ContainsAny(cmd, `>"`) {
		// A raw > or " beside the entities: not escaped XML throughout
		// (grep -o '&amp;' f > out, html.unescape('&lt;p&gt;') in "…":
		// red team 17r), the entities are the command's.
		return c
	}
	if d := genericEntities(cmd); d != cmd {
		args["command"] = d
		c.notes = append(c.notes, "xml_command_escaped")
	}
	return c
}

// openAIElements is openAIElementText's reading of the reply's JSON as
// OpenAI tool_calls elements (rule "openai_element_text"): one element, or
// (round 17p, koboldcpp's forced tool call printed as text,
// LostRuins/koboldcpp#1988) the whole array of them. It returns the first
// element's function object; nil when any element is not that shape.
func openAIElements(v any) map[string]any {
	list, isList := v.([]any)
	if !isList {
		list = []any{v}
	}
	var first map[string]any
	for _, e := range list {
		m, ok := e.(map[string]any)
		if !ok || m["type"] != "function" {
			return nil
		}
		for k := range m {
			if k != "type" && k != "function" && k != "id" && (k != "index" || !isList) {
				return nil
			}
		}
		f, ok := m["function"].(map[string]any)
		if !ok || len(f) != 2 {
			return nil
		}
		if _, ok := f["name"].(string); !ok {
			return nil
		}
		if _, ok := f["arguments"]; !ok {
			return nil
		}
		if first == nil {
			first = f
		}
	}
	return first
}

// missingRequired names the first required argument of tool that args
// (an object, or JSON text of one) lacks; "" when none is missing or the
// arguments cannot be read.
func missingRequired(ts *toolset, tool string, args any) string {
	if s, ok := args.(string); ok {
		d, ok := decodeText(s)
		if !ok {
			return ""
		}
		args = d
	}
	m, ok := args.(map[string]any)
	if !ok {
		return ""
	}
	o := ts.schema(tool)
	if o == nil {
		return ""
	}
	for _, r := range o.required {
		if v, ok := m[r]; !ok || v == nil || v == "" {
			return r
		}
	}
	return ""
}

// mergeFragmentCalls is rule "merge_fragment_calls" (round 17h): a client
// or proxy that gathered a streamed call badly hands on its deltas as
// separate tool_calls entries. OpenAI's streaming says a delta without an
// id or a name continues the call before it (spring-projects/spring-ai
// #5806: one call as four entries, the first named, the rest holding
// pieces of its arguments), and vLLM repeats the id and name on every
// delta of one call (spring-ai's mergeVllmToolCallsWithIdInEveryChunk
// test). The pieces are joined back when the call before them is not yet
// whole: its arguments empty or JSON that does not close. A second call
// with the same id and complete arguments of its own stays a second call.
func mergeFragmentCalls(calls []RawCall) []RawCall {
	if len(calls) < 2 {
		return calls
	}
	var out []RawCall
	for _, rc := range calls {
		if n := len(out); n > 0 && !argumentsWhole(out[n-1].Arguments) {
			prev := &out[n-1]
			anonymous := rc.ID == "" && rc.Name == ""
			repeated := rc.ID != "" && rc.ID == prev.ID && (rc.Name == "" || rc.Name == prev.Name)
			if anonymous || repeated {
				prev.Arguments += rc.Arguments
				continue
			}
		}
		out = append(out, rc)
	}
	return out
}

// argumentsWhole: the arguments text is a complete JSON value.
func argumentsWhole(a string) bool {
	t := strings.TrimSpace(a)
	if t == "" {
		return false
	}
	_, ok := decodeStrict(t)
	return ok
}

// reactInputLacks names the required argument a ReAct step's Action Input
// does not give (round 17h, run-llama/llama_index#12699: the tool's own
// schema echoed as the input, {'type': 'object', 'properties':
// AttributedDict()}), as " (bash needs the argument command)", so that
// the correction says what to send. Only for an input written as an
// object: a bare string may be the one argument itself.
func reactInputLacks(input, tool string, ts *toolset) string {
	if !strings.HasPrefix(input, "{") {
		return ""
	}
	o := ts.schema(tool)
	if o == nil || len(o.required) == 0 {
		return ""
	}
	miss := o.required[0]
	if v, ok := decodeText(input); ok {
		m, isObj := v.(map[string]any)
		if !isObj {
			return ""
		}
		if miss = missingRequired(ts, tool, m); miss == "" {
			return ""
		}
	}
	return " (" + tool + " needs the argument " + miss + ")"
}

// swallowedPair is rule "swallowed_pair" (round 17t, sigit's GLM parser
// tests): a GLM value read up to the last </arg_value> that holds an
// </arg_value> before any <arg_value> of its own closed where the template
// closes it, and what follows is a broken pair (<tool_call>cwd</arg_key>
// <arg_value>/tmp): pwd</arg_value><tool_call>cwd… is no command. A value
// that holds markup as data (a file with a call in it) opens what it
// closes. It returns the key of the swallowing value.
func swallowedPair(pairs []kv) string {
	for _, p := range pairs {
		v, ok := p.v.(string)
		if !ok {
			continue
		}
		c := strings.Index(v, "</arg_value>")
		if c < 0 {
			continue
		}
		if o := strings.Index(v, "<arg_value>"); o < 0 || o > c {
			if strings.Contains(v[c:], "</arg_key>") {
				return p.k
			}
		}
	}
	return ""
}

// fencedWireCalls is rule "fenced_wire_calls" (round 17t): a reply whose
// one call is a JSON fence holding a client's wire format rather than a
// call, after at most a lead-in that says what it does:
//   - OpenAI's {"tool_calls": [{"type": "function", "function": {"name",
//     "arguments"}}]} (yetone/avante.nvim threads: "I will create a new
//     file…" then the fence);
//   - MCP's JSON-RPC request {"method": "tools/call", "params": {"name",
//     "arguments"}} (ChatGPTNextWeb/NextChat threads), perhaps followed by
//     fences of the result the model made up ({"result": …}), which are
//     dropped, as made-up results are elsewhere.
//
// Only a lead-in where the model acts lets it run (genericLeadActs): one
// that shows the fence ("Here is the tool call shape OpenCode expects:")
// keeps it data, as does any other text after the fence.
// It returns the calls and the lead-in, the reply's text once they run.
func fencedWireCalls(s string, ts *toolset) ([]candidate, string, bool) {
	if !strings.Contains(s, "```") || !strings.Contains(s, `"name"`) {
		return nil, "", false // a check before the regular expression: prose stays cheap
	}
	fences := jsonFenceRe().FindAllStringSubmatchIndex(s, -1)
	if len(fences) == 0 {
		return nil, "", false
	}
	f := fences[0]
	lead := strings.TrimSpace(s[:f[0]])
	from := 0
	if strings.HasPrefix(lead, "<think>") {
		// Closed reasoning before it is no lead-in.
		if e := strings.Index(s, "</think>"); e >= 0 && e < f[0] {
			from = e + len("</think>")
			lead = strings.TrimSpace(s[from:f[0]])
		}
	}
	if strings.Contains(lead, "```") || wireLeadShows(lead) || !(genericLeadActs(s[from:], f[0]-from) || cjkLeadActs(lead)) {
		return nil, "", false
	}
	last := f[1]
	for _, g := range fences[1:] {
		if strings.TrimSpace(s[last:g[0]]) != "" || !madeUpResult(s[g[2]:g[3]]) {
			return nil, "", false
		}
		last = g[1]
	}
	if strings.TrimSpace(s[last:]) != "" {
		return nil, "", false
	}
	body := s[f[2]:f[3]]
	r := readValue(body, 0, false)
	if r.fail != failNone || strings.TrimSpace(body[r.end:]) != "" {
		return nil, "", false
	}
	m, ok := r.v.(map[string]any)
	if !ok {
		return nil, "", false
	}
	var items []any
	switch {
	case len(m) == 1 && m["tool_calls"] != nil:
		items, _ = m["tool_calls"].([]any)
	case m["method"] == "tools/call" && onlyKeys(m, "method", "params", "jsonrpc", "id"):
		items = []any{m["params"]}
	}
	var out []candidate
	for _, it := range items {
		o, ok := it.(map[string]any)
		if !ok {
			return nil, "", false
		}
		if o["type"] == "function" && onlyKeys(o, "type", "function", "id") {
			o, ok = o["function"].(map[string]any)
			if !ok {
				return nil, "", false
			}
		}
		name, _ := o["name"].(string)
		if !onlyKeys(o, "name", "arguments") || ts.resolve(name) == "" {
			return nil, "", false
		}
		args := o["arguments"]
		notes := r.notes
		if a, isStr := args.(string); isStr {
			// OpenAI's arguments are JSON text.
			if d, ok := decodeText(a); ok {
				args, notes = d, append(append([]string(nil), notes...), "double-encoded arguments decoded")
			}
		}
		out = append(out, candidate{name: name, args: args, notes: notes, fromText: true, format: "fenced wire-format call"})
	}
	return out, lead, len(out) > 0
}

var jsonFenceRe = lazyRegexp("(?m)^[ \\t]*```(?:json)?[ \\t]*\\n([\\s\\S]*?)\\n[ \\t]*```[ \\t]*$")

// madeUpResult: a fence body that is a tool's result, not a call
// ({"result": …}, MCP's JSON-RPC answer).
func madeUpResult(body string) bool {
	v, ok := decodeStrict(strings.TrimSpace(body))
	if !ok {
		return false
	}
	m, ok := v.(map[string]any)
	return ok && m["result"] != nil && onlyKeys(m, "result", "jsonrpc", "id")
}

// wireLeadShowsRe: a lead-in where the model acts on the reader, not the
// tools ("I will show you what the request looks like.", "Let me explain
// the MCP request format:", "I'll write the request for you to send
// yourself:"): the wire format after it is shown.
var wireLeadShowsRe = lazyRegexp(`(?i)\b(show|shows|showing|explain|explaining|illustrate|demonstrate|describe|an example|example request|for you to|yourself|you would|your own|your client|from your|the client|request format|wire format|payload|shape|postman|curl|insomnia|httpie|wget|endpoint)\b|/mcp\b|示例|例子|格式|展示|クライアント|送信`)

// wireLeadShows: a sentence of the lead-in shows the fence, talks of its
// wire format, or hands it to another client (wireLeadShowsRe; not
// formatTalkRe, which "Let me check the format of the config file:" before
// a real call would meet):
// every sentence, since "From your own client you would call it the same
// way. I'll send this request:" shows it too (red team 17r).
func wireLeadShows(lead string) bool {
	return wireLeadShowsRe().MatchString(lead)
}

// cjkLeadActsRe: a Chinese or Japanese lead-in where the model acts
// ("我来查看一下目录结构：", "go.mod を読みます。"), as one short line.
var cjkLeadActsRe = lazyRegexp(`^[^\n]{0,60}(我来|让我|我将|我会|我先|我现在|ます|しましょう)[^\n]{0,30}[。：:！!]?$`)

// cjkLeadActs: the lead-in's last line is such a step.
func cjkLeadActs(lead string) bool {
	t := strings.TrimSpace(lead)
	if i := strings.LastIndexByte(t, '\n'); i >= 0 {
		t = strings.TrimSpace(t[i+1:])
	}
	return cjkLeadActsRe().MatchString(t)
}

// endsSentence: what comes before a lone opener or a quoted block ends a
// sentence (or closed reasoning), as the model's own words before its call
// do; "…wrap it in", "…start with" run on into the markup, which is then
// their object, not a call (red team 17r).
func endsSentence(before string) bool {
	t := strings.TrimRight(before, " \t\r\n")
	if t == "" || strings.HasSuffix(t, "</think>") {
		return true
	}
	r, _ := utf8.DecodeLastRuneInString(t)
	return strings.ContainsRune(".!?:。！？：", r)
}
