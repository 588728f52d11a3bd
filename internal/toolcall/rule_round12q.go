package toolcall

import (
	"encoding/json"
	"strings"
)

// Rules of round 12q (widened-threads-round12q.jsonl), each written from
// the parser or documentation of its format and reached from a one-line
// hook.

// kimiBareID is rule "kimi_bare_id": Kimi K2's call is
// <|tool_call_begin|>functions.NAME:IDX<|tool_call_argument_begin|>{…}
// (MoonshotAI/Kimi-K2 docs/tool_call_guidance.md); vLLM's KimiK2ToolParser
// takes everything before the argument token as the call id and the name
// as id.split(":")[0].split(".")[-1], so an id without its functions.
// namespace still names the tool. A server that strips the section and
// call openers leaves NAME:IDX<|tool_call_argument_begin|>{…} in content
// (typeclaw/typeclaw#344: "channel_reply:0<|tool_call_argument_begin|>{…}
// <|tool_calls_section_end|>"). It is read here, at the argument token,
// only when the id starts its line (or follows another Kimi token), the
// name is exactly a declared tool's and a JSON object follows the token:
// that special token is never prose, and inline code and fences are
// skipped before the scan reaches it.
func (sc *scan) kimiBareID(j, te int) (group, bool) {
	s := sc.s
	d := j
	for d > 0 && (s[d-1] == ' ' || s[d-1] == '\t') {
		d--
	}
	e := d
	for e > 0 && s[e-1] >= '0' && s[e-1] <= '9' {
		e--
	}
	if e == d || e == 0 || s[e-1] != ':' {
		return group{}, false
	}
	ne := e - 1
	ns := ne
	for ns > 0 && (isIdent(s[ns-1]) || s[ns-1] == '-') {
		ns--
	}
	if ns == ne {
		return group{}, false
	}
	if _, ok := sc.ts.raw[s[ns:ne]]; !ok {
		return group{}, false
	}
	lead := strings.TrimRight(s[:ns], " \t")
	if lead != "" && !strings.HasSuffix(lead, "\n") && !strings.HasSuffix(lead, "|>") {
		return group{}, false
	}
	q := skipSpace(s, te)
	if q >= len(s) || s[q] != '{' {
		return group{}, false
	}
	sc.sawOpener = true
	return sc.nameThenJSON(ns, ns, ne, q, "Kimi call id without its namespace")
}

// kimiArgumentToken: the token a bare Kimi id stands before.
func kimiArgumentToken(name string) bool {
	return normTok(name) == "toolcallargumentbegin"
}

// toolNameArgsObject is rule "tool_name_args_object": CAMEL's MCPAgent in
// text mode (function_calling_available=False) has the model answer a
// call as one JSON object {"server_idx": N, "tool_name": NAME,
// "tool_args": {…}} and parses it itself (camel-ai/camel#3086, where a
// client that does not returned it raw). The reply is that call only when
// it is nothing but that object (a ```json fence around it allowed), its
// tool_name is exactly a declared tool's, its tool_args is an object, and
// it has no key besides those three.
func toolNameArgsObject(s string, ts *toolset) (candidate, bool) {
	t := strings.TrimSpace(s)
	if strings.HasPrefix(t, "```") {
		t = strings.TrimPrefix(t, "```json")
		t = strings.TrimPrefix(t, "```")
		if !strings.HasSuffix(t, "```") {
			return candidate{}, false
		}
		t = strings.TrimSpace(strings.TrimSuffix(t, "```"))
	}
	if len(t) < 2 || t[0] != '{' || t[len(t)-1] != '}' || !strings.Contains(t, `"tool_name"`) {
		return candidate{}, false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(t), &m) != nil {
		return candidate{}, false
	}
	for k := range m {
		if k != "tool_name" && k != "tool_args" && k != "server_idx" {
			return candidate{}, false
		}
	}
	var name string
	if json.Unmarshal(m["tool_name"], &name) != nil {
		return candidate{}, false
	}
	if _, ok := ts.raw[name]; !ok {
		return candidate{}, false
	}
	var args map[string]any
	if raw, ok := m["tool_args"]; !ok || json.Unmarshal(raw, &args) != nil || args == nil {
		return candidate{}, false
	}
	return candidate{name: name, args: args, fromText: true, format: "tool_name/tool_args object", notes: []string{"tool_name_args_object"}}, true
}

// xmlCommandEntities are the entities Roo Code's executeCommandTool
// unescapes in a command (RooCodeInc/Roo-Code#2120: &lt;, &gt;, &amp;)
// and Cline's fixModelHtmlEscaping decodes (cline/cline#2594, #11267:
// also &quot; and &apos;).
var xmlCommandEntities = strings.NewReplacer("&lt;", "<", "&gt;", ">", "&quot;", "\"", "&apos;", "'", "&#39;", "'", "&amp;", "&")

// clineCommandEntities is rule "cline_command_entities": in the XML tool
// format models treat the call as XML and escape the shell's operators
// (apmantza/pi-free#235: <command>cat … 2&gt;/dev/null || …</command>;
// cline/cline#11266: &amp;&amp;). Roo Code and Cline decode those
// entities in execute_command's command before running it, and only
// there (cline/cline#11305 keeps every other tool's input as written): a
// shell never means "&gt;" (the & would background a process and run a
// command named gt). So the bash command of a call read from the XML tool
// format is decoded; file content and every other argument keep their
// entities.
func clineCommandEntities(c candidate, ts *toolset) candidate {
	if c.format != "cline_xml" || ts.resolve(c.name) != "bash" {
		return c
	}
	args, ok := c.args.(map[string]any)
	if !ok {
		return c
	}
	cmd, ok := args["command"].(string)
	if !ok || !strings.Contains(cmd, "&") || !strings.Contains(cmd, ";") {
		return c
	}
	if d := xmlCommandEntities.Replace(cmd); d != cmd {
		args["command"] = d
		c.notes = append(c.notes, "cline_command_entities")
	}
	return c
}

// harmonyStrippedNoRecipient is rule "harmony_stripped_no_recipient": a
// harmony call is <|start|>assistant<|channel|>… to=functions.NAME
// <|constrain|>TYPE<|message|>{…}<|call|> (openai/harmony); a server that
// drops the control tokens and the header text between them leaves
// "assistant", perhaps the channel, the content type and the arguments
// glued together (waybarrios/vllm-mlx#562: "assistantcode{"path":"",…}").
// The tool's name is gone with the recipient. When the whole reply is that
// remnant (assistant, an optional analysis/commentary, code or json, then
// one JSON object and nothing else) it is a call whose name was lost: it
// gets the no-name correction, never a run.
func harmonyStrippedNoRecipient(content string) bool {
	t := strings.TrimSpace(content)
	if !strings.HasPrefix(t, "assistant") {
		return false
	}
	t = t[len("assistant"):]
	for _, ch := range []string{"analysis", "commentary"} {
		if strings.HasPrefix(t, ch) {
			t = t[len(ch):]
			break
		}
	}
	t = strings.TrimLeft(t, " ")
	switch {
	case strings.HasPrefix(t, "code"):
		t = t[len("code"):]
	case strings.HasPrefix(t, "json"):
		t = t[len("json"):]
	default:
		return false
	}
	t = strings.TrimSuffix(t, "call")
	if !strings.HasPrefix(t, "{") {
		return false
	}
	var v map[string]any
	return json.Unmarshal([]byte(t), &v) == nil && len(v) > 0
}

// m3ThinkCloser is MiniMax M3's reasoning closer.
const m3ThinkCloser = "</mm:think>"

// m3LeadingThinkClosers is rule "m3_leading_think_closers": MiniMax M3
// emits one or more </mm:think> delimiters before its content, also right
// before its call framing, and these are framing noise (smg-project/smg
// #2447: "</mm:think></mm:think>]<]minimax[>[<tool_call>"). When the reply
// opens with such closers and M3's namespace token follows them, they are
// dropped so the call markup leads the reply; a closer before prose stays
// (the answer is shown as it came).
func m3LeadingThinkClosers(s string) string {
	t := strings.TrimLeft(s, " \t\r\n")
	if !strings.HasPrefix(t, m3ThinkCloser) {
		return s
	}
	for strings.HasPrefix(t, m3ThinkCloser) {
		t = strings.TrimLeft(t[len(m3ThinkCloser):], " \t\r\n")
	}
	if !strings.HasPrefix(t, minimaxNS) {
		return s
	}
	return t
}

// minimaxWrapperCut is rule "minimax_wrapper_cut": MiniMax's call block
// opens with <minimax:tool_call> (M3's namespaced <tool_call>, rewritten so
// by minimaxNamespace) and holds <invoke name="…"> elements (MiniMax's
// tool-calling guide). A reply that ends right after the opener began a
// call that names no tool: as for the other dialects' bare openers
// (opener_without_call), it gets the no-name correction when the opener
// starts its line or follows a finished sentence and the sentence before
// it does not name the token.
func minimaxWrapperCut(content string) bool {
	const o = "<minimax:tool_call>"
	t := strings.TrimRight(content, " \t\r\n")
	if !strings.HasSuffix(t, o) || strings.Contains(t, "<invoke") {
		return false
	}
	before := t[:len(t)-len(o)]
	return openerAfterContent(before) && !tokenNamed(before)
}
