package main_test

import (
	"encoding/json"
	"testing"

	"mm/internal/llmtest"
)

// An asked agent's question (its ask_user) comes up to this agent's user,
// prefixed with its name; with -p and mm --ask nobody can be asked.
func TestAskAgentQuestionForwarded(t *testing.T) {
	question := `{"question":"Which colour?","options":["red","blue"]}`
	dir := t.TempDir()
	child := llmtest.New(t,
		call("ask_user", question), llmtest.Turn{Text: "Blue it is."},
		call("ask_user", question), llmtest.Turn{Text: "Assumed red."},
		call("ask_user", question), llmtest.Turn{Text: "Assumed red again."},
	)
	parentCfg, _ := askPair(t, dir, child, "", "")
	parent := llmtest.New(t,
		call("ask_agent", `{"agent":"reviewer","prompt":"pick a colour"}`),
		llmtest.Turn{Text: "Parent done."},
		call("ask_agent", `{"agent":"reviewer","prompt":"pick a colour"}`),
		llmtest.Turn{Text: "Parent done again."},
	)
	s := startREPL(t, dir, parent, nil, "-c", parentCfg)
	s.ask("go")
	s.expect("reviewer asks: Which colour?")
	s.expect(" 2. blue")
	s.expect(" ? ")
	s.send("2\r")
	s.expect("→ blue")
	s.expect("Blue it is.")
	s.expect("Parent done.")
	if got, want := askResult(t, child.ChatRequests()[1]), "The user answered:\n- Which colour? → blue"; got != want {
		t.Errorf("the child read %q, want %q", got, want)
	}
	s.send("\x04")
	s.exit()

	cannot := "[the user cannot be asked in this mode: make a reasonable assumption, say which, and go on]"
	if r := mm(t, dir, parent, nil, "", "-c", parentCfg, "-p", "go"); r.code != 0 {
		t.Fatalf("-p: exit %d\n%s", r.code, r.stderr)
	}
	if got := askResult(t, child.ChatRequests()[3]); got != cannot {
		t.Errorf("-p: the child read %q", got)
	}
	if r := mm(t, dir, nil, nil, "", "-c", parentCfg, "--ask", "reviewer", "pick"); r.code != 0 || r.stdout != "Assumed red again.\n" {
		t.Fatalf("--ask: exit %d, %q\n%s", r.code, r.stdout, r.stderr)
	}
	if got := askResult(t, child.ChatRequests()[5]); got != cannot {
		t.Errorf("--ask: the child read %q", got)
	}
}

// Over ACP the asked agent's question is the editor's: an
// elicitation/create form in this session, prefixed with its name, under
// the ask_agent call.
func TestAskAgentQuestionACP(t *testing.T) {
	dir := t.TempDir()
	child := llmtest.New(t,
		call("ask_user", `{"question":"Which colour?","options":["red","blue"]}`), llmtest.Turn{Text: "Blue it is."},
	)
	parentCfg, _ := askPair(t, dir, child, "", "")
	parent := llmtest.New(t,
		toolCall("a1", "ask_agent", `{"agent":"reviewer","prompt":"pick a colour"}`),
		llmtest.Turn{Text: "Parent done."},
	)
	c := startACP(t, dir, parent, nil, "-c", parentCfg)
	c.initializeWith(map[string]any{"elicitation": map[string]any{"form": map[string]any{}}})
	sid := c.newSession(dir)
	id := c.prompt(sid, "go")
	_, m := c.waitRequest(0, "elicitation/create")
	var p struct {
		SessionID  string `json:"sessionId"`
		ToolCallID string `json:"toolCallId"`
		Message    string `json:"message"`
	}
	json.Unmarshal(m.Params, &p)
	if p.SessionID != sid || p.ToolCallID != "a1" || p.Message != "reviewer asks: Which colour?" {
		t.Errorf("elicitation: %s", m.Params)
	}
	c.respond(m.ID, map[string]any{"action": "accept", "content": map[string]any{"q1": "blue"}})
	if r := c.stopReason(id); r != "end_turn" {
		t.Fatalf("stop reason %s", r)
	}
	if got, want := askResult(t, child.ChatRequests()[1]), "The user answered:\n- Which colour? → blue"; got != want {
		t.Errorf("the child read %q, want %q", got, want)
	}
}
