package main_test

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"mm/internal/llmtest"
)

// The model writes the arguments: a title is one line, without control
// characters, and cut; the permission request shows the whole command,
// made visible.
func TestACPTitlesAreSafe(t *testing.T) {
	dir := t.TempDir()
	var long strings.Builder
	for i := 0; long.Len() < 300; i++ {
		fmt.Fprintf(&long, "f%d ", i*i)
	}
	cmd := "touch X #\x1b]52;c;ZXZpbA==\x07\r\x1b[2K\nls -la " + long.String()
	srv := llmtest.New(t, toolCall("t1", "bash", jsonArgs(t, map[string]any{"command": cmd})), llmtest.Turn{Text: "ok"})
	cfg := writeConfig(t, dir, "provider: llamacpp\nyolo: false\n")
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	id := c.prompt(sid, "go")
	p, _ := answerPermission(t, c, from, selected("reject_once"))
	tc, _ := p["toolCall"].(map[string]any)
	title, _ := tc["title"].(string)
	if !strings.HasPrefix(title, "Run `touch X #^[]52;c;ZXZpbA==^G^M^[[2K ls -la f0 f1 f4") || !strings.HasSuffix(title, "…") || utf8.RuneCountInString(title) > 121 {
		t.Errorf("title %q", title)
	}
	if full := contentText(tc); !strings.Contains(full, "^[]52;c;ZXZpbA==^G^M^[[2K\nls -la "+long.String()) {
		t.Errorf("the request does not show the whole command: %q", full)
	}
	if r := c.stopReason(id); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	for _, u := range c.updates(sid, from, -1) {
		if s, ok := u["title"].(string); ok && strings.ContainsAny(s, "\x1b\x07\r\n") {
			t.Errorf("a title with control characters: %q", s)
		}
	}
	// Only rawInput, the call's exact arguments as JSON, holds them.
	for _, l := range c.Lines() {
		var v any
		json.Unmarshal(l.Raw, &v)
		dropRawInput(v)
		if b, _ := json.Marshal(v); l.FromAgent && strings.Contains(string(b), `\u001b`) {
			t.Errorf("mm sent an escape character: %s", b)
		}
	}
}

func dropRawInput(v any) {
	switch x := v.(type) {
	case map[string]any:
		delete(x, "rawInput")
		for _, e := range x {
			dropRawInput(e)
		}
	case []any:
		for _, e := range x {
			dropRawInput(e)
		}
	}
}

func TestACPStartFailures(t *testing.T) {
	dir := t.TempDir()
	r := mm(t, dir, nil, []string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=http://" + closedPort(t) + "/v1"}, "", "-acp")
	if r.code != 3 || r.stdout != "" || !strings.Contains(r.stderr, "no model server answered") {
		t.Errorf("no server: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	cfg := writeConfig(t, dir, "maxTurns: -1\n")
	r = mm(t, dir, nil, nil, "", "--acp", "-c", cfg)
	if r.code != 1 || r.stdout != "" || r.stderr == "" {
		t.Errorf("bad configuration: exit %d, stdout %q, stderr %q", r.code, r.stdout, r.stderr)
	}
	r = mm(t, dir, nil, nil, "", "-acp", "-p", "hi")
	if r.code != 2 || !strings.Contains(r.stderr, "does not go with -acp") {
		t.Errorf("-acp -p: exit %d, %q", r.code, r.stderr)
	}
}

// A block mm cannot read is bad params; session/close ends a session.
func TestACPPromptBlocksAndClose(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t)
	c := startACP(t, dir, srv, nil)
	c.initialize()
	sid := c.newSession(dir)
	m := c.call("session/prompt", map[string]any{"sessionId": sid, "prompt": []any{map[string]any{"type": "image", "data": "AAAA", "mimeType": "image/png"}}})
	if m.Error == nil || m.Error.Code != -32602 {
		t.Errorf("an image block: %s", m.Raw)
	}
	var res map[string]any
	c.result(c.call("session/close", map[string]any{"sessionId": sid}), &res)
	m = c.response(c.prompt(sid, "hi"))
	if m.Error == nil || !strings.Contains(m.Error.Message, sid) {
		t.Errorf("a prompt after session/close: %s", m.Raw)
	}
}

// A relative skillsDir sits beside the configuration file in ACP mode,
// wherever the editor starts mm and whatever the session's cwd.
func TestACPSkillsBesideConfig(t *testing.T) {
	conf, launch, work := t.TempDir(), t.TempDir(), t.TempDir()
	write(t, filepath.Join(conf, "skills", "deploy.md"), "---\nname: deploy\ndescription: Use when deploying.\n---\nbody\n")
	cfg := writeConfig(t, conf, "provider: llamacpp\nskillsDir: skills\n")
	c := startACP(t, launch, llmtest.New(t), nil, "-c", cfg)
	c.initialize()
	c.newSession(work)
	waitFor(t, "the session banner", func() bool { return strings.Contains(c.stderr.String(), "· tools: ") })
	if s := c.stderr.String(); !strings.Contains(s, "read_skill") || !strings.Contains(s, "skills: deploy") {
		t.Errorf("the skills beside the configuration are not found:\n%s", s)
	}
}
