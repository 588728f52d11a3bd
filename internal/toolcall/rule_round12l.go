package toolcall

import "strings"

// Rules of round 12l (issue #25): formats from parser tests not cited
// before — mlx-lm's tests/test_tool_parsing.py with its glm47 and longcat
// parsers, LMDeploy's test_glm47_parser.py and vLLM's MiniMax-M1 test.

// glmKeyValueBody is rule "glm_key_value_body": GLM 4.7 sometimes writes
// the body of its <tool_call> as "NAME key=value key2=value2" instead of
// NAME<arg_key>…</arg_key><arg_value>…</arg_value>; mlx-lm's glm47 parser
// reads it (mlx_lm/tool_parsers/glm47.py, _parse_plain_text_tool_call and
// _parse_key_value_pairs: the rest of the body split as shell words, every
// word key=value, "to avoid mis-parsing freeform text"; its test
// "multiply a=12234585 b=48838483920"). It is safe because it asks more
// than the parser does: the block is one line (closed on it, or its closer
// eaten with the end of the message, as for every value there), it starts
// its line (or follows a closed think block) and nothing but space
// follows its closer on that line, so a block quoted inside a sentence
// stays text, and it is not inside a ``` fence (an example); NAME is a declared tool; every word is KEY=VALUE with KEY
// one of that tool's declared parameters, each once, and the words split
// as a shell would (an unclosed quote is not this body). Values are
// strings, converted to the declared types as XML values are.
func (sc *scan) glmKeyValueBody(start, q, e int) (group, bool) {
	s := sc.s
	name := sc.ts.resolve(s[q:e])
	if name == "" || e >= len(s) || (s[e] != ' ' && s[e] != '\t') {
		return group{}, false
	}
	before := strings.TrimRight(s[:start], " \t")
	if before != "" && !strings.HasSuffix(before, "\n") && !strings.HasSuffix(before, "</think>") || insideFence(s, start) {
		return group{}, false
	}
	var body string
	after := len(s)
	if k := strings.Index(s[e:], "</tool_call>"); k >= 0 {
		body, after = s[e:e+k], e+k+len("</tool_call>")
		if rest, _, _ := strings.Cut(s[after:], "\n"); strings.TrimSpace(rest) != "" {
			return group{}, false
		}
	} else {
		// The closer eaten with the end of the message: the body runs to
		// the end (rule "value at the end of the message").
		body = strings.TrimRight(s[e:], " \t\r\n")
	}
	if strings.ContainsAny(body, "\r\n<>`") {
		return group{}, false
	}
	words, ok := shellWords(body)
	if !ok || len(words) == 0 {
		return group{}, false
	}
	props := sc.ts.schema(name).props
	args := map[string]any{}
	for _, w := range words {
		key, val, found := strings.Cut(w, "=")
		if !found || key == "" {
			return group{}, false
		}
		if _, declared := props[key]; !declared {
			return group{}, false
		}
		if _, dup := args[key]; dup {
			return group{}, false
		}
		args[key] = val
	}
	c := candidate{name: s[q:e], args: args, xml: true, fromText: true, format: "GLM name key=value", notes: []string{"GLM 4.7's key=value body read as the arguments"}}
	return group{start: start, end: sc.closers(after), cands: []candidate{c}}, true
}

// shellWords splits s as a POSIX shell splits words: blanks separate,
// single quotes are literal, double quotes take backslash escapes of
// \ " $ `, a backslash outside quotes escapes the next byte. ok is false on
// an unclosed quote or a trailing backslash.
func shellWords(s string) ([]string, bool) {
	var words []string
	var b strings.Builder
	in := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if in {
				words = append(words, b.String())
				b.Reset()
				in = false
			}
		case c == '\\':
			if i+1 >= len(s) {
				return nil, false
			}
			i++
			b.WriteByte(s[i])
			in = true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, false
			}
			b.WriteString(s[i+1 : i+1+j])
			i += j + 1
			in = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\\\"$`", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			if i >= len(s) {
				return nil, false
			}
			in = true
		default:
			b.WriteByte(c)
			in = true
		}
	}
	if in {
		words = append(words, b.String())
	}
	return words, true
}

// longcatTag is rule "longcat_arg_pairs": LongCat-Flash writes
// <longcat_tool_call>NAME<longcat_arg_key>K</longcat_arg_key>
// <longcat_arg_value>V</longcat_arg_value>…</longcat_tool_call>, GLM's
// pairs with its own tag names (mlx_lm/tool_parsers/longcat.py: the same
// name and pair regexes as glm47.py; its test's get_current_temperature
// case). The pairs are read as GLM's, with the same rules for their
// values; the name must be a declared tool and the body, up to the block's
// closer (or the end of the text), nothing but pairs, so a half-written or
// mixed body is left to the rules that come after.
func (sc *scan) longcatTag(j int, t xtag) (group, bool) {
	s := sc.s
	if t.name != "longcat_tool_call" {
		return group{}, false
	}
	q := skipSpace(s, t.end)
	e := q
	for e < len(s) && (isIdent(s[e]) || s[e] == '.' || s[e] == '-') {
		e++
	}
	if e == q {
		return group{}, false
	}
	g, ok := sc.longcatPairs(j, q, e, skipSpace(s, e))
	if ok {
		sc.sawOpener = true
	}
	return g, ok
}

// longcatPairs reads the pairs after NAME (s[q:e]); r is where they start.
func (sc *scan) longcatPairs(start, q, e, r int) (group, bool) {
	s := sc.s
	const key, closer = "<longcat_arg_key>", "</longcat_tool_call>"
	if !strings.HasPrefix(s[r:], key) || sc.ts.resolve(s[q:e]) == "" {
		return group{}, false
	}
	end, after := len(s), len(s)
	if k := strings.Index(s[r:], closer); k >= 0 {
		end, after = r+k, r+k+len(closer)
	}
	body := strings.ReplaceAll(s[r:end], "longcat_arg_", "arg_")
	pairs, p := readArgPairs(body, 0)
	if len(pairs) == 0 || skipSpace(body, p) < len(body) {
		return group{}, false
	}
	args, notes := pairArgs(pairs)
	c := candidate{name: s[q:e], args: args, xml: true, fromText: true, format: "LongCat <longcat_arg_key>/<longcat_arg_value>", notes: notes}
	if cutShellCommand(sc.ts, c.name, pairs) {
		c.fail = failEOF
	}
	return group{start: start, end: sc.closers(after), cands: []candidate{c}}, true
}

// cutShellCommand is rule "cut_shell_command": a GLM-style command value
// with no closer that runs to the end of the text is taken as the value at
// the end of the message (rule "value at the end of the message") only when
// it can be a whole command: one whose shell quotes are left open was cut
// by the stream (LMDeploy's test_stream_chunk_emits_arg_value_before_
// arg_value_close stops inside <arg_value>San Francisco, CA), and running
// it would run half a command. The call is answered as cut off instead.
// Only the command argument of a tool that has one, only a cut value, and
// a heredoc (<<) or a # comment is not judged (its quotes need not pair).
func cutShellCommand(ts *toolset, name string, pairs []kv) bool {
	n := ts.resolve(name)
	if n == "" {
		return false
	}
	if _, ok := ts.schema(n).props["command"]; !ok {
		return false
	}
	for _, p := range pairs {
		if p.k != "command" || !p.cut {
			continue
		}
		v, ok := p.v.(string)
		if !ok || strings.Contains(v, "<<") {
			continue
		}
		if !shellQuotesClosed(v) {
			return true
		}
	}
	return false
}

// shellQuotesClosed reports whether every quote of the command v is closed
// (a # that starts a word begins a comment, whose quotes do not count).
func shellQuotesClosed(v string) bool {
	for i := 0; i < len(v); i++ {
		switch c := v[i]; c {
		case '\\':
			i++
		case '\'':
			j := strings.IndexByte(v[i+1:], '\'')
			if j < 0 {
				return false
			}
			i += j + 1
		case '"':
			i++
			for ; i < len(v) && v[i] != '"'; i++ {
				if v[i] == '\\' {
					i++
				}
			}
			if i >= len(v) {
				return false
			}
		case '#':
			if i == 0 || v[i-1] == ' ' || v[i-1] == '\t' || v[i-1] == '\n' || v[i-1] == ';' {
				nl := strings.IndexByte(v[i:], '\n')
				if nl < 0 {
					return true
				}
				i += nl
			}
		}
	}
	return true
}
