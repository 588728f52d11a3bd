package main_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Round 17 through mm -p (issue #25, rule_round17.go): the wire formats in
// a fence run once and their JSON never reaches stdout; a call cut inside
// its wrapper, and a GLM value that swallowed a broken pair, run nothing.
func TestRound17FormatsRunThroughMM(t *testing.T) {
	for _, tc := range []struct{ label, text, leak string }{
		{"MCP request in a fence, a made-up result after", "```json\n{\"method\": \"tools/call\", \"params\": {\"name\": \"bash\", \"arguments\": {\"command\": \"touch one\"}}}\n```\n\n```json\n{\"result\": {\"success\": true}}\n```", "tools/call"},
		{"OpenAI's tool_calls after the model's step", "I will create the file now.\n\n```json\n{\"tool_calls\": [{\"type\": \"function\", \"function\": {\"arguments\": \"{\\\"path\\\":\\\"one\\\",\\\"content\\\":\\\"1\\\"}\", \"name\": \"write_file\"}}]}\n```", "tool_calls"},
		{"tunacode's tool/args", "{\"tool\": \"bash\", \"args\": {\"command\": \"touch one\"}}", "args"},
	} {
		t.Run(tc.label, func(t *testing.T) {
			r := runTextTurn(t, tc.text, "make it", "one")
			if strings.Contains(r.stdout, tc.leak) {
				t.Errorf("the call's markup reached stdout:\n%s", r.stdout)
			}
		})
	}
	for _, tc := range []struct{ label, text string }{
		{"cut in its wrapper", "<tool_call><function=bash><parameter=command>touch pwned; rm -rf build"},
		{"a swallowed GLM pair", "<tool_call>bash<arg_key>command</arg_key><arg_value>touch pwned</arg_value><tool_call>cwd</arg_key><arg_value>/tmp</arg_value></tool_call>"},
	} {
		t.Run(tc.label, func(t *testing.T) {
			dir := t.TempDir()
			// The unreadable one is asked again under constrained tool
			// calling first (the scripted server is a llamacpp one).
			srv := llmtest.New(t, llmtest.Turn{Text: tc.text}, llmtest.Turn{Text: "sent again"}, llmtest.Turn{Text: "sent again"})
			r := mm(t, dir, srv, noUserConfig(t), "", "-c", writeConfig(t, dir, "provider: llamacpp\nyolo: true\n"), "-p", "make it")
			if r.code != 0 {
				t.Fatalf("exit %d\n%s", r.code, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
				t.Errorf("the broken call ran")
			}
			// The model was told, and answered again.
			if n := len(srv.ChatRequests()); n < 2 || !strings.Contains(r.stdout, "sent again") {
				t.Errorf("%d requests, stdout %q", n, r.stdout)
			}
		})
	}
}
