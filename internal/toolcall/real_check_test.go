package toolcall

// The replies a real small model wrote to mm's real request, recorded by
// real_live_test.go, replayed through the recovery layer exactly as the agent
// does (internal/agent: Recover on content, reasoning, tool_calls and
// finish_reason, with the tools mm declared). Nothing malformed may run.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// realFiles names the recordings of one model and server setup: the
// replies, and mm's request for the first prompt byte for byte, whose tools
// array declares the schemas.
func realFiles(name string) (replies, request string) {
	return "testdata/real-" + name + ".jsonl", "testdata/real-" + name + ".request.json"
}

// realNames is the recordings in testdata.
func realNames(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("testdata/real-*.jsonl")
	if err != nil || len(files) == 0 {
		t.Fatalf("no recorded real replies in testdata (%v)", err)
	}
	var names []string
	for _, f := range files {
		names = append(names, strings.TrimSuffix(strings.TrimPrefix(filepath.Base(f), "real-"), ".jsonl"))
	}
	return names
}

// realReply is one line of realFile: a prompt, what the server answered, and
// where it came from.
type realReply struct {
	ID            string          `json:"id"`
	Prompt        string          `json:"prompt"`
	Provenance    string          `json:"provenance"`
	Model         string          `json:"model"`
	ModelSize     int64           `json:"model_size"`
	ModelSHA256   string          `json:"model_sha256"`
	Server        string          `json:"server"`
	BuildInfo     string          `json:"build_info"`
	Date          string          `json:"date"`
	RequestSHA256 string          `json:"request_sha256"`
	MaxTokens     int             `json:"max_tokens"`
	Content       string          `json:"content"`
	Reasoning     string          `json:"reasoning,omitempty"`
	ToolCalls     []corpusRawCall `json:"tool_calls"`
	FinishReason  string          `json:"finish_reason"`
}

// input is what the agent hands to Recover for this reply.
func (r realReply) input(tools []Tool) Input {
	in := Input{Content: r.Content, Reasoning: r.Reasoning, FinishReason: r.FinishReason, Tools: tools}
	for _, tc := range r.ToolCalls {
		args := string(tc.Function.Arguments)
		var s string
		if json.Unmarshal(tc.Function.Arguments, &s) == nil {
			args = s
		}
		in.ToolCalls = append(in.ToolCalls, RawCall{ID: tc.ID, Name: tc.Function.Name, Arguments: args})
	}
	return in
}

// requestTools reads the tools array of an OpenAI chat request into the
// declarations Recover gets.
func requestTools(body []byte) ([]Tool, error) {
	var req struct {
		Tools []struct {
			Function struct {
				Name       string         `json:"name"`
				Parameters map[string]any `json:"parameters"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		return nil, err
	}
	var out []Tool
	for _, t := range req.Tools {
		out = append(out, Tool{Name: t.Function.Name, Schema: t.Function.Parameters})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the request declares no tools")
	}
	return out, nil
}

func loadRealReplies(t *testing.T, path string) []realReply {
	return loadJSONL[realReply](t, path)
}

// runViolations lists what is wrong with the calls the recovery layer would
// run for in: a call of a reply cut by the token limit, an undeclared tool,
// arguments that are not an object valid against the tool's schema, and a
// server tool call that neither runs nor gets a correction (the model would
// be left without an answer to it).
func runViolations(in Input, res Result) []string {
	var bad []string
	if in.FinishReason == "length" && len(res.Calls) > 0 {
		bad = append(bad, fmt.Sprintf("%d call(s) run from a reply cut by max_tokens", len(res.Calls)))
	}
	schemas := map[string]map[string]any{}
	for _, t := range in.Tools {
		schemas[t.Name] = t.Schema
	}
	for i, c := range res.Calls {
		schema, ok := schemas[c.Name]
		if !ok {
			bad = append(bad, fmt.Sprintf("call %d: %q is not a declared tool", i, c.Name))
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(c.Arguments))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			bad = append(bad, fmt.Sprintf("call %d %s: arguments are not JSON: %v (%s)", i, c.Name, err, c.Arguments))
			continue
		}
		for _, e := range schemaErrors(schema, v, "arguments") {
			bad = append(bad, fmt.Sprintf("call %d %s: %s (%s)", i, c.Name, e, c.Arguments))
		}
	}
	if got := len(res.Calls) + len(res.Rejections); len(in.ToolCalls) > 0 && got == 0 {
		bad = append(bad, fmt.Sprintf("%d server tool call(s) neither run nor corrected", len(in.ToolCalls)))
	}
	return bad
}

// schemaErrors validates v against the subset of JSON Schema mm's tools use:
// type, properties, required, items. A property the schema does not name is
// an error too: the recovery layer drops those before a call runs.
func schemaErrors(schema map[string]any, v any, at string) []string {
	var bad []string
	typ, _ := schema["type"].(string)
	switch typ {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			return []string{fmt.Sprintf("%s must be an object, got %T", at, v)}
		}
		props, _ := schema["properties"].(map[string]any)
		req, _ := schema["required"].([]any)
		for _, r := range req {
			if name, _ := r.(string); name != "" {
				if _, ok := obj[name]; !ok {
					bad = append(bad, fmt.Sprintf("%s lacks required %s", at, name))
				}
			}
		}
		keys := make([]string, 0, len(obj))
		for k := range obj {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p, ok := props[k].(map[string]any)
			if !ok {
				if props != nil {
					bad = append(bad, fmt.Sprintf("%s.%s is not in the schema", at, k))
				}
				continue
			}
			bad = append(bad, schemaErrors(p, obj[k], at+"."+k)...)
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			return []string{fmt.Sprintf("%s must be an array, got %T", at, v)}
		}
		if items, ok := schema["items"].(map[string]any); ok {
			for i, e := range arr {
				bad = append(bad, schemaErrors(items, e, fmt.Sprintf("%s[%d]", at, i))...)
			}
		}
	case "string":
		if _, ok := v.(string); !ok {
			bad = append(bad, fmt.Sprintf("%s must be a string, got %T", at, v))
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			bad = append(bad, fmt.Sprintf("%s must be a boolean, got %T", at, v))
		}
	case "integer", "number":
		n, ok := v.(json.Number)
		if !ok {
			return []string{fmt.Sprintf("%s must be a%s %s, got %T", at, map[bool]string{true: "n"}[typ == "integer"], typ, v)}
		}
		if _, err := n.Int64(); typ == "integer" && err != nil {
			bad = append(bad, fmt.Sprintf("%s must be an integer, got %s", at, n))
		}
	}
	return bad
}

func loadRealTools(t *testing.T, name string) []Tool {
	t.Helper()
	_, reqFile := realFiles(name)
	body, err := os.ReadFile(reqFile)
	if err != nil {
		t.Fatal(err)
	}
	tools, err := requestTools(body)
	if err != nil {
		t.Fatalf("%s: %v", reqFile, err)
	}
	return tools
}

// TestRealReplies replays every recorded reply of the real model: whatever
// it wrote, what would run is a declared tool with valid arguments, and
// nothing runs from a cut reply.
func TestRealReplies(t *testing.T) {
	for _, name := range realNames(t) {
		t.Run(name, func(t *testing.T) { testRealReplies(t, name) })
	}
}

func testRealReplies(t *testing.T, name string) {
	tools := loadRealTools(t, name)
	realFile, _ := realFiles(name)
	replies := loadRealReplies(t, realFile)
	if len(replies) < 15 {
		t.Fatalf("%s holds %d replies, want the whole fixed prompt set", realFile, len(replies))
	}
	if len(replies) != len(realPrompts) {
		t.Errorf("%s holds %d replies, the prompt set has %d: re-record (docs/tool-calls.md)", realFile, len(replies), len(realPrompts))
	}
	var runs, rejected int
	for i, r := range replies {
		if r.Provenance != "recorded" || r.Model == "" || r.Server == "" || r.Date == "" || r.RequestSHA256 == "" {
			t.Errorf("%s: provenance incomplete: %+v", r.ID, r)
		}
		if i < len(realPrompts) && r.Prompt != realPrompts[i] {
			t.Errorf("%s: prompt %q, the set has %q: re-record", r.ID, r.Prompt, realPrompts[i])
		}
		in := r.input(tools)
		res := Recover(in)
		for _, v := range runViolations(in, res) {
			t.Errorf("%s (%q): %s", r.ID, r.Prompt, v)
		}
		runs += len(res.Calls)
		rejected += len(res.Rejections)
	}
	t.Logf("%d replies: %d call(s) would run, %d refused with a correction", len(replies), runs, rejected)
}

// TestRunViolationsCatches makes sure the check above can fail: each of
// these results runs something malformed and must be reported.
func TestRunViolationsCatches(t *testing.T) {
	tools := loadRealTools(t, "smollm2")
	cases := []struct {
		name   string
		in     Input
		calls  []Call
		reject bool
	}{
		{"unknown tool", Input{}, []Call{{Name: "list_files", Arguments: json.RawMessage(`{}`)}}, false},
		{"missing required", Input{}, []Call{{Name: "bash", Arguments: json.RawMessage(`{}`)}}, false},
		{"wrong type", Input{}, []Call{{Name: "read_file", Arguments: json.RawMessage(`{"path":"a","start":"3"}`)}}, false},
		{"fraction for integer", Input{}, []Call{{Name: "read_file", Arguments: json.RawMessage(`{"path":"a","end":2.5}`)}}, false},
		{"edit item lacks new", Input{}, []Call{{Name: "edit_file", Arguments: json.RawMessage(`{"path":"a","edits":[{"old":"x"}]}`)}}, false},
		{"extra argument", Input{}, []Call{{Name: "bash", Arguments: json.RawMessage(`{"command":"ls","cmd":"ls"}`)}}, false},
		{"not an object", Input{}, []Call{{Name: "bash", Arguments: json.RawMessage(`"ls"`)}}, false},
		{"broken JSON", Input{}, []Call{{Name: "bash", Arguments: json.RawMessage(`{"command":"ls"`)}}, false},
		{"cut by max_tokens", Input{FinishReason: "length"}, []Call{{Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)}}, false},
		{"server call dropped", Input{ToolCalls: []RawCall{{Name: "bash", Arguments: `{"command":`}}}, nil, false},
	}
	for _, c := range cases {
		c.in.Tools = tools
		if v := runViolations(c.in, Result{Calls: c.calls}); len(v) == 0 {
			t.Errorf("%s: not reported", c.name)
		}
	}
	good := Input{Tools: tools}
	ok := Result{Calls: []Call{
		{Name: "bash", Arguments: json.RawMessage(`{"command":"ls"}`)},
		{Name: "read_file", Arguments: json.RawMessage(`{"path":"main.go","start":1,"end":20,"numbered":true}`)},
		{Name: "edit_file", Arguments: json.RawMessage(`{"path":"x.go","edits":[{"old":"foo","new":"bar"}]}`)},
	}}
	if v := runViolations(good, ok); len(v) != 0 {
		t.Errorf("valid calls reported: %v", v)
	}
	// And through Recover: a malformed reply injected among the recorded
	// ones runs nothing malformed either.
	bad := realReply{Content: `<tool_call>{"name": "bash", "arguments": {"command": "ls"`, FinishReason: "length"}
	in := bad.input(tools)
	if v := runViolations(in, Recover(in)); len(v) != 0 {
		t.Errorf("cut reply: %v", v)
	}
}
