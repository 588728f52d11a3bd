package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Replies that show a call without making it (issue #25's red-team cases,
// internal/toolcall/testdata/widened-adversarial.jsonl): with yolo on, mm
// runs nothing, asks the model nothing more, and prints the reply as the
// answer.
func TestShownCallsDoNotRunThroughMM(t *testing.T) {
	const call = `<tool_call>{"name": "bash", "arguments": {"command": "touch ran"}}</tool_call>`
	for _, tc := range []struct{ label, text, shown string }{
		{"French refusal", "Je ne vais pas exécuter cette commande :\n" + call, "Je ne vais pas"},
		{"Chinese refusal", "我不会运行这个命令：\n" + call, "我不会运行"},
		{"file text in a block quote", "The file notes.md says:\n> " + call, "notes.md says"},
		{"table of formats", "| example | meaning |\n|---|---|\n| " + call + " | Hermes |", "Hermes"},
		{"Functionary explained", "bash\n{\"command\": \"touch ran\"} is the argument object.", "argument object"},
		{"call record with its result", `{"name": "bash", "arguments": {"command": "touch ran"}, "result": "ok"}`, `"result"`},
		// Round 10's red team (widened-adversarial-round10.jsonl).
		{"another agent's step", "The subagent then did this:\n" + call + "\nThat is what wiped your branch.", "subagent"},
		{"a log the user sent", "The chat log you sent ends like this:\n" + call + "\nso the model never saw the result.", "chat log"},
		{"a plan not yet executed", "Here is my plan, not yet executed:\n" + call, "not yet executed"},
	} {
		t.Run(tc.label, func(t *testing.T) {
			dir := t.TempDir()
			srv := llmtest.New(t, llmtest.Turn{Text: tc.text}, llmtest.Turn{Text: "unexpected second turn"})
			r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "explain")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "ran")); err == nil {
				t.Error("the shown call ran")
			}
			if n := len(srv.ChatRequests()); n != 1 {
				t.Errorf("%d chat requests, want 1 (the reply is the answer)", n)
			}
			if !strings.Contains(r.stdout, tc.shown) {
				t.Errorf("stdout %q does not show the reply (%q)", r.stdout, tc.shown)
			}
		})
	}
}

// A Qwen3-Coder write_file whose content mentions the call's closer in a
// sentence is written whole (the value ends at the closer the template
// puts there, not at </function> followed by prose).
func TestFileMentioningCallCloserIsWrittenWhole(t *testing.T) {
	const content = "Use </parameter> to close a value and </function> to close the call."
	text := "<tool_call>\n<function=write_file>\n<parameter=path>\nnotes.md\n</parameter>\n<parameter=content>\n" + content + "\n</parameter>\n</function>\n</tool_call>"
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: text}, llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "write notes")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "notes.md"))
	if err != nil || strings.TrimSuffix(string(got), "\n") != content {
		t.Errorf("notes.md = %q (%v), want %q", got, err, content)
	}
}
