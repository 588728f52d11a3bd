package main_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

// summaries of the updates: "kind:text" for chunks,
// "tool_call:id:title:kind:status", "tool_call_update:id:status:text".
func summarize(us []map[string]any) []string {
	var out []string
	for _, u := range us {
		k, _ := u["sessionUpdate"].(string)
		switch k {
		case "user_message_chunk", "agent_message_chunk", "agent_thought_chunk":
			c, _ := u["content"].(map[string]any)
			out = append(out, fmt.Sprintf("%s:%v", k, c["text"]))
		case "tool_call":
			out = append(out, fmt.Sprintf("tool_call:%v:%v:%v:%v", u["toolCallId"], u["title"], u["kind"], u["status"]))
		case "tool_call_update":
			out = append(out, fmt.Sprintf("tool_call_update:%v:%v:%s", u["toolCallId"], u["status"], contentText(u)))
		default:
			out = append(out, k)
		}
	}
	return out
}

// session/load replays the stored conversation in order before it
// answers, with the titles and kinds of live calls; the next prompt goes
// on with it; session/list lists it.
func TestACPLoadReplaysAndContinues(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t,
		llmtest.Turn{Reasoning: "Thinking.", Text: "Looking.", ToolCalls: []llmtest.ToolCall{{ID: "r1", Name: "bash", Arguments: `{"command":"echo one"}`}}},
		llmtest.Turn{Text: "Found one."},
		llmtest.Turn{Text: "Still one."},
	)
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	if r := c.stopReason(c.prompt(sid, "list files")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	if code := c.closeInput(); code != 0 {
		t.Fatalf("exit %d", code)
	}

	c = startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	m := c.call("session/load", map[string]any{"sessionId": "20990101-000000-abcdef", "cwd": dir, "mcpServers": []any{}})
	if m.Error == nil || !strings.Contains(m.Error.Message, "20990101-000000-abcdef") {
		t.Errorf("unknown id: %s", m.Raw)
	}
	from := c.mark()
	id := c.request("session/load", map[string]any{"sessionId": sid, "cwd": dir, "mcpServers": []any{}})
	at, resp := c.waitFrom(from, "the session/load answer", func(m acpMsg) bool { return m.isResponse(id) })
	if resp.Error != nil {
		t.Fatalf("session/load: %s", resp.Raw)
	}
	got := strings.Join(summarize(c.updates(sid, from, at)), "\n")
	want := strings.Join([]string{
		"user_message_chunk:list files",
		"agent_thought_chunk:Thinking.",
		"agent_message_chunk:Looking.",
		// A replayed call did not run again: it is announced pending (not
		// in_progress), then closed with its stored result.
		"tool_call:r1:Run `echo one`:execute:pending",
		"tool_call_update:r1:completed:one\n",
		"agent_message_chunk:Found one.",
		"available_commands_update",
	}, "\n")
	if got != want {
		t.Errorf("replay:\n%s\nwant:\n%s", got, want)
	}
	if r := c.stopReason(c.prompt(sid, "again")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	reqs := srv.ChatRequests()
	var texts []string
	for _, m := range messagesOf(t, reqs[len(reqs)-1]) {
		texts = append(texts, fmt.Sprint(m["role"], ":", contentOf(m)))
	}
	if all := strings.Join(texts, "|"); !strings.Contains(all, "user:list files|") || !strings.Contains(all, "assistant:Found one.|user:again") {
		t.Errorf("the loaded conversation is not continued: %s", all)
	}

	var list struct {
		Sessions []map[string]any `json:"sessions"`
	}
	c.result(c.call("session/list", map[string]any{"cwd": dir}), &list)
	if len(list.Sessions) != 1 || list.Sessions[0]["sessionId"] != sid || list.Sessions[0]["cwd"] != dir || list.Sessions[0]["title"] != "list files" || list.Sessions[0]["updatedAt"] == nil {
		t.Errorf("session/list: %v", list.Sessions)
	}
	c.result(c.call("session/list", map[string]any{"cwd": t.TempDir()}), &list)
	if len(list.Sessions) != 0 {
		t.Errorf("session/list of another cwd: %v", list.Sessions)
	}
}

// /compact and /new are offered and run from a prompt.
func TestACPSlashCommands(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig+"context:\n  keepLastTurns: 1\n")
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: -1},
		llmtest.Turn{Text: padded("a1")}, llmtest.Turn{Text: "a2"},
		llmtest.Turn{Text: "the task so far: q1 answered"},
		llmtest.Turn{Text: "a3"},
	)
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	from := c.mark()
	sid := c.newSession(dir)
	_, u := c.waitUpdate(from, sid, "available_commands_update", func(u map[string]any) bool { return u["sessionUpdate"] == "available_commands_update" })
	var names []string
	for _, cmd := range u["availableCommands"].([]any) {
		m := cmd.(map[string]any)
		names = append(names, fmt.Sprint(m["name"]))
		if m["description"] == "" {
			t.Errorf("no description: %v", m)
		}
	}
	if strings.Join(names, " ") != "compact new context undo redo" {
		t.Errorf("commands: %v", names)
	}
	for _, q := range []string{"q1", "q2"} {
		if r := c.stopReason(c.prompt(sid, q)); r != "end_turn" {
			t.Fatalf("%s: %q", q, r)
		}
	}
	from = c.mark()
	if r := c.stopReason(c.prompt(sid, "/compact")); r != "end_turn" {
		t.Fatalf("/compact: %q", r)
	}
	if got := chunkText(c.updates(sid, from, -1), "agent_message_chunk"); !strings.HasPrefix(got, "🗜️ compressed the conversation: ") {
		t.Errorf("/compact says %q", got)
	}
	file := filepath.Join(dir, ".mm", "sessions", sid+".json")
	if s := toString(readSession(t, file)["messages"]); !strings.Contains(s, "the task so far") || strings.Contains(s, "a1") {
		t.Errorf("the session does not hold the compressed history: %s", s)
	}

	from = c.mark()
	if r := c.stopReason(c.prompt(sid, "/new")); r != "end_turn" {
		t.Fatalf("/new: %q", r)
	}
	if got := chunkText(c.updates(sid, from, -1), "agent_message_chunk"); got != "new conversation" {
		t.Errorf("/new says %q", got)
	}
	if r := c.stopReason(c.prompt(sid, "q3")); r != "end_turn" {
		t.Fatalf("q3: %q", r)
	}
	reqs := srv.ChatRequests()
	msgs := messagesOf(t, reqs[len(reqs)-1])
	if len(msgs) != 2 || msgs[0]["role"] != "system" || contentOf(msgs[1]) != "q3" {
		t.Errorf("after /new the model reads %v", msgs)
	}
	// The conversation before /new stays listed under an id of its own.
	if s := toString(readSession(t, file)["messages"]); strings.Contains(s, "the task so far") || !strings.Contains(s, "q3") {
		t.Errorf("the session after /new: %s", s)
	}
	files := sessionFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("session files: %v", files)
	}
	for _, f := range files {
		if f != file {
			if s := toString(readSession(t, f)["messages"]); !strings.Contains(s, "the task so far") {
				t.Errorf("the archived conversation: %s", s)
			}
		}
	}
}

// Two sessions with cwds of their own prompt at the same time: the first
// one's command waits for the second one's file, so it ends only if both
// run together.
func TestACPConcurrentSessions(t *testing.T) {
	root := t.TempDir()
	a, b := filepath.Join(root, "a"), filepath.Join(root, "b")
	for _, d := range []string{a, b} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	srv := llmtest.NewWith(t, llmtest.Options{Demo: true})
	c := startACP(t, root, srv, nil)
	c.initialize()
	sa, sb := c.newSession(a), c.newSession(b)
	pa := c.prompt(sa, "run `until [ -e ../b/where.txt ]; do sleep 0.02; done; pwd > where.txt`")
	pb := c.prompt(sb, "run `pwd > where.txt`")
	for _, id := range []int{pa, pb} {
		if r := c.stopReason(id); r != "end_turn" {
			t.Fatalf("prompt %d: %q", id, r)
		}
	}
	for _, d := range []string{a, b} {
		if got, _ := os.ReadFile(filepath.Join(d, "where.txt")); strings.TrimSpace(string(got)) != d {
			t.Errorf("%s/where.txt = %q", d, got)
		}
	}
}

// With trace on, the files land under the session's cwd, and the banner
// on stderr says where.
func TestACPTraceInSessionCwd(t *testing.T) {
	dir, work := t.TempDir(), t.TempDir()
	cfg := writeConfig(t, dir, "provider: llamacpp\ntrace:\n  enabled: true\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "hi"})
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(work)
	if r := c.stopReason(c.prompt(sid, "hello")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	if traced := tracedRequests(t, work); len(traced) != 1 {
		t.Errorf("traces in the session's cwd: %v", traced)
	}
	if _, err := os.Stat(filepath.Join(dir, ".mm", "traces")); err == nil {
		t.Errorf("traces in the launch directory")
	}
	want := " | trace: " + filepath.Join(work, ".mm", "traces")
	waitFor(t, "the trace directory in the banner", func() bool { return strings.Contains(c.stderr.String(), want) })
}
