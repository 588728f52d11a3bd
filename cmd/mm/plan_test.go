package main_test

// The plan tool (issue 24) through the binary: every action and what the
// model reads, bad arguments, permissions under yolo: false (-p refuses,
// the line mode asks), the ACP plan updates (checked against the schema
// with the rest of the traffic), the plan across /resume, session/load
// and compression, and the window mode showing it.

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"mm/internal/llmtest"
)

const planConfig = "provider: llamacpp\nplanTool: true\n"

// planResults are what the model read after each call, in order: the
// last message of each request after the first (a tool result, or the
// user message of a call not run).
func planResults(t *testing.T, srv *llmtest.Server) []string {
	t.Helper()
	var out []string
	for _, r := range srv.ChatRequests()[1:] {
		msgs := messagesOf(t, r)
		out = append(out, contentOf(msgs[len(msgs)-1]))
	}
	return out
}

// declared reports whether request i declared the tool name.
func declared(srv *llmtest.Server, i int, name string) bool {
	tools, _ := srv.ChatRequests()[i].JSON["tools"].([]any)
	for _, x := range tools {
		f, _ := x.(map[string]any)["function"].(map[string]any)
		if f["name"] == name {
			return true
		}
	}
	return false
}

// Every action, in -p: what the model reads is the whole plan, one line
// per item; the terminal shows the checklist after each change and the
// turn's summary counts the plan calls.
func TestPlanActions(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, planConfig)
	srv := llmtest.New(t,
		call("plan", `{"action":"create","items":["read the code","write the fix","run the tests"]}`),
		call("plan", `{"action":"update","item":2,"text":"write the fix and a test"}`),
		call("plan", `{"action":"next"}`),
		call("plan", `{"action":"update","item":"3","status":"done"}`),
		call("plan", `{"action":"delete","item":1}`),
		call("plan", `{"action":"next"}`),
		call("plan", `{"action":"delete"}`),
		llmtest.Turn{Text: "All done."},
	)
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-p", "fix it")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	want := []string{
		"1. [~] read the code\n2. [ ] write the fix\n3. [ ] run the tests",
		"1. [~] read the code\n2. [ ] write the fix and a test\n3. [ ] run the tests",
		"1. [x] read the code\n2. [~] write the fix and a test\n3. [ ] run the tests",
		"1. [x] read the code\n2. [~] write the fix and a test\n3. [x] run the tests",
		"1. [~] write the fix and a test\n2. [x] run the tests",
		"1. [x] write the fix and a test\n2. [x] run the tests",
		"(the plan is empty)",
	}
	got := planResults(t, srv)
	if strings.Join(got, "\n--\n") != strings.Join(want, "\n--\n") {
		t.Errorf("what the model read:\n%s\nwant:\n%s", strings.Join(got, "\n--\n"), strings.Join(want, "\n--\n"))
	}
	if !declared(srv, 0, "plan") {
		t.Error("planTool: true did not declare plan")
	}
	out := r.stdout + r.stderr
	for _, w := range []string{
		"📋 plan: create 3 item(s)\n   1. [~] read the code\n   2. [ ] write the fix\n   3. [ ] run the tests\n",
		"📋 plan: update 2: \"write the fix and a test\"\n",
		"📋 plan: next\n   1. [x] read the code\n   2. [~] write the fix and a test\n",
		"📋 plan: update 3: done\n",
		"📋 plan: delete the whole plan\n   (the plan is empty)\n",
		"📋 7 plan call(s)",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("the terminal does not show %q:\n%s", w, out)
		}
	}
}

// Without planTool the tool is not declared: the defaults' requests do
// not carry it.
func TestPlanNotDeclaredByDefault(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t, llmtest.Turn{Text: "Hi."})
	r := mm(t, dir, srv, noUserConfig(t), "", "-p", "hi")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	if declared(srv, 0, "plan") {
		t.Error("plan is declared without planTool: true")
	}
}

// Bad arguments fail at once, with an error that says what to send; the
// plan stays as it was.
func TestPlanBadArguments(t *testing.T) {
	dir := t.TempDir()
	// toolCallRetry: false: the refused call's correction comes next,
	// without the constrained retry before it (retry_test.go).
	cfg := writeConfig(t, dir, planConfig+"maxTurns: 30\ntoolCallRetry: false\n")
	calls := []struct{ args, want string }{
		{`{"action":"next"}`, `[error: plan: there is no plan yet: create one first, e.g. {"action":"create","items":["first step","second step"]}]`},
		{`{"action":"update","item":1,"status":"done"}`, `[error: plan: there is no plan yet: create one first, e.g. {"action":"create","items":["first step","second step"]}]`},
		{`{"action":"delete"}`, `[error: plan: there is no plan yet: create one first, e.g. {"action":"create","items":["first step","second step"]}]`},
		// No action: refused against the schema before it runs, with
		// the correction text every tool gets (a user message).
		{`{"items":["a"]}`, `[Tool call not run: plan needs the argument action (a string); it was not run]`},
		{`{"action":"launch"}`, `[error: plan: unknown action "launch"; the actions are create, update, next and delete]`},
		{`{"action":"create"}`, `[error: plan: create needs items: the steps as a list of strings, e.g. {"action":"create","items":["first step","second step"]}]`},
		{`{"action":"create","items":[1,2]}`, `[error: plan: bad arguments: items must be a list of strings, e.g. ["first step","second step"]]`},
		{`{"action":"create","items":["ok","  "]}`, `[error: plan: item 2 is empty: every item needs a text]`},
		{`{"action":"create","items":["first","second"]}`, "1. [~] first\n2. [ ] second"},
		{`{"action":"update","item":9,"status":"done"}`, `[error: plan: there is no item 9: the items are numbered 1 to 2]`},
		{`{"action":"update","item":1,"status":"finished"}`, `[error: plan: unknown status "finished"; the statuses are pending, in_progress and done]`},
		{`{"action":"update","item":1}`, `[error: plan: update needs status (pending, in_progress or done) or text for item 1]`},
		{`{"action":"update","status":"done"}`, `[error: plan: update needs item: the number of the item, 1 to 2]`},
		{`{"action":"update","item":2,"text":""}`, `[error: plan: text is empty: send the item's new text, or delete item 2]`},
		{`{"action":"delete","item":0}`, `[error: plan: there is no item 0: the items are numbered 1 to 2]`},
		{`{"action":"next"}`, "1. [x] first\n2. [~] second"},
		{`{"action":"next"}`, "1. [x] first\n2. [x] second"},
		{`{"action":"next"}`, `[error: plan: nothing to move on from: every item is done; create a new plan, or update an item]`},
	}
	var turns []llmtest.Turn
	for _, c := range calls {
		turns = append(turns, call("plan", c.args))
	}
	srv := llmtest.New(t, append(turns, llmtest.Turn{Text: "ok"})...)
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-p", "plan it")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	got := planResults(t, srv)
	for i, c := range calls {
		if i >= len(got) || got[i] != c.want {
			g := "(none)"
			if i < len(got) {
				g = got[i]
			}
			t.Errorf("%s:\n got %s\nwant %s", c.args, g, c.want)
		}
	}
}

// Under yolo: false in -p nobody can allow a plan call: it is refused
// with the reference's text and the plan is not made.
func TestPlanRefusedInOneShot(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, planConfig+"yolo: false\n")
	srv := llmtest.New(t,
		call("plan", `{"action":"create","items":["a","b"]}`),
		call("plan", `{"action":"next"}`),
		llmtest.Turn{Text: "I could not plan."},
	)
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-p", "plan it")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	got := planResults(t, srv)
	want := []string{"[plan rejected by the user]", `[error: plan: there is no plan yet: create one first, e.g. {"action":"create","items":["first step","second step"]}]`}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("what the model read: %q, want %q", got, want)
	}
}

// Under yolo: false the line mode asks before a plan call, showing the
// plan as the call would leave it; a refusal leaves the plan as it was,
// an allowed call changes it and prints the checklist.
func TestPlanAskedInLineMode(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, planConfig+"yolo: false\n")
	srv := llmtest.New(t,
		call("plan", `{"action":"create","items":["look","change"]}`),
		call("plan", `{"action":"create","items":["look around","change it"]}`),
		llmtest.Turn{Text: "Planned."},
	)
	s := startREPL(t, dir, srv, noUserConfig(t), "-c", cfg)
	s.ask("plan it")
	s.expect("🔐 plan create 2 item(s)")
	s.expect("1. [~] look")
	s.expect("[a] allow once")
	s.answer("r")
	s.expect("[plan rejected by the user]")
	s.expect("🔐 plan create 2 item(s)")
	s.expect("[a] allow once")
	s.answer("a")
	s.expect("   1. [~] look around")
	s.expect("   2. [ ] change it")
	s.expect("Planned.")
	s.expect("📋 2 plan call(s)")
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Fatal(err)
	}
	got := planResults(t, srv)
	want := []string{"[plan rejected by the user]", "1. [~] look around\n2. [ ] change it"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("what the model read: %q, want %q", got, want)
	}
}

// planEntries is a plan session update's entries as `content:priority:status`.
func planEntries(u map[string]any) string {
	entries, _ := u["entries"].([]any)
	var out []string
	for _, e := range entries {
		m, _ := e.(map[string]any)
		out = append(out, fmt.Sprintf("%v:%v:%v", m["content"], m["priority"], m["status"]))
	}
	return strings.Join(out, ",")
}

// planUpdates are the plan updates among us, each as planEntries.
func planUpdates(us []map[string]any) []string {
	var out []string
	for _, u := range us {
		if u["sessionUpdate"] == "plan" {
			out = append(out, planEntries(u))
		}
	}
	return out
}

// In ACP, under yolo: false, each plan call asks the editor (kind think);
// each change sends a `plan` session update with every entry, a failed
// call none. The traffic is checked against the ACP schema (startACP's
// cleanup). session/load sends the saved plan again; /new clears it.
func TestPlanACP(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig+"planTool: true\nyolo: false\n")
	srv := llmtest.New(t,
		toolCall("p1", "plan", `{"action":"create","items":["look","change"]}`),
		toolCall("p2", "plan", `{"action":"next"}`),
		toolCall("p3", "plan", `{"action":"update","item":5,"status":"done"}`),
		toolCall("p4", "plan", `{"action":"delete","item":1}`),
		llmtest.Turn{Text: "Planned."},
		toolCall("p5", "plan", `{"action":"next"}`),
		llmtest.Turn{Text: "Finished."},
	)
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	id := c.prompt(sid, "plan it")
	p, next := answerPermission(t, c, from, selected("allow_once"))
	tc, _ := p["toolCall"].(map[string]any)
	if tc["toolCallId"] != "p1" || tc["kind"] != "think" || tc["title"] != "plan create 2 item(s)" || contentText(tc) != "1. [~] look\n2. [ ] change" {
		t.Errorf("permission's toolCall: %v", tc)
	}
	_, next = answerPermission(t, c, next, selected("allow_once"))
	// p3 fails without asking; p4 is refused.
	_, _ = answerPermission(t, c, next, selected("reject_once"))
	if r := c.stopReason(id); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	us := c.updates(sid, from, -1)
	want := []string{"look:medium:in_progress,change:medium:pending", "look:medium:completed,change:medium:in_progress"}
	if got := planUpdates(us); strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("plan updates:\n%q\nwant\n%q", got, want)
	}
	var kinds []string
	for _, u := range us {
		if u["sessionUpdate"] == "tool_call" {
			kinds = append(kinds, fmt.Sprint(u["toolCallId"], ":", u["kind"]))
		}
	}
	if strings.Join(kinds, ",") != "p1:think,p2:think,p3:think,p4:think" {
		t.Errorf("tool call kinds: %v", kinds)
	}
	for _, u := range ofCall(us, "p3") {
		if u["status"] == "completed" {
			t.Errorf("a call with bad arguments completed: %v", u)
		}
	}
	if got := planResults(t, srv)[2:]; strings.Join(got, "|") != "[error: plan: there is no item 5: the items are numbered 1 to 2]|[plan rejected by the user]" {
		t.Errorf("what the model read: %q", got)
	}
	if code := c.closeInput(); code != 0 {
		t.Fatalf("exit %d", code)
	}

	// session/load: the plan comes back, to the editor and to the model.
	c = startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	from = c.mark()
	lid := c.request("session/load", map[string]any{"sessionId": sid, "cwd": dir, "mcpServers": []any{}})
	at, resp := c.waitFrom(from, "the session/load answer", func(m acpMsg) bool { return m.isResponse(lid) })
	if resp.Error != nil {
		t.Fatalf("session/load: %s", resp.Raw)
	}
	if got := planUpdates(c.updates(sid, from, at)); len(got) != 1 || got[0] != want[1] {
		t.Errorf("session/load's plan updates: %q, want %q", got, want[1:])
	}
	from = c.mark()
	id = c.prompt(sid, "go on")
	_, _ = answerPermission(t, c, from, selected("allow_once"))
	if r := c.stopReason(id); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	if got := lastToolMessage(t, srv.ChatRequests()[len(srv.ChatRequests())-1]); got != "1. [x] look\n2. [x] change" {
		t.Errorf("after session/load the model read %q", got)
	}
	from = c.mark()
	if r := c.stopReason(c.prompt(sid, "/new")); r != "end_turn" {
		t.Fatalf("/new: stopReason %q", r)
	}
	if got := planUpdates(c.updates(sid, from, -1)); len(got) != 1 || got[0] != "" {
		t.Errorf("/new's plan updates: %q, want one empty plan", got)
	}
}

// The plan is state, not history: /compact replaces the calls that made
// it by a summary and the model still reads the plan after it; the
// session file keeps it; /resume (line mode) and -continue (-p) bring it
// back, shown to the user, and the model goes on with it.
func TestPlanAcrossCompactionAndResume(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig+"planTool: true\ncontext:\n  keepLastTurns: 1\n")
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: -1},
		call("plan", `{"action":"create","items":["one","two","three"]}`),
		call("plan", `{"action":"next"}`),
		llmtest.Turn{Text: padded("a1")},
		llmtest.Turn{Text: "a2"},
		llmtest.Turn{Text: "the task so far: a plan of three steps"},
		llmtest.Turn{Text: "a3"},
	)
	r := mm(t, dir, srv, noUserConfig(t), "q1\nq2\n/compact\nq3\n/quit\n", "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	reqs := srv.ChatRequests()
	last := messagesOf(t, reqs[len(reqs)-1])
	var texts []string
	for _, m := range last {
		if m["role"] == "tool" {
			t.Errorf("a tool message survived the compression: %v", m)
		}
		texts = append(texts, fmt.Sprint(m["role"], ":", contentOf(m)))
	}
	all := strings.Join(texts, "|")
	wantSummary := "assistant:the task so far: a plan of three steps\n\n[The plan, as it stands (the plan tool):]\n1. [x] one\n2. [~] two\n3. [ ] three|"
	if !strings.Contains(all, wantSummary) {
		t.Errorf("after /compact the model does not read the plan after the summary:\n%s", all)
	}
	files := sessionFiles(t, dir)
	if len(files) != 1 {
		t.Fatalf("session files %v", files)
	}
	s := readSession(t, files[0])
	plan, _ := json.Marshal(s["plan"])
	if string(plan) != `[{"status":"done","text":"one"},{"status":"in_progress","text":"two"},{"status":"pending","text":"three"}]` {
		t.Errorf("the session's plan: %s", plan)
	}

	// /resume in the line mode: the plan shown, and the model's next
	// plan call goes on from it.
	srv2 := llmtest.New(t, call("plan", `{"action":"next"}`), llmtest.Turn{Text: "a4"})
	r = mm(t, dir, srv2, noUserConfig(t), "/resume\nq4\n/quit\n", "-c", cfg)
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if want := "📋 the plan:\n   1. [x] one\n   2. [~] two\n   3. [ ] three\n"; !strings.Contains(r.stdout, want) {
		t.Errorf("/resume does not show the plan %q:\n%s", want, r.stdout)
	}
	if got := planResults(t, srv2); len(got) == 0 || got[0] != "1. [x] one\n2. [x] two\n3. [~] three" {
		t.Errorf("after /resume the model read %q", got)
	}

	// -p -continue: the plan as the last run left it.
	srv3 := llmtest.New(t, call("plan", `{"action":"update","item":3,"status":"done"}`), llmtest.Turn{Text: "a5"})
	r = mm(t, dir, srv3, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "q5")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := planResults(t, srv3); len(got) == 0 || got[0] != "1. [x] one\n2. [x] two\n3. [x] three" {
		t.Errorf("after -continue the model read %q", got)
	}
}

// A session file written before the plan existed (no "plan" key) still
// loads: the conversation goes on with no plan.
func TestPlanOldSessionFileLoads(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig+"planTool: true\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "a1"})
	if r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-p", "q1"); r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	files := sessionFiles(t, dir)
	if len(files) != 1 || strings.Contains(readFileString(files[0]), `"plan"`) {
		t.Fatalf("a session without a plan: %v\n%s", files, readFileString(files[0]))
	}
	srv2 := llmtest.New(t, call("plan", `{"action":"next"}`), llmtest.Turn{Text: "a2"})
	r := mm(t, dir, srv2, noUserConfig(t), "", "-c", cfg, "-continue", "-p", "q2")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	if got := planResults(t, srv2); len(got) == 0 || !strings.HasPrefix(got[0], "[error: plan: there is no plan yet") {
		t.Errorf("the model read %q", got)
	}
	if msgs := messagesOf(t, srv2.ChatRequests()[0]); !strings.Contains(fmt.Sprint(msgs), "a1") {
		t.Errorf("the old conversation was not continued: %v", msgs)
	}
}

// The window mode: under yolo: false the permission zone shows the plan
// the call would make; once allowed, the checklist is shown under the
// tool line; -continue opens the window with the saved plan shown under
// the resumed conversation.
func TestPlanWindowMode(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig+"planTool: true\nyolo: false\n")
	srv := llmtest.New(t,
		call("plan", `{"action":"create","items":["look around","change it"]}`),
		llmtest.Turn{Text: "Planned it."},
	)
	s := startTUI(t, dir, srv, nil, "-c", cfg)
	s.inWindow()
	s.send("plan it\r")
	s.wait("🔐 plan create 2 item(s)")
	s.wait("1. [~] look around")
	s.answer("a")
	s.wait("Planned it.")
	s.waitFor("the checklist under the tool line", func(scr string) bool {
		return regexp.MustCompile(`(?s)plan create 2 item\(s\).*\n\s*1\. \[~\] look around\s*\n\s*2\. \[ \] change it`).MatchString(scr)
	})
	waitFor(t, "the plan saved", func() bool {
		f := sessionFiles(t, dir)
		return len(f) == 1 && strings.Contains(readFileString(f[0]), `"in_progress"`)
	})
	s.send("\x04")
	s.exit()

	s = startTUI(t, dir, srv, nil, "-c", cfg, "-continue")
	s.inWindow()
	s.waitFor("the resumed plan", func(scr string) bool {
		return regexp.MustCompile(`(?s)── the conversation goes on here ──.*📋 the plan:\s*\n\s*1\. \[~\] look around\s*\n\s*2\. \[ \] change it`).MatchString(scr)
	})
	s.send("\x04")
	s.exit()
}

// A model's long text (an item's new text, an unknown status or action)
// is cut to a few words in the tool line, the permission prompt and the
// ACP title, which all show the call's summary: the item itself is cut
// at 300 characters, and the checklist under the line shows it as it
// will be. It used to print the whole argument, up to the 256 KB the
// runaway guard lets through, on one line.
func TestPlanLongTextSummaryCut(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, planConfig)
	// Words that do not repeat: the runaway guard stops a repeated
	// pattern before the call is made.
	var b strings.Builder
	for i := 0; b.Len() < 20000; i++ {
		fmt.Fprintf(&b, "w%d ", i*7919%100003)
	}
	long := strings.TrimSpace(b.String())
	args, _ := json.Marshal(map[string]any{"action": "update", "item": 1, "text": long})
	bad, _ := json.Marshal(map[string]any{"action": "update", "item": 1, "status": long})
	srv := llmtest.New(t,
		call("plan", `{"action":"create","items":["a"]}`),
		call("plan", string(args)),
		call("plan", string(bad)),
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-p", "plan it")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	got := planResults(t, srv)
	if len(got) < 2 || len([]rune(got[1])) != len("1. [~] ")+300 {
		t.Fatalf("the model read %d characters, want the item cut at 300", len([]rune(got[1])))
	}
	for _, l := range strings.Split(r.stdout+r.stderr, "\n") {
		if strings.HasPrefix(l, "📋 plan:") && len(l) > 200 {
			t.Errorf("a tool line of %d bytes: %.120s…", len(l), l)
		}
	}
}

// An update without an item, or with nothing to change, says so in its
// tool line: it read `update 0: done` (an item the model never named)
// and `update 2: ` (a colon before nothing).
func TestPlanSummaryWithoutItem(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, planConfig)
	srv := llmtest.New(t,
		call("plan", `{"action":"create","items":["a","b"]}`),
		call("plan", `{"action":"update","status":"done"}`),
		call("plan", `{"action":"update","item":2}`),
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, noUserConfig(t), "", "-c", cfg, "-p", "plan it")
	if r.code != 0 {
		t.Fatalf("exit %d:\n%s\n%s", r.code, r.stdout, r.stderr)
	}
	out := r.stdout + r.stderr
	for _, w := range []string{
		"📋 plan: update (no item): done\n   [error: plan: update needs item: the number of the item, 1 to 2]\n",
		"📋 plan: update 2\n   [error: plan: update needs status (pending, in_progress or done) or text for item 2]\n",
	} {
		if !strings.Contains(out, w) {
			t.Errorf("the terminal does not show %q:\n%s", w, out)
		}
	}
}

// A plan of long items fills more than the half of the window the
// permission zone may take: the zone folds the plan, and its keys line
// stays (it was folded away with the plan's end, the question shown
// without its answers).
func TestPlanWindowPermissionKeysShown(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, sessionsConfig+"planTool: true\nyolo: false\n")
	var items []string
	for i := range 8 {
		var b strings.Builder
		for j := 0; b.Len() < 200; j++ {
			fmt.Fprintf(&b, "s%d.%d ", i, j*31%97)
		}
		items = append(items, b.String())
	}
	args, _ := json.Marshal(map[string]any{"action": "create", "items": items})
	srv := llmtest.New(t, call("plan", string(args)), llmtest.Turn{Text: "Planned it."})
	s := startTUI(t, dir, srv, nil, "-c", cfg)
	s.inWindow()
	s.send("plan it\r")
	s.wait("more line(s)")
	s.wait("[a] allow once")
	s.answer("a")
	s.wait("Planned it.")
	s.send("\x04")
	s.exit()
}

// A postTool hook that denies a plan call's output denies it after the
// call ran: the plan changed all the same, and the editor gets it (it got
// no update, its plan behind mm's until the next change). A call that
// changed nothing sends none.
func TestPlanACPUpdateAfterPostToolDeny(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, planConfig+"hooks:\n  postTool: [{match: plan, command: \"echo held back >&2; exit 2\"}]\n")
	srv := llmtest.New(t,
		toolCall("p1", "plan", `{"action":"create","items":["look","change"]}`),
		toolCall("p2", "plan", `{"action":"update","item":7,"status":"done"}`),
		llmtest.Turn{Text: "Planned."},
	)
	c := startACP(t, dir, srv, nil, "-c", cfg)
	c.initialize()
	sid := c.newSession(dir)
	from := c.mark()
	if r := c.stopReason(c.prompt(sid, "plan it")); r != "end_turn" {
		t.Fatalf("stopReason %q", r)
	}
	if got := planResults(t, srv)[0]; got != "[plan denied by a hook: held back]" {
		t.Errorf("the model read %q", got)
	}
	got := planUpdates(c.updates(sid, from, -1))
	if want := "look:medium:in_progress,change:medium:pending"; strings.Join(got, "|") != want {
		t.Errorf("plan updates %q, want %q", got, want)
	}
	if code := c.closeInput(); code != 0 {
		t.Fatalf("exit %d", code)
	}
}
