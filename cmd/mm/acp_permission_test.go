package main_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// answerPermission waits for the next session/request_permission after
// from, checks it, and answers it with outcome; it returns the request's
// params and where the next wait starts.
func answerPermission(t *testing.T, c *acpClient, from int, outcome map[string]any) (map[string]any, int) {
	t.Helper()
	i, m := c.waitRequest(from, "session/request_permission")
	var p map[string]any
	if err := json.Unmarshal(m.Params, &p); err != nil {
		t.Fatal(err)
	}
	c.respond(m.ID, map[string]any{"outcome": outcome})
	return p, i + 1
}

func selected(id string) map[string]any {
	return map[string]any{"outcome": "selected", "optionId": id}
}

// With yolo: false every call that changes something asks the editor; the
// four answers are the line mode's a/s/r/n, a cancelled dialog refuses
// the call only, and a refusal is what the model reads.
func TestACPPermissions(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		toolCall("b1", "bash", `{"command":"touch a"}`),
		toolCall("b2", "bash", `{"command":"touch b"}`),
		toolCall("w1", "write_file", `{"path":"x.txt","content":"x\n"}`),
		toolCall("w2", "write_file", `{"path":"y.txt","content":"y\n"}`),
		toolCall("w3", "write_file", `{"path":"z.txt","content":"z\n"}`),
		toolCall("b3", "bash", `{"command":"touch c"}`),
		toolCall("b4", "bash", `{"command":"touch d"}`),
		toolCall("r1", "read_file", `{"path":"y.txt"}`),
		llmtest.Turn{Text: "done"},
	)
	cfg := writeConfig(t, dir, "provider: llamacpp\nyolo: false\n")
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	id := c.prompt(sid, "go")

	p, next := answerPermission(t, c, from, selected("allow_once"))
	if p["sessionId"] != sid {
		t.Errorf("sessionId %v", p["sessionId"])
	}
	tc, _ := p["toolCall"].(map[string]any)
	if tc["toolCallId"] != "b1" || tc["title"] != "Run `touch a`" || tc["kind"] != "execute" || tc["status"] != "pending" || contentText(tc) != "touch a" {
		t.Errorf("toolCall: %v", tc)
	}
	var ids []string
	for _, o := range p["options"].([]any) {
		m := o.(map[string]any)
		ids = append(ids, m["optionId"].(string)+"/"+m["kind"].(string))
		if m["name"] == "" {
			t.Errorf("option without a name: %v", m)
		}
	}
	// `touch a` offers its prefix too (the line mode's p).
	if got := strings.Join(ids, " "); got != "allow_once/allow_once allow_always/allow_always allow_prefix/allow_always reject_once/reject_once reject_always/reject_always" {
		t.Errorf("options: %s", got)
	}
	_, next = answerPermission(t, c, next, selected("reject_once"))
	// The planned diff is in the request; a cancelled dialog refuses.
	p, next = answerPermission(t, c, next, map[string]any{"outcome": "cancelled"})
	tc, _ = p["toolCall"].(map[string]any)
	if d := diffOf(tc); tc["toolCallId"] != "w1" || d == nil || d["newText"] != "x\n" || d["path"] != filepath.Join(dir, "x.txt") || !hasLocation(tc, filepath.Join(dir, "x.txt")) {
		t.Errorf("write_file request: %v", tc)
	}
	p, next = answerPermission(t, c, next, selected("allow_always"))
	if tc, _ := p["toolCall"].(map[string]any); tc["toolCallId"] != "w2" {
		t.Errorf("asked for %v, want w2", tc["toolCallId"])
	}
	// w3 is allowed for the session: the next question is b3.
	p, _ = answerPermission(t, c, next, selected("reject_always"))
	if tc, _ := p["toolCall"].(map[string]any); tc["toolCallId"] != "b3" {
		t.Errorf("asked for %v, want b3", tc["toolCallId"])
	}
	if r := c.stopReason(id); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	if n := strings.Count(c.transcript(), `"session/request_permission"`); n != 5 {
		t.Errorf("%d permission requests, want 5", n)
	}

	us := c.updates(sid, from, -1)
	status := func(call string) string {
		u := ofCall(us, call)
		if len(u) == 0 {
			return "none"
		}
		s, _ := u[len(u)-1]["status"].(string)
		return s
	}
	for call, want := range map[string]string{"b1": "completed", "b2": "failed", "w1": "failed", "w2": "completed", "w3": "completed", "b3": "failed", "b4": "failed", "r1": "completed"} {
		if got := status(call); got != want {
			t.Errorf("%s ends %s, want %s: %v", call, got, want, ofCall(us, call))
		}
	}
	// An allowed call goes pending → in_progress → completed.
	var steps []string
	for _, u := range ofCall(us, "b1") {
		steps = append(steps, u["status"].(string))
	}
	if got := strings.Join(steps, " "); got != "pending in_progress completed" {
		t.Errorf("b1: %s", got)
	}
	if u := ofCall(us, "r1"); len(u) == 0 || u[0]["status"] != "in_progress" {
		t.Errorf("a read asks nobody and starts running: %v", u)
	}
	for name, want := range map[string]bool{"a": true, "b": false, "x.txt": false, "y.txt": true, "z.txt": true, "c": false, "d": false} {
		if _, err := os.Stat(filepath.Join(dir, name)); (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", name, err == nil, want)
		}
	}
	reqs := srv.ChatRequests()
	for i, want := range map[int]string{2: "[command rejected by the user]", 3: "[write_file rejected by the user]", 6: "[command rejected by the user]", 7: "[command rejected by the user]", 8: "y\n"} {
		if got := lastToolMessage(t, reqs[i]); got != want {
			t.Errorf("request %d: the model read %q, want %q", i, got, want)
		}
	}
}
