package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"mm/internal/llmtest"
	"mm/internal/testdeps"
)

// mcpServerBin is one of the npm MCP servers .ci/run installs into .ci/mcp.
// Under CI=true a missing server fails the test; elsewhere it skips with
// the command that installs them.
func mcpServerBin(t *testing.T, name string) string {
	t.Helper()
	wd, _ := os.Getwd()
	path := filepath.Join(wd, "..", "..", ".ci", "mcp", "node_modules", ".bin", name)
	if _, err := os.Stat(path); err != nil {
		testdeps.Missing(t, name+" is not installed in .ci/mcp")
	}
	return path
}

// call is a scripted tool call.
func mcpCall(name, args string) llmtest.ToolCall {
	return llmtest.ToolCall{Name: name, Arguments: args}
}

// toolResults are the tool messages of a request, in order.
func mcpResults(t *testing.T, req llmtest.Request) []string {
	t.Helper()
	var out []string
	for _, m := range req.JSON["messages"].([]any) {
		if mm := m.(map[string]any); mm["role"] == "tool" {
			s, _ := mm["content"].(string)
			out = append(out, s)
		}
	}
	return out
}

// declaredTools are the tool names a request declares, in order.
func mcpDeclared(t *testing.T, req llmtest.Request) []string {
	t.Helper()
	var names []string
	ts, _ := req.JSON["tools"].([]any)
	for _, x := range ts {
		names = append(names, x.(map[string]any)["function"].(map[string]any)["name"].(string))
	}
	return names
}

// toolsJSON is the raw "tools" part of a request's body.
func mcpToolsJSON(t *testing.T, req llmtest.Request) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(req.Body, &m); err != nil {
		t.Fatal(err)
	}
	return string(m["tools"])
}

func mcpContains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// quoteYAML is s as a double-quoted YAML string.
func mcpQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
