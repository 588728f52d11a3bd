package llmtest

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const bashTool = `{"type":"function","function":{"name":"bash","description":"Run a shell command.","parameters":{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}}}`

func TestDemoCallsBashThenSummarises(t *testing.T) {
	s := NewWith(t, Options{Demo: true})

	// A command in backquotes with bash declared: a bash call.
	first := `{"messages":[{"role":"system","content":"sys"},{"role":"user","content":"please run ` + "`ls -la`" + ` here"}],"stream":true,"tools":[` + bashTool + `]}`
	_, body := mustPost(t, s.URL()+"/chat/completions", first)
	a := assemble(t, parseStream(t, body), "reasoning_content")
	if a.reasoning == "" || a.finish != "tool_calls" || len(a.calls) != 1 {
		t.Fatalf("first answer %+v", a)
	}
	c := a.calls[0]
	var args map[string]string
	if err := json.Unmarshal([]byte(c.args), &args); err != nil || c.name != "bash" || args["command"] != "ls -la" {
		t.Fatalf("call %+v", *c)
	}

	// The tool result comes back: a summary quoting its first lines.
	var out []string
	for i := 1; i <= 8; i++ {
		out = append(out, "line"+string(rune('0'+i)))
	}
	msgs := []any{
		map[string]any{"role": "user", "content": "please run `ls -la` here"},
		map[string]any{"role": "assistant", "content": nil, "tool_calls": []any{map[string]any{"id": c.id, "type": "function", "function": map[string]any{"name": "bash", "arguments": c.args}}}},
		map[string]any{"role": "tool", "tool_call_id": c.id, "content": strings.Join(out, "\n")},
	}
	second, _ := json.Marshal(map[string]any{"messages": msgs, "stream": true, "tools": []any{json.RawMessage(bashTool)}})
	_, body = mustPost(t, s.URL()+"/chat/completions", string(second))
	a = assemble(t, parseStream(t, body), "reasoning_content")
	if a.finish != "stop" || len(a.calls) != 0 || !strings.HasPrefix(a.content, "The command printed:\nline1\nline2") || strings.Contains(a.content, "line8") || !strings.Contains(a.content, "3 more lines") {
		t.Errorf("summary %+v", a)
	}

	// No backquotes: a text answer echoing the question.
	_, body = mustPost(t, s.URL()+"/chat/completions", `{"messages":[{"role":"user","content":"what is Go?"}],"stream":true,"tools":[`+bashTool+`]}`)
	a = assemble(t, parseStream(t, body), "reasoning_content")
	if len(a.calls) != 0 || !strings.Contains(a.content, "what is Go?") {
		t.Errorf("echo %+v", a)
	}
	// A command but no bash tool: it says so instead of calling.
	_, body = mustPost(t, s.URL()+"/chat/completions", `{"messages":[{"role":"user","content":"run `+"`pwd`"+`"}],"stream":true}`)
	a = assemble(t, parseStream(t, body), "reasoning_content")
	if len(a.calls) != 0 || !strings.Contains(a.content, "no bash tool") {
		t.Errorf("no tool %+v", a)
	}
	if len(s.Failures()) != 0 {
		t.Errorf("failures %q", s.Failures())
	}
}

func TestDemoAfterScript(t *testing.T) {
	s := NewWith(t, Options{Demo: true}, Turn{Text: "scripted"})
	_, body := mustPost(t, s.URL()+"/chat/completions", chatBody)
	if got := assemble(t, parseStream(t, body), "reasoning_content").content; got != "scripted" {
		t.Errorf("first %q", got)
	}
	_, body = mustPost(t, s.URL()+"/chat/completions", chatBody)
	if got := assemble(t, parseStream(t, body), "reasoning_content").content; !strings.Contains(got, "demo model") {
		t.Errorf("second %q", got)
	}
}

func TestDemoTurnParameterName(t *testing.T) {
	// A bash tool whose parameter is not "command": the demo uses the
	// schema's name.
	var body map[string]any
	_ = json.Unmarshal([]byte(`{"messages":[{"role":"user","content":[{"type":"text","text":"run `+"`date`"+`"}]}],"tools":[{"type":"function","function":{"name":"bash","parameters":{"type":"object","properties":{"cmd":{"type":"string"}},"required":["cmd"]}}}]}`), &body)
	turn := DemoTurn(&Request{JSON: body})
	if len(turn.ToolCalls) != 1 || turn.ToolCalls[0].Arguments != `{"cmd":"date"}` || turn.ChunkDelay != DemoDelay {
		t.Errorf("%+v", turn)
	}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadScriptYAML(t *testing.T) {
	p := writeFile(t, "s.yaml", `
turns:
  - reasoning: "Okay.\n"
    text: Listing.
    toolCalls:
      - name: bash
        arguments: '{"command":"ls"}'
      - id: abc
        name: bash
        arguments: {command: pwd}
    usage: {promptTokens: 10, completionTokens: 5, cachedTokens: 2}
  - text: slow
    chunkDelay: 50ms
    firstByteDelay: 250
    keepAlives: 2
    progress: [0, 512]
    finish: length
  - fault: drop
    faultAfter: 3
    errorMessage: gone
  - fixture: d_tools_required
`)
	turns, err := LoadScript(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []Turn{
		{Reasoning: "Okay.\n", Text: "Listing.", ToolCalls: []ToolCall{
			{Name: "bash", Arguments: `{"command":"ls"}`},
			{ID: "abc", Name: "bash", Arguments: `{"command":"pwd"}`},
		}, Usage: &Usage{PromptTokens: 10, CompletionTokens: 5, CachedTokens: 2}},
		{Text: "slow", ChunkDelay: 50 * time.Millisecond, FirstByteDelay: 250 * time.Millisecond, KeepAlives: 2, Progress: []int{0, 512}, Finish: "length"},
		{Fault: FaultDrop, FaultAfter: 3, ErrorMessage: "gone"},
		{Fixture: "d_tools_required"},
	}
	if !reflect.DeepEqual(turns, want) {
		t.Errorf("got  %+v\nwant %+v", turns, want)
	}
}

func TestLoadScriptJSONList(t *testing.T) {
	p := writeFile(t, "s.json", "[\n\t{\"text\": \"hi\", \"chunkDelay\": \"15ms\"},\n\t{\"toolCalls\": [{\"name\": \"bash\", \"arguments\": \"{\\\"command\\\":\"}], \"fault\": \"length-in-tool-call\"}\n]")
	turns, err := LoadScript(p)
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 2 || turns[0].Text != "hi" || turns[0].ChunkDelay != 15*time.Millisecond ||
		turns[1].ToolCalls[0].Arguments != `{"command":` || turns[1].Fault != FaultLengthInToolCall {
		t.Errorf("%+v", turns)
	}
}

func TestLoadScriptErrors(t *testing.T) {
	for name, content := range map[string]string{
		"unknown key":     "- txet: typo\n",
		"unknown fault":   "- fault: explode\n",
		"unknown fixture": "- fixture: nope\n",
		"bad duration":    "- chunkDelay: soon\n",
		"nameless call":   "- toolCalls: [{arguments: '{}'}]\n",
		"not a list":      "hello\n",
		"bad JSON":        `[{"text": }]`,
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := LoadScript(writeFile(t, "s.yaml", content)); err == nil {
				t.Errorf("%q accepted", content)
			}
		})
	}
	if _, err := LoadScript(filepath.Join(t.TempDir(), "missing.yaml")); err == nil {
		t.Error("missing file accepted")
	}
}

// TestDocsScriptExample keeps the example of docs/llmtest.md loadable.
func TestDocsScriptExample(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "..", "docs", "llmtest.md"))
	if err != nil {
		t.Fatal(err)
	}
	_, rest, ok := strings.Cut(string(doc), "```yaml\n")
	if !ok {
		t.Fatal("no yaml example in docs/llmtest.md")
	}
	example, _, _ := strings.Cut(rest, "```")
	turns, err := ParseScript([]byte(example))
	if err != nil {
		t.Fatal(err)
	}
	if len(turns) != 6 || turns[0].ToolCalls[1].Arguments != `{"command":"pwd"}` || turns[1].FirstByteDelay != time.Second || turns[4].FaultBytes != 16<<20 {
		t.Errorf("%+v", turns)
	}
}
