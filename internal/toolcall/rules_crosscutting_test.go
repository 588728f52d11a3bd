package toolcall

import (
	"strings"
	"testing"
)

// nameOnlyCall: inside call markup a name-only object is a call attempt
// answered with a correction naming the argument; outside markup, or with
// any other key, it is data.
func TestRuleNameOnlyCall(t *testing.T) {
	checkRejected(t, "hermes name only", recoverText(t, "<tool_call>\n{\"name\": \"bash\"}\n</tool_call>"), false, "command")
	checkRejected(t, "mistral list name only", recoverText(t, `[TOOL_CALLS][{"name": "read_file"}]`), false, "path")
	checkRejected(t, "unknown tool name only", recoverText(t, `<tool_call>{"name": "Glob"}</tool_call>`), false, "no tool named")
	for _, s := range []string{
		`{"name": "bash"}`,
		"```json\n{\"name\": \"bash\"}\n```",
		`<tool_call>{"name": "bash", "version": "5.2"}</tool_call>`,
		`<tools>[{"name": "bash"}, {"name": "read_file"}]</tools>`,
		"Ollama no longer parses `<tool_call>{\"name\": \"bash\"}</tool_call>`.",
	} {
		res := recoverText(t, s)
		if len(res.Calls) != 0 || len(res.Rejections) != 0 {
			t.Errorf("%q: calls %v rejections %v, want neither", s, res.Calls, res.Rejections)
		}
	}
}

// repeatedName: a declared name written several times is that name;
// anything else repeated, or two names glued, is not guessed.
func TestRuleRepeatedName(t *testing.T) {
	checkCalls(t, "bashbash", recoverCall(t, "bashbash", `{"command":"ls"}`), call{"bash", `{"command":"ls"}`})
	checkCalls(t, "read_fileread_file", recoverCall(t, "read_fileread_file", `{"path":"a"}`), call{"read_file", `{"path":"a"}`})
	checkCalls(t, "bash x3", recoverCall(t, "bashbashbash", `{"command":"ls"}`), call{"bash", `{"command":"ls"}`})
	checkRejected(t, "bashread_file", recoverCall(t, "bashread_file", `{"command":"ls"}`), false, "no tool named")
	checkRejected(t, "bashbas", recoverCall(t, "bashbas", `{"command":"ls"}`), false, "no tool named")
	checkRejected(t, "globglob", recoverCall(t, "GlobGlob", `{"pattern":"*"}`), false, "no tool named")
}

// harmonyJSONBodyEnd: a <|call|> inside a string of the JSON body is
// content; a body that is not JSON still ends at the first end token.
func TestRuleHarmonyJSONBody(t *testing.T) {
	body := `{"path":"h.md","content":"x <|call|> y"}`
	checkCalls(t, "token in a string", recoverText(t, "<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>"+body+"<|call|>"),
		call{"write_file", body})
	checkCalls(t, "raw body", recoverText(t, "<|channel|>commentary to=functions.bash<|message|>ls -la<|call|>"),
		call{"bash", `{"command":"ls -la"}`})
}

// Harmony inside code fenced as another language is code; the same
// message outside the fence is a call.
func TestRuleHarmonyInCode(t *testing.T) {
	msg := `<|start|>assistant<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{"command":"ls"}<|call|>`
	res := recoverText(t, "```python\ntext = \""+strings.ReplaceAll(msg, `"`, `\"`)+"\"\n```")
	if len(res.Calls) != 0 || len(res.Rejections) != 0 {
		t.Errorf("harmony in a python fence: calls %v rejections %v", res.Calls, res.Rejections)
	}
	checkCalls(t, "harmony outside a fence", recoverText(t, "Listing:\n"+msg), call{"bash", `{"command":"ls"}`})
}

// pastWithEndRe: a call reported as already run with a short object between
// the verb and the call is not run; a clause ended by ; or , is not a
// report of the call.
func TestRulePastWith(t *testing.T) {
	res := recoverText(t, "I already ran `ls -la` with {\"name\": \"bash\", \"arguments\": {\"command\": \"ls -la\"}} earlier; the output is above.")
	if len(res.Calls) != 0 {
		t.Errorf("past report: ran %v", res.Calls)
	}
	checkCalls(t, "new clause", recoverText(t, "I ran the linter; now let me read the file with {\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}"),
		call{"read_file", `{"path":"a.go"}`})
}
