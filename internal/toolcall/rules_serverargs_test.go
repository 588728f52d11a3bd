package toolcall

import "testing"

// The rules of rule_serverargs.go on a server call's arguments text, each
// beside a near miss that keeps its old outcome.
func TestRuleServerArgs(t *testing.T) {
	runs := func(label, name, args string, want call) {
		t.Helper()
		checkCalls(t, label, recoverCall(t, name, args), want)
	}
	rejected := func(label, name, args string) {
		t.Helper()
		if res := recoverCall(t, name, args); len(res.Calls) != 0 || len(res.Rejections) != 1 {
			t.Errorf("%s: calls %+v rejections %+v, want one correction", label, res.Calls, res.Rejections)
		}
	}
	// Harmony's message layout passed as the arguments.
	runs("harmony tokens", "bash", `<|constrain|>json<|message|>{"command":"ls"}<|call|>`, call{"bash", `{"command":"ls"}`})
	runs("harmony message token", "bash", `<|message|>{"command":"ls"}`, call{"bash", `{"command":"ls"}`})
	// A raw command that is no object stays the command (gpt-oss's shell body).
	runs("raw command", "bash", `ls -la`, call{"bash", `{"command":"ls -la"}`})

	// Escaped object with its outer quotes lost.
	runs("escaped object", "read_file", `{\"path\":\"a.go\"}`, call{"read_file", `{"path":"a.go"}`})
	rejected("escaped object cut", "read_file", `{\"path\":\"a.go`)

	// Keywords.
	runs("python keywords", "bash", `command="ls -la"`, call{"bash", `{"command":"ls -la"}`})
	runs("python keywords, two", "read_file", `path="a.go", start=5`, call{"read_file", `{"path":"a.go","start":5}`})
	runs("yaml keywords", "read_file", "path: a.go\nstart: 5", call{"read_file", `{"path":"a.go","start":5}`})
	// Near misses: a command that sets a variable, a key the tool lacks.
	runs("env assignment", "bash", `FOO=bar make`, call{"bash", `{"command":"FOO=bar make"}`})
	runs("undeclared key", "bash", `cmd: ls`, call{"bash", `{"command":"cmd: ls"}`})
	rejected("yaml with an undeclared key", "read_file", "path: a.go\nnote: first")

	// One level too deep.
	for _, k := range []string{"arguments", "parameters", "input", "args", "kwargs", "params"} {
		runs("wrapper "+k, "read_file", `{"`+k+`": {"path":"a.go"}}`, call{"read_file", `{"path":"a.go"}`})
	}
	runs("wrapper as text", "read_file", `{"arguments": "{\"path\":\"a.go\"}"}`, call{"read_file", `{"path":"a.go"}`})
	rejected("wrapper beside an argument", "read_file", `{"arguments": {"start": 1}, "numbered": true}`)
	// A tool that declares the wrapper's name keeps it.
	tools := []Tool{{Name: "run", Schema: map[string]any{"type": "object", "properties": map[string]any{"input": map[string]any{"type": "object"}}, "required": []any{"input"}}}}
	res := Recover(Input{ToolCalls: []RawCall{{ID: "1", Name: "run", Arguments: `{"input": {"x": 1}}`}}, FinishReason: "tool_calls", Tools: tools})
	if len(res.Calls) != 1 || string(res.Calls[0].Arguments) != `{"input":{"x":1}}` {
		t.Errorf("declared input: %+v %+v", res.Calls, res.Rejections)
	}
}
