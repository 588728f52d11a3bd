package main_test

import (
	"encoding/json"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// An ACP client's mcpServers (stdio) belong to that session: their tools
// are declared, a readOnlyHint tool has the kind read, and under
// yolo: false the call asks the client, showing server, tool and
// arguments. mm advertises mcpCapabilities.http.
func TestMCPACPSessionServers(t *testing.T) {
	ev := mcpServerBin(t, "mcp-server-everything")
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\nyolo: false\nmcp:\n  promptBudget: 100000\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: "m1", Name: "everything_echo", Arguments: `{"message":"via acp"}`}}},
		llmtest.Turn{Text: "done"},
	)
	c := startACP(t, dir, srv, nil, "-c", cfg)
	res := c.initialize()
	caps, _ := res["agentCapabilities"].(map[string]any)
	if mc, _ := caps["mcpCapabilities"].(map[string]any); mc["http"] != true {
		t.Errorf("mcpCapabilities = %v", caps["mcpCapabilities"])
	}
	var sess struct {
		SessionID string `json:"sessionId"`
	}
	c.result(c.call("session/new", map[string]any{"cwd": dir, "mcpServers": []any{
		map[string]any{"name": "Everything", "command": ev, "args": []any{}, "env": []any{}},
	}}), &sess)
	sid := sess.SessionID
	from := c.mark()
	id := c.prompt(sid, "echo")
	_, req := c.waitRequest(from, "session/request_permission")
	var p struct {
		ToolCall struct {
			Title string `json:"title"`
			Kind  string `json:"kind"`
		} `json:"toolCall"`
	}
	if err := json.Unmarshal(req.Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.ToolCall.Title != `everything/echo {"message":"via acp"}` || p.ToolCall.Kind != "read" {
		t.Errorf("permission request: %+v", p.ToolCall)
	}
	c.respond(req.ID, map[string]any{"outcome": map[string]any{"outcome": "selected", "optionId": "allow_once"}})
	if r := c.stopReason(id); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	reqs := srv.ChatRequests()
	if got := mcpResults(t, reqs[len(reqs)-1]); len(got) != 1 || got[0] != "Echo: via acp" {
		t.Errorf("result: %q", got)
	}
	if !mcpContains(mcpDeclared(t, reqs[0]), "everything_echo") {
		t.Errorf("declared: %v", mcpDeclared(t, reqs[0]))
	}
	if strings.Contains(c.stderr.String(), "does not use MCP") {
		t.Error("the old log line")
	}
}
