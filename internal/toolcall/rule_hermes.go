package toolcall

import "strings"

// templateName (rule "call template, not a call"): Hermes' system prompt
// gives the call as a template, <tool_call>{"arguments": <args-dict>,
// "name": <function-name>}</tool_call> (the hermes3 chat template). A name
// that is itself a placeholder is that template shown to the user, not an
// attempt to call an unknown tool.
func templateName(name string) bool {
	n := strings.TrimSpace(name)
	return strings.HasPrefix(n, "<") && placeholderIn(n)
}
