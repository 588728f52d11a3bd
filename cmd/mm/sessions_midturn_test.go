package main_test

// Sessions and issue #20: the file written during a turn (a kill -9
// mid-turn loses neither the question nor the tool results so far), a
// resumed session going on in its own file while no other mm holds it,
// and an ACP session loadable before its first prompt.

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// A mm killed with SIGKILL while its second tool call runs leaves a
// session that holds the question and the first call's result; -continue
// sends them, the prefix the killed mm sent byte for byte, the call that
// never finished answered as cut off (it may have run). The killed mm's
// lock died with it:
// the conversation goes on in the same file.
func TestSessionKill9MidTurn(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	// The second command waits for a file the test creates at the end,
	// so that it does not outlive the test.
	release := filepath.Join(dir, "release")
	t.Cleanup(func() { os.WriteFile(release, nil, 0o600) })
	srv := llmtest.New(t, llmtest.Turn{ToolCalls: []llmtest.ToolCall{
		{ID: "c1", Name: "bash", Arguments: `{"command":"echo FIRST_OUT"}`},
		{ID: "c2", Name: "bash", Arguments: `{"command":"touch second; until [ -e release ]; do sleep 0.05; done"}`},
	}})
	cmd := exec.Command(mmBin, "-c", cfg, "-p", "run both")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), noUserConfig(t)...)
	cmd.Env = append(cmd.Env, "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, "the first result in the session file", func() bool {
		files := sessionFiles(t, dir)
		return len(files) == 1 && strings.Contains(readFileString(files[0]), `"output": "FIRST_OUT\n"`)
	})
	// The second call runs: the session was written before it started
	// (killed before that, it would rightly read "not run").
	waitFor(t, "the second command to run", func() bool {
		_, err := os.Stat(filepath.Join(dir, "second"))
		return err == nil
	})
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	os.WriteFile(release, nil, 0o600)
	killed := srv.ChatRequests()[0].Body

	srv.Push(llmtest.Turn{Text: "The first printed FIRST_OUT."})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "what happened?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	last := srv.ChatRequests()[1]
	msgs := messagesOf(t, last)
	var got []string
	for _, m := range msgs[1:] {
		got = append(got, m["role"].(string)+":"+contentOf(m))
	}
	want := []string{"user:run both", "assistant:", "tool:FIRST_OUT\n", "tool:[cut off: mm ended while this call ran — it may have run, in part or whole]",
		"assistant:[interrupted: mm ended before the turn was over]", "user:what happened?"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("messages after -continue:\n%q\nwant\n%q", got, want)
	}
	prefix := killed[:bytes.Index(killed, []byte(`],"tools":`))]
	if !bytes.HasPrefix(last.Body, prefix) {
		t.Errorf("the resumed request does not start with the killed one's:\nold %s\nnew %s", prefix, last.Body)
	}
	files := sessionFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("session files: %v", files)
	}
	if s := readSession(t, files[0]); s["turns"] != 2.0 || s["resumedFrom"] != nil {
		t.Errorf("the continued session: turns %v, resumedFrom %v", s["turns"], s["resumedFrom"])
	}
}

// A mm killed while the first call of a reply runs leaves that reply in
// the session: -continue sends the call the model asked for, answered as
// cut off (it may have changed things), and the calls after it as not
// run — never the question alone, as if the model had not answered.
func TestSessionKill9DuringFirstCall(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	release := filepath.Join(dir, "release")
	t.Cleanup(func() { os.WriteFile(release, nil, 0o600) })
	srv := llmtest.New(t, llmtest.Turn{Text: "Building.", ToolCalls: []llmtest.ToolCall{
		{ID: "c1", Name: "bash", Arguments: `{"command":"touch started; until [ -e release ]; do sleep 0.05; done"}`},
		{ID: "c2", Name: "bash", Arguments: `{"command":"echo SECOND"}`},
	}})
	cmd := exec.Command(mmBin, "-c", cfg, "-p", "build it")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), noUserConfig(t)...)
	cmd.Env = append(cmd.Env, "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, "the first command to start", func() bool {
		_, err := os.Stat(filepath.Join(dir, "started"))
		return err == nil
	})
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	os.WriteFile(release, nil, 0o600)
	killed := srv.ChatRequests()[0].Body

	srv.Push(llmtest.Turn{Text: "It was cut off."})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "what happened?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	last := srv.ChatRequests()[1]
	var got []string
	for _, m := range messagesOf(t, last)[1:] {
		got = append(got, m["role"].(string)+":"+contentOf(m))
	}
	want := []string{"user:build it", "assistant:Building.",
		"tool:[cut off: mm ended while this call ran — it may have run, in part or whole]",
		"tool:[not run: mm ended before this call ran]",
		"assistant:[interrupted: mm ended before the turn was over]", "user:what happened?"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("messages after -continue:\n%q\nwant\n%q", got, want)
	}
	if !strings.Contains(string(last.Body), `"tool_calls":[{`) {
		t.Errorf("the reply's calls were not sent again: %s", last.Body)
	}
	prefix := killed[:bytes.Index(killed, []byte(`],"tools":`))]
	if !bytes.HasPrefix(last.Body, prefix) {
		t.Errorf("the resumed request does not start with the killed one's:\nold %s\nnew %s", prefix, last.Body)
	}
}

// mm -continue -p three times in a row keeps one conversation in one
// file; a mm that resumes the session while another holds it (a line
// mode that continued it and still runs) goes on in a file of its own.
func TestSessionContinueKeepsOneFile(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "one"}, llmtest.Turn{Text: "two"}, llmtest.Turn{Text: "three"})
	for i, args := range [][]string{{"-p", "q1"}, {"-continue", "-p", "q2"}, {"-continue", "-p", "q3"}} {
		r := mm(t, dir, srv, noUserConfig(t), "", append([]string{"-c", cfg}, args...)...)
		if r.code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, r.code, r.stderr)
		}
	}
	files := sessionFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("session files after three runs: %v", files)
	}
	first := strings.TrimSuffix(filepath.Base(files[0]), ".json")
	if s := readSession(t, files[0]); s["turns"] != 3.0 || len(s["messages"].([]any)) != 6 {
		t.Errorf("the session: %v", s)
	}
	if ents, _ := os.ReadDir(filepath.Dir(files[0])); len(ents) != 1 {
		t.Errorf("left in the directory: %v", ents)
	}

	// A line mode continues it and holds it while it runs.
	srv.Push(llmtest.Turn{Text: "four"}, llmtest.Turn{Text: "five"})
	p := startPlain(t, dir, srv, "-c", cfg, "-continue")
	waitFor(t, "the line mode's resume", func() bool { return strings.Contains(p.text(), "resumed session "+first) })
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "q4")
	if r.code != 0 || r.stdout != "four\n" {
		t.Fatalf("exit %d: %q %s", r.code, r.stdout, r.stderr)
	}
	io.WriteString(p.in, "q5\n")
	p.in.Close()
	p.cmd.Wait()
	if !strings.Contains(p.text(), "five") {
		t.Errorf("line mode:\n%s", p.text())
	}
	files = sessionFiles(t, dir)
	if len(files) != 2 {
		t.Fatalf("session files: %v", files)
	}
	for _, f := range files {
		s := readSession(t, f)
		switch {
		case s["id"] == first:
			if s["turns"] != 4.0 {
				t.Errorf("the line mode's session (its own file): %v", s)
			}
		case s["resumedFrom"] != first || s["turns"] != 4.0:
			t.Errorf("the second mm's session: %v", s)
		}
	}
}

// With sessions on, session/new writes the session's file at once: a
// session never prompted is loadable from another connection (the
// capability says loadSession), and goes on there.
func TestACPLoadUnpromptedSession(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "Hello."})
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	if code := c.closeInput(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	c = startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	if m := c.call("session/load", map[string]any{"sessionId": sid, "cwd": dir, "mcpServers": []any{}}); m.Error != nil {
		t.Fatalf("session/load of a session never prompted: %s", m.Raw)
	}
	if r := c.stopReason(c.prompt(sid, "hi")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	if code := c.closeInput(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	files := sessionFiles(t, dir)
	if len(files) != 1 || filepath.Base(files[0]) != sid+".json" {
		t.Fatalf("session files: %v", files)
	}
	if s := readSession(t, files[0]); s["turns"] != 1.0 || len(s["messages"].([]any)) != 2 {
		t.Errorf("the session: %v", s)
	}
}

// A session an editor created over ACP and never prompted is newer
// than the last conversation but holds none: -continue goes on with the
// conversation, not with the empty session.
func TestSessionContinueSkipsEmptyACPSession(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "a1"}, llmtest.Turn{Text: "a2"})
	if r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-p", "q1"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	c.newSession(dir)
	if code := c.closeInput(); code != 0 {
		t.Fatalf("exit %d", code)
	}
	if n := len(sessionFiles(t, dir)); n != 2 {
		t.Fatalf("%d session files", n)
	}
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "q2")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var got []string
	for _, m := range messagesOf(t, srv.ChatRequests()[1])[1:] {
		got = append(got, contentOf(m))
	}
	if strings.Join(got, ",") != "q1,a1,q2" {
		t.Errorf("-continue sent %q, want the conversation q1, a1 and then q2", got)
	}
}

// A session another mm holds (a line mode that resumed it and still
// runs) is not loaded over ACP: the two would write one file.
func TestACPLoadRefusesSessionInUse(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t, llmtest.Turn{Text: "one"})
	if r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-p", "q1"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	files := sessionFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("session files: %v", files)
	}
	id := strings.TrimSuffix(filepath.Base(files[0]), ".json")
	p := startPlain(t, dir, srv, "-c", cfg, "-continue")
	waitFor(t, "the line mode's resume", func() bool { return strings.Contains(p.text(), "resumed session "+id) })
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	m := c.call("session/load", map[string]any{"sessionId": id, "cwd": dir, "mcpServers": []any{}})
	if m.Error == nil || m.Error.Message != "session "+id+" is in use by another mm: load it once that mm has ended" {
		t.Errorf("session/load of a session in use: %s", m.Raw)
	}
	p.in.Close()
	p.cmd.Wait()
	if m := c.call("session/load", map[string]any{"sessionId": id, "cwd": dir, "mcpServers": []any{}}); m.Error != nil {
		t.Errorf("session/load once the line mode has ended: %s", m.Raw)
	}
}

// A mm killed while it asks for the summary that comes before a
// question (automatic compression) leaves a session that holds that
// question: -continue sends it, after the history as it was.
func TestSessionKill9DuringCompression(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig+"context:\n  enabled: true\n  maxMessages: 4\n  keepLastTurns: 1\n")
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: -1}, llmtest.Turn{Text: "a1"}, llmtest.Turn{Text: "a2"})
	for i, args := range [][]string{{"-p", "q1"}, {"-continue", "-p", "q2"}} {
		if r := mm(t, dir, srv, noUserConfig(t), "", append([]string{"-c", cfg}, args...)...); r.code != 0 {
			t.Fatalf("run %d: exit %d: %s", i+1, r.code, r.stderr)
		}
	}
	// The summary's answer never comes while the test runs.
	srv.Push(llmtest.Turn{Text: "SUMMARY", FirstByteDelay: time.Minute})
	cmd := exec.Command(mmBin, "-c", cfg, "-continue", "-p", "q3 survives")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), noUserConfig(t)...)
	cmd.Env = append(cmd.Env, "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, "the summary request", func() bool { return len(srv.ChatRequests()) == 3 })
	if !llmtest.IsSummaryRequest(&srv.ChatRequests()[2]) {
		t.Fatalf("the third request is no summary request: %s", srv.ChatRequests()[2].Body)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()

	srv.Push(llmtest.Turn{Text: "SUMMARY: q1, q2."}, llmtest.Turn{Text: "a4"})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "q4")
	if r.code != 0 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 5 || !llmtest.IsSummaryRequest(&reqs[3]) {
		t.Fatalf("%d requests; want q1, q2, the killed summary, a summary, q4", len(reqs))
	}
	if body := string(reqs[3].Body) + string(reqs[4].Body); !strings.Contains(body, "q3 survives") {
		t.Errorf("the question asked when mm was killed is lost:\n%s\n%s", reqs[3].Body, reqs[4].Body)
	}
}

// An ACP session whose mm was killed while a call ran loads elsewhere
// with that call replayed as failed, its text the cut-off note: it did
// not complete.
func TestACPLoadKilledMidCall(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	release := filepath.Join(dir, "release")
	t.Cleanup(func() { os.WriteFile(release, nil, 0o600) })
	srv := llmtest.New(t, llmtest.Turn{ToolCalls: []llmtest.ToolCall{
		{ID: "c1", Name: "bash", Arguments: `{"command":"touch started; until [ -e release ]; do sleep 0.05; done"}`},
	}})
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	c.prompt(sid, "wait")
	waitFor(t, "the command to start", func() bool {
		_, err := os.Stat(filepath.Join(dir, "started"))
		return err == nil
	})
	c.kill9()
	os.WriteFile(release, nil, 0o600)

	c = startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	from := c.mark()
	if m := c.call("session/load", map[string]any{"sessionId": sid, "cwd": dir, "mcpServers": []any{}}); m.Error != nil {
		t.Fatalf("session/load: %s", m.Raw)
	}
	var end map[string]any
	for _, u := range c.updates(sid, from, c.mark()) {
		if u["sessionUpdate"] == "tool_call_update" {
			end = u
		}
	}
	if end == nil || end["status"] != "failed" || !strings.Contains(mustJSON(t, end), "[cut off: mm ended while this call ran") {
		t.Errorf("the call cut off, as replayed: %v", end)
	}
	c.closeInput()
}

// A mm killed while the model reads the request after a tool result: the
// resumed request starts with that request's messages byte for byte —
// the reply's call (its arguments as sent, whatever their spacing) and
// its result came back from the file as they were sent.
func TestSessionKill9PrefixAfterToolResult(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig)
	srv := llmtest.New(t,
		llmtest.Turn{Text: "Looking.", ToolCalls: []llmtest.ToolCall{{ID: "c1", Name: "bash", Arguments: `{ "command" : "printf 'a\tb\\n'" }`}}},
		llmtest.Turn{Text: "never", FirstByteDelay: time.Minute})
	cmd := exec.Command(mmBin, "-c", cfg, "-p", "look")
	cmd.Dir = dir
	cmd.Env = append(cleanEnv(), noUserConfig(t)...)
	cmd.Env = append(cmd.Env, "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	var out lockedBuffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	waitFor(t, "the second request", func() bool { return len(srv.ChatRequests()) == 2 })
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	killed := srv.ChatRequests()[1].Body

	srv.Push(llmtest.Turn{Text: "Done."})
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "and?")
	if r.code != 0 {
		t.Fatalf("exit %d: %s%s", r.code, r.stdout, r.stderr)
	}
	last := srv.ChatRequests()[2].Body
	prefix := killed[:bytes.Index(killed, []byte(`],"tools":`))]
	if !bytes.HasPrefix(last, prefix) {
		t.Errorf("the resumed request does not start with the killed one's:\nold %s\nnew %s", prefix, last)
	}
}
