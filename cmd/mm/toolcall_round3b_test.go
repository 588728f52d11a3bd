package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Replies from widened-threads-round3b.jsonl (issue #25) as a user of mm -p
// meets them: a ReAct step and a <tool_call> without a name are answered
// with a correction to the model, never run.

func correctedNotRun(t *testing.T, reply, wantInCorrection string) {
	t.Helper()
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{Text: reply},
		llmtest.Turn{Text: "Done."},
	)
	r := mm(t, dir, srv, nil, "", "-c", writeConfig(t, dir, noRetry), "-p", "make it")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.txt")); err == nil {
		t.Error("the call ran")
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests, want 2 (the correction sent back)", len(reqs))
	}
	if !strings.Contains(string(reqs[1].Body), wantInCorrection) {
		t.Errorf("the second request does not carry the correction %q:\n%s", wantInCorrection, reqs[1].Body)
	}
	if r.stdout != "Done.\n" {
		t.Errorf("stdout %q, stderr:\n%s", r.stdout, r.stderr)
	}
}

// A reply that ends with a ReAct step for a declared tool.
func TestReactStepIsCorrectedNotRun(t *testing.T) {
	correctedNotRun(t, "Thought: I will make it.\nAction: bash\nAction Input: {\"command\": \"touch bad.txt\"}", "ReAct")
}

// A Hermes call with its arguments and no name (helexa/cortex, Qwen3.6).
func TestNamelessToolCallIsCorrectedNotRun(t *testing.T) {
	correctedNotRun(t, "<tool_call>\n{\"arguments\":{\"command\":\"touch bad.txt\"}}\n</tool_call>", "no tool name")
}
