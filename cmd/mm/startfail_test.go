package main_test

// What a first run that fails must still say (issue #10, found trying it
// as a user): the warnings that explain the failure, and with --json the
// result line whatever stops mm.

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// A misspelled key often is why nothing answers (baseURL for baseUrl): its
// warning comes before the engine error, on stderr and as a JSON event.
func TestWarningsBeforeAFailedStart(t *testing.T) {
	dir := t.TempDir()
	agentYAML(t, dir, "provider: llamacpp\nfallback: \"\"\nbaseURL: http://127.0.0.1:9/v1\n")
	env := []string{"AGENT_BASE_URL=http://127.0.0.1:1/v1"}
	warning := `line 3: unknown key "baseURL" (did you mean "baseUrl"?)`

	r := mm(t, dir, nil, env, "", "-p", "hi")
	w, e := strings.Index(r.stderr, warning), strings.Index(r.stderr, "[engine error:")
	if r.code != 3 || w < 0 || e < 0 || w > e {
		t.Errorf("exit %d; want the warning, then the engine error:\n%s", r.code, r.stderr)
	}

	r = mm(t, dir, nil, env, "", "-p", "hi", "--json")
	evs := jsonEvents(t, r.stdout)
	if len(evs) != 2 || evs[0]["type"] != "warning" || !strings.Contains(evs[0]["message"].(string), warning) || evs[1]["type"] != "result" {
		t.Errorf("events %v", evs)
	}

	// In the line mode too.
	r = mm(t, dir, nil, env, "")
	if r.code != 3 || !strings.Contains(r.stderr, warning) {
		t.Errorf("line mode: exit %d, stderr:\n%s", r.code, r.stderr)
	}
}

// The unknown key that causes a configuration error is named with it.
func TestWarningsBeforeAConfigError(t *testing.T) {
	dir := t.TempDir()
	agentYAML(t, dir, "lsp:\n  servers:\n    - name: go\n      comand: gopls\n      extensions: [\".go\"]\n")
	r := mm(t, dir, nil, nil, "", "-p", "hi")
	w := strings.Index(r.stderr, `unknown key "lsp.servers[0].comand" (did you mean "lsp.servers[0].command"?)`)
	e := strings.Index(r.stderr, "lsp.servers[0].command must not be empty")
	if r.code != 1 || w < 0 || e < 0 || w > e {
		t.Errorf("exit %d; want the warning, then the error:\n%s", r.code, r.stderr)
	}
}

// A stray argument after --json -p still ends with the result line.
func TestJSONStrayArgumentHasAResult(t *testing.T) {
	r := mm(t, t.TempDir(), nil, nil, "", "-p", "hi", "--json", "extra")
	evs := jsonEvents(t, r.stdout)
	if r.code != 2 || len(evs) != 1 || evs[0]["type"] != "result" || num(t, evs[0], "exit_code") != 2 {
		t.Errorf("exit %d, stdout %q", r.code, r.stdout)
	}
}

// A server loading its model is one notice in the JSON stream, not a
// progress event per retry with nothing in it.
func TestJSONLoadingServer(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	srv := llmtest.NewWith(t, llmtest.Options{Loading: 3}, llmtest.Turn{Text: "loaded"})
	r := mm(t, t.TempDir(), srv, nil, "", "-p", "hi", "--json")
	notices := 0
	for _, e := range jsonEvents(t, r.stdout) {
		switch e["type"] {
		case "progress":
			if num(t, e, "total") > 0 {
				continue // the server reading the prompt, once loaded
			}
			t.Errorf("a progress event while the model loads: %v", e)
		case "notice":
			notices++
		}
	}
	if r.code != 0 || notices != 1 {
		t.Errorf("exit %d, %d notices:\n%s", r.code, notices, r.stdout)
	}
}

// agentYAML writes dir/agent.yaml, the file mm reads without -c.
func agentYAML(t *testing.T, dir, yaml string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, "agent.yaml"), []byte(yaml), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A server still loading its model when mm starts tells no context window
// then; once loaded it does, and a conversation too long for it is not
// sent (the window is not kept unknown for the session).
func TestWindowAskedAgainAfterLoading(t *testing.T) {
	big := strings.Repeat("lorem ipsum dolor sit amet ", 1500)
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: 2048, Loading: 1}, llmtest.Turn{Text: "hello back"})
	r := mm(t, t.TempDir(), srv, nil, "hi\n"+big+"\n")
	if !strings.Contains(r.stdout, "hello back") || !strings.Contains(r.stdout, "mm did not send it") {
		t.Fatalf("exit %d, stdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	if n := len(srv.ChatRequests()); n != 2 {
		t.Errorf("%d chat requests, want the one answered 503 and the first question's", n)
	}
}
