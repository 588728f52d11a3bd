package main_test

import (
	"os"
	"path/filepath"
	"testing"

	"mm/internal/llmtest"
)

// A file tool's ordinary failure (a file that does not exist, an edit
// whose old text is not there, a range past the end) shows as failed in
// the editor, though the model reads it as plain text; a read that works,
// an empty file, a dry run stay completed.
func TestACPFileToolFailuresShowFailed(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "a.txt"), []byte("one\ntwo\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "empty.txt"), nil, 0o644)
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{
			{ID: "r1", Name: "read_file", Arguments: `{"path":"missing.txt"}`},
			{ID: "r2", Name: "read_file", Arguments: `{"path":"a.txt","start":9}`},
			{ID: "r3", Name: "read_file", Arguments: `{"path":"a.txt"}`},
			{ID: "r4", Name: "read_file", Arguments: `{"path":"empty.txt"}`},
			{ID: "e1", Name: "edit_file", Arguments: `{"path":"a.txt","edits":[{"old":"three","new":"3"}]}`},
			{ID: "e2", Name: "edit_file", Arguments: `{"path":"a.txt","edits":[{"old":"two","new":"2"}],"dry_run":true}`},
			{ID: "w1", Name: "write_file", Arguments: `{"path":".","content":"x"}`},
		}},
		llmtest.Turn{Text: "done"},
	)
	cfg := writeConfig(t, dir, "provider: llamacpp\n")
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	if r := c.stopReason(c.prompt(sid, "files")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	us := c.updates(sid, from, -1)
	for call, want := range map[string]string{"r1": "failed", "r2": "failed", "r3": "completed", "r4": "completed", "e1": "failed", "e2": "completed", "w1": "failed"} {
		u := ofCall(us, call)
		if len(u) == 0 || u[len(u)-1]["status"] != want {
			t.Errorf("%s: want %s, got %v", call, want, u)
		}
	}
}
