package toolcall

import "strings"

// callShapes is rule "other clients' call objects": the JSON a model writes
// for a call when it was trained on another framework's format rather than
// its own template's, read as {"name", "arguments"}:
//
//   - LangChain's JSON agents: {"action": NAME, "action_input": …} (the
//     structured-chat agent's prompt) and {"tool": NAME, "tool_input": …}
//     (its AgentAction);
//   - {"tool": NAME, "arguments"|"parameters"|"args"|"input": …} and
//     {"function": NAME, "arguments"|"parameters"|"args": …};
//   - Anthropic's tool_use block, {"type": "tool_use", "id", "name", "input"};
//   - one key holding the call: OpenAI's legacy {"function_call": {"name",
//     "arguments"}}, Gemini's {"functionCall": {"name", "args"}},
//     {"tool_call": {…}};
//   - {"name": NAME, "args"|"input"|"tool_input"|"params"|"kwargs": …};
//   - OpenAI's multi_tool_use items, {"recipient_name": "functions.NAME",
//     "parameters": …};
//   - inside call markup only, the tool's name as the one key, {NAME: {…}}
//     (Apertus's element shape, written in a <tool_call> wrapper).
//
// Only an object made of exactly those keys (and an id or type) is read, so
// a record that also holds a result or other data stays data. Outside call
// markup only LangChain's two shapes are read, whose format is the reply
// itself, and only for a declared tool: the others there are data, as
// {"name", "args"} is (rule_envelopes.go). The rules that tell a shown call
// from a made one apply to it as to any JSON call.
func callShapes(v any, ts *toolset, strong bool) (any, bool) {
	switch x := v.(type) {
	case []any:
		if !strong {
			return v, false // LangChain's agents write one action per blob: a list is a record
		}
		changed := false
		out := make([]any, len(x))
		for i, e := range x {
			n, ok := callShapes(e, ts, strong)
			out[i], changed = n, changed || ok
		}
		if !changed {
			return v, false
		}
		return out, true
	case map[string]any:
		if strong && len(x) == 1 {
			for k, a := range x {
				if _, isObj := a.(map[string]any); isObj && ts.resolve(k) != "" {
					return map[string]any{"name": k, "arguments": a}, true
				}
			}
		}
		name, args, ok := otherCallShape(x, strong)
		if !ok {
			return v, false
		}
		if !strong && (ts.resolve(name) == "" || !(langChainShape(x) || smolagentsShape(x))) { // smolagentsShape: rule_round9o.go
			return v, false
		}
		return map[string]any{"name": name, "arguments": args}, true
	}
	return v, false
}

// shapeKeys are the name and argument keys of each shape callShapes reads.
var shapeKeys = []struct {
	name string
	args []string
}{
	{"action", []string{"action_input"}},
	{"tool", []string{"tool_input", "arguments", "parameters", "args", "input"}},
	{"function", []string{"arguments", "parameters", "args", "params"}}, // params: MemGPT/letta (round 16t)
	{"recipient_name", []string{"parameters"}},
	{"name", []string{"args", "input", "tool_input", "params", "kwargs"}},
	{"tool_name", []string{"tool_arguments", "tool_args"}}, // rule_round9o.go
}

func otherCallShape(m map[string]any, strong bool) (string, any, bool) {
	if _, ok := m["arguments"]; ok && m["name"] != nil {
		return "", nil, false // the usual shape: callObject's
	}
	if len(m) == 1 {
		keys := []string{"function_call", "functionCall", "tool_call", "toolCall"}
		if strong {
			// {"function": {"name", "arguments"}} inside call markup or a
			// reply's only fence (mcp-client-for-ollama, round 16t); in
			// prose it is part of a tool_calls element (openAIElementText).
			keys = append(keys, "function")
		}
		for _, k := range keys {
			inner, ok := m[k].(map[string]any)
			if !ok || len(inner) > 3 {
				continue
			}
			name, _ := inner["name"].(string)
			args, hasArgs := inner["arguments"]
			if !hasArgs {
				args, hasArgs = inner["args"]
			}
			if name != "" && hasArgs {
				return name, args, true
			}
		}
		return "", nil, false
	}
	if m["type"] == "tool_use" {
		name, _ := m["name"].(string)
		args, ok := m["input"]
		if name == "" || !ok || !onlyKeys(m, "type", "id", "name", "input") {
			return "", nil, false
		}
		return name, args, true
	}
	for _, sh := range shapeKeys {
		name, ok := m[sh.name].(string)
		if !ok || name == "" {
			continue
		}
		for _, ak := range sh.args {
			args, ok := m[ak]
			if !ok || !onlyKeys(m, sh.name, ak, "id", "type") {
				continue
			}
			switch args.(type) {
			case map[string]any, string:
			default:
				continue
			}
			if sh.name == "recipient_name" {
				name = cleanName(name)
			}
			return name, args, true
		}
	}
	return "", nil, false
}

// onlyKeys reports whether every key of m is one of keys.
func onlyKeys(m map[string]any, keys ...string) bool {
	for k := range m {
		found := false
		for _, w := range keys {
			if k == w {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// langChainShape: {"action", "action_input"} or {"tool", "tool_input"}.
func langChainShape(m map[string]any) bool {
	_, a := m["action_input"]
	_, t := m["tool_input"]
	return a && m["action"] != nil || t && m["tool"] != nil
}

// functionKeyReply is rule "function key as the whole reply": LMDeploy's
// JSON tool parser (InternLM/lmdeploy tests/test_lmdeploy/serve/parsers/
// test_json_tool_parser.py) and LocalAI's (pkg/functions/parse_test.go)
// read a reply that is nothing but {"function": NAME, "arguments": {…}} as
// a call of NAME. Only the whole reply is read, only those two keys, only a
// declared tool and an object of arguments ("arguments", MemGPT's
// "params", or as below): the same object in prose, or
// beside other text, stays data, as round 3a decided (functionKeyCall).
func functionKeyReply(s string, q, end int, v any, ts *toolset) (any, bool) {
	m, ok := v.(map[string]any)
	end = afterStrayBraces(s, end)                                                                                                   // rule_round21.go
	if !ok || len(m) != 2 || (strings.TrimSpace(s[:q]) != "" || strings.TrimSpace(s[end:]) != "") && !aloneInActedFence(s, q, end) { // rule_round20.go
		return v, false
	}
	// MemGPT/letta's {"function": NAME, "params": {…}} (cpacker/MemGPT
	// tests/test_json_parsers.py, round 16t); tunacode's tool parser
	// (alchemiststudiosDOTai/tunacode, round 17h) reads {"function": NAME,
	// "parameters": {…}} and {"tool": NAME, "args": {…}} the same way.
	for _, sh := range []struct {
		name string
		args []string
	}{{"function", []string{"arguments", "params", "parameters", "args"}}, {"tool", []string{"args", "arguments", "parameters"}}} {
		name, _ := m[sh.name].(string)
		if name == "" || ts.resolve(name) == "" {
			continue
		}
		for _, ak := range sh.args {
			if args, isObj := m[ak].(map[string]any); isObj {
				return map[string]any{"name": name, "arguments": args}, true
			}
		}
	}
	// LangChain's {"action", "action_input"} blob, its input an argv list
	// or a tool's one string (rule_round22.go: actionInputArgs).
	if name, ok := m["action"].(string); ok {
		if args, ok := actionInputArgs(name, m["action_input"], ts); ok {
			return map[string]any{"name": name, "arguments": args}, true
		}
	}
	return v, false
}
