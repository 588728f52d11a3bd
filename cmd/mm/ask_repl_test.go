package main_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// The line mode: the asked agent's work scrolls in the turn, its
// permission request comes up here and is answered with a key; the
// /ask commands ask it directly and the exchange joins the history.
func TestAskAgentREPL(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		llmtest.Turn{Reasoning: "Child reasoning.", Text: "Making it.", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"touch made.txt && echo touched"}`}}},
		llmtest.Turn{Text: "Made it."},
		llmtest.Turn{Text: "Child says hi."},
		llmtest.Turn{Text: "A summary."},
	)
	parentCfg, _ := askPair(t, dir, child, "", "description: reviews code\nyolo: false")
	parent := llmtest.New(t,
		call("ask_agent", `{"agent":"reviewer","prompt":"make the file"}`),
		llmtest.Turn{Text: "Parent done."},
		llmtest.Turn{Text: "Parent again."},
	)
	s := startREPL(t, dir, parent, nil, "-c", parentCfg)
	s.ask("go")
	s.expect("🗣 ask_agent: reviewer (llamacpp/child-model) — make the file")
	s.expect("Child reasoning.")
	s.expect("Making it.")
	s.expect("🛠️ reviewer · Run `touch made.txt && echo touched`")
	s.expect("🔐 reviewer asks: Run `touch made.txt && echo touched`")
	s.expect("[a] allow once")
	s.answer("a")
	s.expect("allowed once")
	s.expect("   touched")
	s.expect("Made it.")
	s.expect("reviewer answered (8 characters)")
	s.expect("Parent done.")
	if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
		t.Errorf("the allowed call did not run: %v", err)
	}
	if got := askResult(t, parent.ChatRequests()[1]); got != "Made it." {
		t.Errorf("tool result %q", got)
	}

	s.ask("/ask-reviewer what now?")
	s.expect("🗣 ask_agent: reviewer (llamacpp/child-model) — what now?")
	s.expect("Child says hi.")
	// The lines an ask_agent call ends with: the answered line, then the
	// turn's summary (the time the ask took).
	s.expect("reviewer answered (14 characters)")
	s.expect("s")
	if tail := s.text()[:s.mark]; !regexp.MustCompile(`reviewer answered \(14 characters\)\s+[0-9]+\.[0-9]s$`).MatchString(tail) {
		t.Errorf("no summary line after the /ask answer:\n%q", tail[max(0, len(tail)-200):])
	}
	s.ask("and?")
	s.expect("Parent again.")
	reqs := parent.ChatRequests()
	body := string(reqs[len(reqs)-1].Body)
	if !strings.Contains(body, `{"role":"user","content":"/ask-reviewer what now?"},{"role":"assistant","content":"reviewer answered:\nChild says hi."}`) {
		t.Errorf("the /ask exchange is not in the history:\n%s", body)
	}

	s.ask("/ask-with-context-reviewer summarize")
	s.expect("A summary.")
	creqs := child.ChatRequests()
	got := lastUser(t, creqs[len(creqs)-1])
	for _, want := range []string{"User: go\n", "Tool call: ask_agent ", "Assistant: Parent done.", "User: /ask-reviewer what now?", "Assistant: reviewer answered:\nChild says hi.", "The task:\nsummarize"} {
		if !strings.Contains(got, want) {
			t.Errorf("with context, the child read no %q:\n%s", want, got)
		}
	}
	s.ask("/help")
	s.expect("/ask-NAME")
	s.send("\x04")
	s.exit()
}
