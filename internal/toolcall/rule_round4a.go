package toolcall

import "strings"

// Rules for formats that the real replies of
// testdata/widened-threads-round4a.jsonl use (round 4 of issue #25), each
// written from the parser or prompt that defines the format and reached
// from a one-line hook.

// clineToolNames are the tools of Cline's and Roo Code's XML tool format
// (Cline's toolUseNames in src/core/assistant-message, Roo's tool list)
// that mm has no counterpart for: a block naming one of them is a call
// attempt to an unknown tool, answered with the tools list. Any other tag
// that is no declared tool is left alone (it may be markup).
var clineToolNames = map[string]bool{
	"execute_command": true, "write_to_file": true, "replace_in_file": true, "apply_diff": true,
	"search_files": true, "list_files": true, "list_code_definition_names": true, "browser_action": true,
	"use_mcp_tool": true, "access_mcp_resource": true, "ask_followup_question": true,
	"attempt_completion": true, "plan_mode_respond": true, "new_task": true, "insert_content": true,
	"search_and_replace": true, "codebase_search": true, "switch_mode": true, "update_todo_list": true,
}

// clineXMLCall is rule "cline_xml": the tool-use format of Cline's and
// Roo Code's system prompt ("The tool name is enclosed in opening and
// closing tags, and each parameter is similarly enclosed within its own
// set of tags": <tool_name><param1>value1</param1>…</tool_name>), which
// models trained on those prompts write even to a client that asked for
// native calls (Roo-Code#10464, Kilo Code#2550). As Cline's parser reads
// it, a value is the text between its tags, trimmed; a free-text value
// (content) runs to the last closer of its name, so it may hold tags.
// Read only when the block ends the reply, its opener starts a line (or
// follows a closed <thinking>/<think>), it is not inside a fence, its body
// is nothing but such elements, and the lead-in does not show it as an
// example (notIntended): a tag pair in prose or a document stays text.
func clineXMLCall(content string, ts *toolset) (candidate, string, bool) {
	s := strings.TrimRight(content, " \t\r\n")
	if !strings.HasSuffix(s, ">") {
		return candidate{}, "", false
	}
	cl := strings.LastIndex(s, "</")
	if cl < 0 {
		return candidate{}, "", false
	}
	name := s[cl+2 : len(s)-1]
	if !identifier(name) && !mcpName(name) { // mcpName: rule_round15.go
		return candidate{}, "", false
	}
	tool := ts.resolve(mcpToolPart(name))
	if tool == "" && !clineToolNames[name] {
		return candidate{}, "", false
	}
	open := "<" + name + ">"
	op := strings.LastIndex(s[:cl], open)
	if op < 0 {
		return candidate{}, "", false
	}
	// The opener starts a line, or follows closed reasoning.
	lead := strings.TrimRight(s[:op], " \t")
	if lead != "" && !strings.HasSuffix(lead, "\n") && !strings.HasSuffix(lead, "</thinking>") && !strings.HasSuffix(lead, "</think>") && !endsWithToolBlock(lead, ts) && !clineColonStep(lead) { // endsWithToolBlock: a block glued after another (rule_round13.go); clineColonStep: rule_round15.go
		return candidate{}, "", false
	}
	if strings.Count(s[:op], "```")%2 == 1 {
		return candidate{}, "", false
	}
	if notIntended(sentenceBefore(s, 0, op), "") {
		return candidate{}, "", false
	}
	body := s[op+len(open) : cl]
	args, ok := clineParams(body)
	if !ok {
		// rule_round18.go: a closer split over lines, a YAML body.
		if args, ok = clineParams(joinSplitClosers(body)); !ok && tool != "" {
			var unreadable bool
			if !leadActsAfterThink(s, op) { // rule_round18.go
				// A YAML body is read after the model's step only: "here is
				// the snippet for your prompt docs:" shows it (red team 18r).
			} else if args, ok, unreadable = yamlToolBody(body, ts.schema(tool)); unreadable {
				return candidate{name: mcpToolPart(name), fromText: true, xml: true, fail: failSyntax, msg: "the YAML inside <" + name + "> does not parse", format: "cline_xml"}, strings.TrimSpace(s[:op]), true
			}
		}
		if !ok {
			return candidate{}, "", false
		}
	}
	c := candidate{name: mcpToolPart(name), args: args, xml: true, fromText: true, format: "cline_xml", notes: []string{"cline_xml"}}
	return c, strings.TrimSpace(s[:op]), true
}

// clineParams reads a body made only of <key>value</key> elements.
func clineParams(body string) (map[string]any, bool) {
	args := map[string]any{}
	rest := body
	for {
		rest = strings.TrimLeft(rest, " \t\r\n")
		if rest == "" {
			return args, true
		}
		if rest[0] != '<' {
			return nil, false
		}
		e := strings.IndexByte(rest, '>')
		if e < 0 {
			return nil, false
		}
		key := rest[1:e]
		if !identifier(key) {
			return nil, false
		}
		closer := "</" + key + ">"
		var end int
		if verbatimArgs[key] {
			end = strings.LastIndex(rest, closer)
		} else {
			end = strings.Index(rest, closer)
		}
		if end < e {
			return nil, false
		}
		v := rest[e+1 : end]
		if t := strings.TrimSpace(v); strings.HasPrefix(t, "<![CDATA[") && strings.HasSuffix(t, "]]>") {
			v = xmlValue(t) // rule "xml_cdata_value" (markup.go)
		} else if verbatimArgs[key] {
			v = strings.TrimPrefix(strings.TrimPrefix(v, "\r"), "\n")
			v = strings.TrimSuffix(strings.TrimSuffix(v, "\n"), "\r")
		} else {
			v = strings.TrimSpace(v)
		}
		if _, dup := args[key]; !dup {
			args[key] = v
		}
		rest = rest[end+len(closer):]
		// Rule "stray_value_closer" (round 18p, the tool-call
		// middleware's malformed-closing test): the element's closer
		// written twice, <command>ls</command></command>.
		for strings.HasPrefix(strings.TrimLeft(rest, " \t\r\n"), closer) {
			rest = strings.TrimLeft(rest, " \t\r\n")[len(closer):]
		}
	}
}

func identifier(s string) bool {
	if s == "" || len(s) > 64 {
		return false
	}
	for i, r := range s {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (i > 0 && r >= '0' && r <= '9') {
			continue
		}
		return false
	}
	return true
}

// wholePlaceholder is rule "whole_placeholder": a free-text argument whose
// whole value is one angle-bracketed camelCase name made of placeholder
// words (<fileContent>, <newContent>), what a model writes for "put the
// file's content here" (opencode#590), is a placeholder like <your file>
// is for a path. Free text that merely contains such a tag is not.
func wholePlaceholder(v any) bool {
	t, ok := v.(string)
	if !ok {
		return false
	}
	t = strings.TrimSpace(t)
	if len(t) < 3 || len(t) > 40 || t[0] != '<' || t[len(t)-1] != '>' {
		return false
	}
	inner := t[1 : len(t)-1]
	if !identifier(inner) || strings.ToLower(inner) == inner {
		return false
	}
	low := strings.ToLower(inner)
	for w := range placeholderWords {
		if strings.HasSuffix(low, w) && len(low) > len(w) {
			return true
		}
	}
	return false
}

// toolDefinition is rule "tool_definition": in the shape Llama 3.x's
// templates list the tools in, a function object that carries a
// "description" is a tool's definition repeated back (the template renders
// name, description and parameters for each tool; a call, per Llama 3.1's
// prompt format, is {"name", "parameters"} alone), not a call (zed#34631:
// the answer to "What tools do you have?").
func toolDefinition(f map[string]any) bool {
	_, ok := f["description"]
	return ok
}

// clineXMLOpen is rule "cline_xml_open": in Cline's format a tool opener
// never closed before the message ends is a partial tool use, which
// Cline's parser keeps with the parameters it could read and answers with
// "tried to use NAME without value for required parameter" (cline#5683:
// "<write_file> path text…" with no tags). Here that is the opener of a
// declared tool at the start of the reply, or of a line after text, with
// no closer after it, outside a fence and not shown as an example: it gets
// the correction for its missing arguments, never a run.
func clineXMLOpen(content string, ts *toolset, c *candidate) bool {
	if !strings.Contains(content, "<") {
		return false
	}
	s := strings.TrimRight(content, " \t\r\n")
	for off := 0; off < len(s); {
		line := s[off:]
		if i := strings.IndexByte(line, '\n'); i >= 0 {
			line = line[:i]
		}
		t := strings.TrimLeft(line, " \t")
		if strings.HasPrefix(t, "<") {
			if e := strings.IndexByte(t, '>'); e > 1 && identifier(t[1:e]) && ts.resolve(t[1:e]) != "" && tagThenValue(t[e+1:]) {
				name := t[1:e]
				at := off + len(line) - len(t)
				if !strings.Contains(s[at:], "</"+name+">") && strings.Count(s[:at], "```")%2 == 0 && !notIntended(sentenceBefore(s, 0, at), "") {
					*c = candidate{name: name, args: map[string]any{}, xml: true, fromText: true, format: "cline_xml", notes: []string{"cline_xml_open"}}
					return true
				}
			}
		}
		off += len(line) + 1
	}
	return false
}

// qwen3CoderOpenerLost is rule "qwen3_coder_opener_lost": a reply of
// Qwen3-Coder <parameter=K> elements that ends with </function> (and
// </tool_call>) and has no <function= lost the opener that named the tool
// (q27#24: "<name>task\n</parameter>\n<parameter=description>…"), as
// minimaxOpenerLost is for MiniMax: it gets the no-name correction. The same
// elements inside a <tool_call> wrapper with no <function=> block at all,
// closed by </parameter> then </tool_call> (ollama/ollama#16398's drift
// shape "<parameter> tags without <function= wrapper", which Ollama's
// qwen3.5 parser drops as an empty call), name no tool either.
func qwen3CoderOpenerLost(content string) bool {
	if strings.Contains(content, "<function=") {
		return false
	}
	t := strings.TrimRight(content, " \t\r\n")
	wrapped := false
	if strings.HasSuffix(t, "</tool_call>") {
		t = strings.TrimRight(t[:len(t)-len("</tool_call>")], " \t\r\n")
		wrapped = true
	}
	if wrapped && strings.HasSuffix(t, "</parameter>") {
		// rule_round5b: the wrapper opens a line and holds only parameters.
		o := strings.LastIndex(t, "<tool_call>")
		if o < 0 || (o > 0 && t[o-1] != '\n') {
			return false
		}
		return strings.HasPrefix(strings.TrimLeft(t[o+len("<tool_call>"):], " \t\r\n"), "<parameter=")
	}
	if !strings.HasSuffix(t, "</function>") {
		return false
	}
	t = t[:len(t)-len("</function>")]
	if i := strings.LastIndexByte(t, '\n'); i < 0 || strings.TrimSpace(t[i+1:]) != "" {
		return false
	}
	if !closerAfterLastValue(t, "</parameter>") {
		return false
	}
	return strings.HasPrefix(t, "<parameter=") || strings.Contains(t, "\n<parameter=")
}

// nameKVLineRe is a declared-tool-shaped name followed by key="value"
// pairs and nothing else.
var nameKVLineRe = lazyRegexp(`^([A-Za-z_][A-Za-z0-9_]*)((?:[ \t]+[A-Za-z_][A-Za-z0-9_]*="[^"\n]*")+)[ \t]*$`)

// nameKVLine is rule "name_kv_line": a reply that is nothing but one line
// NAME key="value" … naming a declared tool (ollama-vscode#12: qwen3.5's
// read_file file="c:\…\package.json") is a call written as a command line,
// a format no template defines: as for a ReAct step, it is answered with a
// correction and never run (which argument the key stands for is a guess).
func nameKVLine(content string, ts *toolset) (Rejection, bool) {
	if !strings.Contains(content, "=\"") {
		return Rejection{}, false
	}
	m := nameKVLineRe().FindStringSubmatch(endParagraph(content))
	if m == nil {
		return Rejection{}, false
	}
	name := ts.resolve(m[1])
	if name == "" {
		return Rejection{}, false
	}
	return Rejection{Name: m[1], Reason: "you wrote the " + name + " call as a command line (" + echoName(m[1]) + " key=\"value\"); nothing was run — send it as a tool call with JSON arguments"}, true
}

// openAIElementText is rule "openai_element_text": a reply that is
// nothing but one element of OpenAI's tool_calls array ({"id", "type":
// "function", "function": {"name", "arguments"}}, the API reference's
// shape), in JSON or as a Python repr (smolagents#122), is the call
// written as text in the wire format. Its name and arguments are the
// model's, but the element is what a client logs, not what a template
// asks the model to write, so it is corrected, never run: the tools list
// when the name is no tool, a request to send it as a call otherwise.
func openAIElementText(content string, ts *toolset) (Rejection, bool) {
	if e := strings.TrimRight(content, " \t\r\n"); !(strings.HasSuffix(e, "}") || strings.HasSuffix(e, "]")) || !strings.Contains(content, "function") {
		return Rejection{}, false
	}
	t := endParagraph(content)
	if !(strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") || strings.HasPrefix(t, "[") && strings.HasSuffix(t, "]")) {
		return Rejection{}, false
	}
	r := readValue(t, 0, true)
	if r.fail != failNone || strings.TrimSpace(t[r.end:]) != "" {
		return Rejection{}, false
	}
	f := openAIElements(r.v) // rule_round17.go
	if f == nil {
		return Rejection{}, false
	}
	n := f["name"].(string)
	if tool := ts.resolve(n); tool != "" {
		reason := "you wrote the " + tool + " call as text in the tool_calls wire format; nothing was run — send it as a tool call"
		if miss := missingRequired(ts, tool, f["arguments"]); miss != "" {
			reason += " (" + tool + " needs the argument " + miss + ")"
		}
		return Rejection{Name: n, Reason: reason}, true
	}
	return Rejection{Name: n, Reason: "there is no tool named " + echoName(n) + "; the tools are: " + ts.list()}, true
}

// endParagraph is the reply's last paragraph when what comes before it is
// closed reasoning or a lead-in that does not show it as an example (the
// whole reply when it is one paragraph); "" otherwise.
func endParagraph(content string) string {
	t := strings.TrimSpace(content)
	i := strings.LastIndex(t, "\n\n")
	if i < 0 {
		return t
	}
	before, last := t[:i], strings.TrimSpace(t[i:])
	if strings.HasPrefix(before, "<think>") {
		if j := strings.Index(before, "</think>"); j >= 0 {
			before = strings.TrimSpace(before[j+len("</think>"):])
		}
	}
	if strings.Contains(before, "```") || strings.Contains(before, "<think>") || notIntended(sentenceBefore(t, 0, i), "") {
		return ""
	}
	return last
}
