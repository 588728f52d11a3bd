package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Calls written as text in gpt-oss harmony, Seed-OSS and Qwen3-Coder markup,
// as a user of mm -p meets them (issue #25; the corpus cases are in
// internal/toolcall/testdata/widened-harmony-qwen-seed-hermes.jsonl).

// A gpt-oss reply that starts right after the prompt's <|start|>assistant:
// the recipient, then the analysis channel. It is a call, and no harmony
// token reaches the terminal.
func TestHarmonyCallAfterThePromptRuns(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{Text: ` to=functions.bash<|channel|>analysis <|constrain|>json<|message|>{"command":"touch made.txt"}`},
		llmtest.Turn{Text: "Done."},
	)
	r := mm(t, dir, srv, nil, "", "-p", "make it")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Error("the harmony call did not run")
	}
	if r.stdout != "Done.\n" || strings.Contains(r.stderr, "<|") {
		t.Errorf("stdout %q, stderr:\n%s", r.stdout, r.stderr)
	}
}

// A call Seed-OSS writes inside <seed:think> is reasoning: it does not run,
// and the answer after it is the answer.
func TestSeedThinkCallDoesNotRun(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{Text: "<seed:think>It would be <seed:tool_call>\n<function=bash>\n<parameter=command>\ntouch bad.txt\n</parameter>\n</function>\n</seed:tool_call> but the user only asks.</seed:think>Run touch yourself."},
	)
	r := mm(t, dir, srv, nil, "", "-p", "how do I make it?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "bad.txt")); err == nil {
		t.Error("a call inside <seed:think> ran")
	}
	if !strings.Contains(r.stdout, "Run touch yourself.") {
		t.Errorf("stdout %q", r.stdout)
	}
	if n := len(srv.ChatRequests()); n != 1 {
		t.Errorf("%d requests, want 1 (nothing to send back)", n)
	}
}

// A write_file whose content documents the Qwen3-Coder markup is one call:
// the file gets the whole content and the example inside it does not run.
func TestWriteFileHoldingCallMarkupKeepsItsContent(t *testing.T) {
	dir := t.TempDir()
	inner := "<tool_call>\n<function=bash>\n<parameter=command>\ntouch ran.txt\n</parameter>\n</function>\n</tool_call>"
	srv := llmtest.New(t,
		llmtest.Turn{Text: "<tool_call>\n<function=write_file>\n<parameter=path>\ncalls.md\n</parameter>\n<parameter=content>\nA call reads:\n" + inner + "\n</parameter>\n</function>\n</tool_call>"},
		llmtest.Turn{Text: "Written."},
	)
	r := mm(t, dir, srv, nil, "", "-p", "document the format")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	got, err := os.ReadFile(filepath.Join(dir, "calls.md"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "A call reads:\n" + inner; strings.TrimSuffix(string(got), "\n") != want {
		t.Errorf("calls.md = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(dir, "ran.txt")); err == nil {
		t.Error("the example inside the file's content ran")
	}
}
