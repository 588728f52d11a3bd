package toolcall

import "testing"

// Tests for the rules written for widened-threads-round4a.jsonl
// (rule_round4a.go), each with near misses.

// clineXMLCall: Cline/Roo's <tool><param>v</param></tool> block that ends
// the reply is that call; values are trimmed.
func TestRuleClineXML(t *testing.T) {
	checkCalls(t, "inline", recoverText(t, "<read_file><path>package.json</path></read_file>"), call{"read_file", `{"path":"package.json"}`})
	checkCalls(t, "prose before", recoverText(t, "Let me look.\n\n<bash>\n<command>ls -la</command>\n</bash>"), call{"bash", `{"command":"ls -la"}`})
	checkCalls(t, "content keeps tags", recoverText(t, "<write_file>\n<path>a.html</path>\n<content>\n<p>hi</p>\n</content>\n</write_file>"), call{"write_file", `{"path":"a.html","content":"<p>hi</p>"}`})
	checkRejected(t, "cline tool", recoverText(t, "<attempt_completion>\n<result>Done</result>\n</attempt_completion>"), false, "no tool named")
	// Near misses: an example; a fence; in a sentence; not at the end; a
	// tag that is no tool; a body with text outside elements.
	wantText(t, "example", recoverText(t, "Cline's format looks like this:\n<read_file>\n<path>a.go</path>\n</read_file>"))
	wantText(t, "fenced", recoverText(t, "```xml\n<read_file>\n<path>a.go</path>\n</read_file>\n```"))
	wantText(t, "sentence", recoverText(t, "Write it as <read_file><path>a.go</path></read_file>"))
	wantText(t, "not last", recoverText(t, "<read_file><path>a.go</path></read_file>\n\nThat is how Roo reads a file."))
	wantText(t, "html", recoverText(t, "<div>\n<p>hello</p>\n</div>"))
	wantText(t, "loose text", recoverText(t, "<bash>\nrun <command>ls</command> now\n</bash>"))
}

// clineXMLOpen: a declared tool's opener never closed is corrected.
func TestRuleClineXMLOpen(t *testing.T) {
	checkRejected(t, "unclosed", recoverText(t, "<write_file> notes.txt some text..."), false, "")
	wantText(t, "closed later", recoverText(t, "<bash> is a tag; </bash> closes it"))
	wantText(t, "fenced", recoverText(t, "```\n<write_file> notes.txt\n"))
	wantText(t, "other tag", recoverText(t, "<notes> a b c"))
}

// qwen3CoderOpenerLost: <parameter=…> lines ending with </function> and no
// <function= get the no-name correction.
func TestRuleQwen3CoderOpenerLost(t *testing.T) {
	checkRejected(t, "lost", recoverText(t, "<parameter=command>\nls\n</parameter>\n</function>\n</tool_call>"), false, "no tool name")
	wantText(t, "prose", recoverText(t, "A value ends with </parameter> and the call with </function>"))
}

// nameKVLine: NAME key="value" as the whole reply is corrected.
func TestRuleNameKVLine(t *testing.T) {
	checkRejected(t, "line", recoverText(t, `read_file file="a.go"`), false, "command line")
	checkRejected(t, "after prose", recoverText(t, "Sure.\n\n"+`bash cmd="ls"`), false, "command line")
	wantText(t, "unknown", recoverText(t, `grep pattern="x"`))
	wantText(t, "in a sentence", recoverText(t, `Run read_file file="a.go" to see it.`))
	wantText(t, "example", recoverText(t, "For example:\n\n"+`read_file file="a.go"`))
}

// openAIElementText: one OpenAI tool_calls element as the whole reply is
// corrected, never run.
func TestRuleOpenAIElementText(t *testing.T) {
	checkRejected(t, "repr", recoverText(t, "{'id': '1', 'type': 'function', 'function': {'name': 'get_x', 'arguments': {'a': 'b'}}}"), false, "no tool named")
	checkRejected(t, "declared", recoverText(t, `{"type": "function", "function": {"name": "bash", "arguments": "{\"command\":\"ls\"}"}}`), false, "wire format")
	wantText(t, "extra key", recoverText(t, `{"id": "1", "type": "function", "function": {"name": "get_x", "arguments": {}}, "status": "done"}`))
	wantText(t, "in prose", recoverText(t, `An element looks like {"type": "function", "function": {"name": "get_x", "arguments": {}}} in the API.`))
}

// toolDefinition and wholePlaceholder: a listed definition and a
// placeholder content are no calls.
func TestRuleToolDefinitionAndPlaceholder(t *testing.T) {
	wantText(t, "definition", recoverText(t, `{"type": "function", "function": {"name": "bash", "description": "Runs a command.", "parameters": {"command": "ls"}}}`))
	checkCalls(t, "call shape", recoverText(t, `{"type": "function", "function": {"name": "bash", "parameters": {"command": "ls"}}}`), call{"bash", `{"command":"ls"}`})
	if res := recoverText(t, `{"name": "write_file", "arguments": {"path": "a.md", "content": "<fileContent>"}}`); len(res.Calls) != 0 {
		t.Errorf("placeholder content ran %v", res.Calls)
	}
	checkCalls(t, "html content", recoverText(t, `{"name": "write_file", "arguments": {"path": "a.html", "content": "<html>"}}`), call{"write_file", `{"path":"a.html","content":"<html>"}`})
}
