package toolcall

import "testing"

// One table per rule of rule_envelopes.go: what the format's parser or
// template reads, and near misses that must stay text.

func TestRuleGenericEnvelope(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "llama.cpp generic tool_calls", content: "{\n  \"tool_calls\": [\n    {\n      \"name\": \"bash\",\n      \"arguments\": {\"command\": \"ls\"},\n      \"id\": \"123\"\n    }\n  ]\n}",
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "two calls", content: `{"tool_calls": [{"name": "read_file", "arguments": {"path": "a.go"}, "id": "1"}, {"name": "bash", "arguments": {"command": "go vet"}, "id": "2"}]}`,
			want: []call{{"read_file", `{"path":"a.go"}`}, {"bash", `{"command":"go vet"}`}}},
		{label: "older tool_call object", content: `{"tool_call": {"name": "read_file", "arguments": {"path": "go.mod"}}}`,
			want: []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "near miss: an OpenAI response shown as data", answer: true,
			content: "The server answers:\n```json\n{\"tool_calls\": [{\"id\": \"call_1\", \"type\": \"function\", \"function\": {\"name\": \"bash\", \"arguments\": \"{\\\"command\\\":\\\"ls\\\"}\"}}]}\n```"},
		{label: "near miss: a message object with more keys", answer: true,
			content: `The history holds {"role": "assistant", "tool_calls": [{"name": "bash", "arguments": {"command": "ls"}}]} as its last entry.`},
	})
}

func TestRuleLlamaFunctionShape(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "tool shape with values", content: `{"type": "function", "function": {"name": "bash", "parameters": {"command": "ls"}}}`,
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "envelope left open at the end", content: `{"type": "function", "function": {"name": "read_file", "parameters": {"path": "a.go"}}`,
			want: []call{{"read_file", `{"path":"a.go"}`}}},
		{label: "near miss: a tool definition repeated back", answer: true,
			content: `{"type": "function", "function": {"name": "bash", "description": "Run a command", "parameters": {"type": "object", "properties": {"command": {"type": "string"}}}}}`},
		{label: "near miss: OpenAI wire shape in prose", answer: true,
			content: `A call looks like {"id": "call_1", "type": "function", "function": {"name": "bash", "arguments": "{}"}} on the wire.`},
	})
	// Cut inside the function object: the call is not whole, nothing runs.
	res := recoverText(t, `{"type": "function", "function": {"name": "bash", "parameters": {"command": "rm -rf bu`)
	if len(res.Calls) != 0 {
		t.Errorf("cut function object: ran %v", res.Calls)
	}
}

func TestRuleGoogleArgs(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "args in tool_call markup", content: "<tool_call>\n{\"name\": \"bash\", \"args\": {\"command\": \"ls\"}}\n</tool_call>",
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "args, unknown tool", content: `<tool_call>{"name": "ha_call_service", "args": {"action": "turn_off"}}</tool_call>`,
			reject: "ha_call_service"},
		{label: "near miss: args outside call markup is data", answer: true,
			content: `The log entry was {"name": "bash", "args": {"command": "ls"}}.`},
	})
}

func TestRuleGemmaParen(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "paren form with closer", content: `<|tool_call>call:bash(command="ls -la")<tool_call|>`,
			want: []call{{"bash", `{"command":"ls -la"}`}}},
		{label: "paren form, no closer", content: `<|tool_call>call:read_file(path="a.go", start=3)`,
			want: []call{{"read_file", `{"path":"a.go","start":3}`}}},
		{label: "near miss: call:NAME( in a sentence", answer: true,
			content: `Writing call:bash(command="ls") in the prompt does nothing by itself.`},
	})
}

func TestRuleToolCodeAssign(t *testing.T) {
	runTemplateCases(t, []templateCase{
		{label: "assignment and print", content: "tool_code = bash(command=\"ls\")\nprint(tool_code)",
			want: []call{{"bash", `{"command":"ls"}`}}},
		{label: "assignment alone", content: `tool_code = read_file(path="go.mod")`,
			want: []call{{"read_file", `{"path":"go.mod"}`}}},
		{label: "near miss: another variable", answer: true,
			content: `x = bash(command="ls")`},
		{label: "near miss: fenced as Python", answer: true,
			content: "Like this:\n```python\ntool_code = bash(command=\"ls\")\nprint(tool_code)\n```"},
		{label: "near miss: inside a sentence", answer: true,
			content: `Gemma sometimes writes tool_code = bash(command="ls") instead of a fence.`},
	})
}
