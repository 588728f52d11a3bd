package toolcall

import "strings"

// Rules of round 23 (widened-threads-round23a/b/c.jsonl), each written
// from the parser or documentation of its format and reached from a
// one-line hook.

// gluedForeignObject is rule "glued_foreign_object": server arguments of
// several objects glued together whose parts are merged (splitGlued) are
// one call only when every part holds some argument of the tool; a part
// holding none is another tool's call that a relay merged into this one
// (lbjlaq/Antigravity-Manager#1786: a send-message object glued before a
// wake.schedule one under the second's name). Which call the name
// belongs to is a guess: neither runs.
func gluedForeignObject(o *objSchema, objs []map[string]any) bool {
	for _, m := range objs {
		known := false
		for k := range m {
			if o.has(k) || matchKey(o, k) != "" {
				known = true
				break
			}
		}
		if !known && len(m) > 0 {
			return true
		}
	}
	return false
}

// gemmaRepeatedName is rule "gemma_name_repeated": Gemma 4's
// call:NAME{…} with the name written twice, call:NAME:NAME{…}
// (DenisovAV/flutter_gemma#228); the second is the same declared name,
// skipped. It returns where the repeat ends, or r.
func gemmaRepeatedName(s, name string, r int) int {
	if r < len(s) && s[r] == ':' && strings.HasPrefix(s[r+1:], name) {
		e := r + 1 + len(name)
		if e < len(s) && (s[e] == '{' || s[e] == ' ') {
			return skipSpace(s, e)
		}
	}
	return r
}

// envelopeCut is rule "tool_calls_envelope_cut": a reply that is the start
// of a {"tool_calls": […]} envelope that never closes (LobeChat's stream
// assembler turning one-api's single chunk into text, lobehub/lobehub#923)
// was a call cut short, whatever finish reason the stream gave.
func envelopeCut(s string) bool {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, `{"tool_calls"`) && !strings.HasPrefix(t, `{ "tool_calls"`) {
		return false
	}
	r := readValue(t, 0, false)
	return r.fail == failEOF
}

// reportedComesBackRe: "This is what comes back:" (a report of another
// program's output in the present tense, farion1231/cc-switch#4769).
var reportedComesBackRe = lazyRegexp(`(?i)\bwhat\b[^.!?\n:]{0,40}\b(comes back|came back|returns|gets returned|is returned|was returned|we get|you get|it prints|it printed)\s*:\s*$`)

// atemNamespace is rule "atem_bare_block": the ATEM (Muse) call block
// without its harmony-style to=…<|message|> header, <atem:function_calls>
// <atem:invoke name="NAME"><atem:parameter name="K">V</atem:parameter>…
// (lablup/mlxcel's atem_tests.rs), is the invoke element under a
// namespace: read as one, its unknown elements dropped (mlxcel ignores
// them), only in blocks that lead the reply.
func atemNamespace(s string) string {
	const op, cl = "<atem:function_calls>", "</atem:function_calls>"
	if !strings.Contains(s, op) {
		return s
	}
	if strings.HasPrefix(strings.TrimLeft(s, " \n"), "to=") {
		// A glimmer reply's blocks are its messages' (glimmerMessages);
		// only a block after its turn's end <|eot|> is a bare one.
		e := strings.LastIndex(s, "<|eot|>")
		if e < 0 {
			return s
		}
		e += len("<|eot|>")
		return s[:e] + atemNamespace(s[e:])
	}
	return rewriteBlocks(s, leadingBlocks(s, op, fixedOpener(op), cl, false), func(b string) string {
		b = strings.NewReplacer(op, "", cl, "", "<atem:invoke", "<invoke", "</atem:invoke>", "</invoke>", "<atem:parameter", "<parameter", "</atem:parameter>", "</parameter>").Replace(b)
		return dropElements(b, "atem:")
	})
}

// dropElements removes every element whose tag name starts with prefix,
// with what it holds (an opener with no closer: the opener alone).
func dropElements(b, prefix string) string {
	for {
		i := strings.Index(b, "<"+prefix)
		if i < 0 {
			return b
		}
		e := strings.IndexByte(b[i:], '>')
		if e < 0 {
			return b
		}
		tag := b[i+1 : i+e]
		c := strings.Index(b[i:], "</"+tag+">")
		if c < 0 {
			b = b[:i] + b[i+e+1:]
			continue
		}
		b = b[:i] + b[i+c+len("</"+tag+">"):]
	}
}

// glmAttrPairs is rule "glm_attr_pairs": GLM-4.7-Flash's hybrid of its
// own markup and attribute syntax, <tool_call>NAME<KEY="VALUE"</KEY>…
// </tool_call> (tumma72/mlx-manager's golden files: "outputs a malformed
// hybrid format"), is GLM's <arg_key>/<arg_value> pairs: rewritten so, in
// blocks that lead the reply, only when every pair is whole.
func glmAttrPairs(s string, ts *toolset) string {
	const op = "<tool_call>"
	if !strings.Contains(s, op) || !strings.Contains(s, `="`) {
		return s
	}
	var b strings.Builder
	last := 0
	for p := 0; ; {
		k := strings.Index(s[p:], op)
		if k < 0 {
			break
		}
		i := p + k + len(op)
		ns := skipSpace(s, i)
		ne := ns
		for ne < len(s) && (isIdent(s[ne]) || s[ne] == '.' || s[ne] == '-') {
			ne++
		}
		q, pairs := ne, ""
		for ne > ns && ts.resolve(s[ns:ne]) != "" {
			r := skipSpace(s, q)
			if r >= len(s) || s[r] != '<' {
				break
			}
			ke := r + 1
			for ke < len(s) && isIdent(s[ke]) {
				ke++
			}
			key := s[r+1 : ke]
			if key == "" || !strings.HasPrefix(s[ke:], `="`) {
				break
			}
			closer := `"</` + key + ">"
			ve := strings.Index(s[ke+2:], closer)
			if ve < 0 {
				break
			}
			pairs += "<arg_key>" + key + "</arg_key><arg_value>" + s[ke+2:ke+2+ve] + "</arg_value>"
			q = ke + 2 + ve + len(closer)
		}
		if pairs != "" {
			b.WriteString(s[last:ne])
			b.WriteString(pairs)
			last = q
		}
		p = max(q, i)
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

// elementCall is rule "name_arguments_elements": <tool_call><name>N</name>
// <arguments>{…}</arguments></tool_call> (the element form mlx-manager's
// GLM-4 golden file holds) is Hermes' object written as elements.
func elementCall(s string) string {
	const op = "<tool_call><name>"
	if !strings.Contains(s, op) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(s, op)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		rest := s[i+len(op):]
		ne := strings.Index(rest, "</name>")
		if ne < 0 || strings.ContainsAny(rest[:ne], "<>\"\n") {
			b.WriteString(s[:i+len(op)])
			s = rest
			continue
		}
		a := strings.TrimLeft(rest[ne+len("</name>"):], " \n")
		if !strings.HasPrefix(a, "<arguments>") {
			b.WriteString(s[:i+len(op)])
			s = rest
			continue
		}
		ae := strings.Index(a, "</arguments>")
		if ae < 0 {
			b.WriteString(s[:i+len(op)])
			s = rest
			continue
		}
		args := strings.TrimSpace(a[len("<arguments>"):ae])
		b.WriteString(s[:i] + `<tool_call>{"name": "` + rest[:ne] + `", "arguments": ` + args + "}")
		s = a[ae+len("</arguments>"):]
	}
}

// nameBegunOnly is rule "function_name_cut": a reply that is only the
// start of a call's name, <function=m or <invoke name="> with a lone
// quote (musistudio/claude-code-router#245, lablup/mlxcel's
// minimax_m2_lone_quote_in_name test), names no tool.
func nameBegunOnly(s string) bool {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "<function=") && !strings.ContainsAny(t, ">\n") && len(t) < 48 {
		return true
	}
	return strings.HasPrefix(t, `<invoke name=">`) || strings.HasPrefix(t, "<invoke>") || strings.HasPrefix(t, `<invoke badname=`)
}

// paramsWithoutFunction is rule "qwen3_coder_no_function": Qwen3-Coder's
// <parameter=…> tags directly inside <tool_call>, the <function=NAME> that
// names the tool never written (pauleveritt/punie's
// test_parse_xml_tool_call_missing_function_tag): a call that names no
// tool.
func paramsWithoutFunction(s string) bool {
	i := strings.Index(s, "<tool_call>")
	return i >= 0 && strings.HasPrefix(strings.TrimLeft(s[i+len("<tool_call>"):], " \t\r\n"), "<parameter=") && !strings.Contains(s, "<function")
}

// round23Rewrites: ATEM's bare block, GLM-4.7-Flash's attribute pairs,
// the <name>/<arguments> element call.
func round23Rewrites(s string, ts *toolset) string {
	if !strings.Contains(s, "<") {
		return s
	}
	return elementCall(glmAttrPairs(atemNamespace(s), ts))
}
