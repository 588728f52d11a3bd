package main_test

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// Over ACP: the asked agent's work comes as this session's updates (its
// calls titled `<agent> · <title>` under ids of their own), its
// permission request goes to the editor, the ask_agent call ends with
// `<agent> answered (N characters)`; /ask-<name> is a listed command.
func TestAskAgentACP(t *testing.T) {
	dir := t.TempDir()
	childCall := toolCall("c1", "bash", `{"command":"touch made.txt"}`)
	childCall.Reasoning = "Child thinks."
	childCall.Text = "Making it."
	child := llmtest.New(t,
		childCall,
		llmtest.Turn{Text: "Made it."},
		llmtest.Turn{Text: "Child says hi."},
	)
	parentCfg, _ := askPair(t, dir, child, "", "description: reviews code\nyolo: false")
	parent := llmtest.New(t,
		toolCall("c1", "ask_agent", `{"agent":"reviewer","prompt":"make it"}`),
		llmtest.Turn{Text: "Parent done."},
		llmtest.Turn{Text: "Parent again."},
	)
	c := startACP(t, dir, parent, nil, "-c", parentCfg)
	c.initialize()
	from := c.mark()
	sid := c.newSession(dir)
	_, cmds := c.waitUpdate(from, sid, "available_commands_update", func(u map[string]any) bool {
		return u["sessionUpdate"] == "available_commands_update"
	})
	var names []string
	for _, x := range cmds["availableCommands"].([]any) {
		names = append(names, x.(map[string]any)["name"].(string))
	}
	if got := strings.Join(names, " "); got != "compact new context undo redo ask-reviewer ask-with-context-reviewer" {
		t.Errorf("commands: %s", got)
	}

	from = c.mark()
	id := c.prompt(sid, "go")
	p, _ := answerPermission(t, c, from, selected("allow_once"))
	tc := p["toolCall"].(map[string]any)
	if tc["title"] != "reviewer asks: Run `touch made.txt`" {
		t.Errorf("permission toolCall: %v", tc)
	}
	childID, _ := tc["toolCallId"].(string)
	if childID == "" || childID == "c1" {
		t.Errorf("the child's call has the id %q (the parent's call is c1)", childID)
	}
	if r := c.stopReason(id); r != "end_turn" {
		t.Fatalf("stop reason %s\n%s", r, c.stderr.String())
	}
	us := c.updates(sid, from, -1)
	start := ofCall(us, childID)
	if len(start) == 0 || start[0]["title"] != "reviewer · Run `touch made.txt`" || start[0]["kind"] != "execute" {
		t.Errorf("the child's call: %v", start)
	}
	if last := start[len(start)-1]; last["status"] != "completed" {
		t.Errorf("the child's call ended %v", last)
	}
	ask := ofCall(us, "c1")
	if len(ask) < 2 || !strings.HasPrefix(ask[0]["title"].(string), "ask_agent reviewer (llamacpp/child-model) — make it") {
		t.Fatalf("the ask_agent call: %v", ask)
	}
	// The asked agent's text is the ask_agent call's content, a round at
	// a time, never this agent's own message: an editor would mix it
	// into the answer.
	var rounds [][]string
	for _, u := range ask {
		if u["content"] != nil {
			rounds = append(rounds, contentTexts(u))
		}
	}
	want := [][]string{{"Making it."}, {"Making it.", "Made it.", "reviewer answered (8 characters)"}}
	if !reflect.DeepEqual(rounds, want) {
		t.Errorf("the ask_agent call's contents %q, want %q", rounds, want)
	}
	if end := ask[len(ask)-1]; end["status"] != "completed" {
		t.Errorf("the ask_agent call's end: %v", end)
	}
	if got := chunkText(us, "agent_thought_chunk"); !strings.Contains(got, "Child thinks.") {
		t.Errorf("thoughts %q", got)
	}
	if got := chunkText(us, "agent_message_chunk"); got != "Parent done." {
		t.Errorf("messages %q", got)
	}
	if got := lastToolMessage(t, parent.ChatRequests()[1]); got != "Made it." {
		t.Errorf("tool result %q", got)
	}

	// /ask-<name> has no call: the asked agent's answer is the turn's.
	from = c.mark()
	if r := c.stopReason(c.prompt(sid, "/ask-reviewer hello")); r != "end_turn" {
		t.Fatalf("/ask stop reason %s", r)
	}
	if got := chunkText(c.updates(sid, from, -1), "agent_message_chunk"); got != "Child says hi." {
		t.Errorf("/ask messages %q", got)
	}
	if r := c.stopReason(c.prompt(sid, "and?")); r != "end_turn" {
		t.Fatalf("stop reason %s", r)
	}
	reqs := parent.ChatRequests()
	if body := string(reqs[len(reqs)-1].Body); !strings.Contains(body, `{"role":"user","content":"/ask-reviewer hello"},{"role":"assistant","content":"reviewer answered:\nChild says hi."}`) {
		t.Errorf("the /ask exchange is not in the history:\n%s", body)
	}
}

// A cancelled turn stops the asked agent too: its command is killed, and
// the model reads what it had said, then the stop text.
func TestAskAgentACPCancel(t *testing.T) {
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "pid")
	work := longCommand("w1", pidFile)
	work.Text = "Working on it."
	child := llmtest.New(t, work)
	parentCfg, _ := askPair(t, dir, child, "", "yolo: true")
	parent := llmtest.New(t,
		toolCall("a1", "ask_agent", `{"agent":"reviewer","prompt":"work"}`),
		llmtest.Turn{Text: "next answer"},
	)
	c := startACP(t, dir, parent, nil, "-c", parentCfg)
	c.initialize()
	sid := c.newSession(dir)
	id := c.prompt(sid, "go")
	pid := waitPidFile(t, pidFile, acpWait)
	c.notifyMM("session/cancel", map[string]any{"sessionId": sid})
	if r := c.stopReason(id); r != "cancelled" {
		t.Fatalf("stop reason %s", r)
	}
	waitGone(t, pid, "the asked agent's command after session/cancel")
	// The call ends with what the asked agent said, then why it stopped.
	calls := ofCall(c.updates(sid, 0, -1), "a1")
	wantEnd := []string{"Working on it.", "[ask_agent: reviewer stopped before finishing: interrupted by the user]"}
	if end := calls[len(calls)-1]; end["status"] != "failed" || !reflect.DeepEqual(contentTexts(end), wantEnd) {
		t.Errorf("the ask_agent call's end %v, want the content %q", end, wantEnd)
	}
	if r := c.stopReason(c.prompt(sid, "next")); r != "end_turn" {
		t.Fatalf("stop reason %s", r)
	}
	reqs := parent.ChatRequests()
	want := "Working on it.\n[ask_agent: reviewer stopped before finishing: interrupted by the user]"
	if got := lastToolMessage(t, reqs[len(reqs)-1]); got != want {
		t.Errorf("the model read %q\nwant %q", got, want)
	}
}

// contentTexts are the texts of a tool call update's content blocks.
func contentTexts(u map[string]any) []string {
	var out []string
	cs, _ := u["content"].([]any)
	for _, c := range cs {
		m, _ := c.(map[string]any)
		inner, _ := m["content"].(map[string]any)
		if s, ok := inner["text"].(string); ok && m["type"] == "content" {
			out = append(out, s)
		}
	}
	return out
}
