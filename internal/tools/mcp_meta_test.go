package tools

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"mm/internal/toolcall"
)

// fakeMCP is MCPServers over a fixed list; it records the calls.
type fakeMCP struct {
	tools []MCPTool
	calls []string // "server/tool args"
	reply func(server, tool string, args json.RawMessage) (string, bool)
}

func (f *fakeMCP) Tools() []MCPTool { return f.tools }

func (f *fakeMCP) Call(_ context.Context, server, tool string, args json.RawMessage) (string, bool) {
	f.calls = append(f.calls, server+"/"+tool+" "+string(args))
	if f.reply != nil {
		return f.reply(server, tool, args)
	}
	return "ok from " + server + "/" + tool, false
}

// namedMCP also knows every configured server, ready or not.
type namedMCP struct {
	*fakeMCP
	names []string
}

func (n namedMCP) ServerNames() []string { return n.names }

func mcpFixture() *fakeMCP {
	return &fakeMCP{tools: []MCPTool{
		{Server: "fs", Name: "read_text_file", Description: "Read the complete contents of a file as text.\nHandles encodings.", InputSchema: `{"type":"object","properties":{"path":{"type":"string"},"head":{"type":"number"}},"required":["path"]}`, ReadOnly: true},
		{Server: "fs", Name: "write_file", Description: "Create or overwrite a file.", InputSchema: `{"type": "object", "properties": {"path": {"type": "string"}, "content": {"type": "string"}}, "required": ["path", "content"]}`},
		{Server: "ev", Name: "echo", Description: "Echoes back the input string", InputSchema: `{"type":"object","properties":{"message":{"type":"string"}},"required":["message"]}`, ReadOnly: true},
		{Server: "ev", Name: "get-sum", Description: "Returns the sum of two numbers", InputSchema: `{"type":"object","properties":{"a":{"type":"number"},"b":{"type":"number"}},"required":["a","b"]}`, ReadOnly: true},
		{Server: "ev", Name: "get-env", Description: "", InputSchema: `{"type":"object","properties":{}}`},
		{Server: "ev", Name: "write_file", Description: "Another server's write_file.", InputSchema: `{"type":"object"}`},
	}}
}

func TestMCPMetaActions(t *testing.T) {
	cases := []struct {
		name   string
		args   string
		want   []string // substrings of the output, in order
		not    []string
		failed bool
		call   string // the call the servers saw, "" for none
	}{
		{name: "list every server", args: `{"action":"list"}`,
			want: []string{"fs: 2 tools\n- read_text_file: Read the complete contents of a file as text.\n- write_file: Create or overwrite a file.\n", "ev: 4 tools\n- echo: Echoes back the input string\n", "- get-env\n", `Next: {"action":"schema","server":"fs","tool":"<name>"}`},
			not:  []string{"Handles encodings", `"properties"`}},
		{name: "list one server, case aside", args: `{"action":"list","server":"EV"}`,
			want: []string{"ev: 4 tools\n"}, not: []string{"fs:"}},
		{name: "list an unknown server names the servers", args: `{"action":"list","server":"git"}`,
			want: []string{`[error: mcp: there is no server named "git"; the servers are: fs, ev]`}, failed: true},
		{name: "schema", args: `{"action":"schema","server":"fs","tool":"write_file"}`,
			want: []string{"fs/write_file: Create or overwrite a file.\nInput schema: {\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"},\"content\":{\"type\":\"string\"}},\"required\":[\"path\",\"content\"]}\n", `Call: {"action":"call","server":"fs","tool":"write_file","arguments":{…}}`}},
		{name: "schema of a tool on one server only needs no server", args: `{"action":"schema","tool":"read_text_file"}`,
			want: []string{"fs/read_text_file: Read the complete contents of a file as text.\nHandles encodings.\n"}},
		{name: "schema by the direct declaration name", args: `{"action":"schema","tool":"ev_get-sum"}`,
			want: []string{"ev/get-sum: Returns the sum"}},
		{name: "schema by server/tool", args: `{"action":"schema","tool":"ev/echo"}`,
			want: []string{"ev/echo: Echoes"}},
		{name: "schema with - and _ confused", args: `{"action":"schema","server":"ev","tool":"get_sum"}`,
			want: []string{"ev/get-sum:"}},
		{name: "schema of an unknown tool names the server's tools", args: `{"action":"schema","server":"ev","tool":"add"}`,
			want: []string{`[error: mcp: the server ev has no tool named "add"; its tools are: echo, get-sum, get-env, write_file]`}, failed: true},
		{name: "schema without tool names the tools", args: `{"action":"schema","server":"fs"}`,
			want: []string{"[error: mcp: schema needs tool; the tools of fs are: read_text_file, write_file]"}, failed: true},
		{name: "a tool on two servers needs the server", args: `{"action":"schema","tool":"write_file"}`,
			want: []string{`[error: mcp: several servers have a tool named "write_file": fs, ev; say which in server]`}, failed: true},
		{name: "a tool on no server", args: `{"action":"call","tool":"nope","arguments":{}}`,
			want: []string{`[error: mcp: no server has a tool named "nope"; the servers are: fs, ev (list one to see its tools)]`}, failed: true},
		{name: "call", args: `{"action":"call","server":"ev","tool":"echo","arguments":{"message":"hi"}}`,
			want: []string{"ok from ev/echo"}, call: `ev/echo {"message":"hi"}`},
		{name: "call repairs numbers sent as strings", args: `{"action":"call","server":"ev","tool":"get-sum","arguments":{"a":"2","b":3}}`,
			call: `ev/get-sum {"a":2,"b":3}`},
		{name: "call with the arguments as JSON text", args: `{"action":"call","server":"ev","tool":"echo","arguments":"{\"message\":\"hi\"}"}`,
			call: `ev/echo {"message":"hi"}`},
		{name: "call without arguments of a tool without properties", args: `{"action":"call","server":"ev","tool":"get-env"}`,
			call: `ev/get-env {}`},
		{name: "call keeps the arguments of a schema without properties", args: `{"action":"call","server":"ev","tool":"write_file","arguments":{"x":1}}`,
			call: `ev/write_file {"x":1}`},
		{name: "call missing a required argument shows the schema", args: `{"action":"call","server":"fs","tool":"read_text_file","arguments":{"head":3}}`,
			want: []string{`[error: mcp: read_text_file needs the argument path (a string); it was not run; its input schema: {"type":"object","properties":{"path":{"type":"string"},"head":{"type":"number"}},"required":["path"]}]`}, failed: true},
		{name: "call without arguments of a tool that needs some", args: `{"action":"call","server":"ev","tool":"echo"}`,
			want: []string{`[error: mcp: the tool's arguments go in arguments, an object: echo needs the argument message (a string); it was not run; its input schema: {`}, failed: true},
		{name: "call with arguments that are not an object", args: `{"action":"call","server":"ev","tool":"echo","arguments":[1]}`,
			want: []string{"[error: mcp: arguments must be a JSON object; its input schema:"}, failed: true},
		{name: "run is call", args: `{"action":"Run","server":"ev","tool":"echo","arguments":{"message":"x"}}`,
			call: `ev/echo {"message":"x"}`},
		{name: "list_tools is list", args: `{"action":"list_tools","server":"fs"}`, want: []string{"fs: 2 tools"}},
		{name: "no action", args: `{"server":"fs"}`,
			want: []string{"[error: mcp: action is needed: list, schema or call]"}, failed: true},
		{name: "unknown action", args: `{"action":"delete","server":"fs"}`,
			want: []string{`[error: mcp: unknown action "delete"; the actions are list, schema and call]`}, failed: true},
		{name: "arguments that are not an object", args: `[1]`,
			want: []string{"[error: mcp: bad arguments:"}, failed: true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			f := mcpFixture()
			tool := NewMCPMeta(f, 10000)
			out, failed := tool.Checked(context.Background(), json.RawMessage(c.args))
			at := 0
			for _, w := range c.want {
				i := strings.Index(out[at:], w)
				if i < 0 {
					t.Fatalf("output lacks %q (in order):\n%s", w, out)
				}
				at += i + len(w)
			}
			for _, n := range c.not {
				if strings.Contains(out, n) {
					t.Errorf("output has %q:\n%s", n, out)
				}
			}
			if failed != c.failed {
				t.Errorf("failed = %v, want %v:\n%s", failed, c.failed, out)
			}
			got := strings.Join(f.calls, "\n")
			if got != c.call {
				t.Errorf("calls = %q, want %q", got, c.call)
			}
			if run := tool.Run(context.Background(), json.RawMessage(c.args)); run != out {
				t.Errorf("Run and Checked differ:\n%s\n%s", run, out)
			}
		})
	}
}

func TestMCPMetaPermissionAndKind(t *testing.T) {
	tool := NewMCPMeta(mcpFixture(), 1000)
	cases := []struct {
		args    string
		mutates bool
		kind    Kind
		summary string
	}{
		{`{"action":"list"}`, false, KindRead, "list"},
		{`{"action":"list","server":"fs"}`, false, KindRead, "list fs"},
		{`{"action":"schema","server":"fs","tool":"write_file"}`, false, KindRead, "schema fs/write_file"},
		{`{"action":"call","server":"fs","tool":"write_file","arguments":{"path":"a","content":"b"}}`, true, KindOther, `fs/write_file: {"path":"a","content":"b"}`},
		{`{"action":"call","server":"fs","tool":"read_text_file","arguments":{"path":"a"}}`, true, KindRead, `fs/read_text_file: {"path":"a"}`},
		// Whatever runs a tool asks, a synonym included.
		{`{"action":"execute","server":"ev","tool":"get-env"}`, true, KindOther, "ev/get-env"},
		// A call that finds no tool runs nothing: it is answered with
		// what exists, without asking.
		{`{"action":"call","tool":"nope"}`, false, KindOther, "nope"},
		{`{"action":"delete"}`, false, KindRead, `{"action":"delete"}`},
	}
	for _, c := range cases {
		a := json.RawMessage(c.args)
		if got := tool.NeedsPermission(a); got != c.mutates {
			t.Errorf("%s: NeedsPermission = %v, want %v", c.args, got, c.mutates)
		}
		if got := tool.KindFor(a); got != c.kind {
			t.Errorf("%s: kind = %v, want %v", c.args, got, c.kind)
		}
		if got := tool.SummaryOf(a); got != c.summary {
			t.Errorf("%s: summary = %q, want %q", c.args, got, c.summary)
		}
	}
	if tool.Kind != KindOther {
		t.Errorf("Kind = %v, want other", tool.Kind)
	}
}

// The description is in every request: short, naming the servers, and the
// same bytes before and after a server gets ready.
func TestMCPMetaDescription(t *testing.T) {
	f := mcpFixture()
	ready := f.tools
	f.tools = ready[:2] // only fs is ready when the tool is built
	s := namedMCP{fakeMCP: f, names: []string{"fs", "ev", "git"}}
	tool := NewMCPMeta(s, 1000)
	if !strings.Contains(tool.Description, "Servers: fs, ev, git.") {
		t.Errorf("description does not name the configured servers:\n%s", tool.Description)
	}
	if len(tool.Description)+len(tool.SchemaText) > 600 {
		t.Errorf("description and schema take %d bytes: too many for every request", len(tool.Description)+len(tool.SchemaText))
	}
	before := tool.Description
	out, failed := tool.Checked(context.Background(), json.RawMessage(`{"action":"list","server":"ev"}`))
	if !failed || out != "[error: mcp: the server ev is not ready (still starting, or it failed); the servers ready are: fs]" {
		t.Errorf("a server not ready yet: %q", out)
	}
	f.tools = ready // ev gets ready
	if out, _ := tool.Checked(context.Background(), json.RawMessage(`{"action":"list","server":"ev"}`)); !strings.HasPrefix(out, "ev: 4 tools") {
		t.Errorf("a server that got ready is not listed: %q", out)
	}
	if tool.Description != before {
		t.Errorf("the description changed")
	}

	// Without the names, the servers ready at construction.
	if d := NewMCPMeta(mcpFixture(), 1000).Description; !strings.Contains(d, "Servers: fs, ev.") {
		t.Errorf("description without ServerNames:\n%s", d)
	}
	f.tools = nil
	out, _ = NewMCPMeta(namedMCP{fakeMCP: f, names: []string{"fs"}}, 1000).Checked(context.Background(), json.RawMessage(`{"action":"list"}`))
	if out != "[error: mcp: no server is ready yet (fs: still starting, or failed)]" {
		t.Errorf("nothing ready: %q", out)
	}
}

func TestMCPMetaCutsOutput(t *testing.T) {
	f := mcpFixture()
	f.reply = func(string, string, json.RawMessage) (string, bool) { return strings.Repeat("x", 5000), true }
	tool := NewMCPMeta(f, 300)
	out, failed := tool.Checked(context.Background(), json.RawMessage(`{"action":"call","server":"ev","tool":"get-env"}`))
	if !failed {
		t.Error("a failed call is not failed")
	}
	if UntruncatedLen(out) != 5000 || len([]rune(out)) > 300+40 {
		t.Errorf("output not cut to 300: %d characters", len([]rune(out)))
	}
	// An output the servers already cut is not cut twice.
	cut := Truncate(strings.Repeat("y", 5000), 300)
	f.reply = func(string, string, json.RawMessage) (string, bool) { return cut, false }
	if out, _ := tool.Checked(context.Background(), json.RawMessage(`{"action":"call","server":"ev","tool":"get-env"}`)); out != cut {
		t.Errorf("an output already cut was cut again")
	}
	// A list longer than maxOutput is cut too.
	many := &fakeMCP{}
	for i := 0; i < 200; i++ {
		many.tools = append(many.tools, MCPTool{Server: "big", Name: strings.Repeat("t", 20) + string(rune('a'+i%26)), Description: "A tool."})
	}
	if out := NewMCPMeta(many, 500).Run(context.Background(), json.RawMessage(`{"action":"list"}`)); !strings.Contains(out, "characters cut") {
		t.Errorf("a long list is not cut")
	}
}

// What the agent does with a call before the tool sees it (internal/toolcall)
// leaves the schema's arguments object usable: JSON text decoded, the call
// not mistaken for a wrapped {name, arguments} call.
func TestMCPMetaThroughToolcall(t *testing.T) {
	tool := NewMCPMeta(mcpFixture(), 1000)
	res := toolcall.Recover(toolcall.Input{
		ToolCalls: []toolcall.RawCall{{ID: "1", Name: "mcp", Arguments: `{"action":"call","server":"ev","tool":"echo","arguments":"{\"message\":\"hi\"}"}`}},
		Tools:     []toolcall.Tool{{Name: "mcp", Schema: tool.Schema}},
	})
	if len(res.Calls) != 1 {
		t.Fatalf("rejected: %+v", res.Rejections)
	}
	f := mcpFixture()
	NewMCPMeta(f, 1000).Run(context.Background(), res.Calls[0].Arguments)
	if len(f.calls) != 1 || f.calls[0] != `ev/echo {"message":"hi"}` {
		t.Errorf("calls = %q (from %s)", f.calls, res.Calls[0].Arguments)
	}
}
