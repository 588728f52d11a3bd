package toolcall

import "strings"

// Round 8g (testdata/widened-threads-round8g.jsonl): Seed-OSS's wrapper,
// Kimi arguments sent as a JSON string, a JSON string literal written as an
// XML-style value, a MiniMax-M3 call that kept only its closer, lead-ins that
// quote a bug report, and a bare value that lost its opening quote.

// Rule "seed_tool_call_wrapper": Seed-OSS wraps its Qwen3-Coder-style call
// in <seed:tool_call>…</seed:tool_call> (llama.cpp's Seed-OSS parser,
// common/chat-parsers/seed-oss: "Format: <seed:tool_call><function=name>
// <parameter=key>value</parameter></function></seed:tool_call>"; vLLM's
// seed_oss_tool_parser). It is a call wrapper like <tool_call>: the call
// starts at it, so its lead-in is the prose before the wrapper ("The model
// writes:" shows it) and not the wrapper tag itself.
func init() { wrapperTags["seed:tool_call"] = true }

// Rule "encoded_arguments_object": arguments written as a JSON string
// literal whose text is one JSON object ("{\"path\": …}") are that object.
// It is the OpenAI wire form, where function.arguments is the object
// encoded as a string, written by the model into its own markup: Kimi K2's
// <|tool_call_argument_begin|>"{\"todos\": …}" (MoonshotAI/Kimi-K2#26), and
// Hermes' "arguments": "{\"location\":…}", which llamadart's Hermes handler
// decodes ("preserves string arguments in <tool_call> payloads"). Both
// decodings must be strict: a string that is not an object, or an object
// that does not decode, is left to the other rules (a correction).
func encodedObject(t string) (map[string]any, bool) {
	if len(t) < 4 || t[0] != '"' || t[len(t)-1] != '"' || t[1] != '{' {
		return nil, false
	}
	v, ok := decodeStrict(t)
	if !ok {
		return nil, false
	}
	s, ok := v.(string)
	if !ok {
		return nil, false
	}
	o, ok := decodeStrict(strings.TrimSpace(s))
	if !ok {
		return nil, false
	}
	m, ok := o.(map[string]any)
	return m, ok
}

// Rule "xml_json_string_value": an XML-style string value (Qwen3-Coder's
// <parameter=P>, GLM's <arg_value>, MiniMax's <parameter name=P>) written
// as a JSON string literal on one line ("Seoul") is the string it encodes.
// The templates write string values raw and everything else as JSON
// ({{ value if value is string else value | tojson }}), so a model that
// quotes a string wrote JSON; llamadart's Qwen3-Coder and GLM-4.5 handlers
// decode it (qwen3_coder_xml_handler_test.dart, glm45_handler_test.dart:
// <arg_value>"Seoul"</arg_value> → Seoul). Only a whole single-line literal
// that decodes strictly, and never a file's text (content, old, new:
// verbatimArgs), whose quotes are its own.
func xmlJSONString(x string) (string, bool) {
	if len(x) < 2 || x[0] != '"' || x[len(x)-1] != '"' || strings.ContainsAny(x, "\n\r") {
		return "", false
	}
	v, ok := decodeStrict(x)
	if !ok {
		return "", false
	}
	s, ok := v.(string)
	return s, ok
}

// Rule "m3_elements_opener_lost": a reply that is nothing but flat argument
// elements (<KEY>VALUE</KEY>, MiniMax-M3's to_xml form, read by
// ml-explore/mlx-lm#1416's parser) and then the call's closer
// (</tool_call> or </minimax:tool_call>, with or without </invoke>), with no
// opener at all, lost the part that named the tool (github/app#2128: only
// "<initial_wait>10</initial_wait>" and "</tool_call>" were left once the
// namespace tokens were dropped). A call was attempted and nothing names
// its tool: the no-name correction, as for MiniMax's lost <invoke>
// (minimaxOpenerLost). Prose, a fence or any other tag before the closer
// makes it text.
func m3ElementsOpenerLost(content string) bool {
	// Two namespace tokens in a row are where the lost opener tags stood,
	// so minimaxNamespace left the reply as it came. Where the first token
	// begins the reply's markup (prose or reasoning may come before it,
	// markupLeads) the markup is M3's, read from there with every token
	// dropped; without tokens the whole reply must be the fragment.
	if i := strings.Index(content, minimaxNS); i >= 0 {
		if _, ok := markupLeads(content, i); !ok {
			return false
		}
		content = strings.ReplaceAll(content[i:], minimaxNS, "")
	}
	t := strings.TrimRight(content, " \t\r\n")
	cut := false
	for _, c := range []string{"</minimax:tool_call>", "</tool_call>"} {
		if strings.HasSuffix(t, c) {
			t, cut = strings.TrimRight(t[:len(t)-len(c)], " \t\r\n"), true
			break
		}
	}
	if !cut {
		return false
	}
	t = strings.TrimSpace(strings.TrimSuffix(t, "</invoke>"))
	n := 0
	for t != "" {
		k, rest, ok := flatElement(t)
		if !ok || m3AnswerElement(k) { // m3AnswerElement: rule_redteam9.go
			return false
		}
		n++
		t = strings.TrimLeft(rest, " \t\r\n")
	}
	return n > 0
}

// flatElement reads <KEY>VALUE</KEY> at the start of s, KEY an identifier
// and VALUE without markup.
func flatElement(s string) (string, string, bool) {
	if len(s) < 3 || s[0] != '<' {
		return "", "", false
	}
	e := strings.IndexByte(s, '>')
	if e < 2 {
		return "", "", false
	}
	k := s[1:e]
	for i := 0; i < len(k); i++ {
		if !isIdent(k[i]) {
			return "", "", false
		}
	}
	body := s[e+1:]
	end := strings.Index(body, "</"+k+">")
	if end < 0 || strings.ContainsRune(body[:end], '<') {
		return "", "", false
	}
	return k, body[end+len(k)+3:], true
}

// Rule "quotes_report": a lead-in whose subject is a bug report, an issue,
// a ticket, a log or a trace and whose verb quotes it ("The bug report says
// the assistant message body renders this as literal plain text:", "The
// issue shows:") quotes someone else's text, as "The file notes.md says:"
// does (quotesFileRe): what follows is that report's raw output, shown
// (nesquena/hermes-webui#702 quoted stripped DSML so). The subject opens
// the lead-in and the model is not in it ("The log says I should run:" is
// the model's own step).
var quotesReportRe = lazyRegexp(`(?i)^\s*(?:(the|this|that|their|your|the user's|the original|a|an|one|another)\s+([\w-]+'s\s+)?(bug\s+report|report|issue|ticket|bug|log|logs|trace|traceback|stack\s+trace|error\s+message|screenshot)|(?:github\s+)?(?:issue|bug|ticket|pr|pull\s+request)\s+#\d+)\s+(says|said|shows|showed|reads|quotes|quoted|contains|states|has)\b[^:：\n]{0,120}[:：]\s*$`)

func quotesReport(before string) bool {
	return quotesReportRe().MatchString(before) && !firstPersonRe().MatchString(before) && !ownStepAfterReport(before) // rule_redteam9.go
}

// Rule "half_quoted_bare": an unquoted value that ends with a quote it
// never opened (`{"old": \test2", …}`, QwenLM/Qwen3#1072, where a string
// lost its opening quote and kept its closing one) is a string cut at an
// unknown place: whether the value is test2, \test2 or est2 cannot be
// known, so the arguments are not valid and get a correction, never the
// guess. An odd number of quotes with the last one at the end is the sign;
// a bare value without quotes (Python's True, a number word) is untouched.
func halfQuotedBare(v string) bool {
	return strings.HasSuffix(v, `"`) && strings.Count(v, `"`)%2 == 1
}
