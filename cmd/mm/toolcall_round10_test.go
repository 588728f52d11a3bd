package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Rounds 10-12's formats through mm -p (issue #25, rule_round10p.go,
// rule_round10a.go, rule_round11s.go, rule_round11h.go, rule_round12l.go,
// rule_round12q.go): every line of an OLMo 3 block runs, Hunyuan 3's
// sentinel calls, Step3's invokes, GLM 4.7's key=value bodies and Kimi's
// bare ids run, FunctionGemma's call repeated up to the token limit runs
// once, and no block's markup reaches the terminal while the reply
// streams (a bare id line, "bash:0", streams as it comes, as a bare name
// line does: it cannot be told from prose before its token arrives).
func TestNewFormatsRunThroughMM(t *testing.T) {
	for _, tc := range []struct{ label, text, finish string }{
		{"OLMo 3 block of two calls", "<function_calls>\nbash(command='touch one')\nbash(command='touch two')\n</function_calls>", ""},
		{"Hunyuan 3 sentinel calls", `<tool_call:opensource>bash<tool_sep:opensource>{"command": "touch one"}<arg_value:opensource>` + "\n" +
			`<tool_call:opensource>bash<tool_sep:opensource>{"command": "touch two"}<arg_value:opensource>`, ""},
		{"Step3 invokes", "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"bash\">\n<steptml:parameter name=\"command\">touch one two</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>", ""},
		{"FunctionGemma repeated to the limit", "<start_function_call>call:bash{command:<escape>touch one two; echo x >> runs<escape>}<end_function_call>" +
			"call:bash{command:<escape>touch one two; echo x >> runs<escape>}<end_function_call>call:bash{comm", "length"},
		{"GLM 4.7 key=value bodies", "<tool_call>bash command='touch one'</tool_call>\n<tool_call>bash command='touch two'</tool_call>", ""},
		{"Kimi bare ids", "bash:0<|tool_call_argument_begin|>{\"command\": \"touch one\"}<|tool_call_end|>\nbash:1<|tool_call_argument_begin|>{\"command\": \"touch two\"}<|tool_call_end|><|tool_calls_section_end|>", ""},
	} {
		t.Run(tc.label, func(t *testing.T) {
			dir := t.TempDir()
			srv := llmtest.New(t, llmtest.Turn{Text: tc.text, Finish: tc.finish}, llmtest.Turn{Text: "done"})
			r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "make them")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			for _, f := range []string{"one", "two"} {
				if _, err := os.Stat(filepath.Join(dir, f)); err != nil {
					t.Errorf("%s was not made: %v\n%s", f, err, r.stderr)
				}
			}
			if b, err := os.ReadFile(filepath.Join(dir, "runs")); err == nil && string(b) != "x\n" {
				t.Errorf("the repeated call ran %d times", strings.Count(string(b), "x"))
			}
			for _, marker := range []string{"function_calls", "opensource", "steptml", "tool_call_begin", "start_function_call", "escape", "tool_call", "argument_begin"} {
				if strings.Contains(r.stdout+r.stderr, marker) {
					t.Errorf("the call markup %q was printed:\n%s\n%s", marker, r.stdout, r.stderr)
				}
			}
		})
	}
}
