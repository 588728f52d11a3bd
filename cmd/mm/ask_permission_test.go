package main_test

import (
	"os"
	"testing"

	"mm/internal/llmtest"
)

// The permission prompt of an ask_agent call shows the whole task and
// whether the conversation goes with it, not only the task's first line
// in the summary: with its entry's yolo: true, the asked agent runs its
// own calls unasked, so this prompt is the only gate.
func TestAskAgentPermissionShowsTheWholeTask(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t, llmtest.Turn{Text: "Reviewed."})
	parentCfg, _ := askPair(t, dir, child, "", "description: reviews code\nyolo: true")
	// The parent asks before the call: yolo false in its own file.
	b, _ := os.ReadFile(parentCfg)
	os.WriteFile(parentCfg, append(b, "yolo: false\n"...), 0o644)
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"review the change\nthen delete the build directory","with_context":true}`),
		llmtest.Turn{Text: "Parent done."},
	)
	s := startREPL(t, dir, parent, nil, "-c", parentCfg)
	s.ask("go")
	s.expect("🔐 ask_agent reviewer (llamacpp/child-model) — review the change")
	s.expect("then delete the build directory")
	s.expect("(with this conversation: its questions, answers and tool calls)")
	s.expect("[a] allow once")
	s.answer("r")
	s.expect("Parent done.")
	s.expect("› ")
	s.send("\x04")
	s.exit()
	if n := len(child.ChatRequests()); n != 0 {
		t.Errorf("the refused ask reached the asked agent: %d requests", n)
	}
}
