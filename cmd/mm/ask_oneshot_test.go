package main_test

import (
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// A parent mm -p asks a child mm (its own config and server) through
// ask_agent: the child's answer is the tool result, its activity is on
// stderr, the parent's answer alone on stdout.
func TestAskAgentOneshot(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{Reasoning: "The child thinks.", Text: "Let me look.", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo from-child"}`}}},
		llmtest.Turn{Text: "Child answer: all good."},
	)
	parentCfg, _ := askPair(t, dir, child, "", "description: reviews code\nyolo: true")
	parent := llmtest.New(t,
		askCall(`{"agent":"reviewer","prompt":"review the code\nplease"}`),
		llmtest.Turn{Text: "Parent done."},
	)
	r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if r.stdout != "Parent done.\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	for _, want := range []string{
		"🗣 ask_agent: reviewer (llamacpp/child-model) — review the code",
		"The child thinks.",
		"Let me look.",
		"🛠️ reviewer · Run `echo from-child`",
		"   from-child",
		"Child answer: all good.",
	} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
	reqs := parent.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d parent requests", len(reqs))
	}
	if got := askResult(t, reqs[1]); got != "Child answer: all good." {
		t.Errorf("tool result = %q", got)
	}
	// The tool's description lists the agent with its role.
	if !strings.Contains(string(reqs[0].Body), `Agents:\n reviewer — reviews code`) {
		t.Errorf("ask_agent description:\n%s", reqs[0].Body)
	}
	creqs := child.ChatRequests()
	if len(creqs) != 2 {
		t.Fatalf("%d child requests", len(creqs))
	}
	if got := lastUser(t, creqs[0]); got != "review the code\nplease" {
		t.Errorf("the child was asked %q", got)
	}
}
