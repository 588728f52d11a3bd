package toolcall

import "strings"

// Round 9o's rules (widened-threads-round9o.jsonl): call formats that agent
// clients and frameworks prompt for, written by models used to them.

// cherryToolUse is rule "cherry_tool_use": Cherry Studio's prompt-based tool
// use (its system prompt, quoted in CherryHQ/cherry-studio#5136: "Tool use is
// formatted using XML-style tags … <tool_use>\n  <name>{tool_name}</name>\n
// <arguments>{json_arguments}</arguments>\n</tool_use>", read back by its
// TagExtractor on <tool_use>…</tool_use>). The block is a call when it holds
// exactly a <name> with a tool identifier and an <arguments> element whose
// text is a JSON object; the name read is checked against the tools as any
// call's is (an undeclared one gets the correction listing the tools). A
// placeholder name ({tool_name}) or arguments that are not an object leave
// the block as text, as do the rules for shown calls (lead-ins, fences,
// quotes) that apply to every group.
func (sc *scan) cherryToolUse(j int, t xtag) (group, bool) {
	if t.name != "tool_use" || t.close {
		return group{}, false
	}
	s := sc.s
	p := skipSpace(s, t.end)
	if !strings.HasPrefix(s[p:], "<name>") {
		return group{}, false
	}
	p += len("<name>")
	e := strings.Index(s[p:], "</name>")
	if e < 0 {
		return group{}, false
	}
	name := strings.TrimSpace(s[p : p+e])
	if !toolIdent(name) {
		return group{}, false
	}
	p = skipSpace(s, p+e+len("</name>"))
	if !strings.HasPrefix(s[p:], "<arguments>") {
		return group{}, false
	}
	q := skipSpace(s, p+len("<arguments>"))
	if q >= len(s) || s[q] != '{' {
		return group{}, false
	}
	sc.sawOpener = true
	const format = "Cherry Studio <tool_use>"
	r := readValue(s, q, false)
	c := candidate{name: name, fail: r.fail, msg: r.msg, key: r.key, notes: r.notes, fromText: true, format: format}
	end := len(s)
	if r.fail == failNone {
		m, ok := r.v.(map[string]any)
		if !ok {
			return group{}, false
		}
		c.args = m
		end = skipSpace(s, r.end)
		if !strings.HasPrefix(s[end:], "</arguments>") {
			return group{}, false
		}
		end = skipSpace(s, end+len("</arguments>"))
		if strings.HasPrefix(s[end:], "</tool_use>") {
			end += len("</tool_use>")
		} else {
			end = skipSpace(s, r.end) + len("</arguments>")
		}
	}
	return group{start: j, end: end, cands: []candidate{c}}, true
}

// toolIdent: a tool name as a prompt would list it (letters, digits, _ - .
// and :), not a placeholder like {tool_name}.
func toolIdent(n string) bool {
	if n == "" || len(n) > 80 {
		return false
	}
	for i := 0; i < len(n); i++ {
		if !(isIdent(n[i]) || n[i] == '-' || n[i] == '.' || n[i] == ':') {
			return false
		}
	}
	return true
}

// smolagentsShape is rule "smolagents_json_action": smolagents' (and
// transformers.agents') ToolCallingAgent asks for "Action:" and a JSON blob,
// and its parse_json_tool_call reads the tool from "tool_name" and the
// arguments from "tool_arguments" or "tool_args" (the key lists
// ["action", "tool_name", "tool", "name", "function"] and ["action_input",
// "tool_arguments", "tool_args", "parameters"]); huggingface/smolagents#158
// quotes Qwen2.5-Coder and Llama 3.1 writing {"tool_name", "tool_arguments"}.
// Like LangChain's shapes, this object is the whole format, so it is read
// outside call markup too, for a declared tool, made of exactly those keys.
func smolagentsShape(m map[string]any) bool {
	if _, ok := m["tool_name"].(string); !ok {
		return false
	}
	_, a := m["tool_arguments"]
	_, b := m["tool_args"]
	return a || b
}

// liteLLMTemplateName is rule "litellm_format_placeholder": LiteLLM's
// prompt for models without native calls (its function_call_prompt, quoted
// in microsoft/autogen#2893: "Produce JSON OUTPUT ONLY! Adhere to this
// format {"name": "function_name", "arguments":{"argument_name":
// "argument_value"}}") names the tool function_name as a placeholder: an
// object that calls function_name is that template, not a call.
func liteLLMTemplateName(n string) bool {
	return n == "function_name"
}
