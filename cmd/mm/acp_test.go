package main_test

// mm -acp driven the way an editor drives it: JSON-RPC lines on its
// stdin and stdout, against the scripted model server.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

func toolCall(id, name, args string) llmtest.Turn {
	return llmtest.Turn{ToolCalls: []llmtest.ToolCall{{ID: id, Name: name, Arguments: args}}}
}

// lastToolMessage is the content of the last tool message of a request.
func lastToolMessage(t *testing.T, req llmtest.Request) string {
	t.Helper()
	msgs := messagesOf(t, req)
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i]["role"] == "tool" {
			return contentOf(msgs[i])
		}
	}
	return ""
}

func TestACPInitialize(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t)
	cfg := writeConfig(t, dir, "provider: llamacpp\nacp:\n  name: homer\n  title: Homer (coder)\n")
	c := startACP(t, dir, srv, nil, "-c", cfg)
	// A client that asks for a version mm does not speak gets mm's.
	var res map[string]any
	c.result(c.call("initialize", map[string]any{"protocolVersion": 7, "clientCapabilities": map[string]any{}}), &res)
	if res["protocolVersion"] != 1.0 {
		t.Errorf("protocolVersion = %v", res["protocolVersion"])
	}
	info, _ := res["agentInfo"].(map[string]any)
	if info["name"] != "homer" || info["title"] != "Homer (coder)" || info["version"] == "" || info["version"] == nil {
		t.Errorf("agentInfo = %v", info)
	}
	caps, _ := res["agentCapabilities"].(map[string]any)
	prompt, _ := caps["promptCapabilities"].(map[string]any)
	if prompt["embeddedContext"] != true || prompt["image"] == true || prompt["audio"] == true {
		t.Errorf("promptCapabilities = %v", prompt)
	}
	if caps["loadSession"] == true {
		t.Errorf("loadSession without sessions.enabled: %v", caps)
	}
	if sc, _ := caps["sessionCapabilities"].(map[string]any); sc["list"] != nil {
		t.Errorf("session/list offered without sessions.enabled: %v", sc)
	}
	if am, ok := res["authMethods"].([]any); !ok || len(am) != 0 {
		t.Errorf("authMethods = %v", res["authMethods"])
	}

	// An empty title is not sent; sessions on offer load and list.
	dir2 := t.TempDir()
	cfg2 := writeConfig(t, dir2, "provider: llamacpp\nacp:\n  title: \"\"\nsessions:\n  enabled: true\n")
	c2 := startACP(t, dir2, srv, nil, "-c", cfg2)
	res = c2.initialize()
	info, _ = res["agentInfo"].(map[string]any)
	if _, has := info["title"]; has || info["name"] != "bob" {
		t.Errorf("agentInfo = %v", info)
	}
	caps, _ = res["agentCapabilities"].(map[string]any)
	sc, _ := caps["sessionCapabilities"].(map[string]any)
	if caps["loadSession"] != true || sc["list"] == nil {
		t.Errorf("with sessions: %v", caps)
	}
	if code := c2.closeInput(); code != 0 {
		t.Errorf("exit %d", code)
	}
}

func TestACPNewSessionChecksCwd(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t)
	c := startACP(t, dir, srv, nil)
	c.initialize()
	file := filepath.Join(dir, "f.txt")
	write(t, file, "x")
	for cwd, want := range map[string]string{
		"relative/dir":             "absolute",
		filepath.Join(dir, "nope"): "no such file",
		file:                       "not a directory",
	} {
		m := c.call("session/new", map[string]any{"cwd": cwd, "mcpServers": []any{}})
		if m.Error == nil || m.Error.Code != -32602 || !strings.Contains(m.Error.Message, want) {
			t.Errorf("cwd %q: %s", cwd, m.Raw)
		}
	}
	m := c.callBad("session/new", map[string]any{"cwd": 5, "mcpServers": []any{}})
	if m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("cwd 5: %s", m.Raw)
	}
	// The banner's facts go to stderr, once per session.
	c.newSession(dir)
	c.newSession(dir)
	waitFor(t, "two banners on stderr", func() bool { return strings.Count(c.stderr.String(), "· tools: bash") == 2 })
}

// A prompt streams its reasoning and text, and each call is a tool_call
// then a tool_call_update with its output; the file tools carry their
// locations and diffs.
func TestACPPromptStreamsToolCalls(t *testing.T) {
	dir := t.TempDir()
	write(t, filepath.Join(dir, "main.go"), "package main\n\nfunc main() {}\n")
	srv := llmtest.New(t,
		llmtest.Turn{Reasoning: "I should look first.", Text: "Let me check.", ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"echo hi"}`}}},
		toolCall("c2", "read_file", `{"path":"main.go"}`),
		toolCall("c3", "write_file", `{"path":"notes.md","content":"# Notes\n"}`),
		toolCall("c4", "edit_file", `{"path":"main.go","edits":[{"old":"func main() {}","new":"func main() { println(1) }"}]}`),
		llmtest.Turn{Text: "All done."},
	)
	c := startACP(t, dir, srv, nil)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	id := c.prompt(sid, "look around")
	if r := c.stopReason(id); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	us := c.updates(sid, from, -1)
	if got := chunkText(us, "agent_thought_chunk"); !strings.Contains(got, "I should look first.") {
		t.Errorf("thought chunks: %q", got)
	}
	if got := chunkText(us, "agent_message_chunk"); got != "Let me check.All done." {
		t.Errorf("message chunks: %q", got)
	}
	abs := func(name string) string { return filepath.Join(dir, name) }

	bash := ofCall(us, "c1")
	if len(bash) != 2 || bash[0]["sessionUpdate"] != "tool_call" || bash[1]["sessionUpdate"] != "tool_call_update" {
		t.Fatalf("bash updates: %v", bash)
	}
	if bash[0]["title"] != "Run `echo hi`" || bash[0]["kind"] != "execute" || bash[0]["status"] != "in_progress" {
		t.Errorf("bash tool_call: %v", bash[0])
	}
	if in, _ := bash[0]["rawInput"].(map[string]any); in["command"] != "echo hi" {
		t.Errorf("rawInput: %v", bash[0]["rawInput"])
	}
	if bash[1]["status"] != "completed" || contentText(bash[1]) != "hi\n" {
		t.Errorf("bash end: %v", bash[1])
	}

	read := ofCall(us, "c2")
	if len(read) != 2 || read[0]["kind"] != "read" || read[0]["title"] != "Read main.go" || !hasLocation(read[0], abs("main.go")) {
		t.Errorf("read_file: %v", read)
	}

	wr := ofCall(us, "c3")
	if len(wr) != 2 || wr[0]["kind"] != "edit" || wr[0]["title"] != "Write notes.md" || !hasLocation(wr[0], abs("notes.md")) {
		t.Fatalf("write_file: %v", wr)
	}
	d := diffOf(wr[1])
	if wr[1]["status"] != "completed" || d == nil || d["path"] != abs("notes.md") || d["newText"] != "# Notes\n" {
		t.Errorf("write_file end: %v", wr[1])
	}
	if _, has := d["oldText"]; has {
		t.Errorf("a new file's diff has an oldText: %v", d)
	}

	ed := ofCall(us, "c4")
	if len(ed) != 2 || ed[0]["kind"] != "edit" || !strings.HasPrefix(ed[0]["title"].(string), "Edit main.go") {
		t.Fatalf("edit_file: %v", ed)
	}
	d = diffOf(ed[1])
	if d == nil || d["oldText"] != "package main\n\nfunc main() {}\n" || d["newText"] != "package main\n\nfunc main() { println(1) }\n" {
		t.Errorf("edit_file diff: %v", d)
	}
	if b, _ := os.ReadFile(abs("notes.md")); string(b) != "# Notes\n" {
		t.Errorf("notes.md = %q", b)
	}
}

func contentText(u map[string]any) string {
	cs, _ := u["content"].([]any)
	for _, c := range cs {
		m, _ := c.(map[string]any)
		if m["type"] == "content" {
			inner, _ := m["content"].(map[string]any)
			s, _ := inner["text"].(string)
			return s
		}
	}
	return ""
}

func diffOf(u map[string]any) map[string]any {
	cs, _ := u["content"].([]any)
	for _, c := range cs {
		if m, _ := c.(map[string]any); m["type"] == "diff" {
			return m
		}
	}
	return nil
}

func hasLocation(u map[string]any, path string) bool {
	ls, _ := u["locations"].([]any)
	for _, l := range ls {
		if m, _ := l.(map[string]any); m["path"] == path {
			return true
		}
	}
	return false
}

var _ = json.Marshal
