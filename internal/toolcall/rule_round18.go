package toolcall

import (
	"bytes"
	"encoding/json"
	"strings"

	"gopkg.in/yaml.v3"
)

// Round 18 of issue #25: the rules its blind cases asked for, each from its
// format's documentation or parser (testdata/widened-threads-round18*.jsonl).

// gorillaMarker is rule "gorilla_function_marker": Gorilla OpenFunctions
// v2 writes each call as <<function>>NAME(k=v, …), several in a row, and
// its server's output often starts with a space (gorilla's own handler,
// and the output quoted in ShishirPatil/gorilla#798). The marker is a
// wrapper: what follows is read as a pythonic call.
const gorillaMarker = "<<function>>"

// pythonFenceInWrapper is rule "python_fence_in_wrapper": MiniCPM 3 and 4
// write their call as a Python fence inside <|tool_call_start|> …
// <|tool_call_end|> (OpenBMB/MiniCPM's MCP README, its training data). A
// fence inside a call wrapper is the call, not code shown: only when a
// call NAME( opens its first line.
func pythonFenceInWrapper(s string, q, nl int) bool {
	switch fenceLang(s[q+3 : q+nl]) {
	case "python", "py":
	default:
		return false
	}
	body := strings.TrimLeft(s[q+nl+1:], " \t")
	e := 0
	for e < len(body) && (isIdent(body[e]) || body[e] == '.') {
		e++
	}
	return e > 0 && e < len(body) && body[e] == '('
}

// gptmeCall is rule "gptme_tool_call": gptme's tool format writes a call
// as a line @NAME(CALL_ID): {JSON arguments}, one a line, several in a
// reply (gptme's tests/test_tool_use.py; gptme reads them with a JSON
// repairer, so raw line breaks in a string and a missing comma are its
// format's faults too). j is the '(' after NAME. The line must start with
// the @ (spaces aside), the object follow the colon and end its line.
func (sc *scan) gptmeCall(j int) (group, bool) {
	s := sc.s
	b := j
	for b > 0 && (isIdent(s[b-1]) || s[b-1] == '-') {
		b--
	}
	if b == j || b == 0 || s[b-1] != '@' {
		return group{}, false
	}
	ls := b - 1
	for ls > 0 && s[ls-1] != '\n' {
		if s[ls-1] != ' ' && s[ls-1] != '\t' {
			return group{}, false
		}
		ls--
	}
	// gptme reads no call inside a fence, of any language
	// (test_toolcall_inside_codeblock_skipped): it is shown.
	if sc.ts.resolve(s[b:j]) == "" || sc.insideFence(ls) {
		return group{}, false
	}
	close := strings.IndexByte(s[j:], ')')
	if close < 0 || close > 120 || strings.ContainsAny(s[j+1:j+close], "\n(") {
		return group{}, false
	}
	p := j + close + 1
	if p >= len(s) || s[p] != ':' {
		return group{}, false
	}
	q := p + 1
	for q < len(s) && (s[q] == ' ' || s[q] == '\t') {
		q++
	}
	if q >= len(s) || s[q] != '{' {
		return group{}, false
	}
	if !gptmeLeadActs(s, ls) {
		return group{}, false
	}
	g, ok := sc.nameThenJSON(b-1, b, j, q, "gptme tool call")
	if !ok {
		return group{}, false
	}
	if c := &g.cands[0]; len(g.cands) == 1 && c.fail == failSyntax {
		// gptme's JSON repairer mends a missing comma between members
		// (member_missing_comma): in this format only.
		if r := readValueMended(s, q); r.fail == failNone {
			c.args, c.notes, c.fail, c.msg = r.v, r.notes, failNone, ""
			g.end = r.end
		}
	}
	if len(g.cands) == 1 && g.cands[0].fail == failNone {
		// The object ends its line.
		rest := s[g.end:]
		if nl := strings.IndexByte(rest, '\n'); nl >= 0 {
			rest = rest[:nl]
		}
		if strings.TrimSpace(rest) != "" {
			return group{}, false
		}
	}
	return g, true
}

// gptmeLeadActs: the line starts the reply, follows another of the
// format's lines or a fence's end, or the model's own step
// (genericLeadActs): after "Here is how a reply … would look:" it is
// shown (red team 18r).
func gptmeLeadActs(s string, ls int) bool {
	lead := strings.TrimRight(s[:ls], " \t\r\n")
	if lead == "" || strings.HasSuffix(lead, "</think>") {
		return true
	}
	last := lead[strings.LastIndexByte(lead, '\n')+1:]
	if t := strings.TrimSpace(last); t == "```" || strings.HasPrefix(t, "@") {
		return true
	}
	return genericLeadActs(s, ls)
}

// readValueMended is readValue with member_missing_comma on.
func readValueMended(s string, start int) readResult {
	return readWith(&lenient{s: s, i: start, mendComma: true})
}

// memberKeyRe is a quoted key and its colon.
var memberKeyRe = lazyRegexp(`^"[A-Za-z_][A-Za-z0-9_]*"\s*:`)

// memberMissingComma is rule "member_missing_comma": two members of an
// object with a blank and no comma between them ({"path": "a" "n": 1}),
// which gptme's JSON repairer mends (gptme's test_toolcall_regex, "missing
// comma"). Only a blank then a quoted key and its colon: anything else
// after a value stays an error. Only for gptme's lines (readValueMended):
// elsewhere such JSON is what a user's broken request looks like when
// the model points at its fault (red team 18r).
func (p *lenient) memberMissingComma() bool {
	if !p.mendComma || p.i == 0 || (p.s[p.i-1] != ' ' && p.s[p.i-1] != '\n' && p.s[p.i-1] != '\t') || !memberKeyRe().MatchString(p.s[p.i:]) {
		return false
	}
	p.note("missing comma between members")
	return true
}

// strippedAfterStep is rule "stripped_header_after_step": a stripped
// harmony header after the model's own step and one blank ("Let's check
// git tags. to=functions.bash code{…}", egemma's log of gpt-oss on LM
// Studio): the analysis sentence, then the commentary header with its
// tokens and channel gone. Only after a sentence of the model acting
// (modelActs): a header after any other sentence is quoted.
func strippedAfterStep(s string, k, j int) bool {
	if k == j || j-k > 1 || k == 0 || strings.IndexByte(".!?", s[k-1]) < 0 {
		return false
	}
	return modelActs(sentenceBefore(s, 0, k))
}

// chatGLM3Header opens ChatGLM3's tool call turn.
const chatGLM3Header = "<|assistant|>"

// chatGLM3Call is rule "chatglm3_tool_call": ChatGLM3 calls a tool with an
// assistant header whose metadata is the tool's name, then the arguments
// as tool_call(k=v, …) in a Python fence (THUDM/ChatGLM3's PROMPT_en.md,
// and its process_response, which splits the reply at that header):
//
//	<|assistant|>NAME
//	```python
//	tool_call(k=v)
//	```
//
// Only a declared tool's name alone after the header, and tool_call( on
// the fence's first line.
func (sc *scan) chatGLM3Call(j int) (group, bool) {
	s := sc.s
	ns := j + len(chatGLM3Header)
	nl := strings.IndexByte(s[ns:], '\n')
	if nl < 0 {
		return group{}, false
	}
	name := strings.TrimSpace(s[ns : ns+nl])
	if sc.ts.resolve(name) == "" {
		return group{}, false
	}
	p := ns + nl + 1
	fe := strings.IndexByte(s[p:], '\n')
	if !strings.HasPrefix(s[p:], "```") || fe < 0 {
		return group{}, false
	}
	if l := fenceLang(s[p+3 : p+fe]); l != "python" && l != "py" && l != "" {
		return group{}, false
	}
	q := skipSpace(s, p+fe+1)
	if !strings.HasPrefix(s[q:], "tool_call") {
		return group{}, false
	}
	e := skipSpace(s, q+len("tool_call"))
	if e >= len(s) || s[e] != '(' {
		return group{}, false
	}
	sc.sawOpener = true
	c, end, ok := pyArgs(s, name, e)
	if !ok {
		return group{}, false
	}
	c.format = "ChatGLM3 tool call"
	if c.fail == failEOF {
		end = len(s)
	} else {
		end = sc.closers(end)
	}
	return group{start: j, end: end, cands: []candidate{c}}, true
}

// codeActBash is the action tag of OpenHands' CodeAct agent.
const codeActBash = "execute_bash"

// codeActCall is rule "codeact_execute_bash": OpenHands' CodeAct prompt has
// the model run a command as <execute_bash> COMMAND </execute_bash>, the
// body the command itself, and stops the model at the closing tag (its
// stop words), so the closer may be missing. Small models trained on it
// write it to any agent (earendil-works/pi#5387). The action ends the
// reply: a tag with prose after it is shown. The command runs as bash's.
func (sc *scan) codeActCall(j int, t xtag) (group, bool) {
	s := sc.s
	name := sc.ts.resolve("bash")
	if name == "" || strings.HasSuffix(strings.TrimSpace(s[j:t.end]), "/>") {
		return group{}, false
	}
	closer := "</" + codeActBash + ">"
	body, end := s[t.end:], len(s)
	if k := strings.Index(s[t.end:], closer); k >= 0 {
		body, end = s[t.end:t.end+k], t.end+k+len(closer)
	}
	cmd := strings.TrimSpace(body)
	if cmd == "" || strings.HasPrefix(cmd, "<") || strings.TrimSpace(s[end:]) != "" {
		return group{}, false
	}
	sc.sawOpener = true
	c := candidate{name: name, args: map[string]any{"command": cmd}, fromText: true, xml: true, format: "CodeAct <execute_bash>"}
	return group{start: j, end: end, cands: []candidate{c}}, true
}

// proseWords open an English sentence and name no program a shell runs.
var proseWords = map[string]bool{"not": true, "the": true, "a": true, "an": true, "this": true, "these": true, "it": true, "its": true, "i": true, "i'm": true, "i'll": true, "we": true, "you": true, "please": true, "invalid": true, "error": true, "sorry": true, "here": true, "my": true, "your": true, "no": true, "none": true, "null": true, "undefined": true}

// proseBody is rule "prose_body": a server call's arguments that are not
// JSON are the tool's one string argument (a harmony raw body), but not a
// sentence: words of letters only, the first one that no program is named
// ("not valid json", mini-swe-agent's test_invalid_json_raises_format_error).
// It would run `not`; the model is told its arguments are no JSON.
func proseBody(t string) bool {
	w := strings.Fields(t)
	if len(w) < 2 || !proseWords[strings.ToLower(w[0])] {
		return false
	}
	for _, x := range w {
		for _, r := range x {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '\'' || r == ',' || r == '.') {
				return false
			}
		}
	}
	return true
}

// splitCloserRe is a closing tag broken by a line break after its "</".
var splitCloserRe = lazyRegexp(`</[ \t]*\r?\n[ \t]*([A-Za-z_][A-Za-z0-9_]*)[ \t]*>`)

// joinSplitClosers is rule "split_closer": a model that wraps its lines
// breaks a closing tag after its "</" (</\n  command>), which the tool-call
// middleware's XML parser mends (its normalize-close-tag test). Tried
// only when the body does not read as written.
func joinSplitClosers(body string) string {
	return splitCloserRe().ReplaceAllString(body, "</$1>")
}

// yamlKeyLineRe is a line that opens a YAML mapping's key.
var yamlKeyLineRe = lazyRegexp(`(?m)^[ \t]*[A-Za-z_][A-Za-z0-9_]*:([ \t]|$)`)

// yamlToolBody is rule "yaml_in_tool_tag": the tool-call middleware's YAML
// protocol (minpeter/ai-sdk-tool-call-middleware, yaml-xml-protocol) puts
// the tool's name as the tag and its arguments as a YAML mapping inside:
//
//	<write_file>
//	path: a.txt
//	content: |
//	  line
//	</write_file>
//
// Read only when every key is one of the tool's own parameters. A body
// that tries YAML (a line opening a key, or a bracket) and does not parse
// is unreadable: the model is told. Any other body is not this format.
func yamlToolBody(body string, o *objSchema) (args map[string]any, ok, unreadable bool) {
	t := strings.TrimSpace(body)
	if t == "" || t[0] == '<' || len(o.props) == 0 {
		return nil, false, false
	}
	tries := yamlKeyLineRe().MatchString(t) || (t[0] == '[' || t[0] == '{') && strings.Contains(t, ":")
	if !tries {
		return nil, false, false
	}
	var m map[string]any
	if err := yaml.Unmarshal([]byte(strings.TrimPrefix(strings.TrimPrefix(body, "\r"), "\n")), &m); err != nil {
		return nil, false, true
	}
	if len(m) == 0 {
		return nil, false, false
	}
	for k := range m {
		if _, known := o.props[k]; !known {
			return nil, false, false
		}
	}
	// As the JSON readers give them: numbers as json.Number.
	b, err := json.Marshal(m)
	d := json.NewDecoder(bytes.NewReader(b))
	d.UseNumber()
	if err != nil || d.Decode(&args) != nil {
		return nil, false, false
	}
	return args, true, false
}

// otherEmptyWrappers are call wrappers of other formats than Hermes':
// MiniMax-M1's <tool_calls> (its JSON lines inside), MiniMax-M2's
// <minimax:tool_call> (its <invoke> inside), Seed-OSS's <seed:tool_call>
// (its <function=NAME> inside).
var otherEmptyWrappers = []string{"tool_calls", "minimax:tool_call", "seed:tool_call"}

// strayCallCloserRe is a closer of a call's inner markup, left alone.
var strayCallCloserRe = lazyRegexp(`</(function|invoke|parameter)>`)

// otherWrapperEmpty is rule "other_wrapper_empty", empty_call_wrapper
// (rule_threads.go) for those wrappers: the reply ends with the wrapper,
// its tags on lines of their own, and what it holds is no call: nothing
// but a stray closer (Seed-OSS's <seed:tool_call>\n</function>\n
// </seed:tool_call>, a saved agent reply), or one line of plain words
// (MiniMax's parser tests: "this is not json", "no invoke block here",
// which give no call). The model opened a call and named no tool; it is
// told so, not shown the markup as its answer.
func otherWrapperEmpty(content string) bool {
	t := strings.TrimRight(content, " \t\r\n")
	for _, w := range otherEmptyWrappers {
		open, closer := "<"+w+">", "</"+w+">"
		if !strings.HasSuffix(t, closer) {
			continue
		}
		o := strings.LastIndex(t, open)
		if o < 0 {
			return false
		}
		if ls := strings.LastIndexByte(t[:o], '\n'); strings.TrimSpace(t[ls+1:o]) != "" {
			return false
		}
		if !wrapperLeadActs(t, o) {
			return false
		}
		inner := t[o+len(open) : len(t)-len(closer)]
		if !strings.HasPrefix(strings.TrimLeft(inner, " \t\r"), "\n") || !strings.HasSuffix(strings.TrimRight(inner, " \t\r"), "\n") {
			return false
		}
		body := strings.TrimSpace(strayCallCloserRe().ReplaceAllString(inner, ""))
		if body == "" {
			return true
		}
		return !strings.ContainsAny(body, "<>{}[]=`\n\"") && strings.Contains(body, " ")
	}
	return false
}

// wrapperLeadActs: nothing before the wrapper, a Markdown heading on the
// line before it (a plan's "## Implementation"), or the model's step;
// after "…an empty wrapper, like:" it is shown (red team 18r).
func wrapperLeadActs(t string, o int) bool {
	lead := strings.TrimRight(t[:o], " \t\r\n")
	if lead == "" || strings.HasSuffix(lead, "</think>") || strings.HasPrefix(strings.TrimSpace(lead[strings.LastIndexByte(lead, '\n')+1:]), "#") {
		return true
	}
	return genericLeadActs(t, o)
}

// interpreterMarkerRe is the start of a call to a code interpreter:
// Llama 3.1's <|python_tag|> with raw code after it (Environment: ipython;
// a NAME.call(…) or JSON after the tag is read elsewhere), InternLM2's
// <|action_start|><|interpreter|> (InternLM's chat_format.md), GPT4All's
// <javascript_interpret> around a ```javascript fence (gpt4all-chat's
// toolcallparser.h, round 20b).
var interpreterMarkerRe = lazyRegexp(`<\|python_tag\|>|<\|action_start\|>\s*<\|interpreter\|>|<javascript_interpret>\s*` + "```")

// interpreterCall is rule "interpreter_call": the model called its
// trained code interpreter, which mm does not have, and its code is
// Python, not a shell command (it is never run as bash). The marker is a
// special token, which no answer quotes but inside code: a marker in a
// fence or in inline code is text. The model is told the tools it has.
// (Python code, not JSON, after the tag.)
func interpreterCall(content string) bool {
	if !strings.Contains(content, "<|") && !strings.Contains(content, "<javascript_interpret>") {
		return false // before the regular expression: prose stays cheap
	}
	loc := interpreterMarkerRe().FindStringIndex(content)
	if loc == nil || strings.Count(content[:loc[0]], "```")%2 == 1 {
		return false
	}
	if ls := strings.LastIndexByte(content[:loc[0]], '\n'); strings.Count(content[ls+1:loc[0]], "`")%2 == 1 {
		return false
	}
	// The token opens the reply or a line, or is glued to the model's
	// last word ("…to handle this<|python_tag|>"): after a blank inside a
	// sentence it is named, not emitted (red team 18r).
	if loc[0] > 0 && content[loc[0]-1] != '\n' && !isLetter(content[loc[0]-1]) && strings.IndexByte(".:!", content[loc[0]-1]) < 0 {
		return false
	}
	// JSON after the tag is a call read elsewhere, or data the model
	// answered with (llama3_python_tag-q011): code is neither.
	code := strings.TrimSpace(content[loc[1]:])
	return code != "" && code[0] != '{' && code[0] != '['
}

// strippedNameAttrsRe is what a server leaves of MiniCPM 5's
// <function name="NAME"><param name="KEY">VALUE</param></function> when
// it strips its special tokens: ` name="NAME"> name="KEY">VALUE`.
var strippedNameAttrsRe = lazyRegexp(`^\s*name="([A-Za-z_][A-Za-z0-9_.-]*)">\s*name="[A-Za-z_][A-Za-z0-9_]*">`)

// strippedNameAttrs is rule "stripped_name_attrs": the whole reply is that
// remnant, for a declared tool (ollama#18483). The call was meant; what is
// left has no opener and no closer to read a value by, so the model is
// told it could not be read.
func strippedNameAttrs(content string, ts *toolset) (string, bool) {
	if !strings.HasPrefix(strings.TrimLeft(content, " \t\r\n"), `name="`) {
		return "", false // the remnant opens the reply: prose stays cheap
	}
	loc := strippedNameAttrsRe().FindStringSubmatchIndex(content)
	if loc == nil {
		return "", false
	}
	m := []string{content[loc[0]:loc[1]], content[loc[2]:loc[3]]}
	// The remnant is the whole reply: a value, not a sentence about it
	// (red team 18r: "… name=\"command\">ls is what Ollama leaves…").
	if rest := strings.TrimRight(content[loc[1]:], " \t\r\n"); ts.resolve(m[1]) == "" || strings.Count(rest, " ") > 3 || strings.ContainsAny(rest, "\n") {
		return "", false
	}
	return ts.resolve(m[1]), true
}

// claimRe opens a claim that the call's work is done: the model's first
// person, in the perfect or the past, or "Done".
var claimRe = lazyRegexp(`^[ \t]+((I have|I've) (now )?(updated|saved|written|created|added|made|changed|set|stored|recorded|noted|remembered|read|run|fetched)|I (updated|saved|wrote|created|added|stored|recorded|noted|remembered)|Done[.!])\s`)

// claimAfterOpeningCall is rule "claim_after_opening_call": a pythonic
// call that opens the reply, followed on its line by a claim that it was
// done ("write_file(…) I have updated my preferences…", amd/gaia#2521,
// where the call was never run). The claim is the model's made-up result
// of the call it meant. Only a call that opens the reply, with literal
// arguments (pyArgs read them), and only a first-person claim after it:
// a call followed by any other prose is an example (pyEndsReply).
func claimAfterOpeningCall(s string, b, end int) bool {
	return strings.TrimSpace(afterThink(s[:b])) == "" && claimRe().MatchString(s[end:]+" ")
}

// afterThink is lead without a closed think block that opens it.
func afterThink(lead string) string {
	if t := strings.TrimSpace(lead); strings.HasPrefix(t, "<think>") {
		if e := strings.Index(t, "</think>"); e >= 0 {
			return t[e+len("</think>"):]
		}
	}
	return lead
}

// leadActsAfterThink is genericLeadActs with the reasoning that opens the
// reply set aside: nothing else before the markup, or the model's step.
func leadActsAfterThink(s string, at int) bool {
	if strings.TrimSpace(afterThink(s[:at])) == "" {
		return true
	}
	return genericLeadActs(s, at)
}

// selfClosingToolRe is a tag named after a tool, closed on itself.
var selfClosingToolRe = lazyRegexp(`<([A-Za-z_][A-Za-z0-9_]*)\s*/>`)

// selfClosingToolTag is rule "self_closing_tool_tag": the tool-call
// middleware's XML protocol reads <NAME/> as a call of NAME with no input
// (its xml-protocol test, "Getting the file now... <read_file/> Done!").
// Every tool of mm's that such a tag could name requires arguments, so it
// is never run: the model is told what the call lacks. Only one such tag
// and no other markup in the reply, outside code, after the model's step
// (genericLeadActs) told in a finished sentence ("…by adding <bash/>" adds
// it to a file: red team 18r), and before nothing but a claim it is done; a tool with
// no required argument is left alone.
func selfClosingToolTag(content string, ts *toolset) (string, bool) {
	if t := strings.TrimSpace(content); strings.HasPrefix(t, "<think>") {
		if e := strings.Index(t, "</think>"); e >= 0 {
			content = t[e+len("</think>"):] // its reasoning before it
		}
	}
	lt := strings.IndexByte(content, '<')
	if lt < 0 || strings.IndexByte(content[lt+1:], '<') >= 0 || !strings.Contains(content[lt:], "/>") || strings.Contains(content, "`") {
		return "", false
	}
	m := selfClosingToolRe().FindStringSubmatchIndex(content)
	if m == nil {
		return "", false
	}
	name := ts.exactTool(content[m[2]:m[3]])
	if name == "" || len(ts.schema(name).required) == 0 || !endsSentence(content[:m[0]]) || !genericLeadActs(content, m[0]) || !tagTailDone(content[m[1]:]) {
		return "", false
	}
	return name, true
}

// tagTailDone: nothing after the tag, or a short claim that it is done.
func tagTailDone(rest string) bool {
	t := strings.TrimSpace(rest)
	return t == "" || len(t) <= 12 && claimRe().MatchString(" "+t+" ")
}

// hereIsFixtureRe hands over a test fixture: a file's content, not a call.
var hereIsFixtureRe = lazyRegexp(`(?i)\bhere(?:'s| is| are)\b[^.!?\n]{0,40}\bfixtures?\b`)

// leadShownRedTeam18 is rule "lead_shows_18r": a lead-in whose last
// sentence opens with a gerund that shows or cites ("Quoting the MiniMax
// docs..."), explains a request's fault (faultTalkRe), or hands over a test fixture ("Here is the test fixture you
// asked for, for tests/fixtures/xing.txt:") shows the markup after it. Red
// team 18r found both running a call (rm -rf ~/projects, shutdown -h now)
// in every format.
func leadShownRedTeam18(before string) bool {
	t := strings.TrimSpace(before)
	if i := strings.LastIndexByte(t, '\n'); i >= 0 {
		t = strings.TrimSpace(t[i+1:])
	}
	return showingGerundRe().MatchString(t) || hereIsFixtureRe().MatchString(t) || faultTalkRe().MatchString(t)
}

// faultTalkRe explains why a request failed: what follows is the broken
// request, shown ("Your request fails because a comma is missing after
// \"ls\":", red team 18r), not the model's call.
var faultTalkRe = lazyRegexp(`(?i)\b(fails?|failed|breaks|broke) because\b|\b(comma|quote|brace|bracket) is missing\b|\bmissing (a |the )?(comma|quote|brace|bracket)\b`)

// chatGLM3ShapeRe is ChatGLM3's call header: a name alone after it, then a
// fence.
var chatGLM3ShapeRe = lazyRegexp("^<\\|assistant\\|>[A-Za-z_][A-Za-z0-9_.-]*[ \\t]*\\r?\\n```")

// chatGLM3Shape: the header opening the reply is ChatGLM3's call
// (chatglm3_tool_call), not a leaked assistant header to trim.
func chatGLM3Shape(t string) bool {
	return chatGLM3ShapeRe().MatchString(t)
}
