package toolcall

import "strings"

// Rules of round 24 (widened-threads-round24a/b/c.jsonl), each written
// from the parser or documentation of its format and reached from a
// one-line hook.

// gemmaQuotedFirstKey: after NAME{ at s[i], a key then ':' and Gemma's
// <|"|> quote.
func gemmaQuotedFirstKey(s string, i int) bool {
	b := strings.IndexByte(s[i:], '{')
	if b < 0 {
		return false
	}
	k := i + b + 1
	e := k
	for e < len(s) && isIdent(s[e]) {
		e++
	}
	return e > k && strings.HasPrefix(s[e:], ":"+gemmaQuote)
}

// gemmaNamespaced is rule "gemma_dotted_name": Gemma 4's call:NS.NAME{…}
// with a namespace before a declared tool's name (vLLM's
// test_dotted_tool_name, fs.read_file). Only when the whole name is no
// tool and the part after its last dot is exactly a declared one.
func gemmaNamespaced(name string, ts *toolset) string {
	d := strings.LastIndexByte(name, '.')
	if d < 0 || ts.resolve(name) != "" {
		return ""
	}
	return ts.exactTool(name[d+1:])
}

// callingToolCalls is rule "calling_tool_text": the text forms a low-bit
// model falls into when it copies a client's tool-use transcript
// (raullenchai/Rapid-MLX's TestTextFormatToolCallFallback):
//
//	[Calling tool="NAME" key="value" …]
//	[Calling tool: NAME({…})]   and   Calling tool: NAME({…})
//
// one per line, ending the reply; the first opens a line or follows a
// sentence's end. A value's \" is a quote. Lead-ins that show or refuse
// are read as for every format (notIntended).
func callingToolCalls(content string, ts *toolset) ([]candidate, string, bool) {
	t := strings.TrimRight(content, " \t\r\n")
	first := strings.Index(t, "Calling tool")
	if first < 0 {
		return nil, "", false
	}
	if first > 0 && t[first-1] == '[' {
		first--
	}
	if b := strings.TrimRight(t[:first], " \t"); b != "" && !strings.HasSuffix(b, "\n") && !strings.HasSuffix(b, ".") && !strings.HasSuffix(b, ":") {
		return nil, "", false
	}
	lead := strings.TrimSpace(t[:first])
	if lead != "" && notIntended(sentenceBefore(lead, 0, len(lead)), "") {
		return nil, "", false
	}
	var cs []candidate
	for _, line := range strings.Split(t[first:], "\n") {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		c, ok := callingToolLine(line, ts)
		if !ok {
			return nil, "", false
		}
		cs = append(cs, c)
	}
	return cs, lead, len(cs) > 0
}

func callingToolLine(line string, ts *toolset) (candidate, bool) {
	bracket := strings.HasPrefix(line, "[")
	if bracket {
		if !strings.HasSuffix(line, "]") {
			return candidate{}, false
		}
		line = line[1 : len(line)-1]
	}
	switch {
	case strings.HasPrefix(line, `Calling tool="`):
		if !bracket {
			return candidate{}, false
		}
		args := map[string]any{}
		name := ""
		rest := line[len("Calling "):]
		for rest = strings.TrimSpace(rest); rest != ""; rest = strings.TrimSpace(rest) {
			eq := strings.Index(rest, `="`)
			if eq < 1 || !isKey(rest[:eq]) {
				return candidate{}, false
			}
			k := rest[:eq]
			v, n, ok := quotedEscaped(rest, eq+1)
			if !ok {
				return candidate{}, false
			}
			if k == "tool" && name == "" {
				name = v
			} else {
				args[k] = v
			}
			rest = rest[n:]
		}
		if ts.resolve(name) == "" {
			return candidate{}, false
		}
		return candidate{name: name, args: args, fromText: true, format: `[Calling tool="NAME" k="v"]`}, true
	case strings.HasPrefix(line, "Calling tool: "):
		body := strings.TrimSpace(line[len("Calling tool: "):])
		p := strings.IndexByte(body, '(')
		if p < 1 || !strings.HasSuffix(body, ")") || ts.resolve(body[:p]) == "" {
			return candidate{}, false
		}
		r := readValue(body[p+1:len(body)-1], 0, false)
		c := candidate{name: body[:p], fromText: true, format: "Calling tool: NAME({…})", notes: r.notes}
		if r.fail != failNone {
			c.fail, c.msg, c.key = r.fail, r.msg, r.key
		} else if _, ok := r.v.(map[string]any); !ok {
			return candidate{}, false
		} else {
			c.args = r.v
		}
		return c, true
	}
	return candidate{}, false
}

// quotedEscaped reads the "…" at s[q], \" and \\ escaped, and returns
// the value and where it ends.
func quotedEscaped(s string, q int) (string, int, bool) {
	if q >= len(s) || s[q] != '"' {
		return "", q, false
	}
	var b strings.Builder
	for i := q + 1; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\'):
			b.WriteByte(s[i+1])
			i++
		case c == '"':
			return b.String(), i + 1, true
		default:
			b.WriteByte(c)
		}
	}
	return "", q, false
}

// placeholderToolName is rule "placeholder_tool_name": the name a format's
// instructions use for "the tool goes here" (goose's toolshim prompt:
// {"name": "tool_name", "arguments": {"parameter1": "value1"}}), echoed
// back by a small model, is a template shown, not a call of an unknown
// tool.
func placeholderToolName(n string) bool {
	switch strings.ToLower(n) {
	case "tool_name", "function_name", "toolname", "functionname", "your_tool_name", "name_of_the_tool", "tool-name":
		return true
	}
	return false
}

// kimiSegments returns each <|tool_call_begin|>…<|tool_call_end|> body.
func kimiSegments(s string) []string {
	const b, e = "<|tool_call_begin|>", "<|tool_call_end|>"
	var out []string
	for i := 0; ; {
		k := strings.Index(s[i:], b)
		if k < 0 {
			return out
		}
		k += i + len(b)
		m := strings.Index(s[k:], e)
		if m < 0 {
			return out
		}
		out = append(out, s[k:k+m])
		i = k + m
	}
}

// kimiIDFault is rule "kimi_id_fault" (block/goose's toolshim tests): a
// Kimi K2 call whose id names two tools (bash:functions.execute:0) is not
// run, for which was meant is a guess; one whose argument token is
// missing (functions.bash:0 GARBAGE) has no arguments, and its body is
// not read as a command. Both get a correction.
func kimiIDFault(s string, ts *toolset) (Rejection, string, bool) {
	if !strings.Contains(s, "<|tool_call_begin|>") {
		return Rejection{}, "", false
	}
	lead := s[:strings.Index(s, "<|tool_call_begin|>")]
	if k := strings.Index(lead, "<|tool_calls_section_begin|>"); k >= 0 {
		lead = lead[:k]
	}
	lead = strings.TrimSpace(lead)
	for _, seg := range kimiSegments(s) {
		id, _, hasArgs := strings.Cut(seg, "<|tool_call_argument_begin|>")
		id = strings.TrimSpace(id)
		if i := strings.Index(id, ":functions."); i > 0 {
			if n := ts.resolve(id[:i]); n != "" {
				return Rejection{Name: n, Tool: n, Reason: "your tool call's id names two tools (" + echoName(id) + "); nothing was run — send it again as functions.NAME:0 with one tool's name"}, lead, true
			}
		}
		if !hasArgs {
			f, _, _ := strings.Cut(strings.TrimPrefix(id, "functions."), ":")
			f = strings.Fields(f + " ")[0]
			if n := ts.resolve(f); n != "" && !strings.Contains(seg, "{") {
				return Rejection{Name: n, Tool: n, Reason: "your " + n + " call has no arguments (no <|tool_call_argument_begin|> before them); it was not run — send it again with " + argList(ts.schema(n))}, lead, true
			}
		}
	}
	return Rejection{}, "", false
}

// toolCallFences is rule "tool_call_fence_objects" (rcland12/kubrick-cli's
// tool-calling tests): fences labelled tool_call (or tool, function_call)
// each holding one {"tool" | "name": NAME, "parameters" | "arguments":
// {…}} object, after lead-ins where the model acts ("I'll read that file
// for you.", "Then I'll write a new file:"). The fence's label says what
// it holds; lead-ins that show or refuse are read as for every format.
func toolCallFences(content string, ts *toolset) ([]candidate, string, bool) {
	if !strings.Contains(content, "```tool") && !strings.Contains(content, "```function_call") {
		return nil, "", false
	}
	var cs []candidate
	lead := ""
	rest := content
	for {
		i := strings.Index(rest, "```")
		if i < 0 {
			break
		}
		before := rest[:i]
		nl := strings.IndexByte(rest[i:], '\n')
		if nl < 0 {
			return nil, "", false
		}
		lang := strings.TrimSpace(rest[i+3 : i+nl])
		if lang != "tool_call" && lang != "tool" && lang != "function_call" {
			return nil, "", false
		}
		body := rest[i+nl+1:]
		e := strings.Index(body, "```")
		if e < 0 {
			return nil, "", false
		}
		if pre := strings.TrimSpace(before); pre != "" && (notIntended(sentenceBefore(pre, 0, len(pre)), "") || !modelActs(pre) && !firstPersonRe().MatchString(pre)) {
			return nil, "", false
		}
		if len(cs) == 0 {
			lead = strings.TrimSpace(before)
		}
		v, ok := decodeStrict(strings.TrimSpace(body[:e]))
		m, isObj := v.(map[string]any)
		if !ok || !isObj || len(m) != 2 {
			return nil, "", false
		}
		name := ""
		for _, k := range []string{"tool", "name"} {
			if n, ok := m[k].(string); ok {
				name = n
			}
		}
		var args map[string]any
		for _, k := range []string{"parameters", "arguments"} {
			if a, ok := m[k].(map[string]any); ok {
				args = a
			}
		}
		if name == "" || args == nil || ts.resolve(name) == "" {
			return nil, "", false
		}
		cs = append(cs, candidate{name: name, args: args, fromText: true, format: "```tool_call fence"})
		rest = body[e+3:]
	}
	if strings.TrimSpace(rest) != "" || len(cs) == 0 {
		return nil, "", false
	}
	return cs, lead, true
}
