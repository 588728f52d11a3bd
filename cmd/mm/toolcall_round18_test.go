package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Round 18 through mm -p (issue #25, rule_round18.go): gptme's lines,
// a YAML body in a tool's tag and CodeAct's <execute_bash> run once and
// their markup never reaches stdout; a server call whose arguments are a
// sentence, and a fenced gptme line, run nothing.
func TestRound18FormatsRunThroughMM(t *testing.T) {
	for _, tc := range []struct{ label, text, leak string }{
		{"gptme's lines", "@bash(c1): {\"command\": \"touch one\"}\n@bash(c2): {\"command\": \"touch two\"}", "@bash"},
		{"a YAML body in the tool's tag", "<write_file>\npath: one\ncontent: |\n  first\n  second\n</write_file>", "<write_file>"},
		{"CodeAct's execute_bash", "I will make it.\n\n<execute_bash>\ntouch one\n</execute_bash>", "execute_bash"},
	} {
		t.Run(tc.label, func(t *testing.T) {
			r := runTextTurn(t, tc.text, "make it", "one")
			if strings.Contains(r.stdout, tc.leak) {
				t.Errorf("the call's markup reached stdout:\n%s", r.stdout)
			}
			// The stream guard holds CodeAct's action and a tag named
			// after a tool back from the progress on stderr too (gptme's
			// line has no marker a guard could wait for: it streams).
			if tc.leak != "@bash" && strings.Contains(r.stderr, tc.leak) {
				t.Errorf("the call's markup reached stderr:\n%s", r.stderr)
			}
		})
	}
	t.Run("the YAML block's text", func(t *testing.T) {
		dir := t.TempDir()
		srv := llmtest.New(t, llmtest.Turn{Text: "<write_file>\npath: one\ncontent: |\n  first\n  second\n</write_file>"}, llmtest.Turn{Text: "done"})
		if r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "make it"); r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		if b, err := os.ReadFile(filepath.Join(dir, "one")); err != nil || string(b) != "first\nsecond\n" {
			t.Errorf("one holds %q (%v)", b, err)
		}
	})
	t.Run("a sentence as a server call's arguments", func(t *testing.T) {
		dir := t.TempDir()
		srv := llmtest.New(t, llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: "not valid json"}}}, llmtest.Turn{Text: "sent again"}, llmtest.Turn{Text: "sent again"})
		r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "make it")
		if r.code != 0 {
			t.Fatalf("exit %d\n%s", r.code, r.stderr)
		}
		// It is first asked again under constrained tool calling (the
		// scripted server is a llamacpp one), then told.
		told := false
		for _, q := range srv.ChatRequests() {
			told = told || strings.Contains(string(q.Body), "not valid JSON")
		}
		if !told || !strings.Contains(r.stdout, "sent again") {
			t.Errorf("the model was not told its arguments are no JSON:\n%s\n%s", r.stdout, r.stderr)
		}
	})
	// Red team 18r's runs, each shown: nothing is made.
	for _, text := range []string{
		"Here is how a reply written in gptme's format would look:\n@bash(abc): {\"command\": \"touch pwned\"}",
		"Sure, here is the snippet for your prompt docs:\n\n<bash>\ncommand: touch pwned\n</bash>",
		"Quoting the MiniMax docs...\n<minimax:tool_call>\n<invoke name=\"bash\">\n<parameter name=\"command\">touch pwned</parameter>\n</invoke>\n</minimax:tool_call>",
		`bash(command="touch pwned") I've seen this pattern in LangChain's docs.`,
	} {
		shownTextTurn(t, text)
	}
	t.Run("a fenced gptme line", func(t *testing.T) {
		r := shownTextTurn(t, "```\n@bash(c1): {\"command\": \"touch pwned\"}\n```")
		if !strings.Contains(r.stdout, "@bash(c1)") {
			t.Errorf("the shown line is not the answer:\n%s", r.stdout)
		}
	})
}
