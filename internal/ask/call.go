package ask

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/tools"
)

// cancelWait is how long a cancelled ask waits for the child to answer
// its prompt (with what it had) before it gives up on it.
const cancelWait = 5 * time.Second

// call is one ask: a session of a child.
type call struct {
	pool   *Pool
	name   string
	facade any // the asking turn's facade
	watch  *watch
	yolo   bool
	ctx    context.Context

	mu sync.Mutex
	// round is the text since the asked agent's last tool call: its
	// answer, when the turn ends there. said is all its text before
	// that, round by round: with round, what it had said when it was
	// stopped.
	round strings.Builder
	said  []string
	calls map[acpsdk.ToolCallId]*tools.AgentCall
}

func (c *call) watcher() tools.AgentWatcher {
	w, _ := c.facade.(tools.AgentWatcher)
	return w
}

// answer is the text of the last round: the answer of a turn that ended.
func (c *call) answer() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.TrimSpace(c.round.String())
}

// partial is everything the agent said: what a stopped ask returns.
func (c *call) partial() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	parts := append([]string(nil), c.said...)
	if r := strings.TrimSpace(c.round.String()); r != "" {
		parts = append(parts, r)
	}
	return strings.Join(parts, "\n\n")
}

// run asks prompt in a new session of the child in cwd and waits for the
// end: the answer, the child's own stop, a cancel, the watchdog, or the
// child's death.
func (ch *child) run(ctx context.Context, c *call, cwd, prompt string) tools.AgentReply {
	c.ctx = ctx
	name := c.name
	fail := func(code int, reason string) tools.AgentReply {
		if a := c.partial(); a != "" {
			return tools.AgentReply{Text: a + "\n" + stopped(name, reason), Answer: a, Failed: true, Exit: code}
		}
		return tools.AgentReply{Text: failed(name, reason), Failed: true, Exit: code}
	}
	sctx, cancelSession := context.WithTimeout(context.Background(), startWait)
	defer cancelSession()
	sess, err := ch.conn.NewSession(sctx, acpsdk.NewSessionRequest{Cwd: cwd, McpServers: []acpsdk.McpServer{}})
	if err != nil {
		if ch.gone() {
			err = ch.endError(err)
		}
		return fail(exitEngine, reasonOf(err))
	}
	// From the prompt on, the asked agent reads it: its firstTokenTimeout.
	c.watch.read()
	ch.mu.Lock()
	ch.calls[sess.SessionId] = c
	ch.mu.Unlock()
	defer func() {
		ch.mu.Lock()
		delete(ch.calls, sess.SessionId)
		ch.mu.Unlock()
		// The session is the child's to free; mm does not wait for it.
		go func() {
			cctx, cancel := context.WithTimeout(context.Background(), cancelWait)
			defer cancel()
			ch.conn.CloseSession(cctx, acpsdk.CloseSessionRequest{SessionId: sess.SessionId})
		}()
	}()

	type result struct {
		resp acpsdk.PromptResponse
		err  error
	}
	got := make(chan result, 1)
	go func() {
		resp, err := ch.conn.Prompt(context.Background(), acpsdk.PromptRequest{SessionId: sess.SessionId, Prompt: []acpsdk.ContentBlock{acpsdk.TextBlock(prompt)}})
		got <- result{resp, err}
	}()
	var why string // set when mm stopped the ask
	code := exitOK
	select {
	case r := <-got:
		return ch.ended(c, r.resp, r.err)
	case <-ctx.Done():
		why, code = "interrupted by the user", exitCanceled
	case <-c.watch.fired:
		why, code = c.watch.reason(), exitStopped
	case <-ch.conn.Done():
		ch.lost()
		return fail(exitEngine, ch.death())
	}
	// Stopped by mm: the child cancels its turn and answers the prompt
	// with what it had; what came until then is the partial answer.
	ch.conn.Cancel(context.Background(), acpsdk.CancelNotification{SessionId: sess.SessionId})
	select {
	case <-got:
	case <-ch.exited:
	case <-time.After(cancelWait):
	}
	a := c.partial()
	if a == "" && code != exitCanceled {
		// The watchdog: nothing came, the ask failed.
		return tools.AgentReply{Text: failed(name, why), Failed: true, Exit: code}
	}
	text := stopped(name, why)
	if a != "" {
		text = a + "\n" + text
	}
	return tools.AgentReply{Text: text, Answer: a, Failed: true, Exit: code}
}

// ended is the reply once the child answered the prompt.
func (ch *child) ended(c *call, resp acpsdk.PromptResponse, err error) tools.AgentReply {
	name := c.name
	a := c.partial()
	partial := func(code int, reason string) tools.AgentReply {
		if a == "" {
			return tools.AgentReply{Text: failed(name, reason), Failed: true, Exit: code}
		}
		return tools.AgentReply{Text: a + "\n" + stopped(name, reason), Answer: a, Failed: true, Exit: code}
	}
	if err != nil {
		if ch.lost() {
			return partial(exitEngine, ch.death())
		}
		var re *acpsdk.RequestError
		msg := err.Error()
		if errors.As(err, &re) {
			msg = re.Message
		}
		code := exitEngine
		if strings.HasPrefix(msg, "[error:") {
			code = exitStopped // the child stopped its own turn (watchdog, loop detector)
		}
		return partial(code, strings.Trim(strings.Join(strings.Fields(msg), " "), "[]"))
	}
	switch resp.StopReason {
	case acpsdk.StopReasonEndTurn:
		a := c.answer()
		if a == "" {
			return tools.AgentReply{Text: noAnswer(name), Failed: true, Exit: exitEngine}
		}
		return tools.AgentReply{Text: a, Answer: a, Exit: exitOK}
	case acpsdk.StopReasonMaxTurnRequests:
		return partial(exitStopped, "it used all its turns (maxTurns)")
	case acpsdk.StopReasonMaxTokens:
		return partial(exitStopped, "it hit max_tokens")
	case acpsdk.StopReasonCancelled:
		return partial(exitCanceled, "its turn was cancelled")
	}
	return partial(exitStopped, "it stopped: "+string(resp.StopReason))
}

// newRound keeps the text so far as said, and starts the next round.
func (c *call) newRound() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if r := strings.TrimSpace(c.round.String()); r != "" {
		c.said = append(c.said, r)
	}
	c.round.Reset()
}

// event is one session/update of the asked agent.
func (c *call) event(u acpsdk.SessionUpdate) {
	switch {
	case u.AgentMessageChunk != nil, u.AgentThoughtChunk != nil, u.ToolCall != nil:
		// Its model is producing: the limit is watchdogTimeout again.
		c.watch.token()
	default:
		c.watch.alive()
	}
	w := c.watcher()
	switch {
	case u.AgentMessageChunk != nil:
		if t := u.AgentMessageChunk.Content.Text; t != nil {
			c.mu.Lock()
			c.round.WriteString(t.Text)
			c.mu.Unlock()
			if w != nil {
				w.AgentText(c.name, t.Text)
			}
		}
	case u.AgentThoughtChunk != nil:
		if t := u.AgentThoughtChunk.Content.Text; t != nil && w != nil {
			w.AgentThinking(c.name, t.Text)
		}
	case u.ToolCall != nil:
		tc := u.ToolCall
		ac := &tools.AgentCall{ID: string(tc.ToolCallId), Title: tc.Title, Kind: tools.Kind(tc.Kind)}
		// Text before a call was narration: the answer is what follows
		// the last call.
		c.newRound()
		c.mu.Lock()
		if c.calls == nil {
			c.calls = map[acpsdk.ToolCallId]*tools.AgentCall{}
		}
		c.calls[tc.ToolCallId] = ac
		c.mu.Unlock()
		if w != nil {
			w.AgentToolStart(c.name, ac)
		}
	case u.ToolCallUpdate != nil:
		tu := u.ToolCallUpdate
		c.mu.Lock()
		ac := c.calls[tu.ToolCallId]
		c.mu.Unlock()
		if ac == nil || tu.Status == nil {
			return
		}
		if *tu.Status != acpsdk.ToolCallStatusCompleted && *tu.Status != acpsdk.ToolCallStatusFailed {
			return
		}
		ac.Failed = *tu.Status == acpsdk.ToolCallStatusFailed
		ac.Output = contentText(tu.Content)
		// The call has run: the asked agent's model reads its result.
		c.watch.read()
		// Text while a call ran was the call's (an agent this one asked
		// streams its own): the answer comes after it.
		c.newRound()
		if w != nil {
			w.AgentToolEnd(c.name, ac)
		}
	}
}

// progress is a _mm/progress report of the asked agent: a sign of life
// that shows nothing. A facade that is itself an asked mm -acp passes it
// on to the agent that asks it.
func (c *call) progress() {
	c.watch.alive()
	if p, ok := c.facade.(tools.AgentProgress); ok {
		p.AgentProgress(c.name)
	}
}

// contentText is a call's text blocks, one per line (an ask_agent call of
// the asked agent has a block per round of the agent it asked).
func contentText(cs []acpsdk.ToolCallContent) string {
	var parts []string
	for _, c := range cs {
		if c.Content != nil && c.Content.Content.Text != nil {
			parts = append(parts, c.Content.Content.Text.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// permission is the asked agent's request to run a call: this agent's
// user answers through the facade, or nobody can and it is refused.
func (c *call) permission(ctx context.Context, p acpsdk.RequestPermissionRequest) acpsdk.RequestPermissionResponse {
	want := tools.RejectOnce
	if c.yolo {
		// Its entry (or this agent) says its calls run.
		want = tools.AllowOnce
	} else if w := c.watcher(); w != nil {
		ac := &tools.AgentCall{ID: string(p.ToolCall.ToolCallId)}
		if p.ToolCall.Title != nil {
			ac.Title = *p.ToolCall.Title
		}
		if p.ToolCall.Kind != nil {
			ac.Kind = tools.Kind(*p.ToolCall.Kind)
		}
		ac.Whole = contentText(p.ToolCall.Content)
		for _, x := range p.ToolCall.Content {
			if d := x.Diff; d != nil {
				ch := tools.Diff{Path: d.Path, New: d.NewText, Existed: d.OldText != nil}
				if d.OldText != nil {
					ch.Old = *d.OldText
				}
				ac.Changes = append(ac.Changes, ch)
			}
		}
		c.watch.pause()
		want = w.AgentPermission(ctx, c.name, ac)
		c.watch.resume()
	}
	if ctx.Err() != nil {
		return acpsdk.RequestPermissionResponse{Outcome: acpsdk.NewRequestPermissionOutcomeCancelled()}
	}
	for _, o := range p.Options {
		if string(o.Kind) == want {
			return acpsdk.RequestPermissionResponse{Outcome: acpsdk.NewRequestPermissionOutcomeSelected(o.OptionId)}
		}
	}
	// The answer has no option of its kind: the closest refusal.
	for _, o := range p.Options {
		if o.Kind == acpsdk.PermissionOptionKindRejectOnce || o.Kind == acpsdk.PermissionOptionKindRejectAlways {
			return acpsdk.RequestPermissionResponse{Outcome: acpsdk.NewRequestPermissionOutcomeSelected(o.OptionId)}
		}
	}
	return acpsdk.RequestPermissionResponse{Outcome: acpsdk.NewRequestPermissionOutcomeCancelled()}
}
