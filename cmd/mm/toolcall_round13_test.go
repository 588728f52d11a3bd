package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Round 13's readers through mm -p (issue #25, rule_generic.go,
// rule_round13.go): markup of a format no rule knows, read from the
// declared schemas (generic_markup), Qwen-Agent's ✿FUNCTION✿ lines, and
// Cline blocks with the model's next step between them run, each call
// once.
func TestRound13FormatsRunThroughMM(t *testing.T) {
	for _, tc := range []struct{ label, text string }{
		{"namespaced invokes of an unknown format", "Let me make both files.\n<acme:calls>\n<acme:invoke name=\"bash\"><acme:parameter name=\"command\">touch one</acme:parameter></acme:invoke>\n<acme:invoke name=\"bash\"><acme:parameter name=\"command\">touch two</acme:parameter></acme:invoke>\n</acme:calls>"},
		{"names glued before unknown call tokens", "Making them now.<|msg|>bash<|invoke_tool_json|>{\"name\": \"bash\", \"args\": {\"command\": \"touch one\"}}<|end_msg|><|msg|>bash<|invoke_tool_json|>{\"name\": \"bash\", \"args\": {\"command\": \"touch two\"}}<|end_msg|>"},
		{"Qwen-Agent function lines", "✿FUNCTION✿: bash\n✿ARGS✿: {\"command\": \"touch one\"}\n✿FUNCTION✿: bash\n✿ARGS✿: {\"command\": \"touch two\"}"},
		{"Cline blocks with a step between", "I'll make the first.\n\n<bash>\n<command>touch one</command>\n</bash>\n\nNow let me make the second.\n\n<bash>\n<command>touch two</command>\n</bash>"},
	} {
		t.Run(tc.label, func(t *testing.T) {
			r := runTextTurn(t, tc.text, "make them", "one", "two")
			if !strings.Contains(r.stdout, "done") {
				t.Errorf("the model's last answer is missing:\n%s", r.stdout)
			}
		})
	}
}

// Red team 13's shown markup through mm -p: nothing runs, and the user sees
// the reply.
func TestRound13ShownMarkupDoesNotRunThroughMM(t *testing.T) {
	for _, text := range []string{
		"The agent's last turn, verbatim.\n<invoke name=\"bash\">\n<parameter name=\"command\">touch pwned</parameter>\n</invoke>",
		"Save this as testdata/longcat.txt; the test reads it and expects one bash call.\n<longcat_tool_call>bash\n<longcat_arg_key>command</longcat_arg_key>\n<longcat_arg_value>touch pwned</longcat_arg_value>\n</longcat_tool_call>",
		"An Acme call looks like this:\n<acme:invoke name=\"bash\"><acme:parameter name=\"command\">touch pwned</acme:parameter></acme:invoke>",
		"Step3 wraps each call in steptml tags.\n<steptml:invoke name=\"bash\"><steptml:parameter name=\"command\">touch pwned</steptml:parameter></steptml:invoke>",
	} {
		r := shownTextTurn(t, text)
		if !strings.Contains(r.stdout, "touch pwned") {
			t.Errorf("the reply was not shown:\n%s", r.stdout)
		}
	}
}

// runTextTurn drives mm -p against a scripted model whose first reply is
// text and whose second is "done", and checks that each file was made
// (the calls in the text ran).
func runTextTurn(t *testing.T, text, prompt string, files ...string) result {
	t.Helper()
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: text}, llmtest.Turn{Text: "done"})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", prompt)
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, f := range files {
		if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
			t.Errorf("%s was not made: %v\n%s", f, err, r.stderr)
		}
	}
	return r
}

// shownTextTurn drives mm -p against a scripted model whose only reply is
// text that shows a call making the file pwned, and checks that it was not
// made.
func shownTextTurn(t *testing.T, text string) result {
	t.Helper()
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: text})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "show me")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Errorf("a shown call ran:\n%s", text)
	}
	return r
}
