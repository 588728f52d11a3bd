package toolcall

import "testing"

// Other clients' call objects (rule_callshapes.go), each beside a near
// miss that keeps its old outcome.
func TestRuleCallShapes(t *testing.T) {
	rf := []call{{"read_file", `{"path":"a.go"}`}}
	wrap := func(obj string) string { return "<tool_call>\n" + obj + "\n</tool_call>" }
	runTemplateCases(t, []templateCase{
		// LangChain's JSON agents: the reply is the object, fenced or bare.
		{label: "langchain action, fenced", content: "```json\n{\"action\": \"read_file\", \"action_input\": {\"path\": \"a.go\"}}\n```", want: rf},
		{label: "langchain action, bare", content: `{"action": "read_file", "action_input": {"path": "a.go"}}`, want: rf},
		{label: "langchain action, text input", content: `{"action": "bash", "action_input": "ls -la"}`, want: []call{{"bash", `{"command":"ls -la"}`}}},
		{label: "langchain tool_input", content: "I'll read it.\n\n" + `{"tool": "read_file", "tool_input": {"path": "a.go"}}`, want: rf},
		// Inside call markup, every shape.
		{label: "tool + arguments", content: wrap(`{"tool": "read_file", "arguments": {"path": "a.go"}}`), want: rf},
		{label: "function + parameters", content: wrap(`{"function": "read_file", "parameters": {"path": "a.go"}}`), want: rf},
		{label: "anthropic tool_use", content: wrap(`{"type": "tool_use", "id": "toolu_1", "name": "read_file", "input": {"path": "a.go"}}`), want: rf},
		{label: "legacy function_call", content: wrap(`{"function_call": {"name": "read_file", "arguments": "{\"path\": \"a.go\"}"}}`), want: rf},
		{label: "gemini functionCall", content: wrap(`{"functionCall": {"name": "read_file", "args": {"path": "a.go"}}}`), want: rf},
		{label: "multi_tool_use item", content: wrap(`{"recipient_name": "functions.read_file", "parameters": {"path": "a.go"}}`), want: rf},
		{label: "name + input", content: wrap(`{"name": "read_file", "input": {"path": "a.go"}}`), want: rf},
		{label: "name as the key", content: wrap(`{"read_file": {"path": "a.go"}}`), want: rf},

		// {"function": NAME, "arguments"} as the whole reply (LMDeploy's and LocalAI's parsers).
		{label: "function key, the whole reply", content: `{"function": "read_file", "arguments": {"path": "a.go"}}`, want: rf},
		{label: "near miss: function key after prose", answer: true, content: "The config holds:\n\n" + `{"function": "read_file", "arguments": {"path": "a.go"}}`},
		{label: "near miss: function key with another key", answer: true, content: `{"function": "read_file", "arguments": {"path": "a.go"}, "result": "ok"}`},
		{label: "near miss: function key, undeclared", answer: true, content: `{"function": "lookup", "arguments": {"q": "a"}}`},
		// Near misses. LangChain's own answer is no call.
		{label: "near miss: langchain Final Answer", answer: true, content: "```json\n{\"action\": \"Final Answer\", \"action_input\": \"main.go starts the server.\"}\n```"},
		{label: "near miss: langchain format shown", answer: true, content: "The agent's prompt asks for a blob like this:\n\n```json\n{\"action\": \"bash\", \"action_input\": \"rm -rf build\"}\n```"},
		{label: "near miss: langchain action, unknown tool", answer: true, content: `{"action": "search", "action_input": "go modules"}`},
		// Outside markup the other shapes are data.
		{label: "near miss: tool + arguments outside markup", answer: true, content: `The trace shows {"tool": "read_file", "arguments": {"path": "a.go"}} at step 2.`},
		{label: "near miss: tool_use outside markup", answer: true, content: `{"type": "tool_use", "id": "toolu_1", "name": "bash", "input": {"command": "ls"}}`},
		{label: "near miss: name as the key outside markup", answer: true, content: `{"read_file": {"path": "a.go"}}`},
		// A record with more than the shape's keys stays data, in markup too.
		{label: "near miss: record with its output", answer: true, content: "The run logged:\n\n" + `{"action": "bash", "action_input": "ls", "observation": "a.go"}`},
	})
}
