package toolcall

import (
	"encoding/json"
	"strings"
	"testing"
)

// call is an expected call: a tool name and its arguments as JSON text.
type call struct{ name, args string }

// recoverText runs Recover on content alone, with mm's tools declared.
func recoverText(t *testing.T, content string) Result {
	t.Helper()
	return Recover(Input{Content: content, FinishReason: "stop", Tools: toolsFor(t)})
}

// recoverCall runs Recover on one server tool call.
func recoverCall(t *testing.T, name, args string) Result {
	t.Helper()
	return Recover(Input{ToolCalls: []RawCall{{ID: "id1", Name: name, Arguments: args}}, FinishReason: "tool_calls", Tools: toolsFor(t)})
}

func checkCalls(t *testing.T, label string, res Result, want ...call) {
	t.Helper()
	if len(res.Calls) != len(want) {
		t.Errorf("%s: %d calls %v (rejections %v), want %d", label, len(res.Calls), res.Calls, res.Rejections, len(want))
		return
	}
	for i, w := range want {
		g := res.Calls[i]
		if g.Name != w.name || !sameJSON(g.Arguments, []byte(w.args)) {
			t.Errorf("%s: call %d = %s %s, want %s %s", label, i, g.Name, g.Arguments, w.name, w.args)
		}
		var m map[string]any
		if json.Unmarshal(g.Arguments, &m) != nil {
			t.Errorf("%s: arguments %s are not an object", label, g.Arguments)
		}
	}
}

func checkRejected(t *testing.T, label string, res Result, truncated bool, reasonHas string) {
	t.Helper()
	if len(res.Calls) != 0 {
		t.Errorf("%s: ran %v, want nothing", label, res.Calls)
	}
	if len(res.Rejections) == 0 {
		t.Errorf("%s: no rejection", label)
		return
	}
	r := res.Rejections[0]
	if r.Truncated != truncated {
		t.Errorf("%s: Truncated = %v, want %v (%s)", label, r.Truncated, truncated, r.Reason)
	}
	if !strings.Contains(r.Reason, reasonHas) {
		t.Errorf("%s: reason %q does not say %q", label, r.Reason, reasonHas)
	}
}

func TestCleanServerCallIsUnchanged(t *testing.T) {
	args := "{ \"path\" : \"docs/a.md\",\n \"start\": 3 }"
	res := Recover(Input{
		Content:      "Reading it.",
		ToolCalls:    []RawCall{{ID: "x9", Name: "read_file", Arguments: args}},
		FinishReason: "tool_calls",
		Tools:        toolsFor(t),
	})
	if len(res.Calls) != 1 || len(res.Rejections) != 0 {
		t.Fatalf("got %+v", res)
	}
	c := res.Calls[0]
	if c.ID != "x9" || c.Name != "read_file" || string(c.Arguments) != `{"path":"docs/a.md","start":3}` || len(c.Repairs) != 0 {
		t.Errorf("clean call changed: %+v", c)
	}
	if res.Text != "Reading it." {
		t.Errorf("Text = %q, want the content", res.Text)
	}
}

func TestProseIsUnchanged(t *testing.T) {
	for _, s := range []string{
		"The build passed. Two warnings remain in parser.go (lines 12 and 40).",
		"Use a map when keys are sparse; a slice otherwise.",
		"  spaced answer\n\n",
		"",
	} {
		res := recoverText(t, s)
		if res.Text != s || len(res.Calls)+len(res.Rejections) != 0 {
			t.Errorf("%q: got %+v", s, res)
		}
	}
}

func TestLenientJSON(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"trailing comma", `{"a": [1, 2,], "b": "x",}`, `{"a":[1,2],"b":"x"}`},
		{"single quotes", `{'a': 'it "is"', 'b': 1}`, `{"a":"it \"is\"","b":1}`},
		{"python literals", `{"a": True, "b": False, "c": None}`, `{"a":true,"b":false,"c":null}`},
		{"unescaped quote", `{"q": "say "hi" now", "n": 2}`, `{"q":"say \"hi\" now","n":2}`},
		{"raw newline", "{\"t\": \"line one\nline two\"}", `{"t":"line one\nline two"}`},
		{"escaped apostrophe", `{"t": "it\'s"}`, `{"t":"it's"}`},
		{"bad unicode escape kept", `{"t": "C:\users"}`, `{"t":"C:\\users"}`},
		{"regex escape kept", `{"t": "\d+\p{L}"}`, `{"t":"\\d+\\p{L}"}`},
		{"literal backslash-n between tokens", `{"a": 1,\n "b": 2\n}`, `{"a":1,"b":2}`},
		{"bare keys", `{path: "x", n: 3}`, `{"path":"x","n":3}`},
		{"gemma strings", `{k:<|"|>a "quoted" {text}<|"|>}`, `{"k":"a \"quoted\" {text}"}`},
		{"quote opened with ' closed with gemma token", `{k:'v<|"|>}`, `{"k":"v"}`},
		{"single-line unquoted value", `{k: some words, n: 1}`, `{"k":"some words","n":1}`},
		{"triple quotes", `{"k": """a\nb"""}`, `{"k":"a\nb"}`},
	}
	for _, tt := range tests {
		r := readValue(tt.in, 0, false)
		if r.fail != failNone {
			t.Errorf("%s: failed: %s", tt.name, r.msg)
			continue
		}
		got, _ := json.Marshal(r.v)
		if !sameJSON(got, []byte(tt.want)) {
			t.Errorf("%s: got %s, want %s", tt.name, got, tt.want)
		}
	}
}

func TestLenientJSONFailures(t *testing.T) {
	tests := []struct {
		name, in string
		want     failKind
	}{
		{"object never closes", `{"a": {"b": 1}`, failEOF},
		{"string never closes", `{"a": "cut here`, failEOF},
		{"multi-line unquoted value", "{k:\nfirst line, with comma\nsecond line\n}", failUndelimited},
		{"expression value", `{"n": 3 + 4}`, failSyntax},
		{"too deep", strings.Repeat("[", 400) + strings.Repeat("]", 400), failSyntax},
	}
	for _, tt := range tests {
		if r := readValue(tt.in, 0, false); r.fail != tt.want {
			t.Errorf("%s: fail = %v (%s), want %v", tt.name, r.fail, r.msg, tt.want)
		}
	}
	// Junk after a complete value is left for the caller.
	r := readValue(`{"a": 1}]</x>`, 0, false)
	if r.fail != failNone || r.end != len(`{"a": 1}`) {
		t.Errorf("junk after value: fail %v end %d", r.fail, r.end)
	}
}

func TestToolNames(t *testing.T) {
	ts := newToolset(toolsFor(t))
	tests := []struct{ raw, want string }{
		{"read_file", "read_file"},
		{"READ_FILE", "read_file"},
		{"functions.lsp", "lsp"},
		{"Functions.Fetch_Content", "fetch_content"},
		{"write_file<|channel|>commentary", "write_file"},
		{"functions.bash:3", "bash"},
		{"Bash", "bash"},
		{"run_shell_command", "bash"},
		{"container.exec", "bash"},
		{"Read", "read_file"},
		{"Write", "write_file"},
		{"Edit", "edit_file"},
		{" edit_file ", "edit_file"},
		{"WebSearch", ""},
		{"Glob", ""},
		{"task", ""},
		{"python", ""},
		{"shell", ""},
		{"read_files", ""},
		{"", ""},
	}
	for _, tt := range tests {
		if got := ts.resolve(tt.raw); got != tt.want {
			t.Errorf("resolve(%q) = %q, want %q", tt.raw, got, tt.want)
		}
	}
	// An alias never points at a tool that is not declared.
	only := newToolset(toolsFor(t, "read_file"))
	if got := only.resolve("Bash"); got != "" {
		t.Errorf("Bash without a bash tool resolved to %q", got)
	}
}

func TestArgumentNames(t *testing.T) {
	tests := []struct {
		name, tool, args string
		want             call
	}{
		{"file_path", "read_file", `{"file_path":"a.go"}`, call{"read_file", `{"path":"a.go"}`}},
		{"filePath", "write_file", `{"filePath":"a.go","content":"x"}`, call{"write_file", `{"path":"a.go","content":"x"}`}},
		{"filename", "read_file", `{"filename":"a.go"}`, call{"read_file", `{"path":"a.go"}`}},
		{"cmd", "bash", `{"cmd":"make"}`, call{"bash", `{"command":"make"}`}},
		{"misspelled", "bash", `{"commnad":"make"}`, call{"bash", `{"command":"make"}`}},
		{"newName", "lsp", `{"action":"rename","path":"a.go","newName":"B"}`, call{"lsp", `{"action":"rename","path":"a.go","new_name":"B"}`}},
		{"old_string/new_string", "edit_file", `{"path":"a","old_string":"x","new_string":"y"}`, call{"edit_file", `{"path":"a","edits":[{"old":"x","new":"y"}]}`}},
		{"top-level old/new", "edit_file", `{"path":"a","old":"x","new":"y"}`, call{"edit_file", `{"path":"a","edits":[{"old":"x","new":"y"}]}`}},
		{"oldString in items", "edit_file", `{"path":"a","edits":[{"oldString":"x","newString":"y"}]}`, call{"edit_file", `{"path":"a","edits":[{"old":"x","new":"y"}]}`}},
		{"offset/limit", "read_file", `{"path":"a","offset":10,"limit":5}`, call{"read_file", `{"path":"a","start":10,"end":14}`}},
		{"limit alone", "read_file", `{"path":"a","limit":30}`, call{"read_file", `{"path":"a","end":30}`}},
		{"unknown dropped", "bash", `{"command":"ls","timeout":60,"workdir":"/tmp","description":"list"}`, call{"bash", `{"command":"ls"}`}},
		{"declared name wins over alias", "read_file", `{"path":"a","file_path":"b"}`, call{"read_file", `{"path":"a"}`}},
		{"snake for camel", "ask_agent", `{"agent":"x","prompt":"p","withContext":true}`, call{"ask_agent", `{"agent":"x","prompt":"p","with_context":true}`}},
		{"one question, items described in words", "ask_words", `{"question":"Go on?","type":"confirm"}`, call{"ask_words", `{"questions":[{"question":"Go on?","type":"confirm"}]}`}},
		{"one question without its list", "ask_user", `{"question":"Which?","options":["a","b"]}`, call{"ask_user", `{"questions":[{"question":"Which?","options":["a","b"]}]}`}},
	}
	for _, tt := range tests {
		res := recoverCall(t, tt.tool, tt.args)
		checkCalls(t, tt.name, res, tt.want)
		if len(res.Calls) == 1 && len(res.Calls[0].Repairs) == 0 {
			t.Errorf("%s: no repair noted", tt.name)
		}
	}
}

func TestTypes(t *testing.T) {
	tests := []struct {
		name, tool, args string
		want             call
	}{
		{"string to integer", "read_file", `{"path":"a","start":"10","end":" 20 "}`, call{"read_file", `{"path":"a","start":10,"end":20}`}},
		{"float integer", "read_file", `{"path":"a","start":4.0}`, call{"read_file", `{"path":"a","start":4}`}},
		{"string to boolean", "read_file", `{"path":"a","numbered":"True"}`, call{"read_file", `{"path":"a","numbered":true}`}},
		{"yes as boolean", "read_file", `{"path":"a","numbered":"yes"}`, call{"read_file", `{"path":"a","numbered":true}`}},
		{"0 as boolean", "read_file", `{"path":"a","numbered":0}`, call{"read_file", `{"path":"a","numbered":false}`}},
		{"python literal boolean", "read_file", `{"path":"a","numbered":True}`, call{"read_file", `{"path":"a","numbered":true}`}},
		{"array in a string", "edit_file", `{"path":"a","edits":"[{\"old\":\"1\",\"new\":\"2\"}]"}`, call{"edit_file", `{"path":"a","edits":[{"old":"1","new":"2"}]}`}},
		{"python list in a string", "edit_file", `{"path":"a","edits":"[{'old': 'x', 'new': 'y'}]"}`, call{"edit_file", `{"path":"a","edits":[{"old":"x","new":"y"}]}`}},
		{"one edit without its list", "edit_file", `{"path":"a","edits":{"old":"x","new":"y"}}`, call{"edit_file", `{"path":"a","edits":[{"old":"x","new":"y"}]}`}},
		{"JSON text kept as a string", "write_file", `{"path":"p.json","content":"{\"k\": [1, 2]}"}`, call{"write_file", `{"path":"p.json","content":"{\"k\": [1, 2]}"}`}},
		{"argv list", "bash", `{"command":["git","log","--format=%h %s"]}`, call{"bash", `{"command":"git log '--format=%h %s'"}`}},
		{"shell -c argv", "bash", `{"command":["sh","-c","echo hi | wc -c"]}`, call{"bash", `{"command":"echo hi | wc -c"}`}},
		{"argv list in a string", "bash", `{"command":"[\"make\", \"test\"]"}`, call{"bash", `{"command":"make test"}`}},
		{"number to string", "read_skill", `{"name":42}`, call{"read_skill", `{"name":"42"}`}},
		{"null optional dropped", "read_file", `{"path":"a","start":null}`, call{"read_file", `{"path":"a"}`}},
		{"double-encoded arguments", "bash", `"{\"command\": \"pwd\"}"`, call{"bash", `{"command":"pwd"}`}},
		{"body is the single required string", "bash", `uname -a`, call{"bash", `{"command":"uname -a"}`}},
		{"whole call as arguments", "read_file", `{"name":"read_file","arguments":{"path":"z"}}`, call{"read_file", `{"path":"z"}`}},
		{"whole call under a wrong name", "tool", `{"name":"read_file","parameters":{"path":"z"}}`, call{"read_file", `{"path":"z"}`}},
	}
	for _, tt := range tests {
		checkCalls(t, tt.name, recoverCall(t, tt.tool, tt.args), tt.want)
	}
}

func TestStructuredRepairs(t *testing.T) {
	tests := []struct {
		name, tool, args string
		want             []call
	}{
		{"trailing comma", "bash", `{"command": "ls",}`, []call{{"bash", `{"command":"ls"}`}}},
		{"single quotes", "read_file", `{'path': 'notes.txt'}`, []call{{"read_file", `{"path":"notes.txt"}`}}},
		{"unescaped quotes", "write_file", `{"path": "a.html", "content": "<a href="x">y</a>"}`, []call{{"write_file", `{"path":"a.html","content":"<a href=\"x\">y</a>"}`}}},
		{"closing tag after the object", "bash", "{\"command\": \"id\"}</tool_call>", []call{{"bash", `{"command":"id"}`}}},
		{"cut fragment after the object", "bash", `{"command": "id"}{"comm`, []call{{"bash", `{"command":"id"}`}}},
		{"glued parts of one call", "write_file", `{"path": "a"}{"content": "b"}`, []call{{"write_file", `{"path":"a","content":"b"}`}}},
		{"glued whole calls", "bash", `{"command": "a"} {"command": "b"}`, []call{{"bash", `{"command":"a"}`}, {"bash", `{"command":"b"}`}}},
		{"GLM arguments in the name", "read_file<arg_key>path</arg_key><arg_value>n.txt</arg_value>", ``, []call{{"read_file", `{"path":"n.txt"}`}}},
		{"XML parameters as arguments", "bash", "<parameter=command>\ndate\n</parameter>", []call{{"bash", `{"command":"date"}`}}},
	}
	for _, tt := range tests {
		checkCalls(t, tt.name, recoverCall(t, tt.tool, tt.args), tt.want...)
	}
}

func TestNeverRun(t *testing.T) {
	t.Run("finish length", func(t *testing.T) {
		res := Recover(Input{ToolCalls: []RawCall{{ID: "a", Name: "bash", Arguments: `{"command":"ls"}`}}, FinishReason: "length", Tools: toolsFor(t)})
		checkRejected(t, "complete call cut by length", res, true, "token limit")
		res = Recover(Input{Content: "<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>", FinishReason: "length", Tools: toolsFor(t)})
		checkRejected(t, "text call cut by length", res, true, "token limit")
		res = Recover(Input{Content: "Sure.\n<tool_call>", FinishReason: "length", Tools: toolsFor(t)})
		checkRejected(t, "opener cut by length", res, true, "token limit")
		res = Recover(Input{Content: "A long answer, cut", FinishReason: "length", Tools: toolsFor(t)})
		if len(res.Calls)+len(res.Rejections) != 0 || res.Text != "A long answer, cut" {
			t.Errorf("prose cut by length: %+v", res)
		}
	})
	t.Run("arguments that never close", func(t *testing.T) {
		checkRejected(t, "string", recoverCall(t, "write_file", `{"path": "a", "content": "half a`), true, "write_file")
		checkRejected(t, "object", recoverCall(t, "edit_file", `{"path": "a", "edits": [{"old": "x", "new": "y"}]`), true, "edit_file")
		checkRejected(t, "text", recoverText(t, `<tool_call>{"name": "write_file", "arguments": {"path": "a", "content": "abc`), true, "write_file")
	})
	t.Run("missing required argument", func(t *testing.T) {
		checkRejected(t, "empty", recoverCall(t, "bash", `{}`), false, "command")
		checkRejected(t, "null", recoverCall(t, "bash", `null`), false, "command")
		checkRejected(t, "no arguments", recoverCall(t, "write_file", `{"path":"x"}`), false, "content")
		checkRejected(t, "edit item", recoverCall(t, "edit_file", `{"path":"x","edits":[{"old":"a"}]}`), false, "edits must be an array of {old, new}")
	})
	t.Run("unknown tool", func(t *testing.T) {
		res := recoverCall(t, "Glob", `{"pattern":"*.go"}`)
		checkRejected(t, "structured", res, false, "no tool named Glob")
		if !strings.Contains(res.Rejections[0].Reason, "read_file") {
			t.Errorf("reason does not list the tools: %s", res.Rejections[0].Reason)
		}
		checkRejected(t, "text", recoverText(t, `{"name": "search_web", "arguments": {"q": "x"}}`), false, "no tool named search_web")
	})
	t.Run("multi-line value without delimiter", func(t *testing.T) {
		res := recoverText(t, "<|tool_call>call:write_file{path:<|\"|>n.md<|\"|>,content:\nfirst, line\nsecond line\n}<tool_call|>")
		checkRejected(t, "gemma", res, false, "not quoted")
	})
	t.Run("object where a string is declared", func(t *testing.T) {
		checkRejected(t, "content", recoverCall(t, "write_file", `{"path":"a.json","content":{"k":1}}`), false, "content must be a string")
	})
	t.Run("wrong type", func(t *testing.T) {
		checkRejected(t, "integer", recoverCall(t, "read_file", `{"path":"a","start":"ten"}`), false, "start must be an integer")
		checkRejected(t, "boolean", recoverCall(t, "read_file", `{"path":"a","numbered":"maybe"}`), false, "numbered")
	})
	t.Run("broken JSON in a string is not a command", func(t *testing.T) {
		res := recoverText(t, `<tool_call>{"name": "bash", "arguments": "{\"command\": \"ls"}</tool_call>`)
		checkRejected(t, "cut", res, true, "bash")
		res = recoverCall(t, "bash", `"{\"command\" \"ls\"}"`)
		checkRejected(t, "structured", res, false, "not valid JSON")
	})
	t.Run("expression as a value", func(t *testing.T) {
		checkRejected(t, "pythonic", recoverText(t, `[read_file(path=base + "/a.txt")]`), false, "could not be read")
	})
}

func TestTextFormats(t *testing.T) {
	tests := []struct {
		name, content string
		want          []call
	}{
		{"hermes", "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"whoami\"}}\n</tool_call>", []call{{"bash", `{"command":"whoami"}`}}},
		{"other wrapper, parameters key", "<json>{\"name\": \"read_file\", \"parameters\": {\"path\": \"m.txt\"}}</json>", []call{{"read_file", `{"path":"m.txt"}`}}},
		{"OpenAI shape in a wrapper", `<tool_call>{"type": "function", "function": {"name": "bash", "arguments": "{\"command\": \"w\"}"}}</tool_call>`, []call{{"bash", `{"command":"w"}`}}},
		{"bare JSON after prose", "Checking.\n{\"name\": \"bash\", \"arguments\": {\"command\": \"df\"}}", []call{{"bash", `{"command":"df"}`}}},
		{"fenced without language", "```\n{\"name\": \"bash\", \"arguments\": {\"command\": \"free\"}}\n```", []call{{"bash", `{"command":"free"}`}}},
		{"qwen xml", "<tool_call>\n<function=write_file>\n<parameter=path>\nx/y.txt\n</parameter>\n<parameter=content>\n  indented\n\nlast\n</parameter>\n</function>\n</tool_call>", []call{{"write_file", `{"path":"x/y.txt","content":"  indented\n\nlast"}`}}},
		{"qwen xml, value on the tag line, no closers", "<function=read_file>\n<parameter=path> m.go\n<parameter=end>9", []call{{"read_file", `{"path":"m.go","end":9}`}}},
		{"qwen xml, glued value", "<function=bash>\n<parameter=command=uptime</parameter>\n</function>", []call{{"bash", `{"command":"uptime"}`}}},
		{"qwen xml, python literal", "<function=edit_file>\n<parameter=path>\nk\n</parameter>\n<parameter=edits>\n[{'old': 'a', 'new': 'b'}]\n</parameter>\n<parameter=dry_run>\nFalse\n</parameter>\n</function>", []call{{"edit_file", `{"path":"k","edits":[{"old":"a","new":"b"}],"dry_run":false}`}}},
		{"mistral", "[TOOL_CALLS]read_file[ARGS]{\"path\": \"q\"}", []call{{"read_file", `{"path":"q"}`}}},
		{"mistral with id", "[TOOL_CALLS]bash[CALL_ID]a1b2c3d4e[ARGS]{\"command\": \"ps\"}", []call{{"bash", `{"command":"ps"}`}}},
		{"mistral marker stripped", "bash[ARGS]{\"command\": \"ps\"}", []call{{"bash", `{"command":"ps"}`}}},
		{"mistral array", "[TOOL_CALLS][{\"name\": \"bash\", \"arguments\": {\"command\": \"ps\"}}]", []call{{"bash", `{"command":"ps"}`}}},
		{"llama python_tag pythonic", "<|python_tag|>fetch_content.call(url=\"https://example.org\")", []call{{"fetch_content", `{"url":"https://example.org"}`}}},
		{"functools", "functools[{\"name\": \"bash\", \"arguments\": {\"command\": \"id\"}}]", []call{{"bash", `{"command":"id"}`}}},
		{"harmony", "<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{\"path\":\"v.txt\"}<|call|>", []call{{"read_file", `{"path":"v.txt"}`}}},
		{"harmony on the analysis channel", "<|channel|>analysis to=functions.bash<|message|>{\"command\":\"ls\"}<|call|>", []call{{"bash", `{"command":"ls"}`}}},
		{"harmony raw body", "<|start|>assistant to=container.exec<|channel|>commentary<|message|>ls -1 /", []call{{"bash", `{"command":"ls -1 /"}`}}},
		{"harmony tokens stripped", "analysisok.assistantcommentary to=functions.bash json{\"command\":\"id\"}", []call{{"bash", `{"command":"id"}`}}},
		{"deepseek r1", "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>bash\n```json\n{\"command\": \"id\"}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>", []call{{"bash", `{"command":"id"}`}}},
		{"deepseek markers spelled with _ and |", "<|tool_calls_begin|><|tool_call_begin|>bash<|tool_sep|>{\"command\": \"id\"}<|tool_call_end|><|tool_calls_end|>", []call{{"bash", `{"command":"id"}`}}},
		{"deepseek invented result", "<｜tool▁call▁begin｜>bash<｜tool▁sep｜>{\"command\": \"id\"}<｜tool▁call▁end｜><｜tool▁outputs▁begin｜>{\"name\": \"bash\", \"arguments\": {\"command\": \"rm x\"}}<｜tool▁outputs▁end｜>", []call{{"bash", `{"command":"id"}`}}},
		{"dsml", "<｜DSML｜function_calls>\n<｜DSML｜invoke name=\"read_file\">\n<｜DSML｜parameter name=\"path\" string=\"true\">k.txt</｜DSML｜parameter>\n<｜DSML｜parameter name=\"end\" string=\"false\">7</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>", []call{{"read_file", `{"path":"k.txt","end":7}`}}},
		{"glm", "<tool_call>read_file\n<arg_key>path</arg_key>\n<arg_value>r.txt</arg_value>\n</tool_call>", []call{{"read_file", `{"path":"r.txt"}`}}},
		{"glm cut closer", "<tool_call>bash<arg_key>command</arg_key><arg_value>id</arg_value></tool_c", []call{{"bash", `{"command":"id"}`}}},
		{"granite list never closed", "<tool_call>[{\"name\": \"bash\", \"arguments\": {\"command\": \"id\"}}", []call{{"bash", `{"command":"id"}`}}},
		{"phi", "<|tool_call|>[{\"name\": \"bash\", \"arguments\": {\"command\": \"id\"}}]<|/tool_call|>", []call{{"bash", `{"command":"id"}`}}},
		{"gemma 4", "<|tool_call>call:lsp{action:<|\"|>definition<|\"|>,path:<|\"|>m.go<|\"|>,line:3}<tool_call|>", []call{{"lsp", `{"action":"definition","path":"m.go","line":3}`}}},
		{"gemma 3 pythonic list", "[read_file(path=\"a\"), bash(command='ls')]", []call{{"read_file", `{"path":"a"}`}, {"bash", `{"command":"ls"}`}}},
		{"pythonic on its own line", "Let me look.\nread_file(path=\"n.txt\")", []call{{"read_file", `{"path":"n.txt"}`}}},
		{"kimi", "<|tool_calls_section_begin|><|tool_call_begin|>functions.bash:0<|tool_call_argument_begin|>{\"command\": \"id\"}<|tool_call_end|><|tool_calls_section_end|>", []call{{"bash", `{"command":"id"}`}}},
		{"kimi tokens stripped", "functions.bash:0{\"command\": \"id\"}", []call{{"bash", `{"command":"id"}`}}},
		{"LFM list", "<|tool_call_start|>[{\"name\": \"bash\", \"arguments\": {\"command\": \"id\"}}]<|tool_call_end|>", []call{{"bash", `{"command":"id"}`}}},
		{"<function=NAME>{json}", "<function=read_file>{\"path\": \"f\"}</function>", []call{{"read_file", `{"path":"f"}`}}},
		{"<function name=…>", "<function name=\"bash\">{\"command\": \"id\"}</function>", []call{{"bash", `{"command":"id"}`}}},
		{"nested wrappers", "<response><tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"id\"}}</tool_call></response>", []call{{"bash", `{"command":"id"}`}}},
		{"mismatched closer", "<tools>{\"name\": \"bash\", \"arguments\": {\"command\": \"id\"}}</tool_call>", []call{{"bash", `{"command":"id"}`}}},
		{"several calls in order", "<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"a\"}}</tool_call>\n<function=read_file>\n<parameter=path>\nb\n</parameter>\n</function>\n[TOOL_CALLS]bash[ARGS]{\"command\": \"c\"}", []call{{"bash", `{"command":"a"}`}, {"read_file", `{"path":"b"}`}, {"bash", `{"command":"c"}`}}},
		{"objects separated by ;", "{\"name\": \"bash\", \"arguments\": {\"command\": \"a\"}}; {\"name\": \"bash\", \"arguments\": {\"command\": \"b\"}}", []call{{"bash", `{"command":"a"}`}, {"bash", `{"command":"b"}`}}},
		{"an earlier step in the lead-in", "I didn't run the tests yet, so first let me read the config:\n<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"c.yml\"}}</tool_call>", []call{{"read_file", `{"path":"c.yml"}`}}},
		{"a past step before the call", "I've made the edit; now I'll check it:\n<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"c.yml\"}}</tool_call>", []call{{"read_file", `{"path":"c.yml"}`}}},
		{"e.g. in the lead-in", "Let me open one config (e.g. the main one):\n<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"c.yml\"}}</tool_call>", []call{{"read_file", `{"path":"c.yml"}`}}},
		{"refusal of another command, then the call", "I won't run the migration. Instead, a dry run:\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"make plan\"}}</tool_call>", []call{{"bash", `{"command":"make plan"}`}}},
		{"presented as the way to do it", "You can use the bash tool for that; here's how:\n```json\n{\"name\": \"bash\", \"arguments\": {\"command\": \"du -sh .\"}}\n```", []call{{"bash", `{"command":"du -sh ."}`}}},
	}
	for _, tt := range tests {
		checkCalls(t, tt.name, recoverText(t, tt.content), tt.want...)
	}
}

func TestReasoningIsNeverACall(t *testing.T) {
	tests := []struct {
		name, content string
		want          []call
	}{
		{"think block", "<think>maybe {\"name\": \"bash\", \"arguments\": {\"command\": \"rm -r out\"}}</think>\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls out\"}}</tool_call>", []call{{"bash", `{"command":"ls out"}`}}},
		{"lone closer", "<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"a\"}}</tool_call> no wait</think><tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"b\"}}</tool_call>", []call{{"bash", `{"command":"b"}`}}},
		{"[THINK]", "[THINK]{\"name\": \"bash\", \"arguments\": {\"command\": \"a\"}}[/THINK]{\"name\": \"bash\", \"arguments\": {\"command\": \"b\"}}", []call{{"bash", `{"command":"b"}`}}},
		{"unclosed think", "<think>I will call <tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"a\"}}</tool_call>", nil},
		{"harmony analysis body", "<|channel|>analysis<|message|>{\"name\": \"bash\", \"arguments\": {\"command\": \"a\"}}<|end|><|start|>assistant<|channel|>final<|message|>Done.", nil},
		{"rehearsed then made", "<think><tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"id\"}}</tool_call></think>\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"id\"}}</tool_call>", []call{{"bash", `{"command":"id"}`}}},
	}
	for _, tt := range tests {
		res := recoverText(t, tt.content)
		checkCalls(t, tt.name, res, tt.want...)
	}
	// The same call in tool_calls and in the content runs once.
	res := Recover(Input{
		Content:      `{"name": "bash", "arguments": {"command": "id"}}`,
		ToolCalls:    []RawCall{{ID: "s1", Name: "bash", Arguments: `{"command":"id"}`}},
		FinishReason: "tool_calls",
		Tools:        toolsFor(t),
	})
	checkCalls(t, "structured and text", res, call{"bash", `{"command":"id"}`})
}

func TestNegatives(t *testing.T) {
	for _, tt := range []struct{ name, content string }{
		{"JSON data with a name", "The config:\n```json\n{\"name\": \"svc\", \"replicas\": 2}\n```"},
		{"records with names", "[{\"name\": \"ana\"}, {\"name\": \"bo\"}]"},
		{"arguments without a name", "{\"command\": \"ls\"}"},
		{"shown, not made", "This deletes the cache:\n\n<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"rm -r .cache\"}}</tool_call>\n\nI haven't run it yet. Shall I go ahead?"},
		{"not run, fenced", "I have not run this:\n```json\n{\"name\": \"bash\", \"arguments\": {\"command\": \"rm -r tmp\"}}\n```"},
		{"cannot run commands", "I can't run commands here, but this is the call:\n```json\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n```"},
		{"refused", "I will not execute {\"name\": \"bash\", \"arguments\": {\"command\": \"shutdown now\"}} on your server."},
		{"past-tense report", "I already ran {\"name\": \"bash\", \"arguments\": {\"command\": \"make\"}} and it succeeded."},
		{"example", "For example, a call looks like {\"name\": \"read_file\", \"arguments\": {\"path\": \"x\"}} in this API."},
		{"placeholder", "<tool_call>{\"name\": \"read_file\", \"arguments\": {\"path\": \"<path to your file>\"}}</tool_call>"},
		{"placeholder in braces", "{\"name\": \"fetch_content\", \"arguments\": {\"url\": \"{url}\"}}"},
		{"code fence", "```go\nfmt.Println(`{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}`)\n```"},
		{"python fence", "```python\nrequest = {\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n```"},
		{"js fence, unclosed", "```js\nsend({\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}})"},
		{"shell fence", "```sh\necho '{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}' > call.json\n```"},
		{"unfenced heredoc", "Write it with:\ncat > c.json <<EOF\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\nEOF"},
		{"quoted for a command", "Test the endpoint: curl -d '{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}' localhost:8080"},
		{"inline code", "Calls look like `{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}` on the wire."},
		{"nested in other JSON", "{\"request\": {\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}}"},
		{"tool description", "<tools>{\"name\": \"bash\", \"description\": \"Run\", \"parameters\": {\"type\": \"object\", \"properties\": {\"command\": {\"type\": \"string\"}}}}</tools>"},
		{"orphan closing tags", "All done.</tool_call></function>"},
		{"marker around prose", "<|tool_call|>I can't browse the web.<|/tool_call|>"},
		{"fake mistral marker", "[TOOL_CALLS]{\"answer\": All set}"},
		{"fake glm marker", "<tool_call>Hello</tool_call>"},
		{"marker mentioned", "DeepSeek opens its calls with <｜tool▁calls▁begin｜> and closes them later."},
		{"pythonic in a sentence", "Then read_file(path=\"a\") returns the text."},
		{"stripped harmony answer", "analysisThe user greets.assistantfinalHello!"},
	} {
		res := recoverText(t, tt.content)
		if len(res.Calls) != 0 || len(res.Rejections) != 0 {
			t.Errorf("%s: calls %v, rejections %v; want an answer", tt.name, res.Calls, res.Rejections)
		}
		if res.Text != tt.content {
			t.Errorf("%s: Text = %q, want the content unchanged", tt.name, res.Text)
		}
	}
}

func TestText(t *testing.T) {
	tests := []struct{ content, want string }{
		{"I'll check.\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n</tool_call>", "I'll check."},
		{"Looking:\n```json\n{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}\n```\nThen I report.", "Looking:\n\nThen I report."},
		{"<think>plan <tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call></think>Now.<tool_call>{\"name\": \"bash\", \"arguments\": {\"command\": \"ls\"}}</tool_call>", "Now."},
		{"<|channel|>final<|message|>The port is 80.", "The port is 80."},
		{"<|channel|>analysis<|message|>Need it.<|end|><|start|>assistant<|channel|>commentary to=functions.bash<|message|>{\"command\":\"ls\"}<|call|><|start|>assistant<|channel|>final<|message|>Listing now.<|end|>", "Listing now."},
		{"Two.<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>bash<｜tool▁sep｜>{\"command\": \"a\"}<｜tool▁call▁end｜><｜tool▁calls▁end｜><｜end▁of▁sentence｜>", "Two."},
	}
	for _, tt := range tests {
		if got := recoverText(t, tt.content).Text; got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.content, got, tt.want)
		}
	}
}

func TestRepairsAreReported(t *testing.T) {
	res := recoverText(t, "<tool_call>{\"name\": \"Read\", \"arguments\": {\"file_path\": \"a\", \"start\": \"2\",}}</tool_call>")
	if len(res.Calls) != 1 {
		t.Fatalf("got %+v", res)
	}
	joined := strings.Join(res.Calls[0].Repairs, "; ")
	for _, want := range []string{"Read → read_file", "file_path → path", "trailing comma", "start string → integer", "recovered from the text"} {
		if !strings.Contains(joined, want) {
			t.Errorf("repairs %q do not mention %q", joined, want)
		}
	}
	if res.Calls[0].ID != "" {
		t.Errorf("a call from the text has ID %q, want empty", res.Calls[0].ID)
	}
}
