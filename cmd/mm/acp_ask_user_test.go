package main_test

// ask_user over ACP: a form (elicitation/create) when the client
// announced elicitation.form, else one session/request_permission per
// choice or confirm question, else nobody can be asked. Every line is
// checked against the ACP schema when the test ends (startACP).

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// callStatus is the last status the editor was told for tool call id.
func callStatus(c *acpClient, sid, id string) string {
	status := ""
	for _, u := range ofCall(c.updates(sid, 0, -1), id) {
		if s, ok := u["status"].(string); ok {
			status = s
		}
	}
	return status
}

// initializeWith runs the handshake with these client capabilities.
func (c *acpClient) initializeWith(caps map[string]any) {
	c.t.Helper()
	var res map[string]any
	c.result(c.call("initialize", map[string]any{"protocolVersion": 1, "clientCapabilities": caps}), &res)
}

func TestACPAskUserElicitation(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		toolCall("q1", "ask_user", fourQuestions),
		llmtest.Turn{Text: "thanks"},
		toolCall("q2", "ask_user", `{"question":"Name?"}`),
		llmtest.Turn{Text: "declined then"},
		toolCall("q3", "ask_user", `{"question":"Name, again?"}`),
		llmtest.Turn{Text: "never read"},
		llmtest.Turn{Text: "after the cancel"},
	)
	c := startACP(t, dir, srv, nil)
	c.initializeWith(map[string]any{"elicitation": map[string]any{"form": map[string]any{}}})
	sid := c.newSession(dir)

	id := c.prompt(sid, "ask me")
	_, m := c.waitRequest(0, "elicitation/create")
	var p struct {
		SessionID       string         `json:"sessionId"`
		ToolCallID      string         `json:"toolCallId"`
		Mode            string         `json:"mode"`
		Message         string         `json:"message"`
		Meta            map[string]any `json:"_meta"`
		RequestedSchema struct {
			Type       string                    `json:"type"`
			Properties map[string]map[string]any `json:"properties"`
			Required   []string                  `json:"required"`
		} `json:"requestedSchema"`
	}
	if err := json.Unmarshal(m.Params, &p); err != nil {
		t.Fatal(err)
	}
	if p.SessionID != sid || p.ToolCallID != "q1" || p.Mode != "form" || p.Message != "4 questions" || p.Meta != nil {
		t.Errorf("elicitation scope: %s", m.Params)
	}
	props := p.RequestedSchema.Properties
	if p.RequestedSchema.Type != "object" || !reflect.DeepEqual(p.RequestedSchema.Required, []string{"q1", "q2", "q3", "q4"}) {
		t.Errorf("requestedSchema: %s", m.Params)
	}
	for _, check := range []struct {
		field, key string
		want       any
	}{
		{"q1", "type", "string"}, {"q1", "title", "Which colour?"}, {"q1", "enum", []any{"red", "blue", "green"}}, {"q1", "default", "blue"},
		{"q2", "type", "array"}, {"q2", "items", map[string]any{"type": "string", "enum": []any{"a.go", "b.go", "c.go"}}},
		{"q3", "type", "boolean"}, {"q3", "title", "Go on?"},
		{"q4", "type", "string"}, {"q4", "title", "Your name?"},
	} {
		if got := props[check.field][check.key]; !reflect.DeepEqual(got, check.want) {
			t.Errorf("%s.%s = %v, want %v", check.field, check.key, got, check.want)
		}
	}
	c.respond(m.ID, map[string]any{"action": "accept", "content": map[string]any{"q1": "green", "q2": []any{"a.go", "c.go"}, "q3": false, "q4": "Ada"}})
	if r := c.stopReason(id); r != "end_turn" {
		t.Errorf("stop reason %s", r)
	}
	if got, want := lastToolMessage(t, srv.ChatRequests()[1]), "The user answered:\n- Which colour? → green\n- Which files? → a.go, c.go\n- Go on? → no\n- Your name? → Ada"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	if s := callStatus(c, sid, "q1"); s != "completed" {
		t.Errorf("an answered call ends %s", s)
	}

	// Declined: the call failed, the model is told not to ask again.
	from := c.mark()
	id = c.prompt(sid, "ask again")
	_, m = c.waitRequest(from, "elicitation/create")
	c.respond(m.ID, map[string]any{"action": "decline"})
	c.stopReason(id)
	if got := lastToolMessage(t, srv.ChatRequests()[3]); got != "[the user declined to answer: do not ask the same thing again; go on without it or stop]" {
		t.Errorf("declined: the model read %q", got)
	}
	if s := callStatus(c, sid, "q2"); s != "failed" {
		t.Errorf("a declined call ends %s", s)
	}

	// session/cancel while the form waits: the turn stops, the question
	// is cancelled.
	from = c.mark()
	id = c.prompt(sid, "and again")
	_, m = c.waitRequest(from, "elicitation/create")
	c.notifyMM("session/cancel", map[string]any{"sessionId": sid})
	c.waitFrom(from, "$/cancel_request of the form", func(msg acpMsg) bool { return msg.Method == "$/cancel_request" })
	// The client answers the abandoned request as cancelled.
	c.respond(m.ID, map[string]any{"action": "cancel"})
	if r := c.stopReason(id); r != "cancelled" {
		t.Errorf("stop reason %s after session/cancel", r)
	}
	if s := callStatus(c, sid, "q3"); s != "failed" {
		t.Errorf("a cancelled call ends %s", s)
	}
	c.stopReason(c.prompt(sid, "next"))
	reqs := srv.ChatRequests()
	if got := lastToolMessage(t, reqs[len(reqs)-1]); got != "[the question was cancelled before the user answered]" {
		t.Errorf("cancelled: the model read %q", got)
	}
}

// Without elicitation: one permission dialog per choice or confirm
// question, Decline on each; a text question cannot be asked.
func TestACPAskUserButtons(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		toolCall("b1", "ask_user", `{"questions":[{"question":"Which colour?","options":["red","blue"],"default":"blue"},{"question":"Go on?","type":"confirm"}]}`),
		llmtest.Turn{Text: "answered"},
		toolCall("b2", "ask_user", `{"question":"Which one?","options":["x","y"]}`),
		llmtest.Turn{Text: "declined"},
		toolCall("b3", "ask_user", `{"questions":[{"question":"Go on?","type":"confirm"},{"question":"Why?"}]}`),
		llmtest.Turn{Text: "assumed"},
	)
	c := startACP(t, dir, srv, nil)
	c.initialize()
	sid := c.newSession(dir)
	id := c.prompt(sid, "ask")

	options := func(p map[string]any) string {
		var out []string
		for _, o := range p["options"].([]any) {
			m := o.(map[string]any)
			out = append(out, m["optionId"].(string)+"="+m["name"].(string))
		}
		return strings.Join(out, " ")
	}
	p, next := answerPermission(t, c, 0, selected("option-2"))
	tc, _ := p["toolCall"].(map[string]any)
	if p["sessionId"] != sid || tc["toolCallId"] != "b1" || tc["title"] != "Which colour?" || contentText(tc) != "Which colour?" {
		t.Errorf("first question: %v", p)
	}
	// The default first and named: a client's "allow" key takes it.
	if got := options(p); got != "option-2=blue (default) option-1=red decline=Decline" {
		t.Errorf("choice buttons: %s", got)
	}
	p, _ = answerPermission(t, c, next, selected("yes"))
	if got := options(p); got != "yes=Yes no=No decline=Decline" {
		t.Errorf("confirm buttons: %s", got)
	}
	c.stopReason(id)
	if got, want := lastToolMessage(t, srv.ChatRequests()[1]), "The user answered:\n- Which colour? → blue\n- Go on? → yes"; got != want {
		t.Errorf("the model read %q, want %q", got, want)
	}
	if s := callStatus(c, sid, "b1"); s != "completed" {
		t.Errorf("an answered call ends %s", s)
	}

	from := c.mark()
	id = c.prompt(sid, "again")
	answerPermission(t, c, from, selected("decline"))
	c.stopReason(id)
	if got := lastToolMessage(t, srv.ChatRequests()[3]); got != "[the user declined to answer: do not ask the same thing again; go on without it or stop]" {
		t.Errorf("declined: the model read %q", got)
	}
	if s := callStatus(c, sid, "b2"); s != "failed" {
		t.Errorf("a declined call ends %s", s)
	}

	// A text question among them: no dialog at all.
	from = c.mark()
	c.stopReason(c.prompt(sid, "why"))
	c.mu.Lock()
	for _, msg := range c.msgs[from:] {
		if msg.Method == "session/request_permission" {
			t.Errorf("a dialog for a call with a text question: %s", msg.Raw)
		}
	}
	c.mu.Unlock()
	if got := lastToolMessage(t, srv.ChatRequests()[5]); got != "[the user cannot be asked in this mode: make a reasonable assumption, say which, and go on]" {
		t.Errorf("text without elicitation: the model read %q", got)
	}
	if s := callStatus(c, sid, "b3"); s != "failed" {
		t.Errorf("a call nobody could answer ends %s", s)
	}
}
