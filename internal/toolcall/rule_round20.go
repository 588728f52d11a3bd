package toolcall

import (
	"encoding/json"
	"strings"
)

// Rules of round 20 (widened-threads-round20a/b/c/d.jsonl), each written
// from the parser or documentation of its format and reached from a
// one-line hook.

// kimiGluedToSentence is rule "kimi_glued_to_sentence": with its special
// tokens stripped, Kimi K2's call is functions.NAME:IDX{…}, and the
// server's decoder writes it right after the content, so a reply that
// ends a sentence with a full stop runs straight into it ("…directory
// contents.functions.bash:1{…}": ikawrakow/ik_llama.cpp's
// tests/test-function-calls.cpp quotes such server logs, and its
// Kimi-K2 parser looks for "functions." anywhere in the content). The
// full stop is read as a sentence's end, not as an attribute access, only
// when a word of prose stands before it, the id has its :IDX and the name
// is a declared tool's (strippedKimi then requires the JSON object).
func kimiGluedToSentence(sc *scan, j int) bool {
	s := sc.s
	if j < 2 || s[j-1] != '.' || !strings.HasPrefix(s[j:], "functions.") || !isLetter(s[j-2]) {
		return false
	}
	w := j - 1
	for w > 0 && isLetter(s[w-1]) {
		w--
	}
	if w == 0 || s[w-1] != ' ' {
		return false
	}
	// Prose, not code: no assignment, call or block punctuation on the
	// line before the glued word.
	if ls := strings.LastIndexByte(s[:w], '\n') + 1; strings.ContainsAny(s[ls:w], "=(){};") {
		return false
	}
	e := j + len("functions.")
	ns := e
	for e < len(s) && (isIdent(s[e]) || s[e] == '-') {
		e++
	}
	if e == ns || e >= len(s) || s[e] != ':' || sc.ts.resolve(s[ns:e]) == "" {
		return false
	}
	return e+1 < len(s) && s[e+1] >= '0' && s[e+1] <= '9'
}

// pinhookCalls is rule "pinhook_api_call": the Pin-Hook models' prompted
// format, as gorilla's BFCL PinHookHandler gives it in its system prompt
// and parses it (bfcl_eval/model_handler/local_inference/pinhook.py):
//
//	<function>[API_CALL]NAME[PARAM_CALL]{…}[API_CALL]NAME2[PARAM_CALL]{…}</function>
//
// Each [API_CALL] opens a call, [PARAM_CALL] its JSON arguments; a body
// that is not JSON is kept as text (the handler's json.loads fallback),
// which the tool's single string argument may take. The markers are the
// format's own; a block inside code is not read, and one whose
// </function> never comes is read as far as it goes (a cut object is
// corrected, never run).
const (
	pinhookOpen  = "<function>[API_CALL]"
	pinhookCall  = "[API_CALL]"
	pinhookParam = "[PARAM_CALL]"
)

func pinhookCalls(s string, ts *toolset) ([]candidate, string, bool) {
	first := strings.Index(s, pinhookOpen)
	if first < 0 {
		return nil, "", false
	}
	if inRegions(codeSpans(s), first) {
		return nil, "", false
	}
	body := s[first+len("<function>"):]
	if e := strings.Index(body, "</function>"); e >= 0 {
		if strings.TrimSpace(body[e+len("</function>"):]) != "" {
			return nil, "", false // prose after the block: shown, not made
		}
		body = body[:e]
	}
	var out []candidate
	for _, part := range strings.Split(body, pinhookCall)[1:] {
		k := strings.Index(part, pinhookParam)
		if k < 0 {
			return nil, "", false
		}
		name := strings.TrimSpace(part[:k])
		if name == "" || strings.ContainsAny(name, " \n") {
			return nil, "", false
		}
		c := candidate{name: name, fromText: true, format: "Pin-Hook [API_CALL]"}
		arg := strings.TrimSpace(part[k+len(pinhookParam):])
		if strings.HasPrefix(arg, "{") {
			r := readValue(arg, 0, false)
			switch {
			case r.fail != failNone:
				c.fail, c.msg, c.key = r.fail, r.msg, r.key
			case strings.TrimSpace(arg[r.end:]) != "":
				c.fail, c.msg = failSyntax, "text follows the arguments object"
			default:
				c.args, c.notes = r.v, r.notes
			}
		} else {
			c.args = arg
		}
		out = append(out, c)
	}
	if len(out) == 0 {
		return nil, "", false
	}
	lead := s[:first]
	if notIntended(lead, "") {
		return nil, "", false
	}
	return out, lead, true
}

// bareNameCalls is rule "bare_name_calls": text-generation-webui's
// _parseBareNameToolCalls (extensions/openai/utils.py) reads the "bare
// function-name style" that Mistral-style output leaves once the server
// skips its control tokens: [TOOL_CALLS]NAME[ARGS]{…} decoded without its
// markers is NAME{…}, several calls concatenated directly. With no marker
// at all it is read only as the whole reply (as is NAME({…}), the same
// issue's python_call form: parenJSONArgs), every name exactly a
// declared tool's and every object complete; in a sentence the same text
// is a quoted example.
func bareNameCalls(s string, ts *toolset) ([]candidate, bool) {
	t := strings.TrimSpace(s)
	var out []candidate
	for t != "" {
		e := 0
		for e < len(t) && (isIdent(t[e]) || t[e] == '-') {
			e++
		}
		if _, ok := ts.raw[t[:e]]; !ok || e == 0 || e >= len(t) || t[e] != '{' && t[e] != '(' {
			return nil, false
		}
		if t[e] == '(' {
			c, end, ok := parenJSONArgs(t, t[:e], e)
			if !ok {
				return nil, false
			}
			c.format = "bare NAME({…})"
			out = append(out, c)
			t = strings.TrimSpace(t[end:])
			continue
		}
		r := readValue(t, e, false)
		if r.fail != failNone {
			return nil, false
		}
		if _, ok := r.v.(map[string]any); !ok {
			return nil, false
		}
		out = append(out, candidate{name: t[:e], args: r.v, notes: r.notes, fromText: true, format: "bare NAME{…}"})
		t = strings.TrimSpace(t[r.end:])
	}
	return out, len(out) > 0
}

// comparedRe is rule "call_compared": a call written after "instead of"
// or "rather than" is the thing a sentence compares with ("the server ends
// up with bash{…} in the text instead of [TOOL_CALLS]bash[ARGS]{…}"), not
// one the model makes.
var comparedRe = lazyRegexp(`(?i)\b(instead of|rather than|in place of|as opposed to)\s*[:：]?\s*$`)

// parenJSONArgs is rule "paren_json_args": a call written NAME({…}), a
// Python call whose one positional argument is the JSON arguments object
// (mrwogu/factory-droid-openai#36's python_call decoder reads GLM's
// read_file({"path":…}); osaurus-ai/osaurus#1505 shows Gemma 4's
// call:NAME({…}) inside its own envelope). p is the '('; the object must
// be complete and the parenthesis must close right after it.
func parenJSONArgs(s, name string, p int) (candidate, int, bool) {
	q := skipSpace(s, p+1)
	if q >= len(s) || s[q] != '{' {
		return candidate{}, 0, false
	}
	r := readValue(s, q, false)
	if r.fail != failNone {
		return candidate{}, 0, false
	}
	if _, ok := r.v.(map[string]any); !ok {
		return candidate{}, 0, false
	}
	e := skipSpace(s, r.end)
	if e >= len(s) || s[e] != ')' {
		return candidate{}, 0, false
	}
	return candidate{name: name, args: r.v, notes: append(r.notes, "JSON object as the one positional argument"), fromText: true}, e + 1, true
}

// callPatternRe is rule "call_pattern_named": a lead-in that names a
// format's call pattern ("GLM 4.5's tool call pattern is:", "Qwen3
// Coder's function call syntax looks like:") introduces that format's
// example, as an answer comparing formats shows them (on
// lmstudio-ai/lmstudio-bug-tracker#829), not a call the model makes.
var callPatternRe = lazyRegexp(`(?i)\b(tool[- ]call|function[- ]call|call)s?\s+(pattern|format|syntax|shape|template|markup)s?\s+(is|are|looks like|look like|reads)\s*[:：]?\s*$`)

// llama3WholeObject is rule "llama3_object_unknown_tool": Llama 3.1's
// JSON tool call is {"type": "function", "name": NAME, "parameters": {…}}
// (Meta's prompt-format page for Llama 3.1 and 3.2), and a reply that is
// nothing but that object, with those three keys exactly, is a call
// whatever NAME is. A name no declared tool has is then a call to an
// unknown tool, answered with the tools list (Duelion/homebox-companion#101:
// get_locations for list_locations), where the same object with another
// shape, or inside an answer, stays data.
func llama3WholeObject(s string, ts *toolset) (candidate, bool) {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "{") || !strings.HasSuffix(t, "}") {
		return candidate{}, false
	}
	r := readValue(t, 0, false)
	if r.fail != failNone || r.end != len(t) {
		return candidate{}, false
	}
	m, ok := r.v.(map[string]any)
	if !ok || len(m) != 3 || m["type"] != "function" {
		return candidate{}, false
	}
	name, _ := m["name"].(string)
	args, isObj := m["parameters"].(map[string]any)
	if name == "" || !isObj || strings.ContainsAny(name, " \n") {
		return candidate{}, false
	}
	return candidate{name: name, args: args, notes: r.notes, fromText: true, format: "Llama 3 JSON object"}, true
}

// replyAsJSONString is rule "reply_is_json_string": a reply that is
// nothing but one JSON string literal whose text is a JSON object is a
// reply encoded once too often (the stringified call that
// Tatarotus/pi-mono's tool dispatcher decodes before it repairs the
// call); its decoded text is read as the reply, once.
func replyAsJSONString(s string) (string, bool) {
	t := strings.TrimSpace(s)
	if len(t) < 4 || !strings.HasPrefix(t, `"{`) || !strings.HasSuffix(t, `}"`) {
		return "", false
	}
	var inner string
	if json.Unmarshal([]byte(t), &inner) != nil {
		return "", false
	}
	return inner, true
}

// aloneInActedFence is rule "fenced_after_acting_lead": the object that
// functionKeyReply reads as the whole reply may also stand alone in a
// fence that ends the reply, after a lead-in in which the model says it
// acts ("Let me call the tool.\n```json\n{"tool": …, "args": {…}}\n```",
// Tatarotus/pi-mono's dispatcher test): the fence is the call's wrapper
// there, not an example (modelActs, rule_leadin.go; notIntended still
// reads the lead-in).
func aloneInActedFence(s string, q, end int) bool {
	before := strings.TrimRight(s[:q], " \t\r\n")
	ls := strings.LastIndexByte(before, '\n')
	fence := strings.TrimSpace(before[ls+1:])
	if (fence != "```" && fence != "```json") || strings.TrimSpace(s[end:]) != "```" {
		return false
	}
	if ls < 0 || strings.TrimSpace(before[:ls]) == "" {
		return true // the fence is the whole reply (rule_round21.go: fenced_whole_reply)
	}
	lead := before[:ls]
	return strings.Count(lead, "```") == 0 && modelActs(lead) && !notIntended(lead, "")
}

// paramNameTag is rule "param_name_tag": MiniCPM 5 writes its arguments
// <param name="KEY">VALUE</param> (the form strippedNameAttrs reads once
// its tokens are stripped), and models write it inside Qwen3-Coder's
// <function=NAME> too (apmantza/pi-free's Cline XML bridge test). HTML's
// <param name=… value=…> is a void element: only a tag whose </param>
// closer follows, before the next <param, is an argument.
func paramNameTag(s string, p int) bool {
	if !strings.HasPrefix(s[p:], "<param ") {
		return false
	}
	t, ok := readTag(s, p)
	if !ok || t.name != "param" || t.attrs["name"] == "" {
		return false
	}
	rest := s[t.end:]
	c := strings.Index(rest, "</param>")
	if c < 0 {
		return false
	}
	n := strings.Index(rest, "<param")
	return n < 0 || n >= c
}

// r1LayoutShifted is rule "r1_layout_one_field_off": DeepSeek R1/V3's
// call is function<｜tool▁sep｜>NAME\n```json\n{…}\n``` (the type, the
// name on its line, the fenced arguments). A parser for V3.1's
// NAME<｜tool▁sep｜>{…} reads it one field off: the type "function"
// becomes the name and NAME with its fence the arguments
// (raullenchai/Rapid-MLX#795). A server call named "function" whose
// arguments are exactly a declared tool's name on its own line and one
// ```json fence of an object is that call.
func r1LayoutShifted(rc RawCall, ts *toolset) (RawCall, bool) {
	if rc.Name != "function" || ts.resolve(rc.Name) != "" {
		return rc, false
	}
	t := strings.TrimSpace(rc.Arguments)
	nl := strings.IndexByte(t, '\n')
	if nl < 0 {
		return rc, false
	}
	name := strings.TrimSpace(t[:nl])
	if _, ok := ts.raw[name]; !ok {
		return rc, false
	}
	body := strings.TrimSpace(t[nl+1:])
	if !strings.HasPrefix(body, "```json") || !strings.HasSuffix(body, "```") || len(body) < len("```json```") {
		return rc, false
	}
	obj := strings.TrimSpace(body[len("```json") : len(body)-len("```")])
	if !strings.HasPrefix(obj, "{") || strings.Contains(obj, "```") {
		return rc, false
	}
	rc.Name, rc.Arguments = name, obj
	return rc, true
}

// identifierValue is rule "content_as_identifier": a file's content
// written as an unquoted programming identifier ("content": my_data) is
// a reference to a value the model does not have (gorilla's BFCL
// ArchHandler eval()s such arguments: "data": my_data), not the text to
// write; writing the name would be a guess, so the call is corrected.
// Only content, and only under a quoted key (JSON): Gemma's bare-key
// syntax writes free text unquoted (call:write_file{content:hello}), and
// an unquoted path or command is its own text.
func identifierValue(raw string) bool {
	t := strings.TrimSpace(raw)
	if t == "" || !(isLetter(t[0]) || t[0] == '_') {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !isIdent(t[i]) || t[i] == '$' {
			return false
		}
	}
	switch strings.ToLower(t) {
	case "true", "false", "null", "none", "nil":
		return false
	}
	return true
}

// quotedKeyBefore: the value at s[vs] follows a quoted key ("KEY": …).
func quotedKeyBefore(s string, vs int) bool {
	j := vs - 1
	for j >= 0 && (s[j] == ' ' || s[j] == '\t' || s[j] == '\n' || s[j] == '\r') {
		j--
	}
	if j < 0 || s[j] != ':' {
		return false
	}
	j--
	for j >= 0 && (s[j] == ' ' || s[j] == '\t') {
		j--
	}
	return j >= 0 && (s[j] == '"' || s[j] == '\'')
}

// strippedHeaderLine is rule "next_stripped_header": harmony writes one
// message per call, each with its own header; a server that strips the
// header's <|start|>assistant<|channel|>commentary leaves
// "to=functions.NAME <|message|>{…}" lines one after another
// (3ddy98/VIPER's response preprocessor test, "Multiple tool calls in one
// response"). A <|message|> token whose line, after from, opens with
// "to=" starts the next message; the line start is returned.
func strippedHeaderLine(s string, from, x int) (int, bool) {
	ls := strings.LastIndexByte(s[:x], '\n') + 1
	if ls < from || ls == 0 {
		return 0, false
	}
	return ls, strings.HasPrefix(strings.TrimLeft(s[ls:x], " \t"), "to=")
}

// headerKeepsMessageToken is rule "header_lost_only_channel": a header
// that opens its line with the channel word and keeps its <|message|>
// token lost only its <|channel|> token ("commentary to=read_file
// <|constrain|>json <|message|>{…}" under a THOUGHT: line, 3ddy98/VIPER's
// commentary test): the tokens after the recipient are the model's own,
// which pasted prose does not hold (a header shown in code is blanked
// before this). w is the channel word's start, j the recipient's.
func headerKeepsMessageToken(s string, w, j int) bool {
	if !strings.HasPrefix(s[w:], "commentary") {
		return false
	}
	le := strings.IndexByte(s[j:], '\n')
	if le < 0 {
		le = len(s) - j
	}
	line := s[j : j+le]
	m := strings.Index(line, "<|message|>")
	return m >= 0 && strings.HasPrefix(strings.TrimSpace(line[m+len("<|message|>"):]), "{")
}

// minimaxTypography is rule "minimax_block_typography": a chat UI that
// renders the reply with smart punctuation turns MiniMax's
// {tool => "NAME", args => { --key "value" }} block into “NAME” and
// –key (Mintplex-Labs/anything-llm#4675, quoted as the UI showed it).
// Inside that block only, the curly quotes are the format's straight
// quotes again and an en or em dash before a key is its "--".
func minimaxTypography(body string) string {
	if !strings.ContainsAny(body, "“”–—") {
		return body
	}
	r := strings.NewReplacer("“", `"`, "”", `"`, "–", "--", "—", "--")
	return r.Replace(body)
}

// isIdentAt: s[i] is an identifier character.
func isIdentAt(s string, i int) bool { return i < len(s) && isIdent(s[i]) }

// toolTagInWrapper is rule "tool_tag_in_wrapper": a call wrapper
// (<tool_call>, or <toolcall> without its underscore) around one element
// named after a declared tool whose body is its JSON arguments
// (<toolcall><bash>{"command": …}</bash></toolcall>, sipeed/picoclaw#2104)
// is that element's call: the element alone is read already (Cline's
// tags with a JSON body). Only as the whole reply; the inner element is
// returned to be read as the reply.
func toolTagInWrapper(s string, ts *toolset) (string, bool) {
	t := strings.TrimSpace(s)
	for _, w := range []string{"tool_call", "toolcall"} {
		if strings.HasPrefix(t, "<"+w+">") && !strings.HasSuffix(t, "</"+w+">") {
			t += "</" + w + ">" // the closer a server's stop string ate (rule_round22.go)
		}
		if !strings.HasPrefix(t, "<"+w+">") || !strings.HasSuffix(t, "</"+w+">") {
			continue
		}
		inner := strings.TrimSpace(t[len(w)+2 : len(t)-len(w)-3])
		if !strings.HasPrefix(inner, "<") {
			return "", false
		}
		e := strings.IndexByte(inner, '>')
		if e < 0 {
			return "", false
		}
		name := inner[1:e]
		if _, ok := ts.raw[name]; !ok || !strings.HasSuffix(inner, "</"+name+">") {
			return "", false
		}
		body := strings.TrimSpace(inner[e+1 : len(inner)-len(name)-3])
		if strings.HasPrefix(body, "<") && strings.HasSuffix(body, ">") {
			return inner, true // Cline's elements inside (rule_round22.go: cline_in_tool_call)
		}
		if !strings.HasPrefix(body, "{") || !strings.HasSuffix(body, "}") {
			return "", false
		}
		return inner, true
	}
	return "", false
}
