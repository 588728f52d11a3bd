package toolcall

import "strings"

// Round 10p's rules (widened-threads-round10p.jsonl): the newest parsers'
// tests (vLLM's olmo3, longcat, qwen3_xml; Ollama's olmo3 and qwen3.5).

// olmoCallLines is rule "olmo3_call_lines": the body of OLMo 3's
// <function_calls>…</function_calls> block is Python calls, one per line
// (vLLM's olmo3 tool parser and test_olmo3_tool_parser.py's
// parallel_calls case: `<function_calls>f(…)\ng(…)</function_calls>`;
// Ollama's parseOlmo3FunctionCalls splits the body on newlines the same
// way). The wrapper reader took the first call only and left the others as
// text. It reads on only inside that block: after the first call nothing
// but white space holding a line break, then the next name(…), until the
// closing tag or the end of the text. Anything else there (prose, a second
// call on the same line, another tag) leaves the single-call reading as it
// was. An undeclared name is still a call attempt of the block and gets
// the correction (vLLM keeps the good siblings of a bad call,
// test_bad_sibling_call_does_not_drop_good_calls); a cut call ends the
// block and is handled as any cut call. It needs two calls: one is the
// existing reading.
func (sc *scan) olmoCallLines(start, wrapEnd, q int) (group, bool) {
	s := sc.s
	if !strings.EqualFold(strings.TrimSpace(s[start:wrapEnd]), "<function_calls>") {
		return group{}, false
	}
	var cs []candidate
	p := q
	for len(cs) < maxGroups {
		e := p
		for e < len(s) && (isIdent(s[e]) || s[e] == '.') {
			e++
		}
		if e == p || !isLetter(s[p]) && s[p] != '_' || e >= len(s) || s[e] != '(' {
			return group{}, false
		}
		c, end, ok := pyArgs(s, strings.TrimSuffix(s[p:e], ".call"), e)
		if !ok {
			return group{}, false
		}
		c.format = "pythonic call"
		cs = append(cs, c)
		if c.fail == failSyntax {
			// A call of the block that cannot be read (a bytes literal,
			// brackets the model got wrong) ends with its line; it gets
			// its correction and the next line is read on.
			if nl := strings.IndexByte(s[end:], '\n'); nl >= 0 && !strings.Contains(strings.ToLower(s[end:end+nl]), "</function_calls>") {
				end += nl
			} else {
				return group{}, false
			}
		}
		if c.fail == failEOF {
			if len(cs) < 2 {
				return group{}, false
			}
			return group{start: start, end: len(s), cands: cs}, true
		}
		n := skipSpace(s, end)
		if n >= len(s) || hasPrefixFold(s[n:], "</function_calls>") {
			if len(cs) < 2 {
				return group{}, false
			}
			return group{start: start, end: sc.closers(n), cands: cs}, true
		}
		if !strings.Contains(s[end:n], "\n") {
			return group{}, false
		}
		p = n
	}
	return group{}, false
}

// stringArgsNotBody is rule "string_arguments_not_body": in a
// {"name": …, "arguments": …} object written in the text, "arguments" that
// are a JSON string holding no JSON are not the tool's one argument. The
// formats that write this object (Hermes' <tool_call>, LongCat's
// <longcat_tool_call>, ERNIE's, GigaChat's, Hunyuan's list) declare
// "arguments": <args-json-object>, and their parsers list a string there
// among the malformed inputs (test_longcat_tool_parser.py:
// `"arguments": "not a dict"`): taking it as the path or the command would
// run a guess. The call gets the correction asking for the object. A raw
// body where no JSON object is written (a server call's arguments text,
// harmony's message, XML values) is not this object and is read as
// before.
func stringArgsNotBody(c candidate) bool {
	return c.strArgs
}

// keepStringArgs: another client's call object (LangChain's
// {"action", "action_input"}, smolagents' …) that callShapes rewrote into
// {"name", "arguments"} keeps its string input as the tool's one argument,
// as those clients define it (rule_callshapes.go): rule
// "string_arguments_not_body" is about the {"name", "arguments"} formats
// only.
func keepStringArgs(cs []candidate) {
	for i := range cs {
		cs[i].strArgs = false
	}
}

// unreadableCallBlock is rule "unreadable_call_block": the whole reply is
// one <tool_call>…</tool_call> block whose body is a line of plain words,
// no call in any format. The Hermes and Qwen3.5 formats make that block
// the call (Ollama's qwen3.5 parser, TestQwen35ParserInvalidToolCallFalls
// BackToContent: `<tool_call>not valid xml</tool_call>` gives no call);
// the model meant one and should be told it could not be read, not have
// its block shown as the answer. Only the whole reply (after a closed
// think block): a block after prose is quoted. No markup, JSON, brackets, parentheses or a placeholder
// (…, ..., <name>) in the body: those are read, or shown, elsewhere.
func unreadableCallBlock(content string) bool {
	t := strings.TrimSpace(content)
	if strings.HasPrefix(t, "<think>") {
		// A closed think block before it is the reasoning of the reply.
		e := strings.Index(t, "</think>")
		if e < 0 {
			return false
		}
		t = strings.TrimSpace(t[e+len("</think>"):])
	}
	if !strings.HasPrefix(t, "<tool_call>") || !strings.HasSuffix(t, "</tool_call>") {
		return false
	}
	body := strings.TrimSpace(t[len("<tool_call>") : len(t)-len("</tool_call>")])
	if body == "" || len(body) > 200 || strings.ContainsAny(body, "<>{}[]()\n`\"'=:|") || strings.Contains(body, "...") || strings.Contains(body, "…") {
		return false
	}
	words := strings.Fields(body)
	if len(words) < 2 {
		return false
	}
	for _, w := range words {
		for i := 0; i < len(w); i++ {
			if !isLetter(w[i]) && !strings.ContainsRune(",.;!?-", rune(w[i])) {
				return false
			}
		}
	}
	return true
}

// hasPrefixFold is strings.HasPrefix without case, reading only the
// prefix's length of s (lowering all of s again for each line of a long
// block was quadratic).
func hasPrefixFold(s, prefix string) bool {
	return len(s) >= len(prefix) && strings.EqualFold(s[:len(prefix)], prefix)
}
