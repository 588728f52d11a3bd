package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
	"mm/internal/llmtest"
	"mm/internal/tools"
)

// The agent is tested on the real model client against the scripted
// server, and the real bash tool in a temporary directory.

type recUI struct {
	mu        sync.Mutex
	text      strings.Builder
	thinking  strings.Builder
	started   []*Call
	ended     []*Call
	notices   []string
	progress  []llm.Progress
	composing int
	decide    func(c *Call) Decision
	asked     []string
}

func (u *recUI) Text(s string)     { u.mu.Lock(); u.text.WriteString(s); u.mu.Unlock() }
func (u *recUI) Thinking(s string) { u.mu.Lock(); u.thinking.WriteString(s); u.mu.Unlock() }
func (u *recUI) Progress(p llm.Progress) {
	u.mu.Lock()
	u.progress = append(u.progress, p)
	u.mu.Unlock()
}
func (u *recUI) Composing(string, int) { u.mu.Lock(); u.composing++; u.mu.Unlock() }
func (u *recUI) ToolStart(c *Call)     { u.started = append(u.started, c) }
func (u *recUI) ToolEnd(c *Call)       { u.ended = append(u.ended, c) }
func (u *recUI) Notice(m string)       { u.notices = append(u.notices, m) }
func (u *recUI) Permission(_ context.Context, c *Call) Decision {
	u.asked = append(u.asked, c.Name)
	if u.decide == nil {
		return Refuse
	}
	return u.decide(c)
}

type setup struct {
	srv   *llmtest.Server
	agent *Agent
	dir   string
	opts  Options
}

func newSetup(t *testing.T, tweak func(*Options), turns ...llmtest.Turn) *setup {
	t.Helper()
	srv := llmtest.New(t, turns...)
	dir := t.TempDir()
	client := &llm.Client{Provider: llm.Provider{Name: "llamacpp", LlamaCpp: true}, BaseURL: srv.URL(), Model: "tiny", HTTP: llm.NewHTTPClient(),
		Sampling: map[string]any{"max_tokens": 100}}
	reg := tools.NewRegistry()
	reg.Add(tools.NewBash(tools.BashOptions{Dir: dir, Timeout: 10 * time.Second}))
	opts := Options{
		Model: ai.NewModel("test/tiny", &ai.ModelOptions{Supports: &ai.ModelSupports{Multiturn: true, Tools: true, SystemRole: true}}, client.Generate),
		Tools: reg, System: "be brief", MaxTurns: 10, MaxOutput: 16000, MaxTokens: 100,
		Watchdog: 5 * time.Second, FirstToken: 10 * time.Second, Yolo: true,
	}
	if tweak != nil {
		tweak(&opts)
	}
	return &setup{srv: srv, agent: New(opts), dir: dir, opts: opts}
}

func bashCall(cmd string) llmtest.Turn {
	args, _ := json.Marshal(map[string]string{"command": cmd})
	return llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: string(args)}}}
}

// lastMessage is the last message of the i-th chat request.
func lastMessage(t *testing.T, s *setup, i int) map[string]any {
	t.Helper()
	reqs := s.srv.ChatRequests()
	if i >= len(reqs) {
		t.Fatalf("only %d requests", len(reqs))
	}
	msgs := reqs[i].JSON["messages"].([]any)
	return msgs[len(msgs)-1].(map[string]any)
}

func TestAnswerAndHistory(t *testing.T) {
	s := newSetup(t, nil, llmtest.Turn{Reasoning: "think", Text: "Hello there."}, llmtest.Turn{Text: "Second."})
	ui := &recUI{}
	res, err := s.agent.Ask(context.Background(), "hi", ui)
	if err != nil {
		t.Fatal(err)
	}
	if res.Text != "Hello there." || ui.text.String() != "Hello there." || ui.thinking.String() != "think" || res.ModelCalls != 1 {
		t.Errorf("res %+v text %q thinking %q", res, ui.text.String(), ui.thinking.String())
	}
	if _, err := s.agent.Ask(context.Background(), "again", ui); err != nil {
		t.Fatal(err)
	}
	msgs := s.srv.ChatRequests()[1].JSON["messages"].([]any)
	roles := []string{}
	for _, m := range msgs {
		roles = append(roles, m.(map[string]any)["role"].(string))
	}
	if strings.Join(roles, ",") != "system,user,assistant,user" {
		t.Errorf("roles %v", roles)
	}
	s.agent.Reset()
	if h := s.agent.History(); len(h) != 1 || h[0].Role != ai.RoleSystem {
		t.Errorf("after Reset: %d messages", len(h))
	}
}

func TestToolRoundTrip(t *testing.T) {
	s := newSetup(t, nil, bashCall("echo made > f.txt; cat f.txt"), llmtest.Turn{Text: "Done."})
	ui := &recUI{}
	res, err := s.agent.Ask(context.Background(), "make f", ui)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(filepath.Join(s.dir, "f.txt")); string(b) != "made\n" {
		t.Errorf("f.txt = %q", b)
	}
	if res.Text != "Done." || res.ToolCalls["bash"] != 1 || res.ModelCalls != 2 || len(ui.ended) != 1 || ui.ended[0].Output != "made\n" {
		t.Errorf("res %+v", res)
	}
	if ui.started[0].Summary != "echo made > f.txt; cat f.txt" || ui.composing == 0 {
		t.Errorf("summary %q composing %d", ui.started[0].Summary, ui.composing)
	}
	msgs := s.srv.ChatRequests()[1].JSON["messages"].([]any)
	asst := msgs[len(msgs)-2].(map[string]any)
	tc := asst["tool_calls"].([]any)[0].(map[string]any)
	// The arguments go back byte for byte as the model wrote them (here with
	// Go's \u003e escape), so the server's prompt cache still matches.
	if tc["function"].(map[string]any)["arguments"] != `{"command":"echo made \u003e f.txt; cat f.txt"}` || asst["content"] != nil {
		t.Errorf("assistant message sent back: %v", asst)
	}
	tool := msgs[len(msgs)-1].(map[string]any)
	if tool["role"] != "tool" || tool["tool_call_id"] != tc["id"] || tool["content"] != "made\n" {
		t.Errorf("tool message: %v", tool)
	}
}

func TestOutputTruncatedToMaxOutput(t *testing.T) {
	s := newSetup(t, func(o *Options) { o.MaxOutput = 3000 }, bashCall("seq 1 5000"), llmtest.Turn{Text: "ok"})
	if _, err := s.agent.Ask(context.Background(), "count", &recUI{}); err != nil {
		t.Fatal(err)
	}
	out := lastMessage(t, s, 1)["content"].(string)
	if !strings.HasPrefix(out, "1\n2\n3\n") || !strings.HasSuffix(out, "4999\n5000\n") || !strings.Contains(out, "characters cut") {
		t.Errorf("output kept: %q…%q", out[:20], out[len(out)-20:])
	}
	if n := len([]rune(out)); n > 3100 {
		t.Errorf("output %d characters, maxOutput 3000", n)
	}
}

func TestWatchdogMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		turn llmtest.Turn
		want string
	}{
		{"first token", llmtest.Turn{Fault: llmtest.FaultHangBeforeFirstByte}, "[error: no first token from the server after 2s"},
		{"between tokens", llmtest.Turn{Text: "a b c d e", Fault: llmtest.FaultHangMidStream, FaultAfter: 6}, "[error: connection hang detected after 1s"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSetup(t, func(o *Options) { o.Watchdog = time.Second; o.FirstToken = 2 * time.Second }, tc.turn, llmtest.Turn{Text: "next"})
			_, err := s.agent.Ask(context.Background(), "hi", &recUI{})
			var stop *StopError
			if !errors.As(err, &stop) || !strings.HasPrefix(err.Error(), tc.want) {
				t.Fatalf("err = %v, want %q", err, tc.want)
			}
			// The conversation goes on after a stop.
			if res, err := s.agent.Ask(context.Background(), "again", &recUI{}); err != nil || res.Text != "next" {
				t.Fatalf("next question: %v %v", res, err)
			}
			msgs := s.srv.ChatRequests()[1].JSON["messages"].([]any)
			prev := msgs[len(msgs)-2].(map[string]any)
			if prev["role"] != "assistant" || !strings.Contains(prev["content"].(string), "[interrupted: error: ") {
				t.Errorf("the stopped turn is not closed in the history: %v", prev)
			}
		})
	}
}

// firstTokenTimeout is never shorter than watchdogTimeout.
func TestFirstTokenNeverShorterThanWatchdog(t *testing.T) {
	s := newSetup(t, func(o *Options) { o.Watchdog = 3 * time.Second; o.FirstToken = 10 * time.Millisecond },
		llmtest.Turn{FirstByteDelay: 300 * time.Millisecond, Text: "ok"})
	if _, err := s.agent.Ask(context.Background(), "hi", &recUI{}); err != nil {
		t.Fatal(err)
	}
}

func TestProgressKeepsFirstTokenWaitAlive(t *testing.T) {
	// 12 reports 150 ms apart: 1.8 s in all, past a 1 s first-token wait
	// that each report restarts.
	s := newSetup(t, func(o *Options) { o.Watchdog = time.Second; o.FirstToken = time.Second },
		llmtest.Turn{Progress: []int{0, 256, 512, 768, 1024, 1280, 1536, 1792, 2048, 2304, 2560, 2816}, ChunkDelay: 150 * time.Millisecond, Text: "read"})
	ui := &recUI{}
	if _, err := s.agent.Ask(context.Background(), "hi", ui); err != nil {
		t.Fatalf("progress did not keep the wait alive: %v", err)
	}
	if len(ui.progress) != 12 {
		t.Errorf("progress reports: %v", ui.progress)
	}
}

func TestMaxTurns(t *testing.T) {
	s := newSetup(t, func(o *Options) { o.MaxTurns = 2 }, bashCall("echo 1"), bashCall("echo 2"), bashCall("echo 3"))
	_, err := s.agent.Ask(context.Background(), "loop", &recUI{})
	if err == nil || !strings.Contains(err.Error(), "all 2 turns (maxTurns)") {
		t.Fatalf("err = %v", err)
	}
	if n := len(s.srv.ChatRequests()); n != 2 {
		t.Errorf("%d model calls, want 2", n)
	}
}

func TestMaxTokensInToolCall(t *testing.T) {
	cut := func(f string) llmtest.Turn {
		t := bashCall("touch " + f)
		t.Fault = llmtest.FaultLengthInToolCall
		return t
	}
	t.Run("handed back twice then stop", func(t *testing.T) {
		s := newSetup(t, nil, cut("a"), cut("b"), cut("c"))
		ui := &recUI{}
		_, err := s.agent.Ask(context.Background(), "go", ui)
		if err == nil || err.Error() != "[error: the model hit max_tokens (100) while writing a tool call]" {
			t.Fatalf("err = %v", err)
		}
		if len(ui.started) != 0 {
			t.Error("a cut call ran")
		}
		for _, f := range []string{"a", "b", "c"} {
			if _, err := os.Stat(filepath.Join(s.dir, f)); err == nil {
				t.Errorf("%s was created by a cut call", f)
			}
		}
		msg := lastMessage(t, s, 1)
		if msg["role"] != "user" || !strings.Contains(msg["content"].(string), "smaller pieces") || !strings.Contains(msg["content"].(string), "bash") {
			t.Errorf("hand-back message: %v", msg)
		}
	})
	t.Run("recovers after one cut", func(t *testing.T) {
		s := newSetup(t, nil, cut("a"), bashCall("touch small"), llmtest.Turn{Text: "ok"})
		if _, err := s.agent.Ask(context.Background(), "go", &recUI{}); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(s.dir, "small")); err != nil {
			t.Error("the complete call did not run")
		}
	})
}

func TestPermissions(t *testing.T) {
	t.Run("refuse", func(t *testing.T) {
		s := newSetup(t, func(o *Options) { o.Yolo = false }, bashCall("touch x"), llmtest.Turn{Text: "ok"})
		ui := &recUI{decide: func(*Call) Decision { return Refuse }}
		if _, err := s.agent.Ask(context.Background(), "go", ui); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(filepath.Join(s.dir, "x")); err == nil {
			t.Error("refused call ran")
		}
		if got := lastMessage(t, s, 1)["content"]; got != "[command rejected by the user]" || !ui.ended[0].Refused {
			t.Errorf("model read %q", got)
		}
	})
	t.Run("session and never", func(t *testing.T) {
		s := newSetup(t, func(o *Options) { o.Yolo = false },
			bashCall("touch a"), bashCall("touch b"), llmtest.Turn{Text: "ok"})
		ui := &recUI{decide: func(*Call) Decision { return AllowSession }}
		if _, err := s.agent.Ask(context.Background(), "go", ui); err != nil {
			t.Fatal(err)
		}
		if len(ui.asked) != 1 {
			t.Errorf("asked %d times with allow-for-session", len(ui.asked))
		}
		for _, f := range []string{"a", "b"} {
			if _, err := os.Stat(filepath.Join(s.dir, f)); err != nil {
				t.Errorf("%s not created", f)
			}
		}
		s.agent.Reset()
		s.srv.Push(bashCall("touch c"), bashCall("touch d"), llmtest.Turn{Text: "ok"})
		ui = &recUI{decide: func(*Call) Decision { return Never }}
		if _, err := s.agent.Ask(context.Background(), "go", ui); err != nil {
			t.Fatal(err)
		}
		if len(ui.asked) != 1 || len(ui.ended) != 2 || !ui.ended[1].Refused {
			t.Errorf("never: asked %d, ended %d", len(ui.asked), len(ui.ended))
		}
	})
	t.Run("yolo runs without asking", func(t *testing.T) {
		s := newSetup(t, nil, bashCall("touch y"), llmtest.Turn{Text: "ok"})
		ui := &recUI{}
		s.agent.Ask(context.Background(), "go", ui)
		if len(ui.asked) != 0 {
			t.Error("asked with yolo")
		}
	})
}

func TestCancelKillsRunningTool(t *testing.T) {
	s := newSetup(t, nil, bashCall("sleep 30"), llmtest.Turn{Text: "never"})
	ctx, cancel := context.WithCancel(context.Background())
	ui := &recUI{}
	done := make(chan error, 1)
	go func() {
		_, err := s.agent.Ask(ctx, "wait", ui)
		done <- err
	}()
	time.Sleep(500 * time.Millisecond)
	cancel()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("err = %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("cancel did not end the turn")
	}
	if len(s.srv.ChatRequests()) != 1 {
		t.Error("the model was called again after cancel")
	}
}

func TestRunawayToolCall(t *testing.T) {
	s := newSetup(t, nil, llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "write_file", Arguments: `{"path":"a.txt","content":"` + strings.Repeat("la la ", 200)}}})
	_, err := s.agent.Ask(context.Background(), "sing", &recUI{})
	if err == nil || !strings.HasPrefix(err.Error(), "[error: the model's tool call ran away: its arguments repeat the same pattern (") ||
		!strings.HasSuffix(err.Error(), " — generation stopped; rephrase the request, or try another model]") {
		t.Fatalf("err = %v", err)
	}
}

func TestRunawayCheck(t *testing.T) {
	if runawayCheck(strings.Repeat("abcdefgh", 40)) == "" {
		t.Error("a repeated 8-character pattern was not caught")
	}
	if runawayCheck(strings.Repeat("x", 255)) != "" {
		t.Error("caught before 256 characters")
	}
	varied := strings.Builder{}
	for i := 0; varied.Len() < 5000; i++ {
		varied.WriteString(strings.Repeat("y", i%7) + "line " + string(rune('a'+i%26)) + "\n")
	}
	if msg := runawayCheck(varied.String()); msg != "" {
		t.Errorf("varied text caught: %s", msg)
	}
	if runawayCheck(strings.Repeat("0123456789", 70)+strings.Repeat("q", 256<<10)) == "" {
		t.Error("over 256 KB not caught")
	}
}

func TestRecoveredCallFromText(t *testing.T) {
	s := newSetup(t, nil,
		llmtest.Turn{Text: "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"echo recovered\"}}\n</tool_call>"},
		llmtest.Turn{Text: "ok"})
	ui := &recUI{}
	if _, err := s.agent.Ask(context.Background(), "go", ui); err != nil {
		t.Fatal(err)
	}
	if len(ui.ended) != 1 || ui.ended[0].Output != "recovered\n" {
		t.Fatalf("the call in the text did not run: %+v", ui.ended)
	}
	// The history holds a proper call, not the markup.
	msgs := s.srv.ChatRequests()[1].JSON["messages"].([]any)
	asst := msgs[len(msgs)-2].(map[string]any)
	if asst["tool_calls"] == nil || strings.Contains(fmt.Sprint(asst["content"]), "<tool_call>") {
		t.Errorf("assistant message: %v", asst)
	}
}

// Stopping the turn while the user is asked is not a refusal: the model
// must not read "rejected by the user", and the history is closed.
func TestCancelDuringPermission(t *testing.T) {
	s := newSetup(t, func(o *Options) { o.Yolo = false }, bashCall("touch x"), llmtest.Turn{Text: "next answer"})
	ctx, cancel := context.WithCancel(context.Background())
	ui := &recUI{decide: func(*Call) Decision { cancel(); return Refuse }}
	_, err := s.agent.Ask(ctx, "go", ui)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v", err)
	}
	if ui.ended[0].Refused || ui.ended[0].Output != "[not run: the turn was cancelled]" {
		t.Errorf("call: refused=%v output %q", ui.ended[0].Refused, ui.ended[0].Output)
	}
	h := s.agent.History()
	last := h[len(h)-1]
	if last.Role != ai.RoleModel || last.Text() != "[interrupted by the user]" {
		t.Errorf("history ends with %s %q", last.Role, last.Text())
	}
	if _, err := s.agent.Ask(context.Background(), "again", &recUI{}); err != nil {
		t.Fatal(err)
	}
}
