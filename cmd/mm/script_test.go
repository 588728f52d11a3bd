package main_test

// The script contract of mm -p (docs/scripting.md): without a terminal,
// stdout holds the final answer only; --json makes stdout one JSON event per
// line; -C, -m, and the usage errors a script meets.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"mm/internal/llmtest"
)

// The narration of a round that calls a tool goes to stderr, before the
// tool line; stdout gets the last round's text and nothing else.
func TestScriptStdoutHoldsOnlyTheFinalAnswer(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Turn{Text: "Let me look at the files.", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo listed"}`}}},
		llmtest.Turn{Text: "Now a second look.\n", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo again"}`}}},
		llmtest.Turn{Text: "There are two files."},
	)
	r := mm(t, t.TempDir(), srv, nil, "", "-p", "what is here?")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if r.stdout != "There are two files.\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	order := []string{"Let me look at the files.\n", "🛠️ bash: echo listed", "Now a second look.\n", "🛠️ bash: echo again"}
	at := 0
	for _, want := range order {
		i := strings.Index(r.stderr[at:], want)
		if i < 0 {
			t.Fatalf("stderr lacks %q after offset %d:\n%s", want, at, r.stderr)
		}
		at += i + len(want)
	}
	if strings.Contains(r.stderr, "There are two files.") {
		t.Errorf("the answer is also on stderr:\n%s", r.stderr)
	}
}

// A round that ends with a notice instead of a call (a call cut by
// max_tokens, handed back) is narration too: its text goes to stderr,
// before the notice.
func TestScriptNarrationBeforeANotice(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Turn{Text: "Writing the file.", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo one two three four five six"}`}}, Fault: llmtest.FaultLengthInToolCall},
		llmtest.Turn{Text: "Done in smaller pieces."},
	)
	r := mm(t, t.TempDir(), srv, nil, "", "-p", "write it")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if r.stdout != "Done in smaller pieces.\n" {
		t.Errorf("stdout = %q", r.stdout)
	}
	i, j := strings.Index(r.stderr, "Writing the file."), strings.Index(r.stderr, "cut at max_tokens")
	if i < 0 || j < 0 || i > j {
		t.Errorf("the narration is not on stderr before the notice:\n%s", r.stderr)
	}
}

// A turn that fails leaves no half answer on stdout: what the model said
// goes to stderr with the error.
func TestScriptFailedTurnWritesNothingOnStdout(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Turn{Text: "I will run it.", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"true"}`}}},
		llmtest.Turn{Text: "The answer starts here and", Fault: llmtest.FaultDrop, FaultAfter: 3},
	)
	r := mm(t, t.TempDir(), srv, nil, "", "-p", "go")
	if r.code != 3 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if r.stdout != "" {
		t.Errorf("stdout = %q", r.stdout)
	}
	if !strings.Contains(r.stderr, "I will run it.") || !strings.Contains(r.stderr, "[engine error") {
		t.Errorf("stderr:\n%s", r.stderr)
	}
}

// event is one line of mm -p --json.
type event map[string]any

// jsonEvents parses every line of stdout: each must be a JSON object with
// a "type".
func jsonEvents(t *testing.T, stdout string) []event {
	t.Helper()
	if !strings.HasSuffix(stdout, "\n") {
		t.Fatalf("stdout does not end with a newline: %q", stdout)
	}
	var evs []event
	for i, line := range strings.Split(strings.TrimSuffix(stdout, "\n"), "\n") {
		var e event
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		if err := dec.Decode(&e); err != nil || dec.More() {
			t.Fatalf("line %d is not one JSON object (%v): %q", i+1, err, line)
		}
		if typ, _ := e["type"].(string); typ == "" {
			t.Fatalf("line %d has no type: %q", i+1, line)
		}
		evs = append(evs, e)
	}
	return evs
}

func ofType(evs []event, typ string) []event {
	var out []event
	for _, e := range evs {
		if e["type"] == typ {
			out = append(out, e)
		}
	}
	return out
}

func num(t *testing.T, e event, key string) int64 {
	t.Helper()
	n, ok := e[key].(json.Number)
	if !ok {
		t.Fatalf("%s: %v is not a number in %v", key, e[key], e)
	}
	v, err := n.Int64()
	if err != nil {
		t.Fatalf("%s: %v", key, err)
	}
	return v
}

// Every event of a run, one JSON object per line: the deltas, the calls
// with their arguments, output and duration, a refusal, a notice, the
// usage, the answer, and the result last.
func TestScriptJSONEvents(t *testing.T) {
	dir := t.TempDir()
	srv := llmtest.New(t,
		llmtest.Turn{Reasoning: "Listing first.", Text: "Let me look.", ToolCalls: []llmtest.ToolCall{
			{ID: "c1", Name: "read_file", Arguments: `{"path":"notes.txt"}`},
			{ID: "c2", Name: "bash", Arguments: `{"command":"echo hi \u001b[2J"}`},
		}, Usage: &llmtest.Usage{PromptTokens: 100, CompletionTokens: 10, CachedTokens: 40}},
		llmtest.Turn{Text: "Half a call", ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"echo a b c d e f g"}`}}, Fault: llmtest.FaultLengthInToolCall,
			Usage: &llmtest.Usage{PromptTokens: 150, CompletionTokens: 5}},
		llmtest.Turn{Text: "The notes say \u009b hello.", Usage: &llmtest.Usage{PromptTokens: 160, CompletionTokens: 7}},
	)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := mm(t, dir, srv, []string{"AGENT_YOLO=false"}, "", "-p", "read the notes", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, bad := range []string{"\x1b", "\u009b"} {
		if strings.Contains(r.stdout, bad) {
			t.Errorf("stdout holds %q raw:\n%q", bad, r.stdout)
		}
	}
	evs := jsonEvents(t, r.stdout)
	if typ := evs[0]["type"]; typ != "start" {
		t.Errorf("first event %v", evs[0])
	}
	last := evs[len(evs)-1]
	if last["type"] != "result" || num(t, last, "exit_code") != 0 || last["reason"] != "answered" || last["answer"] != "The notes say \u009b hello." {
		t.Errorf("last event %v", last)
	}
	if len(ofType(evs, "result")) != 1 {
		t.Errorf("more than one result")
	}
	join := func(typ string) string {
		var b strings.Builder
		for _, e := range ofType(evs, typ) {
			b.WriteString(e["text"].(string))
		}
		return b.String()
	}
	if got := join("thinking"); got != "Listing first." {
		t.Errorf("thinking = %q", got)
	}
	if got := join("text"); got != "Let me look.Half a callThe notes say \u009b hello." {
		t.Errorf("text = %q", got)
	}
	starts, ends := ofType(evs, "tool_start"), ofType(evs, "tool_end")
	if len(starts) != 2 || len(ends) != 2 {
		t.Fatalf("%d tool_start, %d tool_end:\n%s", len(starts), len(ends), r.stdout)
	}
	if starts[0]["id"] != "c1" || starts[0]["name"] != "read_file" || starts[0]["arguments"].(map[string]any)["path"] != "notes.txt" {
		t.Errorf("tool_start %v", starts[0])
	}
	if ends[0]["id"] != "c1" || !strings.Contains(ends[0]["output"].(string), "hello") || ends[0]["refused"] != false {
		t.Errorf("tool_end %v", ends[0])
	}
	num(t, ends[0], "duration_ms")
	if starts[1]["name"] != "bash" || starts[1]["arguments"].(map[string]any)["command"] != "echo hi \x1b[2J" {
		t.Errorf("tool_start %v", starts[1])
	}
	if ends[1]["refused"] != true || ends[1]["output"] != "[command rejected by the user]" {
		t.Errorf("tool_end %v", ends[1])
	}
	perm := ofType(evs, "permission")
	if len(perm) != 1 || perm[0]["id"] != "c2" || perm[0]["name"] != "bash" || perm[0]["decision"] != "refused" {
		t.Errorf("permission events %v", perm)
	}
	if n := ofType(evs, "notice"); len(n) != 1 || !strings.Contains(n[0]["message"].(string), "max_tokens") {
		t.Errorf("notice events %v", n)
	}
	u := ofType(evs, "usage")
	if len(u) != 1 || num(t, u[0], "input_tokens") != 410 || num(t, u[0], "output_tokens") != 22 || num(t, u[0], "cached_tokens") != 40 {
		t.Errorf("usage events %v", u)
	}
	if a := ofType(evs, "answer"); len(a) != 1 || a[0]["text"] != "The notes say \u009b hello." {
		t.Errorf("answer events %v", a)
	}
	if strings.Contains(r.stderr, "🛠️") || strings.Contains(r.stderr, "Let me look.") {
		t.Errorf("activity on stderr with --json:\n%s", r.stderr)
	}
}

// A failed run still ends with a result line, and the error is also on
// stderr.
func TestScriptJSONFailure(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Fault: llmtest.FaultHTTP500, ErrorMessage: "the GPU is on fire"})
	r := mm(t, t.TempDir(), srv, nil, "", "--json", "-p", "go")
	if r.code != 3 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	evs := jsonEvents(t, r.stdout)
	last := evs[len(evs)-1]
	if last["type"] != "result" || num(t, last, "exit_code") != 3 || last["reason"] != "engine_error" || !strings.Contains(last["error"].(string), "the GPU is on fire") {
		t.Errorf("last event %v", last)
	}
	if len(ofType(evs, "answer")) != 0 {
		t.Errorf("an answer event on failure")
	}
	if !strings.Contains(r.stderr, "the GPU is on fire") {
		t.Errorf("stderr:\n%s", r.stderr)
	}

	// What stops mm before the turn (a usage error once --json -p is
	// known, the configuration, no server) is a result line too.
	dir := t.TempDir()
	bad := writeConfig(t, dir, "maxTurns: many\n")
	for _, tc := range []struct {
		env    []string
		args   []string
		code   int64
		reason string
	}{
		{nil, []string{"--json", "-p", "  "}, 2, "usage_error"},
		{nil, []string{"--json", "-C", filepath.Join(dir, "nope"), "-p", "hi"}, 2, "usage_error"},
		{nil, []string{"--json", "-c", bad, "-p", "hi"}, 1, "config_error"},
		{[]string{"AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL=http://127.0.0.1:1/v1"}, []string{"--json", "-p", "hi"}, 3, "engine_error"},
	} {
		r := mm(t, dir, nil, tc.env, "", tc.args...)
		evs := jsonEvents(t, r.stdout)
		last := evs[len(evs)-1]
		if r.code != int(tc.code) || len(evs) != 1 || last["type"] != "result" || num(t, last, "exit_code") != tc.code || last["reason"] != tc.reason {
			t.Errorf("%q: exit %d, events %v", tc.args, r.code, evs)
		}
		if msg, _ := last["error"].(string); msg == "" || !strings.Contains(r.stderr, msg) {
			t.Errorf("%q: error %q not on stderr:\n%s", tc.args, msg, r.stderr)
		}
	}
}

// Usage errors a script meets: exit 2, a message on stderr, nothing on
// stdout, and no request to the model.
func TestScriptUsageErrors(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "file"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		stdin  string
		args   []string
		stderr string
	}{
		{"blank prompt", "", []string{"-p", " \t\n "}, "the prompt is empty"},
		{"blank prompt and stdin", " \n\n", []string{"-p", "  "}, "the prompt is empty"},
		{"-no-stdin without -p", "", []string{"-no-stdin"}, "-no-stdin goes with -p"},
		{"--json without -p", "", []string{"--json"}, "-json goes with -p"},
		{"-C missing", "", []string{"-C", filepath.Join(dir, "nope"), "-p", "hi"}, "-C " + filepath.Join(dir, "nope") + ": the directory does not exist"},
		{"-C a file", "", []string{"-C", filepath.Join(dir, "file"), "-p", "hi"}, ": not a directory"},
		{"blank -m", "", []string{"-m", " ", "-p", "hi"}, "-m needs a model name"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t)
			r := mm(t, dir, srv, nil, tc.stdin, tc.args...)
			if r.code != 2 || !strings.Contains(r.stderr, tc.stderr) || r.stdout != "" {
				t.Errorf("exit %d, stdout %q, stderr:\n%s\nwant %q", r.code, r.stdout, r.stderr, tc.stderr)
			}
			if n := len(srv.ChatRequests()); n != 0 {
				t.Errorf("%d chat requests", n)
			}
		})
	}
}

// mm -p with a pipe that stays open says, on stderr, that it waits for
// stdin and how not to; once the pipe closes it goes on with the text.
func TestScriptSaysItWaitsForStdin(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, mmBin, "-p", "summarise")
	cmd.Dir = t.TempDir()
	cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if _, err := stdin.Write([]byte("first part\n")); err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(stderr)
	var seen []string
	for sc.Scan() {
		seen = append(seen, sc.Text())
		if strings.Contains(sc.Text(), "waiting for stdin") {
			break
		}
	}
	line := seen[len(seen)-1]
	if !strings.Contains(line, "waiting for stdin") || !strings.Contains(line, "-no-stdin") || !strings.Contains(line, "</dev/null") {
		t.Fatalf("stderr so far: %q", seen)
	}
	stdin.Write([]byte("second part\n"))
	stdin.Close()
	var rest strings.Builder
	for sc.Scan() {
		rest.WriteString(sc.Text() + "\n")
	}
	r := runResult(t, cmd.Wait(), out.String(), strings.Join(seen, "\n")+"\n"+rest.String())
	if r.code != 0 || r.stdout != "ok\n" {
		t.Fatalf("exit %d stdout %q stderr:\n%s", r.code, r.stdout, r.stderr)
	}
	msgs := srv.ChatRequests()[0].JSON["messages"].([]any)
	if q := msgs[len(msgs)-1].(map[string]any)["content"]; q != "summarise\n\nfirst part\nsecond part" {
		t.Errorf("question %q", q)
	}
}

// -C DIR runs mm as if started in DIR: its agent.yaml, its files, the
// commands' working directory.
func TestScriptDirFlag(t *testing.T) {
	proj := t.TempDir()
	if err := os.WriteFile(filepath.Join(proj, "agent.yaml"), []byte("model: from-the-project\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"pwd > here.txt"}`}}},
		llmtest.Turn{Text: "done"},
	)
	elsewhere := t.TempDir()
	r := mm(t, elsewhere, srv, nil, "", "-C", proj, "-p", "where am I?")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if m := srv.ChatRequests()[0].JSON["model"]; m != "from-the-project" {
		t.Errorf("model %v: ./agent.yaml of -C DIR not read", m)
	}
	b, err := os.ReadFile(filepath.Join(proj, "here.txt"))
	if err != nil {
		t.Fatalf("the command did not run in DIR: %v", err)
	}
	want, _ := filepath.EvalSymlinks(proj)
	if got, _ := filepath.EvalSymlinks(strings.TrimSpace(string(b))); got != want {
		t.Errorf("pwd = %q, want %q", got, want)
	}
	if _, err := os.Stat(filepath.Join(elsewhere, "here.txt")); err == nil {
		t.Error("the command ran in the starting directory")
	}
}

// -m and --model win over AGENT_MODEL and the file, with -p and in the
// line mode.
func TestModelFlag(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "model: from-the-file\n")
	env := []string{"AGENT_MODEL=from-the-env"}
	for _, args := range [][]string{
		{"-c", cfg, "-m", "from-the-flag", "-p", "hi"},
		{"-c", cfg, "--model", "from-the-flag", "-p", "hi"},
		{"-c", cfg, "--model=from-the-flag"}, // line mode, the question on stdin
	} {
		srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
		r := mm(t, dir, srv, env, "hi\n/quit\n", args...)
		if r.code != 0 {
			t.Fatalf("%q: exit %d\n%s", args, r.code, r.stderr)
		}
		reqs := srv.ChatRequests()
		if len(reqs) != 1 {
			t.Fatalf("%q: %d requests", args, len(reqs))
		}
		if m := reqs[0].JSON["model"]; m != "from-the-flag" {
			t.Errorf("%q: model %v", args, m)
		}
	}
}

// The help lists the new flags.
func TestScriptHelpListsFlags(t *testing.T) {
	r := mm(t, t.TempDir(), nil, nil, "", "-h")
	for _, flag := range []string{"-json", "-C DIR", "-m NAME, -model NAME", "-no-stdin"} {
		if !strings.Contains(r.stdout, "\n  "+flag+" ") {
			t.Errorf("-help does not list %s:\n%s", flag, r.stdout)
		}
	}
}

// With stdout on a terminal, the text streams as it comes: a round still
// being written shows at once, stderr elsewhere.
func TestScriptStreamsOnATerminal(t *testing.T) {
	srv := llmtest.New(t, llmtest.Turn{Text: "Streaming right now", Fault: llmtest.FaultHangMidStream, FaultAfter: 100})
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer master.Close()
	cmd := exec.Command(mmBin, "-p", "go")
	cmd.Dir = t.TempDir()
	cmd.Env = append(cleanEnv(), "AGENT_PROVIDER=llamacpp", "AGENT_BASE_URL="+srv.URL())
	var errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = tty, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	tty.Close()
	s := &ptySession{t: t, cmd: cmd, tty: master, done: make(chan error, 1)}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	defer cmd.Process.Kill()
	s.expect("Streaming right now")
	cmd.Process.Kill()
	cmd.Wait()
}
