package toolcall

import "strings"

// Round 15's fresh output (testdata/widened-threads-round15p.jsonl,
// widened-threads-round15h.jsonl): rules written from the parsers and
// tests the cases come from.

// callIDBeforeJSON is rule "call_id_before_args" (mudler/LocalAI
// pkg/functions/peg_integration_test.go, "parses call ID between function
// name and arguments"): <function=NAME>[call_abc]{…}. It returns the
// length of the bracketed id and the spaces after it when a JSON object
// follows, else 0.
func callIDBeforeJSON(s string) int {
	m := callIDRe().FindStringIndex(s)
	if m == nil {
		return 0
	}
	return m[1] - 1 // up to the object's '{'
}

var callIDRe = lazyRegexp(`^\[[A-Za-z0-9_.:-]{1,64}\]\s*\{`)

// namelessCallBlock is rule "nameless_call_block" (LocalAI's nameless
// GLM-4.5 block, ds2api's nameless invoke): a reply that is nothing but a
// call opener around argument pairs or an <invoke> with no tool's name
// was a call; it gets the no-name correction instead of being shown as
// the answer. Anything before the opener leaves it to the other readers
// (after prose, such a block is quoted, as for unreadableCallBlock).
// The same opener around one bare word (TensorRT-LLM's malformed GLM-4.7
// and Gemma 4 strings, adk-rust's flushed "<tool_call>partial") is
// namedWordBlock's.
func namelessCallBlock(s string) bool {
	if dsmlOpenerGarbage(s) {
		return true
	}
	body, _, ok := callMarkupBody(s)
	if !ok {
		return false
	}
	return namelessPairsRe().MatchString(body) || namelessInvokeRe().MatchString(body)
}

// namedWordBlock: the bare-word side of nameless_call_block. The word
// is the name the model meant; it is told there is no such tool (and
// given the list), as for any undeclared name.
func namedWordBlock(s string, ts *toolset) (candidate, bool) {
	body, closed, ok := callMarkupBody(s)
	if !ok {
		return candidate{}, false
	}
	// An opener never closed began a call; markers closed around a plain
	// word ("<|tool_call>nonsense<tool_call|>", gemma-13h030) may be
	// anything, an identifier there was meant as a name.
	if !bareWordRe().MatchString(body) || (closed && !identWordRe().MatchString(body)) {
		return candidate{}, false
	}
	if ts.resolve(body) != "" || ts.resolve(strings.ToLower(body)) != "" {
		return candidate{}, false
	}
	return candidate{name: body, args: map[string]any{}, fromText: true, format: "call markup around a word"}, true
}

// callMarkupBody: the text between a reply's call opener (Hermes' and
// GLM's <tool_call>, Gemma 4's <|tool_call>, <tool_calls>) and its closer,
// when the reply is nothing else; closed says the closer was there.
func callMarkupBody(s string) (body string, closed, ok bool) {
	t := strings.TrimSpace(s)
	for _, op := range []string{"<tool_call>", "<|tool_call>", "<tool_calls>"} {
		if strings.HasPrefix(t, op) {
			body, ok = t[len(op):], true
			break
		}
	}
	if !ok {
		return "", false, false
	}
	for _, cl := range []string{"</tool_call>", "<tool_call|>", "</tool_calls>"} {
		if b := strings.TrimSpace(body); strings.HasSuffix(b, cl) {
			body, closed = strings.TrimSuffix(b, cl), true
		}
	}
	return strings.TrimSpace(body), closed, true
}

var (
	bareWordRe       = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	identWordRe      = lazyRegexp(`_|[0-9]|^[A-Z]{2,}$|[a-z][A-Z]`)
	namelessPairsRe  = lazyRegexp(`^(\s*<arg_key>[^<]{1,64}</arg_key>\s*<arg_value>[^<]*</arg_value>)+\s*$`)
	namelessInvokeRe = lazyRegexp(`^<invoke>(\s*<parameter name="[^"<>]{1,64}">[^<]*</parameter>)+\s*</invoke>$`)
)

// pyImportRe is rule "python_script" (unsloth's recorded llama3.2-1b
// reply "import fetch_content\n\nfetch_content(\"q\", \"https://…\")",
// round 15h): a name(…) line after an import statement is a line of a
// Python script the model wrote, not a call.
func (sc *scan) importBefore(at int) bool {
	if sc.pyImport == 0 {
		sc.pyImport = -1
		if loc := pyImportRe().FindStringIndex(sc.s); loc != nil {
			sc.pyImport = 1 + loc[0]
		}
	}
	return sc.pyImport > 0 && sc.pyImport-1 < at
}

var pyImportRe = lazyRegexp(`(?m)^[ \t]*(import [A-Za-z_][\w.]*|from [A-Za-z_][\w.]* import )`)

// fencedBesideBare is rule "fenced_beside_bare" (CJackHwang/ds2api
// TestParseToolCallsParsesOnlyNonFencedXMLToolCall): when a reply holds
// calls in a code fence and calls outside any, the fenced ones show the
// format and only the others run. A reply whose only calls are fenced
// keeps them (a model that fences its one call meant it).
func fencedBesideBare(s string, kept []group) []group {
	var bare []group
	for _, g := range kept {
		if !insideFence(s, g.start) {
			bare = append(bare, g)
		}
	}
	if len(bare) == 0 || len(bare) == len(kept) {
		return kept
	}
	return bare
}

// shownIntlRe: a sentence, in Chinese, Japanese, Spanish, French or
// German, that says the block only shows the format and is no real call
// (ds2api's fenced_code_block_tool_call fixture: "这里只是展示格式，不是真实调用。").
var shownIntlRe = lazyRegexp(`(只是|仅是|仅为|只为|仅供)(展示|演示|示例|举例|参考)|不是(真实|真正|实际)的?(调用|工具调用)|并非(真实|真正|实际)的?调用|(请勿|不要|无需)执行|実際の呼び出しではありません|(?i)\bno es una llamada real\b|\bce n'est pas un (vrai |véritable )?appel\b|\bkein (echter|tatsächlicher) aufruf\b`)

// toolNameParamsJSON is rule "tool_name_parameters_json" (CJackHwang/ds2api
// internal/toolcall/regression_test.go, "Mixed JSON inside CDATA"): the
// legacy <tool_call><tool_name>N</tool_name><parameters>…</parameters>
// block whose parameters are one JSON object, bare or in a CDATA section,
// instead of child elements. Read as the whole reply only.
func toolNameParamsJSON(s string, ts *toolset) (candidate, bool) {
	if !strings.Contains(s, "<tool_name>") {
		return candidate{}, false
	}
	m := toolNameParamsRe().FindStringSubmatch(s)
	if m == nil || ts.resolve(m[1]) == "" {
		return candidate{}, false
	}
	r := readValue(m[2], 0, false)
	if r.fail != failNone || strings.TrimSpace(m[2][r.end:]) != "" {
		return candidate{}, false
	}
	if _, ok := r.v.(map[string]any); !ok {
		return candidate{}, false
	}
	return candidate{name: m[1], args: r.v, notes: r.notes, fromText: true, format: "<tool_name>/<parameters> JSON"}, true
}

var toolNameParamsRe = lazyRegexp(`^\s*<tool_call>\s*<tool_name>\s*([A-Za-z_][\w.-]{0,63})\s*</tool_name>\s*<parameters>\s*(?:<!\[CDATA\[)?\s*(\{[\s\S]*\})\s*(?:\]\]>)?\s*</parameters>\s*(?:</tool_call>)?\s*$`)

// cdataValueEnd is rule "cdata_holds_markup" (ds2api's
// TestParseToolCallsKeepsToolSyntaxInsideCDATAAsParameterText): a value
// that opens a CDATA section ends after the section's "]]>" and the
// parameter's closer, whatever markup the section holds (a file's text
// with a tool-call example in it). It returns where the value ends and
// where the text after the closer starts.
func cdataValueEnd(s string, from int, word string) (int, int, bool) {
	p := skipSpace(s, from)
	if !strings.HasPrefix(s[p:], "<![CDATA[") {
		return 0, 0, false
	}
	k := strings.Index(s[p:], "]]>")
	if k < 0 {
		return 0, 0, false
	}
	e := p + k + len("]]>")
	q := skipSpace(s, e)
	t, ok := readTag(s, q)
	if !ok || !t.close || t.name != word {
		return 0, 0, false
	}
	return e, t.end, true
}

// glimmerMessages is rule "glimmer_messages" (EricLBuehler/mistral.rs
// mistralrs-core/src/tools/parsers/atem.rs,
// separates_reasoning_final_content_and_parallel_calls): one Glimmer reply
// holding several messages, each " to=RECIPIENT<|message|>…" ended by
// <|eom|> or <|eot|> and the next opened by <|start|>assistant. to=self is
// reasoning (never read), to=user is the answer's text, any other
// recipient a call block read by glimmerCalls.
func glimmerMessages(s string, ts *toolset) ([]candidate, string, bool) {
	t := strings.TrimLeft(s, " \n")
	if !strings.HasPrefix(t, "to=") || !glimmerNextRe().MatchString(t) {
		return nil, "", false
	}
	var cands []candidate
	var text []string
	// A message ends at <|eom|> or <|eot|> right before the next
	// <|start|>assistant; the same words inside a value are text.
	for _, m := range glimmerNextRe().Split(t, -1) {
		m = strings.TrimLeft(m, " \n")
		m = strings.TrimSuffix(strings.TrimSuffix(strings.TrimRight(m, " \n"), "<|eom|>"), "<|eot|>")
		msg := strings.Index(m, "<|message|>")
		if !strings.HasPrefix(m, "to=") || msg < 0 {
			return nil, "", false
		}
		switch m[len("to="):msg] {
		case "self":
		case "user":
			text = append(text, strings.TrimSpace(m[msg+len("<|message|>"):]))
		default:
			cs, ok := glimmerCalls(m, ts)
			if !ok {
				return nil, "", false
			}
			cands = append(cands, cs...)
		}
	}
	if len(cands) == 0 {
		return nil, "", false
	}
	return cands, strings.Join(text, "\n\n"), true
}

var glimmerNextRe = lazyRegexp(`<\|(?:eom|eot|end)\|>\s*<\|start\|>assistant`)

// continueCanon is rule "continue_block_forms" (continuedev/continue
// core/tools/systemMessageTools/toolCodeblocks: parseSystemToolCall reads
// its keywords in any case, and interceptSystemToolCalls takes a block
// whose ```tool fence a weak model left off, rewriting "tool_name:" to
// "```tool\nTOOL_NAME:"): it writes the block in the form
// continueToolBlocks reads. A fence-less block must open its line, name a
// declared tool and end the reply.
func continueCanon(s string, ts *toolset) string {
	if !strings.Contains(s, "_name:") && !strings.Contains(s, "_NAME:") && !strings.Contains(s, "_Name:") {
		return s
	}
	if !continueNameRe().MatchString(s) {
		return s
	}
	s = continueNameRe().ReplaceAllString(s, "${1}TOOL_NAME:")
	s = continueBeginRe().ReplaceAllString(s, "${1}BEGIN_ARG:")
	s = continueEndRe().ReplaceAllString(s, "${1}END_ARG")
	if strings.Contains(s, "```tool\nTOOL_NAME:") {
		return s
	}
	m := continueBareRe().FindStringSubmatchIndex(s)
	if m == nil || ts.resolve(s[m[2]:m[3]]) == "" {
		return s
	}
	end := strings.LastIndex(s, "END_ARG")
	if end < m[0] || strings.TrimSpace(s[end+len("END_ARG"):]) != "" {
		return s
	}
	return s[:m[0]] + "```tool\n" + s[m[0]:end+len("END_ARG")] + "\n```"
}

var (
	continueNameRe  = lazyRegexp(`(?im)^([ \t]*)tool_name:`)
	continueBeginRe = lazyRegexp(`(?im)^([ \t]*)begin_arg:`)
	continueEndRe   = lazyRegexp(`(?im)^([ \t]*)end_arg[ \t]*$`)
	continueBareRe  = lazyRegexp(`(?m)^TOOL_NAME:[ \t]*([A-Za-z_][\w.-]*)[ \t]*\n[ \t]*BEGIN_ARG:`)
)

// dsmlOpenerGarbage: a reply that is a DSML tool_calls opener and then
// text holding no invoke (OpenHands/software-agent-sdk
// test_dsml_normalization.py: "<｜DSML｜tool_calls> <<<broken non-xml
// syntax without invoke", which the SDK refuses to run): a call begun
// that names no tool. The opener alone is left as text.
func dsmlOpenerGarbage(s string) bool {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "<") {
		return false
	}
	tg, ok := readTag(t, 0)
	if !ok || !tg.dsml || tg.close || tg.name != "tool_calls" {
		return false
	}
	body := strings.TrimSpace(t[tg.end:])
	return body != "" && !invokeTagRe().MatchString(body)
}

var invokeTagRe = lazyRegexp(`(?i)(<|｜|\|)\s*invoke\b`)

// dsmlShrunk is rule "dsml_shrunk" (OpenHands/software-agent-sdk
// tests/sdk/llm/test_dsml_normalization.py, DeepSeek V4's benchmark
// completions): the invoke shrunk to <｜｜DSML｜｜r=NAME> and its one
// parameter to an unnamed <｜｜DSML｜｜m>VALUE</｜｜DSML｜｜m>, closing the
// reply. The value is the tool's single required string argument (the
// SDK's normalization does the same); a tool with other required
// arguments leaves it text.
func dsmlShrunk(s string, ts *toolset) (candidate, string, bool) {
	if !strings.Contains(s, "DSML") {
		return candidate{}, "", false
	}
	m := dsmlShrunkRe().FindStringSubmatchIndex(s)
	if m == nil {
		return candidate{}, "", false
	}
	name := ts.resolve(s[m[2]:m[3]])
	if name == "" {
		return candidate{}, "", false
	}
	key := singleStringArg(ts.schema(name))
	if key == "" || notIntended(sentenceBefore(s, 0, m[0]), "") {
		return candidate{}, "", false
	}
	c := candidate{name: s[m[2]:m[3]], args: map[string]any{key: xmlValue(s[m[4]:m[5]])}, xml: true, fromText: true, format: "shrunk DSML"}
	return c, strings.TrimSpace(s[:m[0]]), true
}

var dsmlShrunkRe = lazyRegexp(`<[｜|]{1,2}DSML[｜|]{1,2}r=([A-Za-z_][\w.-]{0,63})>\s*<[｜|]{1,2}DSML[｜|]{1,2}m>([\s\S]*?)</[｜|]{1,2}DSML[｜|]{1,2}m>\s*</[｜|]{1,2}DSML[｜|]{1,2}r>\s*$`)

// reactActionArgs is rule "react_action_args" (run-llama/llama_index#12455:
// ReActAgent's "Could not parse output" on "Action: xxx ({"input": …})"):
// the ReAct step's arguments glued to its Action line in parentheses, no
// Action Input. As for react_action, a Thought line and the Action line
// ending the reply are a call attempt in a format mm does not speak, and
// get its correction; an Action line alone, or one that is a sentence,
// stays text.
func reactActionArgs(content string, ts *toolset) (Rejection, bool) {
	if !strings.Contains(content, "Action:") {
		return Rejection{}, false
	}
	lines := strings.Split(strings.TrimRight(content, " \t\r\n"), "\n")
	n := len(lines)
	if n < 2 || !strings.HasPrefix(strings.TrimSpace(lines[n-2]), "Thought:") {
		return Rejection{}, false
	}
	m := reactArgsLineRe().FindStringSubmatch(strings.TrimSpace(lines[n-1]))
	if m == nil || strings.Count(content, "```")%2 == 1 {
		return Rejection{}, false
	}
	off := len(strings.Join(lines[:n-2], "\n"))
	if notIntended(sentenceBefore(content, 0, off), "") {
		return Rejection{}, false
	}
	return reactRejection(m[1], ts), true
}

var reactArgsLineRe = lazyRegexp(`^Action:\s*([A-Za-z_][\w.-]{0,63})\s*\(\s*[\[{"'][\s\S]*\)\s*$`)

// clineInlineBlock is rule "cline_inline_block" (cline's
// parseAssistantMessage.spec.ts "<read_file>…</read_file>Here's what I
// found in the file.", Roo Code's fallback parser test "First, I'll check
// the directory. <bash>…</bash> That should give us what we need."): the
// reply's only Cline block, in a line with a new sentence right after it
// (the model running ahead of the result), runs when nothing comes before
// it or the model acts there. A block followed by a lower-case clause
// ("… is how Roo reads a file"), a paragraph after it, markup in the
// sentence after, or a lead-in that is not the model's step stays text.
func clineInlineBlock(s string, ts *toolset) (candidate, string, bool) {
	if !strings.Contains(s, "</") {
		return candidate{}, "", false
	}
	s = blank(s, reasoningRegions(s)) // a closed <think> before it is no lead-in
	m := clineInlineRe().FindStringSubmatchIndex(s)
	if m == nil {
		return candidate{}, "", false
	}
	name := s[m[4]:m[5]]
	if ts.resolve(name) == "" || s[m[6]:m[7]] != name || strings.Count(s, "<"+name+">") != 1 {
		return candidate{}, "", false
	}
	before, after := strings.TrimSpace(s[:m[2]]), strings.TrimSpace(s[m[3]:])
	if strings.Contains(before, "<") || strings.Contains(before, "```") || strings.Contains(after, "\n") || !strings.HasSuffix(after, ".") {
		return candidate{}, "", false
	}
	if before != "" && !(modelActs(before) || firstPersonStepRe().MatchString(before) || nextStepLead(before)) {
		return candidate{}, "", false
	}
	if notIntended(sentenceBefore(s, 0, m[2]), after) || formatTalkRe().MatchString(after) {
		return candidate{}, "", false
	}
	args, ok := clineParams(s[m[2]+len(name)+2 : m[6]-2])
	if !ok {
		return candidate{}, "", false
	}
	c := candidate{name: name, args: args, xml: true, fromText: true, format: "cline_xml", notes: []string{"cline_xml"}}
	return c, strings.TrimSpace(before + " " + after), true
}

// clineInlineRe: <NAME>…</NAME> then, on the same line, a sentence that
// opens with a capital letter.
var clineInlineRe = lazyRegexp(`(?m)(<([a-z_]{2,40})>.*</([a-z_]{2,40})>)[ \t]*[A-Z][^<\n]*$`)
