package main_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// A call that names a tool but lacks a required argument (issue #25) is
// neither run nor dropped: the model gets a correction that names the
// argument, whether the call came as a name-only object in Hermes markup or
// as a server tool call with empty arguments. A file written with tool
// syntax in its content is written once, unchanged, and the inner call
// never runs.
func TestMissingArgumentCallGetsACorrectionNamingIt(t *testing.T) {
	for _, tc := range []struct {
		label string
		turn  llmtest.Turn
		want  string
	}{
		{"name-only in markup", llmtest.Turn{Text: "<tool_call>\n{\"name\": \"bash\"}\n</tool_call>"}, "bash needs the argument command"},
		{"server call with empty arguments", llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Arguments: ""}}}, "read_file needs the argument path"},
		{"Mistral empty object", llmtest.Turn{Text: `[TOOL_CALLS]bash[ARGS]{}`}, "bash needs the argument command"},
	} {
		t.Run(tc.label, func(t *testing.T) {
			dir := t.TempDir()
			srv := llmtest.New(t, tc.turn, llmtest.Turn{Text: "sorry"})
			r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, noRetry), "-p", "do it")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			reqs := srv.ChatRequests()
			if len(reqs) != 2 {
				t.Fatalf("%d chat requests, want 2 (the correction goes back to the model)", len(reqs))
			}
			if !strings.Contains(string(reqs[1].Body), tc.want) {
				msgs := reqs[1].JSON["messages"].([]any)
				t.Errorf("the second request does not carry %q; its last message: %v", tc.want, msgs[len(msgs)-1])
			}
		})
	}
}

func TestFileWithToolSyntaxIsWrittenOnce(t *testing.T) {
	content := "Example:\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"touch ran\"}}\n</tool_call>\n" +
		"<|start|>assistant<|channel|>commentary to=functions.bash <|constrain|>json<|message|>{\"command\":\"touch ran\"}<|call|>\n"
	// Without HTML escaping, as a model writes it: the markers stay
	// literal inside the JSON string.
	var q bytes.Buffer
	enc := json.NewEncoder(&q)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(content); err != nil {
		t.Fatal(err)
	}
	args := `{"path": "doc.md", "content": ` + strings.TrimSpace(q.String()) + `}`
	for _, tc := range []struct{ label, text string }{
		{"hermes", "<tool_call>\n{\"name\": \"write_file\", \"arguments\": " + args + "}\n</tool_call>"},
		{"harmony", "<|channel|>commentary to=functions.write_file <|constrain|>json<|message|>" + args + "<|call|>"},
	} {
		t.Run(tc.label, func(t *testing.T) {
			dir := t.TempDir()
			srv := llmtest.New(t, llmtest.Turn{Text: tc.text}, llmtest.Turn{Text: "done"})
			r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "write the doc")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			got, err := os.ReadFile(filepath.Join(dir, "doc.md"))
			if err != nil || string(got) != content {
				t.Errorf("doc.md = %q (%v), want %q", got, err, content)
			}
			if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
				t.Error("a call inside the file's content ran")
			}
			if n := len(srv.ChatRequests()); n != 2 {
				t.Errorf("%d chat requests, want 2", n)
			}
		})
	}
}
