package main_test

// The constrained retry of a broken tool call (docs/tool-calls.md, "Asking
// again with constrained tool calling"), through `mm -p` against the
// scripted server.

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// brokenRead is a read_file call that cannot be repaired: its required
// path is missing (the correction names it), so nothing of the reply runs.
func brokenRead() llmtest.Turn {
	return llmtest.Turn{Text: "Let me read it.", ToolCalls: []llmtest.ToolCall{{ID: "broken1", Name: "read_file", Arguments: `{"line": 1}`}}}
}

const retryNotice = "· the read_file call could not be repaired; asking again with constrained tool calling"

// toolNames are the names of a request's declared tools.
func toolNames(r llmtest.Request) []string {
	var names []string
	tools, _ := r.JSON["tools"].([]any)
	for _, t := range tools {
		f, _ := t.(map[string]any)["function"].(map[string]any)
		name, _ := f["name"].(string)
		names = append(names, name)
	}
	return names
}

// toolsBytes is the "tools" member of a request body, as sent.
func toolsBytes(t *testing.T, b []byte) string {
	t.Helper()
	i := bytes.Index(b, []byte(`"tools":`))
	j := bytes.Index(b, []byte(`,"stream":`))
	if k := bytes.Index(b, []byte(`,"tool_choice":`)); k > i {
		j = k
	}
	if i < 0 || j < i {
		t.Fatalf("no tools in %s", b)
	}
	return string(b[i:j])
}

// retryMessages is the "messages" member of a request, re-encoded.
func retryMessages(r llmtest.Request) []string {
	var out []string
	ms, _ := r.JSON["messages"].([]any)
	for _, m := range ms {
		b, _ := json.Marshal(m)
		out = append(out, string(b))
	}
	return out
}

func retryDir(t *testing.T) string {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "main.go"), "package main\n")
	return dir
}

func TestToolCallRetry(t *testing.T) {
	// A broken call, the retry with tool_choice "required" and the same
	// tools (the server's cache keeps the prompt), whose valid call runs;
	// the history keeps the retry's reply, and the next request is a
	// normal one: the tools byte for byte those of the first, no
	// tool_choice.
	t.Run("saved", func(t *testing.T) {
		dir := retryDir(t)
		srv := llmtest.New(t, brokenRead(),
			llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "good1", Name: "read_file", Arguments: `{"path":"main.go"}`}}},
			llmtest.Turn{Text: "It is a main package."},
		)
		r := mm(t, dir, srv, nil, "", "-p", "show main.go")
		if r.code != 0 || r.stdout != "It is a main package.\n" {
			t.Fatalf("exit %d stdout %q\n%s", r.code, r.stdout, r.stderr)
		}
		reqs := srv.ChatRequests()
		if len(reqs) != 3 {
			t.Fatalf("%d requests:\n%s", len(reqs), r.stderr)
		}
		if reqs[1].JSON["tool_choice"] != "required" || toolsBytes(t, reqs[1].Body) != toolsBytes(t, reqs[0].Body) {
			t.Errorf("the retry: tool_choice %v, tools %v", reqs[1].JSON["tool_choice"], toolNames(reqs[1]))
		}
		// The grammar is one read_file call: the tool the broken call
		// named, with read_file's own schema.
		if got := retrySchemaTools(t, reqs[1]); strings.Join(got, ",") != "read_file" {
			t.Errorf("the retry's response_format is for %v, want read_file: %s", got, reqs[1].Body)
		}
		if _, ok := reqs[0].JSON["response_format"]; ok {
			t.Errorf("the first request has a response_format")
		}
		if _, ok := reqs[2].JSON["response_format"]; ok {
			t.Errorf("the next request has a response_format")
		}
		// Its answer is bounded by the broken one's size (never past
		// max_tokens).
		if n, _ := reqs[1].JSON["max_tokens"].(float64); n <= 0 || n >= 4096 || reqs[0].JSON["max_tokens"] != 4096.0 {
			t.Errorf("the retry's max_tokens %v (the first request's %v)", reqs[1].JSON["max_tokens"], reqs[0].JSON["max_tokens"])
		}
		// The retry is the first request asked again: its messages are
		// the same.
		if strings.Join(retryMessages(reqs[1]), "\n") != strings.Join(retryMessages(reqs[0]), "\n") {
			t.Errorf("the retry's messages differ:\n%s\n%s", reqs[0].Body, reqs[1].Body)
		}
		for _, i := range []int{0, 2} {
			if _, ok := reqs[i].JSON["tool_choice"]; ok {
				t.Errorf("request %d has a tool_choice: %s", i+1, reqs[i].Body)
			}
		}
		if toolsBytes(t, reqs[2].Body) != toolsBytes(t, reqs[0].Body) {
			t.Errorf("the next request's tools are not the first one's")
		}
		m0, m2 := retryMessages(reqs[0]), retryMessages(reqs[2])
		if len(m2) != len(m0)+2 || strings.Join(m2[:len(m0)], "\n") != strings.Join(m0, "\n") {
			t.Fatalf("the next request does not extend the first:\n%s\n%s", reqs[0].Body, reqs[2].Body)
		}
		if !strings.Contains(m2[len(m0)], `"id":"good1"`) || strings.Contains(string(reqs[2].Body), "broken1") || strings.Contains(m2[len(m0)], "Let me read it.") {
			t.Errorf("the history does not keep the retry's reply in place of the broken one: %s", m2[len(m0)])
		}
		if !strings.Contains(m2[len(m0)+1], `package main`) {
			t.Errorf("the call did not run: %s", m2[len(m0)+1])
		}
		if strings.Count(r.stderr, retryNotice) != 1 || strings.Contains(r.stderr, "tool call not run") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
	})

	// Broken again: the corrections go to the model exactly as without a
	// retry, and there is no second retry.
	t.Run("still broken", func(t *testing.T) {
		dir := retryDir(t)
		srv := llmtest.New(t, brokenRead(), brokenRead(), llmtest.Turn{Text: "Sorry."})
		r := mm(t, dir, srv, nil, "", "-p", "show main.go")
		if r.code != 0 || r.stdout != "Sorry.\n" {
			t.Fatalf("exit %d stdout %q\n%s", r.code, r.stdout, r.stderr)
		}
		reqs := srv.ChatRequests()
		if len(reqs) != 3 || reqs[1].JSON["tool_choice"] != "required" {
			t.Fatalf("%d requests:\n%s", len(reqs), r.stderr)
		}
		if _, ok := reqs[2].JSON["tool_choice"]; ok {
			t.Errorf("the corrections' request has a tool_choice")
		}
		if !strings.Contains(r.stderr, retryNotice) || strings.Count(r.stderr, "· tool call not run: ") != 1 {
			t.Errorf("stderr:\n%s", r.stderr)
		}
		// The same run without the retry sends the same request.
		cfg := writeConfig(t, dir, "toolCallRetry: false\n")
		off := llmtest.New(t, brokenRead(), llmtest.Turn{Text: "Sorry."})
		r2 := mm(t, dir, off, nil, "", "-c", cfg, "-p", "show main.go")
		o := off.ChatRequests()
		if r2.code != 0 || len(o) != 2 || strings.Contains(r2.stderr, "constrained") {
			t.Fatalf("toolCallRetry: false: exit %d, %d requests\n%s", r2.code, len(o), r2.stderr)
		}
		if !bytes.Equal(o[1].Body, reqs[2].Body) {
			t.Errorf("the corrections' request differs from the one without a retry:\n%s\n%s", o[1].Body, reqs[2].Body)
		}
	})

	// The retry fails (HTTP 500): the same fallback.
	t.Run("server error", func(t *testing.T) {
		dir := retryDir(t)
		srv := llmtest.New(t, brokenRead(), llmtest.Turn{Fault: llmtest.FaultHTTP500}, llmtest.Turn{Text: "Sorry."})
		r := mm(t, dir, srv, nil, "", "-p", "show main.go")
		reqs := srv.ChatRequests()
		if r.code != 0 || len(reqs) != 3 || r.stdout != "Sorry.\n" {
			t.Fatalf("exit %d, %d requests, stdout %q\n%s", r.code, len(reqs), r.stdout, r.stderr)
		}
		last := retryMessages(reqs[2])
		if !strings.Contains(last[len(last)-1], "[Tool call not run: ") || strings.Contains(r.stderr, "engine error") {
			t.Errorf("last message %s\n%s", last[len(last)-1], r.stderr)
		}
	})

	// A call of no declared tool: the notice names none.
	t.Run("unknown tool", func(t *testing.T) {
		dir := retryDir(t)
		srv := llmtest.New(t,
			llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "open_file_please", Arguments: `{"path":"main.go"}`}}},
			llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Arguments: `{"path":"main.go"}`}}},
			llmtest.Turn{Text: "Done."},
		)
		r := mm(t, dir, srv, nil, "", "-p", "show main.go")
		reqs := srv.ChatRequests()
		if r.code != 0 || len(reqs) != 3 {
			t.Fatalf("exit %d, %d requests\n%s", r.code, len(reqs), r.stderr)
		}
		if reqs[1].JSON["tool_choice"] != "required" || toolsBytes(t, reqs[1].Body) != toolsBytes(t, reqs[0].Body) {
			t.Errorf("the retry: tool_choice %v, tools %v", reqs[1].JSON["tool_choice"], toolNames(reqs[1]))
		}
		if !strings.Contains(r.stderr, "· the tool call could not be repaired; asking again with constrained tool calling") {
			t.Errorf("stderr:\n%s", r.stderr)
		}
		// No tool named: the grammar allows a call of any declared tool.
		if got, want := retrySchemaTools(t, reqs[1]), toolNames(reqs[0]); strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("the retry's response_format is for %v, want every tool %v", got, want)
		}
	})

	// No retry: an Ollama server (its tool_choice is no grammar), a
	// reply cut by max_tokens.
	t.Run("ollama", func(t *testing.T) {
		dir := retryDir(t)
		srv := llmtest.NewWith(t, llmtest.Options{Provider: "ollama"}, brokenRead(), llmtest.Turn{Text: "Sorry."})
		r := mm(t, dir, nil, []string{"AGENT_PROVIDER=ollama", "AGENT_BASE_URL=" + srv.URL()}, "", "-p", "show main.go")
		if reqs := srv.ChatRequests(); r.code != 0 || len(reqs) != 2 || strings.Contains(r.stderr, "constrained") || bytes.Contains(reqs[1].Body, []byte("tool_choice")) {
			t.Fatalf("exit %d, %d requests\n%s", r.code, len(reqs), r.stderr)
		}
	})
	t.Run("length", func(t *testing.T) {
		dir := retryDir(t)
		cut := brokenRead()
		cut.Finish = "length"
		srv := llmtest.New(t, cut, llmtest.Turn{Text: "Sorry."})
		r := mm(t, dir, srv, nil, "", "-p", "show main.go")
		reqs := srv.ChatRequests()
		if r.code != 0 || len(reqs) != 2 || strings.Contains(r.stderr, "constrained") || bytes.Contains(reqs[1].Body, []byte("tool_choice")) {
			t.Fatalf("exit %d, %d requests\n%s", r.code, len(reqs), r.stderr)
		}
	})

	// --json: the notice is a notice event.
	t.Run("json", func(t *testing.T) {
		dir := retryDir(t)
		srv := llmtest.New(t, brokenRead(),
			llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "read_file", Arguments: `{"path":"main.go"}`}}},
			llmtest.Turn{Text: "Done."},
		)
		r := mm(t, dir, srv, nil, "", "--json", "-p", "show main.go")
		want := `{"type":"notice","message":"the read_file call could not be repaired; asking again with constrained tool calling"}`
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Errorf("exit %d, no %s in:\n%s", r.code, want, r.stdout)
		}
	})
}

// Ctrl-C during the retry stops the turn like any request: exit 130, no
// further request.
func TestToolCallRetryInterrupt(t *testing.T) {
	dir := retryDir(t)
	srv := llmtest.New(t, brokenRead(), llmtest.Turn{Fault: llmtest.FaultHangAfterHeaders}, llmtest.Turn{Text: "never"})
	cmd := exec.Command(mmBin, "-p", "show main.go")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for len(srv.ChatRequests()) < 2 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if reqs := srv.ChatRequests(); len(reqs) < 2 || reqs[1].JSON["tool_choice"] != "required" {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("no retry:\n%s", errb.String())
	}
	cmd.Process.Signal(os.Interrupt)
	err := cmd.Wait()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 130 {
		t.Errorf("exit: %v\n%s", err, errb.String())
	}
	if !strings.Contains(errb.String(), "[interrupted]") {
		t.Errorf("stderr: %s", errb.String())
	}
	if n := len(srv.ChatRequests()); n != 2 {
		t.Errorf("%d model calls", n)
	}
}

// retrySchemaTools are the tool names the retry's response_format allows:
// the const of "name" in its call schema, or in each of its oneOf.
func retrySchemaTools(t *testing.T, r llmtest.Request) []string {
	t.Helper()
	rf, _ := r.JSON["response_format"].(map[string]any)
	js, _ := rf["json_schema"].(map[string]any)
	schema, _ := js["schema"].(map[string]any)
	if rf["type"] != "json_schema" || schema == nil {
		t.Fatalf("no json_schema response_format in %s", r.Body)
	}
	alts := []any{schema}
	if one, ok := schema["oneOf"].([]any); ok {
		alts = one
	}
	var names []string
	for _, a := range alts {
		m, _ := a.(map[string]any)
		props, _ := m["properties"].(map[string]any)
		name, _ := props["name"].(map[string]any)
		if _, ok := props["arguments"].(map[string]any); !ok {
			t.Errorf("no arguments schema in %v", m)
		}
		n, _ := name["const"].(string)
		names = append(names, n)
	}
	return names
}
