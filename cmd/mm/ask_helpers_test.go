package main_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// askPair writes a child agent's config (its own scripted server) and a
// parent config whose mmConfigs names it, in dir. extraChild and
// entry are added to the child's file and to the parent's entry.
func askPair(t testing.TB, dir string, child *llmtest.Server, childYAML, entry string) (parentCfg, childCfg string) {
	t.Helper()
	childCfg = filepath.Join(dir, "child.yaml")
	body := fmt.Sprintf("provider: llamacpp\nbaseUrl: %s\nmodel: child-model\nacp:\n  name: reviewer\n%s", child.URL(), childYAML)
	if err := os.WriteFile(childCfg, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	if entry == "" {
		entry = "description: reviews code"
	}
	parentCfg = filepath.Join(dir, "parent.yaml")
	var b strings.Builder
	fmt.Fprintf(&b, "provider: llamacpp\nmmConfigs:\n  reviewer:\n    path: child.yaml\n")
	for _, l := range strings.Split(strings.TrimSpace(entry), "\n") {
		fmt.Fprintf(&b, "    %s\n", l)
	}
	if err := os.WriteFile(parentCfg, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return parentCfg, childCfg
}

// askCall is a scripted ask_agent call.
func askCall(args string) llmtest.Turn {
	return llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "ask_agent", Arguments: args}}}
}

// toolResult is the content of the last tool message of a request.
func askResult(t *testing.T, req llmtest.Request) string {
	t.Helper()
	msgs, _ := req.JSON["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if m["role"] == "tool" {
			s, _ := m["content"].(string)
			return s
		}
	}
	t.Fatalf("no tool message in %s", req.Body)
	return ""
}

// lastUser is the content of the last user message of a request.
func lastUser(t *testing.T, req llmtest.Request) string {
	t.Helper()
	msgs, _ := req.JSON["messages"].([]any)
	for i := len(msgs) - 1; i >= 0; i-- {
		m, _ := msgs[i].(map[string]any)
		if m["role"] == "user" {
			s, _ := m["content"].(string)
			return s
		}
	}
	t.Fatalf("no user message in %s", req.Body)
	return ""
}

// mmCommand is mm in dir pointed at srv, not started yet.
func mmCommand(t testing.TB, dir string, srv *llmtest.Server, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(mmBin, args...)
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	cmd.Stdin = strings.NewReader("")
	t.Cleanup(func() {
		if cmd.Process != nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	return cmd
}
