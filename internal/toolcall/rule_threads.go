package toolcall

import (
	"strings"
)

// Rules for server replies and calls quoted in issue threads
// (testdata/widened-threads-structured.jsonl), each written from the
// format or the server behaviour the thread documents, not from one case.

// emptyServerCall is rule "empty_server_call" (OpenAI chat completions: a
// tool call is its function, a name and its arguments). An entry with
// neither — LM Studio's {"id": "", "type": "function"} next to a final
// answer (lmstudio-bug-tracker#830) — names no tool and carries no
// argument: there is no call to correct, and the text is the answer. Only
// with text beside it: alone, the entry is all the reply has, and the
// correction is what the model is told.
func emptyServerCall(rc RawCall, content string) bool {
	if strings.TrimSpace(rc.Name) != "" || strings.TrimSpace(content) == "" {
		return false
	}
	switch strings.TrimSpace(rc.Arguments) {
	case "", "null", "{}":
		return true
	}
	return false
}

// argsHoldCall is rule "args_hold_call": a server call's arguments that
// are not JSON are the value of a single-argument tool (a harmony raw
// body), but not when they hold a call themselves — an object with a name
// and its arguments, or Qwen3-Coder's parameter markup. That is a call the
// server could not parse and passed on wrapped (Rapid-MLX's
// <malformed_json_arguments>, Rapid-MLX#2656), and its text is no command
// or URL.
func argsHoldCall(body string) bool {
	if strings.Contains(body, "<parameter=") || strings.Contains(body, "</parameter>") || strings.Contains(body, "</function>") {
		return true
	}
	if markupQuotedInCommand(body) { // rule_redteam12.go
		return false
	}
	for _, m := range callMarkupInBody {
		if strings.Contains(body, m) {
			return true
		}
	}
	// A body that opens with call markup of any namespace (Glimmer's
	// <atem:function_calls>, round 14p: the stripped-harmony reader ran
	// read_file on the whole ATEM block).
	if b := strings.TrimSpace(body); strings.HasPrefix(b, "<") {
		if t, ok := readTag(b, 0); ok && !t.close {
			if l := genericLocal(t.name); genericCallWord(normTok(l)) || genericParamWord(l) {
				return true
			}
		}
	}
	return argsKeyRe().MatchString(body) && nameKeyRe().MatchString(body)
}

// callMarkupInBody is rule "body_holds_call_markup": a body that is not
// JSON is taken as the tool's one string argument, but not when it holds
// another format's call or argument markup — GLM's <arg_key>/<arg_value>
// pairs, Kimi's and DeepSeek's call tokens, a Hermes block, an <invoke>
// (MiniMax, Step3), Mistral's [TOOL_CALLS], harmony's tokens. A model
// that wrote one format inside another meant arguments, not a path or a
// command spelled in markup (round 11s found DeepSeek's reader running
// read_file on a Step3 <steptml:invoke> body); the call is corrected, as
// a body of broken JSON is.
var callMarkupInBody = []string{
	"<arg_key>", "<arg_value>", "<|tool_call", "<｜tool", "<tool_call>", "<invoke ", "<invoke>",
	"<parameter name=", "<steptml:", "[TOOL_CALLS]", "<function_calls>", "<|channel|>", "<|message|>",
}

var (
	argsKeyRe = lazyRegexp(`"(arguments|parameters)"\s*:`)
	nameKeyRe = lazyRegexp(`"name"\s*:`)
)

// pyEndsReply is rule "pythonic_call_ends_reply" (Llama 3.1's prompt
// format: a call in Python syntax after <|python_tag|> is the end of the
// message, closed by <|eom_id|>). A name(k=v) line standing alone, with
// the tag gone, is a call only when nothing but further such calls follows
// it; with prose after it ("…in your own code.") it is an example shown to
// the user.
func (sc *scan) pyEndsReply(end int) bool {
	s := sc.s
	nl := strings.IndexByte(s[end:], '\n')
	if nl < 0 {
		return sc.pyTailLine(s[end:])
	}
	nl += end
	if !sc.pyTailLine(s[end:nl]) {
		return false
	}
	if !sc.pyBadRead {
		// The lines after a call are read once for the whole text, from
		// its end: the last one that is not a call is where no call
		// before it ends the reply.
		sc.pyBadRead, sc.pyBadLine = true, -1
		for e := len(s); e >= 0; {
			b := strings.LastIndexByte(s[:e], '\n') + 1
			if !sc.pyTailLine(s[b:e]) {
				sc.pyBadLine = b
				break
			}
			e = b - 1
		}
	}
	return sc.pyBadLine <= nl
}

// pyTailLine: a line that may follow a call ending the reply — blank, or
// another name(…) of a declared tool.
func (sc *scan) pyTailLine(line string) bool {
	t := strings.TrimSpace(line)
	if t == "" {
		return true
	}
	i := strings.IndexByte(t, '(')
	if i <= 0 || !strings.HasSuffix(strings.TrimRight(t, ";"), ")") {
		return false
	}
	name := strings.TrimSuffix(t[:i], ".call")
	for k := 0; k < len(name); k++ {
		if !isIdent(name[k]) && name[k] != '.' {
			return false
		}
	}
	return sc.ts.resolve(name) != ""
}

// paramTags is rule "args_as_param_tags" (vmlx's Qwen parser fix,
// jjang-ai/vmlx#192: Qwen3-Coder sent function.arguments as
// "<command>…</command>"): arguments text made only of <K>V</K> elements,
// every K a property of the tool, is those arguments — each value the text
// between its tags, one newline after the opener and before the closer not
// part of it, as for the other XML-style values. Anything else around or
// between the elements, an unknown K, or a K given twice, and the text is
// not read this way.
func paramTags(body string, o *objSchema) (map[string]any, bool) {
	s := strings.TrimSpace(body)
	if !strings.HasPrefix(s, "<") || !strings.HasSuffix(s, ">") {
		return nil, false
	}
	out := map[string]any{}
	for s != "" {
		if s[0] != '<' {
			return nil, false
		}
		e := strings.IndexByte(s, '>')
		if e < 2 {
			return nil, false
		}
		k := s[1:e]
		if _, ok := o.props[k]; !ok {
			return nil, false
		}
		if _, dup := out[k]; dup {
			return nil, false
		}
		closer := "</" + k + ">"
		c := strings.Index(s[e+1:], closer)
		if c < 0 {
			return nil, false
		}
		v := s[e+1 : e+1+c]
		v = strings.TrimPrefix(v, "\n")
		v = strings.TrimSuffix(v, "\n")
		out[k] = v
		s = strings.TrimSpace(s[e+1+c+len(closer):])
	}
	return out, len(out) > 0
}

// Rule "glm_key_without_value" (GLM's template writes every argument as
// <arg_key>K</arg_key><arg_value>V</arg_value>): a key followed by no value
// at all, neither an <arg_value> nor text up to a </arg_value>, gives no
// argument, so a required one is corrected by name instead of run empty
// (readArgPairs).
//
// glmValueNoOpener is rule "glm_value_without_opener" (vLLM's glm47
// parser, vllm#49249: under load GLM-4.7 skips the opening <arg_value>;
// "the closing </arg_value> still delimits the value"). After a key, text
// that runs to a </arg_value> with no other GLM tag before it is the value.
func glmValueNoOpener(s string, q int) (string, int, bool) {
	i := strings.Index(s[q:], "</arg_value>")
	if i < 0 {
		return "", 0, false
	}
	seg := s[q : q+i]
	for _, tag := range []string{"<arg_key>", "</arg_key>", "<arg_value>", "<tool_call>", "</tool_call>"} {
		if strings.Contains(seg, tag) {
			return "", 0, false
		}
	}
	return xmlValue(seg), q + i + len("</arg_value>"), true
}

// glmGluedKey is rule "glm_key_glued_to_name" (vLLM's glm47 parser,
// vllm#47190: GLM-4.7 emits "tool_namearg</arg_key>" for
// "tool_name<arg_key>arg</arg_key>"; recovered only when the prefix is a
// requested tool). The word after <tool_call> runs into a </arg_key>: its
// longest prefix that names a declared tool is the name and the rest the
// first key; "NAME key</arg_key>" (a space instead of the tag) is read the
// same way. The other pairs follow as usual.
func (sc *scan) glmGluedKey(start, q, e int) (group, bool) {
	s := sc.s
	word := s[q:e]
	name, key, r := "", "", e
	if strings.HasPrefix(s[e:], "</arg_key>") {
		for k := len(word) - 1; k > 0; k-- {
			if sc.ts.resolve(word[:k]) != "" {
				name, key = word[:k], word[k:]
				break
			}
		}
	} else if sc.ts.resolve(word) != "" {
		b := skipSpace(s, e)
		k := b
		for k < len(s) && isIdent(s[k]) {
			k++
		}
		if k > b && b > e && strings.HasPrefix(s[k:], "</arg_key>") {
			name, key, r = word, s[b:k], k
		}
	}
	if name == "" || key == "" {
		return group{}, false
	}
	t := "<arg_key>" + key + s[r:]
	pairs, p := readArgPairs(t, 0)
	if len(pairs) == 0 {
		return group{}, false
	}
	args := map[string]any{}
	for _, kv := range pairs {
		if _, dup := args[kv.k]; !dup {
			args[kv.k] = kv.v
		}
	}
	end := r + p - len("<arg_key>") - len(key)
	c := candidate{name: name, args: args, xml: true, fromText: true, format: "GLM <arg_key>/<arg_value>", notes: []string{"<arg_key> restored after the tool name"}}
	return group{start: start, end: sc.closers(end), cands: []candidate{c}}, true
}

// quotedObject is rule "quoted_object_body" (llama.cpp's GPT-OSS arguments
// error "last read: '\"{\"fi'", continuedev/continue#7491): a JSON body the
// model wrapped in quotes without escaping it, "{"k": …}", is not a string
// at all; the object inside, when it decodes on its own, is the arguments.
func quotedObject(t string) (map[string]any, bool) {
	if len(t) < 4 || t[0] != '"' || t[len(t)-1] != '"' || t[1] != '{' || t[len(t)-2] != '}' {
		return nil, false
	}
	v, ok := decodeStrict(t[1 : len(t)-1])
	if !ok {
		return nil, false
	}
	m, ok := v.(map[string]any)
	return m, ok
}

// emptyCallWrapper is rule "empty_call_wrapper" (llama.cpp's "Failed to
// parse input at pos 12: </tool_call>", ggml-org/llama.cpp#20761): a reply
// that ends with an opened and closed <tool_call>, on a line of its own, is
// a call attempt that names no tool. Only there: the same tags inside a
// sentence are prose about the format. A wrapper holding one line of words
// and no markup or JSON, its tags each on a line of their own (ollama/ollama#16398:
// "Prose-only envelope (model put narration in the tags)", dropped by
// Ollama's parser like the empty one), is the same attempt.
func emptyCallWrapper(content string) bool {
	t := strings.TrimRight(content, " \t\r\n")
	if !strings.HasSuffix(t, "</tool_call>") {
		return false
	}
	inner := t[:len(t)-len("</tool_call>")]
	t = strings.TrimRight(inner, " \t\r\n")
	if w := proseInWrapper(inner); w >= 0 {
		t = t[:w+len("<tool_call>")]
	}
	if !strings.HasSuffix(t, "<tool_call>") {
		return false
	}
	line := t[:len(t)-len("<tool_call>")]
	if i := strings.LastIndexByte(line, '\n'); i >= 0 {
		line = line[i+1:]
	}
	return strings.TrimSpace(line) == ""
}
