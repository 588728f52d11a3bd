package toolcall

import "testing"

// Rejection.Tool names the declared tool a refused call was about (the
// constrained retry narrows the tools to it), "" when it names none.
func TestRejectionTool(t *testing.T) {
	tools := []Tool{
		{Name: "read_file", Schema: map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}, "required": []any{"path"}}},
		{Name: "bash", Schema: map[string]any{"type": "object", "properties": map[string]any{"command": map[string]any{"type": "string"}}, "required": []any{"command"}}},
	}
	cases := []struct{ name, args, want string }{
		{"read_file", `{}`, "read_file"},
		{"Read_File", `{"line": 1}`, "read_file"},
		{"bash", `{"command": ls`, "bash"},
		{"WebSearch", `{"query": "x"}`, ""},
	}
	for _, c := range cases {
		res := Recover(Input{ToolCalls: []RawCall{{ID: "1", Name: c.name, Arguments: c.args}}, FinishReason: "tool_calls", Tools: tools})
		if len(res.Calls) != 0 || len(res.Rejections) != 1 {
			t.Errorf("%s %s: %d calls, rejections %+v", c.name, c.args, len(res.Calls), res.Rejections)
			continue
		}
		if got := res.Rejections[0].Tool; got != c.want {
			t.Errorf("%s %s: Tool %q, want %q (%s)", c.name, c.args, got, c.want, res.Rejections[0].Reason)
		}
	}
}
