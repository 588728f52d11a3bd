package toolcall

import "testing"

// A tool name in another case convention or under a namespace
// (names.go foldedName, resolve) runs the one tool it spells; anything
// less certain stays a correction naming the tools.
func TestNameSpellings(t *testing.T) {
	const args = `{"path":"a.go"}`
	for _, name := range []string{"ReadFile", "readFile", "read-file", "READ_FILE", "Read_File", "default_api.read_file", "tools.read_file", "default_api.ReadFile",
		// markup a server left around the name
		"<|tool_call_begin|>read_file", "<function=read_file>", "assistant<|channel|>commentary to=functions.read_file", "[read_file]", "functions::read_file", "read_file@0", "a.b.read_file"} {
		checkCalls(t, name, recoverCall(t, name, args), call{"read_file", args})
	}
	for _, name := range []string{"read_files", "read_file_tool", "mcp_read_file", "<function=read_file><function=bash>", "readFile2", "read.file", "default_api."} {
		res := recoverCall(t, name, args)
		if len(res.Calls) != 0 || len(res.Rejections) != 1 {
			t.Errorf("%s: calls %+v rejections %+v, want one correction", name, res.Calls, res.Rejections)
		}
	}
	// Two declared tools that fold to one spelling: no guess.
	tools := append(toolsFor(t, "read_file"), Tool{Name: "read-file", Schema: map[string]any{"type": "object"}})
	res := Recover(Input{ToolCalls: []RawCall{{ID: "1", Name: "ReadFile", Arguments: args}}, FinishReason: "tool_calls", Tools: tools})
	if len(res.Calls) != 0 {
		t.Errorf("ambiguous ReadFile ran %+v", res.Calls)
	}
	// Server-only aliases: fetch from a server call, never from the text.
	checkCalls(t, "server fetch", recoverCall(t, "fetch", `{"url":"https://example.com"}`), call{"fetch_content", `{"url":"https://example.com"}`})
	wantText(t, "fetch( in the text", recoverText(t, "Use fetch(url) in the browser:\n\nfetch(\"https://example.com\")"))
	only := Recover(Input{ToolCalls: []RawCall{{ID: "1", Name: "fetch", Arguments: `{"url":"https://example.com"}`}}, FinishReason: "tool_calls", Tools: toolsFor(t, "bash")})
	if len(only.Calls) != 0 {
		t.Errorf("fetch without fetch_content declared ran %+v", only.Calls)
	}
}
