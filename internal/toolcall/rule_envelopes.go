package toolcall

import "strings"

// Rules for formats that real replies quoted in issue threads use (round 2
// of issue #25, testdata/widened-threads-harmony-mistral-llama.jsonl). Each
// is written from the parser or template that defines the format, not from
// one reply.

// genericEnvelope reads llama.cpp's generic tool-call format
// (ggml-org/llama.cpp common/chat.cpp, common_chat_params_init_generic and
// common_chat_parse_generic): for a template with no tool syntax of its own
// llama-server tells the model to "Respond in JSON format, either with
// `tool_call` (a request to call tools) or with `response`", and parses
// {"tool_calls": [{"name", "arguments", "id"}]} (older builds
// {"tool_call": {…}}). A model that learned it from that prompt writes it as
// content when no grammar holds it to it. The envelope is read as the calls
// it holds only when it is the object's one key; each element must still be
// a call object, so an OpenAI response shown as data ({"id","type",
// "function"} elements, or more keys around) stays data.
func genericEnvelope(v any) (any, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 1 {
		return v, false
	}
	if l, ok := m["tool_calls"].([]any); ok && len(l) > 0 {
		return l, true
	}
	if c, ok := m["tool_call"].(map[string]any); ok {
		return c, true
	}
	return v, false
}

// llamaFunctionShape reads the shape in which Llama 3.x's chat templates
// list the tools, {"type": "function", "function": {"name", "description",
// "parameters"}} (the request's tool definitions rendered with tojson,
// vLLM's examples/tool_chat_template_llama3.x_json.jinja), when a Llama 3.2
// model answers in it with argument values in "parameters"
// (vllm-project/vllm#11786). Outside call markup only that shape is read:
// two keys, and a function object whose parameters are values, not a
// schema (a tool definition repeated back is not a call). OpenAI's wire
// shape in prose ("arguments" as a string, an "id") stays documentation.
func llamaFunctionShape(v any) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok || len(m) != 2 || m["type"] != "function" {
		return nil, false
	}
	f, ok := m["function"].(map[string]any)
	if !ok {
		return nil, false
	}
	if _, ok := f["name"].(string); !ok || toolDefinition(f) { // rule_round4a.go
		return nil, false
	}
	p, ok := f["parameters"].(map[string]any)
	if !ok || isSchemaShape(p) {
		return nil, false
	}
	return f, true
}

var llamaEnvelopeRe = lazyRegexp(`^\{\s*"type"\s*:\s*"function"\s*,\s*"function"\s*:\s*`)

// openLlamaEnvelope reads that shape when the message ends after its
// function object, the envelope's own closing brace missing: the call is
// whole, only the outer wrapper is left open, as a tag or list left open
// after a complete call is.
func (sc *scan) openLlamaEnvelope(start, q int) (group, bool) {
	s := sc.s
	loc := llamaEnvelopeRe().FindStringIndex(s[q:])
	if loc == nil {
		return group{}, false
	}
	p := q + loc[1]
	if p >= len(s) || s[p] != '{' {
		return group{}, false
	}
	r := readValue(s, p, false)
	if r.fail != failNone || strings.TrimSpace(s[r.end:]) != "" {
		return group{}, false
	}
	f, ok := llamaFunctionShape(map[string]any{"type": "function", "function": r.v})
	if !ok {
		return group{}, false
	}
	c, ok := callObject(f)
	if !ok {
		return group{}, false
	}
	c.fromText, c.format = true, "JSON in the text"
	c.notes = append(append(append([]string(nil), r.notes...), c.notes...), "unclosed function envelope")
	return group{start: start, end: len(s), cands: []candidate{c}}, true
}

// googleArgs reads {"name", "args"}: Google's FunctionCall names its
// arguments "args" (the Gemini API's function calling), and Gemma
// fine-tunes are taught it (the mashriram/gemma3nTools template on Ollama,
// ollama/ollama#18357). Read inside call markup only, where the object is a
// call attempt whatever its keys.
func googleArgs(v any) (candidate, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return candidate{}, false
	}
	_, hasArgs := m["arguments"]
	_, hasParams := m["parameters"]
	a, ok := m["args"]
	if !ok || hasArgs || hasParams {
		return candidate{}, false
	}
	cp := make(map[string]any, len(m))
	for k, x := range m {
		if k != "args" {
			cp[k] = x
		}
	}
	cp["arguments"] = a
	c, ok := callObject(cp)
	if ok {
		c.notes = append(c.notes, "args read as arguments")
	}
	return c, ok
}

// gemmaParen reads Gemma 4's call:NAME(k="v", …): under long prompts Gemma
// 4 drops the brace form for Python keyword arguments after the same call:
// prefix, often without <tool_call|> (the Gemma4ToolParser fallback of
// waybarrios/vllm-mlx#622, which requires the call: prefix so that prose
// such as "see foo()" is not read). p is the '(' after the name.
func (sc *scan) gemmaParen(start int, name string, p int) (group, bool) {
	c, end, ok := parenJSONArgs(sc.s, name, p) // rule_round20.go
	if !ok {
		c, end, ok = pyArgs(sc.s, name, p)
	}
	if !ok || c.fail == failSyntax {
		if cc, e, ok2 := gemmaColonArgs(sc.s, name, p); ok2 { // rule_round3a.go
			c, end, ok = cc, e, true
		}
	}
	if !ok {
		return group{}, false
	}
	c.format = "gemma call:NAME(…)"
	if c.fail == failEOF {
		end = len(sc.s)
	} else {
		end = sc.closers(end)
	}
	return group{start: start, end: end, cands: []candidate{c}}, true
}

var toolCodeAssignRe = lazyRegexp(`^tool_code[ \t]*=[ \t]*([A-Za-z_][A-Za-z0-9_.]*)\(`)

// toolCodeAssign reads tool_code = NAME(k=v) standing on its own line:
// Gemma's tool_code fence label written as an assignment, unfenced, with a
// print(tool_code) line after it as bookkeeping (the _TOOL_CODE_ASSIGN_RE
// fallback of waybarrios/vllm-mlx#623). Only at the start of a line and for
// a declared tool, so x = foo() or prose stays text; a Python block fenced
// as such is code and never reaches here.
func (sc *scan) toolCodeAssign(j int) (group, bool) {
	s := sc.s
	if j > 0 && s[j-1] != '\n' {
		return group{}, false
	}
	m := toolCodeAssignRe().FindStringSubmatchIndex(s[j:min(len(s), j+200)])
	if m == nil {
		return group{}, false
	}
	name := s[j+m[2] : j+m[3]]
	if sc.ts.resolve(name) == "" {
		return group{}, false
	}
	c, end, ok := pyArgs(s, name, j+m[1]-1)
	if !ok || c.fail == failEOF {
		return group{}, false
	}
	le := strings.IndexByte(s[end:], '\n')
	if le < 0 {
		le = len(s) - end
	}
	if strings.Trim(s[end:end+le], " \t\r;") != "" {
		return group{}, false
	}
	end += le
	if rest := strings.TrimLeft(s[end:], "\r\n"); strings.HasPrefix(rest, "print(tool_code)") {
		end = len(s) - len(rest) + len("print(tool_code)")
	}
	c.format = "tool_code assignment"
	return group{start: j, end: end, cands: []candidate{c}}, true
}
