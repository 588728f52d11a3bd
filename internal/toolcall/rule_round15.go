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
	if ts.resolve(body) != "" || ts.resolve(strings.ToLower(body)) != "" || noCallWordRe().MatchString(body) {
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

// noCallWordRe: words a model writes in call markers to say it calls
// nothing (<tool_call>NONE</tool_call>, OK, DONE: red team 15r029,
// 15r030, 15r040).
var noCallWordRe = lazyRegexp(`(?i)^(none|null|nil|ok|okay|done|no|yes|n_a|na|empty|nothing|finished|complete|completed|stop|end|true|false)$`)

var (
	bareWordRe       = lazyRegexp(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
	identWordRe      = lazyRegexp(`_|[0-9]|[a-z][A-Z]`)
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
		for _, loc := range pyImportRe().FindAllStringIndex(sc.s, -1) {
			// An import inside a fenced snippet belongs to that snippet
			// (red team 15r037).
			if !insideFence(sc.s, loc[0]) {
				sc.pyImport = 1 + loc[0]
				break
			}
		}
	}
	return sc.pyImport > 0 && sc.pyImport-1 < at
}

var pyImportRe = lazyRegexp(`(?m)^[ \t]*(import [A-Za-z_][\w.]*(\s+as\s+\w+)?(\s*,\s*[A-Za-z_][\w.]*)*|from [A-Za-z_.][\w.]* import [\w*, ()]+)[ \t]*;?[ \t]*$`)

// fencedBesideBare is rule "fenced_beside_bare" (CJackHwang/ds2api
// TestParseToolCallsParsesOnlyNonFencedXMLToolCall): when a reply holds
// calls in a code fence and calls outside any, the fenced ones show the
// format and only the others run. A reply whose only calls are fenced
// keeps them (a model that fences its one call meant it).
//
// When another call of the reply was read as shown, its fenced calls are
// examples beside it too ("Fenced as JSON: ```…``` … quoted inline, which
// is the one the docs show: <…> — don't copy that one.": red team 15r016,
// 15r018).
func fencedBesideBare(s string, kept []group, shown bool) []group {
	var bare []group
	for _, g := range kept {
		if !insideFence(s, g.start) {
			bare = append(bare, g)
		}
	}
	if len(bare) == len(kept) || (len(bare) == 0 && !shown) {
		return kept
	}
	return bare
}

// shownIntlRe: a sentence that says the block only shows the format or is
// an example, not a real call, in Chinese, Japanese, Korean, Russian,
// Italian, Portuguese, Spanish, French or German (ds2api's
// fenced_code_block_tool_call fixture: "这里只是展示格式，不是真实调用。";
// red team 15r023–15r028). A sentence about something else that is not
// real ("Ce n'est pas un appel réseau", "No es una llamada real a la API
// de pago, sino…", "无需执行任何命令", "仅供参考": 15r019–15r022, 15r038,
// 15r039) is not one: each form names the example or ends the sentence.
var shownIntlRe = lazyRegexp(`(只是|仅是|仅为|只为)(展示|演示|示例|举例)|(不是|并非|而非)(真实|真正|实际)的?(工具)?调用|调用格式如下|(示例|例子|格式)[^。\n]{0,8}(不是|并非)(真实|真正|实际)|あくまで[^。\n]{0,8}(形式|例)|形式の例|実際の呼び出しではありません|형식 예시|예시일 뿐|실제 호출이 아닙니다|только пример|не настоящий вызов|(?i)\bsolo un esempio\b|\bnon una chiamata reale\b|\bapenas um exemplo\b|\bnão (é )?uma chamada real\b|\bsolo un ejemplo\b|\bno es una llamada real\s*[.:]|\b(seulement|juste|simplement) un exemple\b|\bce n'est pas un (vrai |véritable )?appel( réel)?\s*[.:]|\bnur ein beispiel\b|\bkein (echter|tatsächlicher) aufruf\s*[.:]`)

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
	// Without its fence only the model's own step may lead into it: docs
	// ("## Tool protocol … END_ARG") and "you'll see replies ending like"
	// show the format (red team 15r011, 15r012).
	if strings.TrimSpace(s[:m[0]]) != "" && !genericLeadActs(s, m[0]) {
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
	if key == "" || (strings.TrimSpace(s[:m[0]]) != "" && !genericLeadActs(s, m[0])) { // a description before it shows it (15r033)
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
	if last := sentenceBefore(s, 0, m[2]); before != "" && !(modelActs(last) || firstPersonStepRe().MatchString(last) || nextStepLead(last)) {
		return candidate{}, "", false
	}
	if notIntended(sentenceBefore(s, 0, m[2]), after) || formatTalkRe().MatchString(after) || !runsAheadRe().MatchString(after) || notGerundRe().MatchString(after) {
		return candidate{}, "", false
	}
	args, ok := clineParams(s[m[2]+len(name)+2 : m[6]-2])
	if !ok {
		return candidate{}, "", false
	}
	c := candidate{name: name, args: args, xml: true, fromText: true, format: "cline_xml", notes: []string{"cline_xml"}}
	return c, strings.TrimSpace(before + " " + after), true
}

// runsAheadRe: the sentence after an inline block is the model's own
// next step or what it expects of the result ("Here's what I found",
// "That should give us what we need.", "Checking the module path before I
// edit the imports."), not words to the user about the block ("Paste
// that into the chat box", "That is what the agent printed": red team
// 15r007, 15r008, 15r034).
var runsAheadRe = lazyRegexp(`(?i)^(here'?s what i|here is what i)|\b(i'll|i will|let me|i'm going to|we'll|i need to)\b|^[A-Z][a-z]+ing\b|^(that|this|it) (should|will) (give|show|tell|list|return|print|confirm)\b`)

// notGerundRe: words ending in -ing that are no step ("Anything after it
// on the line is kept as text.": red team 15r009 with a lead-in).
var notGerundRe = lazyRegexp(`^(Anything|Nothing|Something|Everything|Thing|String|Spring|King|Ring|During|Morning|Evening|Ceiling|Wedding)\b`)

// clineColonStep: a lead on the block's own line that ends in a colon is
// the model's step ("I'll check the config first:", "Step 2 of 3, running
// the tests:"); a description ("…reads like this one from its logs:"),
// a label ("Input:", "Right:") is not (red team 15r001, 15r003, 15r005).
func clineColonStep(lead string) bool {
	if !strings.HasSuffix(lead, ":") {
		return false
	}
	line := lead
	if i := strings.LastIndexByte(lead, '\n'); i >= 0 {
		line = lead[i+1:]
	}
	line = sentenceBefore(line, 0, len(line))
	return (modelActs(line) || firstPersonStepRe().MatchString(line) || ownStepLine(line)) && !notIntended(line, "")
}

// clineLabelChain is rule "cline_label_chain" (cline's
// parseAssistantMessage.spec.ts "First file: <read_file>…</read_file>Second
// file: <read_file>…</read_file>"): a reply that is nothing but two or more
// "Label: <block>" on one line, every block a declared tool's that reads,
// runs them all. One label and one block ("Input: <read_file>…") is not a
// chain, and a block that does not read (a path outside its tag: "Wrong:
// <read_file>a.go</read_file>Right: <…>", 15r005) breaks it.
func clineLabelChain(s string, ts *toolset) ([]candidate, bool) {
	if !strings.Contains(s, "</") || !strings.Contains(s, ":") {
		return nil, false
	}
	m0 := blank(s, reasoningRegions(s))
	t := strings.TrimRight(m0, " \t\r\n")
	ls := strings.LastIndexByte(t, '\n') + 1
	if strings.TrimSpace(t[:ls]) != "" && !genericLeadActs(t, ls) {
		return nil, false // the lines before the chain must be the model's step
	}
	t = strings.TrimSpace(t[ls:])
	var out []candidate
	for t != "" {
		m := chainLabelRe().FindStringSubmatchIndex(t)
		if m == nil {
			return nil, false
		}
		name := t[m[2]:m[3]]
		closer := "</" + name + ">"
		e := strings.Index(t, closer)
		if e < 0 || ts.resolve(name) == "" {
			return nil, false
		}
		args, ok := clineParams(t[m[1]:e])
		if !ok || len(args) == 0 {
			return nil, false
		}
		out = append(out, candidate{name: name, args: args, xml: true, fromText: true, format: "cline_xml", notes: []string{"cline_xml"}})
		t = strings.TrimSpace(t[e+len(closer):])
	}
	return out, len(out) >= 2
}

var chainLabelRe = lazyRegexp(`^[A-Za-z][\w' ()-]{0,40}:[ \t]*<([a-z_]{2,40})>`)

// clineInlineRe: <NAME>…</NAME> then, on the same line, a sentence that
// opens with a capital letter.
var clineInlineRe = lazyRegexp(`(?m)(<([a-z_]{2,40})>.*</([a-z_]{2,40})>)[ \t]*[A-Z][^<\n]*$`)

// shownRound15r: words around a call that red team 15r found showing it:
// "— don't copy that one." or "and both parse the same." after it; "the
// bare form is simply", "which is the one the docs show:" or a lead-in
// ending "as in" before it (15r016, 15r018, 15r032).
func shownRound15r(before, after string) bool {
	return dontCopyRe().MatchString(after) || parseSameRe().MatchString(after) || formIsRe().MatchString(before) || asInTailRe().MatchString(before)
}

var (
	dontCopyRe  = lazyRegexp(`(?i)^[\s—–-]*(don'?t|do not|never)\s+(copy|use|run|paste|execute|send|try)\b`)
	parseSameRe = lazyRegexp(`(?i)\bparsed? (the same|alike|identically)\b|\bparse (the same|alike|identically)\b`)
	formIsRe    = lazyRegexp(`(?i)\b(bare|fenced|raw|plain|unfenced|inline|quoted) (form|version|variant|one) (is|looks)\b|\bthe docs show\b|\bquoted inline\b`)
	asInTailRe  = lazyRegexp(`(?i)\b(as in|such as|e\.g\.|i\.e\.)\s*[:,]?\s*$`)
)

// memgptCalls is rule "memgpt_function_params" (cpacker/MemGPT
// tests/test_json_parsers.py and letta's issue threads, round 16t): MemGPT's
// local models answer with {"function": NAME, "params": {…}} objects and
// nothing else, and its parsers repair what they break: the outer brace
// left off, a stray token or a made-up "FUNCTION RETURN" after it, the
// object begun twice, two objects in a row, an escaped underscore in the
// name. A reply that opens with such an object is read pair by pair
// ("function": NAME, "params": {…}); a params object that does not read
// (cut, garbage) is corrected, never run.
func memgptCalls(s string, ts *toolset) ([]candidate, bool) {
	t := strings.TrimSpace(s)
	if m := firstKeyRe().FindStringSubmatch(t); m == nil || m[1] != "function" {
		return nil, false
	}
	var out []candidate
	for _, m := range memgptPairRe().FindAllStringSubmatchIndex(t, -1) {
		name := strings.ReplaceAll(t[m[2]:m[3]], `\_`, "_")
		if ts.resolve(name) == "" {
			return nil, false
		}
		c, ok := objectArgsAt(t, m[1], name, "MemGPT function/params")
		if !ok {
			return nil, false
		}
		out = append(out, c)
		if c.fail != failNone {
			break // a broken object: nothing after it is read
		}
	}
	return out, len(out) > 0
}

// objectArgsAt reads the arguments object of a call of name at s[at]: a
// candidate with its arguments, or with the reading's failure (cut,
// broken) to correct; ok is false when the value is no object.
func objectArgsAt(s string, at int, name, format string) (candidate, bool) {
	r := readValue(s, at, false)
	c := candidate{name: name, fromText: true, format: format}
	if r.fail != failNone {
		c.fail, c.msg, c.key = r.fail, r.msg, r.key
		return c, true
	}
	args, ok := r.v.(map[string]any)
	if !ok {
		return candidate{}, false
	}
	c.args, c.notes = args, r.notes
	return c, true
}

var memgptPairRe = lazyRegexp(`"function"\s*:\s*"([A-Za-z_\\][\w\\.-]{0,63})"\s*,\s*"params"\s*:\s*`)

// labelledFencedCalls is rule "tool_call_label" (shanevcantwell/prompt-prix
// tests/test_tool_parsers.py): "**Tool Call:** `NAME`" on its own line and
// the arguments as a JSON object in the fence below, one pair per call, and
// nothing else in the reply.
func labelledFencedCalls(s string, ts *toolset) ([]candidate, bool) {
	if !strings.Contains(s, "**Tool Call:**") {
		return nil, false
	}
	ms := labelFenceRe().FindAllStringSubmatchIndex(s, -1)
	if len(ms) == 0 {
		return nil, false
	}
	var out []candidate
	prev := 0
	for _, m := range ms {
		if strings.TrimSpace(s[prev:m[0]]) != "" {
			return nil, false
		}
		name := s[m[2]:m[3]]
		if ts.resolve(name) == "" {
			return nil, false
		}
		c, ok := objectArgsAt(s, m[4], name, "**Tool Call:** label and fenced arguments")
		if !ok {
			return nil, false
		}
		out = append(out, c)
		prev = m[1]
	}
	if strings.TrimSpace(s[prev:]) != "" {
		return nil, false
	}
	return out, true
}

var labelFenceRe = lazyRegexp("(?m)^\\*\\*Tool Call:\\*\\*[ \\t]*`([A-Za-z_][\\w.-]{0,63})`[ \\t]*\\n```[A-Za-z]*[ \\t]*\\n(\\{[\\s\\S]*?\\})\\s*\\n```")

// autoGPTCommand is rule "autogpt_command" (Significant-Gravitas/AutoGPT's
// reply format, langchainjs#3655): a reply that is one JSON object, fenced
// or not, holding "thoughts" and "command": {"name", "args"} runs the
// command. Other keys, or a command that is a placeholder, leave it text.
func autoGPTCommand(s string, ts *toolset) (candidate, bool) {
	t := strings.TrimSpace(s)
	t = strings.TrimPrefix(strings.TrimPrefix(t, "```json"), "```")
	t = strings.TrimSpace(strings.TrimSuffix(t, "```"))
	if !strings.HasPrefix(t, "{") || !strings.Contains(t, `"command"`) || !strings.Contains(t, `"thoughts"`) {
		return candidate{}, false
	}
	r := readValue(t, 0, false)
	if r.fail != failNone || strings.TrimSpace(t[r.end:]) != "" {
		return candidate{}, false
	}
	m, ok := r.v.(map[string]any)
	if !ok || !onlyKeys(m, "thoughts", "command") {
		return candidate{}, false
	}
	cmd, ok := m["command"].(map[string]any)
	if !ok || !onlyKeys(cmd, "name", "args") {
		return candidate{}, false
	}
	name, _ := cmd["name"].(string)
	args, ok := cmd["args"].(map[string]any)
	if !ok || ts.resolve(name) == "" {
		return candidate{}, false
	}
	return candidate{name: name, args: args, notes: r.notes, fromText: true, format: "AutoGPT command"}, true
}

// fencedFunctionObjects is rule "fenced_function_objects"
// (schwab/mcp-client-for-ollama tests/test_tool_parsers.py): a reply that
// is one JSON fence holding {"function": {"name", "arguments"}}, or a list
// of them, is those calls; the same object in prose stays a tool_calls
// element written as text (openAIElementText).
func fencedFunctionObjects(s string, ts *toolset) ([]candidate, bool) {
	m := wholeJSONFenceRe().FindStringSubmatch(s)
	if m == nil {
		return nil, false
	}
	r := readValue(m[1], 0, false)
	if r.fail != failNone || strings.TrimSpace(m[1][r.end:]) != "" {
		return nil, false
	}
	items, isList := r.v.([]any)
	if !isList {
		items = []any{r.v}
	}
	var out []candidate
	for _, it := range items {
		o, ok := it.(map[string]any)
		if !ok || len(o) != 1 {
			return nil, false
		}
		fn, ok := o["function"].(map[string]any)
		if !ok || !onlyKeys(fn, "name", "arguments") {
			return nil, false
		}
		name, _ := fn["name"].(string)
		if ts.resolve(name) == "" {
			return nil, false
		}
		out = append(out, candidate{name: name, args: fn["arguments"], notes: r.notes, fromText: true, format: "fenced {\"function\": {…}}"})
	}
	return out, len(out) > 0
}

var wholeJSONFenceRe = lazyRegexp("^\\s*```(?:json)?[ \\t]*\\n([\\s\\S]*?)\\n```\\s*$")

// barrenCallMarkup: call markers around an object that does not read
// (<tool_request>{invalid json}</tool_request>, round 16t) or a reply
// ending in bare "<function" openers that never got a name (goose#9662):
// a call begun that names no tool.
func barrenCallMarkup(s string) bool {
	t := strings.TrimSpace(s)
	if !strings.HasPrefix(t, "<") && !strings.HasSuffix(t, "<function") {
		return false
	}
	if m := brokenObjectMarkupRe().FindStringSubmatch(t); m != nil && m[1] == m[3] && readValue(m[2], 0, false).fail != failNone && !strings.Contains(m[2], `"name"`) {
		return true
	}
	if !strings.HasSuffix(t, "<function") {
		return false
	}
	lines := strings.Split(t, "\n")
	n := 0
	for n < len(lines) && strings.TrimSpace(lines[len(lines)-1-n]) == "<function" {
		n++
	}
	if n == 0 {
		return false
	}
	lead := strings.TrimSpace(strings.Join(lines[:len(lines)-n], "\n"))
	return lead == "" || !notIntended(sentenceBefore(lead, 0, len(lead)), "")
}

var brokenObjectMarkupRe = lazyRegexp(`^<(tool_call|tool_request|function_call|tool_calls)>\s*(\{[^<]*\})\s*</(tool_call|tool_request|function_call|tool_calls)>$`)

// mcpName: an MCP client's server.tool name (<filesystem.read_file>:
// mcp-client-for-ollama's parser tests, round 16t).
func mcpName(name string) bool {
	i := strings.IndexByte(name, '.')
	return i > 0 && identifier(name[:i]) && identifier(name[i+1:])
}

// mcpToolPart: the tool of a server.tool name, or the name itself.
func mcpToolPart(name string) string {
	if mcpName(name) {
		return name[strings.IndexByte(name, '.')+1:]
	}
	return name
}
