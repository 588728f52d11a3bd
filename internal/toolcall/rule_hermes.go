package toolcall

import "strings"

// templateName (rule "call template, not a call"): Hermes' system prompt
// gives the call as a template, <tool_call>{"arguments": <args-dict>,
// "name": <function-name>}</tool_call> (the hermes3 chat template). A name
// that is itself a placeholder is that template shown to the user, not an
// attempt to call an unknown tool. The same holds for the example name of
// the Qwen3-Coder / Qwen3.5 template, "<function=example_function_name>"
// with "<parameter=example_parameter_1>" (its "ONLY reply in the following
// format" instructions, quoted in ikawrakow/ik_llama.cpp#1251; rule_round5b).
func templateName(name string) bool {
	n := strings.TrimSpace(name)
	return strings.HasPrefix(n, "<") && placeholderIn(n) || n == "example_function_name" || liteLLMTemplateName(n) || placeholderToolName(n) // rule_round9o.go; placeholderToolName: rule_round24.go
}
