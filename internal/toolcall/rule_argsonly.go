package toolcall

// argsOnlyCall is rule "args_only_call": inside call markup (Hermes
// <tool_call>, Qwen's template, whose documented body is
// {"name": <function-name>, "arguments": <args-json-object>}) an object that
// holds the arguments and no name is a call attempt that names no tool
// (helexa/cortex observed it from Qwen3.6: {"arguments":{"command":"mkdir
// …"}}). It is answered with a correction listing the tools, never run:
// guessing the tool from the argument names is not a rule of the format.
// Strict like nameOnlyCall: the object holds only "arguments" (or
// "parameters") besides the OpenAI id/type fields, its value is an object,
// and outside call markup it is never tried, so bare JSON data with an
// "arguments" key stays data.
func argsOnlyCall(v any) (candidate, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return candidate{}, false
	}
	var args any
	found := 0
	for k, val := range m {
		switch k {
		case "arguments", "parameters":
			args = val
			found++
		case "id", "type":
		default:
			return candidate{}, false
		}
	}
	if found != 1 {
		return candidate{}, false
	}
	if _, ok := args.(map[string]any); !ok {
		return candidate{}, false
	}
	return candidate{name: "", args: args, notes: []string{"call without a name"}}, true
}
