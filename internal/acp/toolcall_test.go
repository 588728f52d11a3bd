package acp

import (
	"encoding/json"
	"testing"

	"mm/internal/agent"
	"mm/internal/tools"
)

func TestTitle(t *testing.T) {
	for _, c := range []struct {
		call agent.Call
		want string
	}{
		{agent.Call{Name: "bash", Summary: "go test ./..."}, "Run `go test ./...`"},
		{agent.Call{Name: "read_file", Summary: "main.go lines 1-10"}, "Read main.go lines 1-10"},
		{agent.Call{Name: "write_file", Summary: "notes.md"}, "Write notes.md"},
		{agent.Call{Name: "edit_file", Summary: "main.go (2 edits)"}, "Edit main.go (2 edits)"},
		{agent.Call{Name: "fetch_content", Summary: "https://example.invalid/"}, "Fetch https://example.invalid/"},
		{agent.Call{Name: "lsp", Summary: "definition Foo"}, "lsp definition Foo"},
		{agent.Call{Name: "bash", Summary: "a\n\tb\x1b[2K"}, "Run `a b^[[2K`"},
	} {
		if got := title(&c.call); got != c.want {
			t.Errorf("title(%s %q) = %q, want %q", c.call.Name, c.call.Summary, got, c.want)
		}
	}
}

func TestFailed(t *testing.T) {
	for out, want := range map[string]bool{
		"hi\n":                              false,
		"[error: no such file]":             true,
		"[not run: the turn was cancelled]": true,
		"[command rejected by the user]":    true,
		"[rename rejected by the user]":     true,
		"wrote a.txt":                       false,
		// A replayed ask_user or ask_agent call: only an answer completes.
		tools.AskUserDeclined:                                          true,
		tools.AskUserCancelled:                                         true,
		tools.AskUserCannot:                                            true,
		"[ask_user: question 1 has no text]":                           true,
		"The user answered:\n- Go on? → yes":                           false,
		"half an answer\n[ask_agent: rev stopped before finishing: x]": true,
		"the reviewer's answer":                                        false,
	} {
		if got := failed(&agent.Call{Output: out}); got != want {
			t.Errorf("failed(%q) = %v", out, got)
		}
	}
	if !failed(&agent.Call{Output: "ok", Diff: &tools.Diff{}}) {
		t.Error("a change not written is not failed")
	}
	if failed(&agent.Call{Output: "ok", Diff: &tools.Diff{Applied: true}}) {
		t.Error("a written change is failed")
	}
}

func TestRawInput(t *testing.T) {
	if v, ok := rawInput(&agent.Call{Args: json.RawMessage(`{"a":1}`)}).(json.RawMessage); !ok || string(v) != `{"a":1}` {
		t.Errorf("JSON arguments: %v", v)
	}
	if v, ok := rawInput(&agent.Call{Args: json.RawMessage(`{"a":`)}).(string); !ok || v != `{"a":` {
		t.Errorf("broken arguments: %v", v)
	}
}
