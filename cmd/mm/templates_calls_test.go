package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Calls written in the chat-template formats of issue #25 (Command R's
// action list, Apertus' name-as-key list, Functionary's >>>recipient) run
// through the binary, and their markup does not reach stdout.
func TestTemplateFormatCallsRun(t *testing.T) {
	for _, tc := range []struct{ name, text string }{
		{"command_r", "<|START_THINKING|>I will create it.<|END_THINKING|><|START_ACTION|>[{\"tool_call_id\": \"0\", \"tool_name\": \"bash\", \"parameters\": {\"command\": \"touch made.txt\"}}]<|END_ACTION|>"},
		{"apertus", "<|tools_prefix|>[{\"bash\": {\"command\": \"touch made.txt\"}}]<|tools_suffix|>"},
		{"functionary", ">>>bash\n{\"command\": \"touch made.txt\"}"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			srv := llmtest.New(t, llmtest.Turn{Text: tc.text}, llmtest.Turn{Text: "Done."})
			r := mm(t, dir, srv, nil, "", "-p", "make it")
			if r.code != 0 {
				t.Fatalf("exit %d: %s", r.code, r.stderr)
			}
			if _, err := os.Stat(filepath.Join(dir, "made.txt")); err != nil {
				t.Errorf("the %s call did not run; stderr:\n%s", tc.name, r.stderr)
			}
			if r.stdout != "Done.\n" {
				t.Errorf("stdout = %q", r.stdout)
			}
		})
	}
}

// A reply that is only a pythonic call list naming a tool mm lacks runs
// nothing: the model is told which tools exist.
func TestTemplateFormatUnknownToolCorrected(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{Text: "[get_weather(city='San Francisco', metric='celsius')]"},
		llmtest.Turn{Text: "Sorry, I cannot check the weather."},
	)
	r := mm(t, dir, srv, nil, "", "-c", writeConfig(t, dir, noRetry), "-p", "weather?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) < 2 {
		t.Fatalf("%d requests: the unknown tool was not corrected; stdout %q", len(reqs), r.stdout)
	}
	b, _ := json.Marshal(reqs[1].JSON["messages"])
	if !strings.Contains(string(b), "get_weather") || !strings.Contains(string(b), "read_file") {
		t.Errorf("the correction does not name the tool and the tools: %s", b)
	}
}

// noRetry is the configuration of the tests of what a refused call's
// correction says: without the constrained retry (toolCallRetry, tested in
// retry_test.go), the correction is the next request.
const noRetry = "toolCallRetry: false\n"
