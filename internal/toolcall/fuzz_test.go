package toolcall

import (
	"encoding/json"
	"testing"
)

// FuzzRecover feeds arbitrary content and arguments: Recover must not
// panic, and every call it returns must be runnable — a declared tool and
// an arguments object with the required keys, each declared key of its
// declared type.
func FuzzRecover(f *testing.F) {
	seeds := []struct{ content, name, args, finish string }{
		{"<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>", "", "", "stop"},
		{"<function=write_file>\n<parameter=path>\na\n</parameter>\n<parameter=content>\nb\n", "", "", "stop"},
		{"[TOOL_CALLS]read_file[ARGS]{\"path\": \"x\"", "", "", "stop"},
		{"<|tool_call>call:edit_file{path:<|\"|>a<|\"|>,edits:[{old:<|\"|>x<|\"|>,new:'y'<|\"|>}]}<tool_call|>", "", "", "stop"},
		{"<|channel|>analysis<|message|>x<|end|><|start|>assistant to=container.exec<|channel|>commentary<|message|>ls", "", "", "stop"},
		{"<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>bash\n```json\n{\"command\": \"id\"}\n```<｜tool▁call▁end｜>", "", "", "stop"},
		{"[read_file(path='a'), bash(command=\"ls\")]", "", "", "stop"},
		{"</think>{\"name\": \"Read\", \"parameters\": {\"file_path\": \"a\", \"offset\": \"3\", \"limit\": 2}}", "", "", "stop"},
		{"", "Edit", "{\"file_path\": \"a\", \"old_string\": \"x\", \"new_string\": \"y\"}", "tool_calls"},
		{"", "bash", "{\"cmd\": [\"bash\", \"-lc\", \"ls\"]}{\"cmd\": \"pwd\"}", "tool_calls"},
		{"", "read_file<arg_key>path</arg_key><arg_value>a", "", "tool_calls"},
		{"", "write_file", "{'path': 'a', 'content': \"it's\",}", "length"},
		{"", "ask_user", "{\"question\": \"q\", \"options\": [\"a\", \"b\"]}", "tool_calls"},
		// generic_markup (rule_generic.go): two panics of red team 13 were
		// slots read twice (bash:0<|tool_call|>{…}).
		{"bash:0<|tool_call|>{\"command\": \"ls\"}<|tool_call_end|>\nread_file:1<|tool_call|>{\"path\": \"a\"}", "", "", "stop"},
		{"Running it.<|message|>bash<|invoke_tool_json|>{\"name\": \"bash\", \"args\": {\"command\": \"ls\"}}<|end|>", "", "", "stop"},
		{"<x:invoke name=\"write_file\" path=\"a\"><x:parameter name=\"content\"><p>a</p></x:invoke>", "", "", "stop"},
		{"<acme_call>bash command=\"ls\"</acme_call>", "", "", "stop"},
		{"✿FUNCTION✿: bash\n✿ARGS✿: {\"command\": \"ls\"}", "", "", "stop"},
		{"<TOOLCALL>[{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</TOOLCALL>", "", "", "stop"},
	}
	for _, s := range seeds {
		f.Add(s.content, s.name, s.args, s.finish)
	}
	tools := toolsFor(f)
	schemas := map[string]*objSchema{}
	for _, t := range tools {
		schemas[t.Name] = parseSchema(t.Schema)
	}
	f.Fuzz(func(t *testing.T, content, name, args, finish string) {
		in := Input{Content: content, FinishReason: finish, Tools: tools}
		if name != "" || args != "" {
			in.ToolCalls = []RawCall{{ID: "f", Name: name, Arguments: args}}
		}
		res := Recover(in)
		if finish == "length" && len(res.Calls) > 0 {
			t.Fatalf("a call runs from a reply cut by the token limit: %v", res.Calls)
		}
		for _, c := range res.Calls {
			o, ok := schemas[c.Name]
			if !ok {
				t.Fatalf("call to undeclared tool %q", c.Name)
			}
			var m map[string]any
			if err := json.Unmarshal(c.Arguments, &m); err != nil || m == nil {
				t.Fatalf("%s arguments %q are not a JSON object: %v", c.Name, c.Arguments, err)
			}
			for _, r := range o.required {
				if _, ok := m[r]; !ok {
					t.Fatalf("%s arguments %s lack required %s", c.Name, c.Arguments, r)
				}
			}
			for k, v := range m {
				p, declared := o.props[k]
				if !declared {
					t.Fatalf("%s arguments %s have undeclared key %s", c.Name, c.Arguments, k)
				}
				if !typeOK(p.typ, v) {
					t.Fatalf("%s argument %s = %v is not %s", c.Name, k, v, p.typ)
				}
			}
		}
	})
}

func typeOK(typ string, v any) bool {
	switch typ {
	case "string":
		_, ok := v.(string)
		return ok
	case "integer":
		f, ok := v.(float64)
		return ok && f == float64(int64(f))
	case "number":
		_, ok := v.(float64)
		return ok
	case "boolean":
		_, ok := v.(bool)
		return ok
	case "array":
		_, ok := v.([]any)
		return ok
	case "object":
		_, ok := v.(map[string]any)
		return ok
	}
	return true
}
