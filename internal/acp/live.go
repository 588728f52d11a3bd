package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"
	"github.com/firebase/genkit/go/ai"

	"mm/internal/agent"
	"mm/internal/engine"
	"mm/internal/llm"
	"mm/internal/session"
	"mm/internal/termsafe"
	"mm/internal/tools"
)

// live is one ACP session: its engine session and, with sessions on, its
// stored conversation.
type live struct {
	id    acpsdk.SessionId
	srv   *server
	es    *engine.Session
	files tools.Editor // the client's fs/*, nil for the disk

	store  *session.Store // nil when sessions are off
	stored *session.Session
	// lock is stored held by this mm (session.Lock); nil when none
	// could be taken.
	lock *session.Lock
	// saveFailed is set once a failed save was reported.
	saveFailed bool
	// sentPlan is the plan the client was sent last, as the model reads
	// it (plan.go).
	sentPlan string

	mu     sync.Mutex
	cancel context.CancelFunc // the running turn's; nil while idle
	idle   chan struct{}      // closed when the running turn ends
	// usedIDs are the toolCallIds the editor has seen in this session;
	// callIDs the ids of this turn's calls.
	usedIDs map[string]bool
	callIDs map[*agent.Call]acpsdk.ToolCallId
	// lastProgress is when the last _mm/progress went (progress.go).
	lastProgress time.Time
}

// toolCallID is the id the editor knows a call by: the model's own when
// it is a plain token not used before in this session, else a new one.
// The model writes the ids, and reuses them (call_1 at every turn, twice
// in one reply); an editor keys its tool call entries by id, so two calls
// under one id would show as one.
func (l *live) toolCallID(c *agent.Call) acpsdk.ToolCallId {
	l.mu.Lock()
	defer l.mu.Unlock()
	if id, ok := l.callIDs[c]; ok {
		return id
	}
	if l.usedIDs == nil {
		l.usedIDs = map[string]bool{}
	}
	if l.callIDs == nil {
		l.callIDs = map[*agent.Call]acpsdk.ToolCallId{}
	}
	id := c.ID
	if !plainID(id) || l.usedIDs[id] {
		base := "call"
		if plainID(id) {
			base = id
		}
		for n := len(l.usedIDs) + 1; ; n++ {
			if id = fmt.Sprintf("%s-%d", base, n); !l.usedIDs[id] {
				break
			}
		}
	}
	l.usedIDs[id] = true
	l.callIDs[c] = acpsdk.ToolCallId(id)
	return acpsdk.ToolCallId(id)
}

// forgetCalls drops the ids of the calls of the turn that ended (the
// editor keeps them in usedIDs).
func (l *live) forgetCalls() {
	l.mu.Lock()
	l.callIDs = nil
	l.mu.Unlock()
}

// plainID reports whether a model's call id can be the editor's as it
// is: 1 to 64 letters, digits, '-', '_' or '.'.
func plainID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// begin marks the session busy and returns the turn's context, derived
// from the connection's (never from the SDK's request context: the SDK
// cancels that one when another prompt of the session arrives).
func (l *live) begin() (context.Context, func(), error) {
	s := l.srv
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil, nil, &acpsdk.RequestError{Code: -32603, Message: "mm is shutting down"}
	}
	l.mu.Lock()
	if l.cancel != nil {
		l.mu.Unlock()
		s.mu.Unlock()
		return nil, nil, &acpsdk.RequestError{Code: -32603, Message: fmt.Sprintf("session %s is already running a prompt: wait for its answer, or cancel it (session/cancel)", l.id)}
	}
	ctx, cancel := context.WithCancel(s.ctx)
	l.cancel = cancel
	idle := make(chan struct{})
	l.idle = idle
	l.mu.Unlock()
	s.turns.Add(1)
	s.mu.Unlock()
	return llm.WithWorkDir(ctx, l.es.Cwd), func() {
		l.mu.Lock()
		l.cancel = nil
		l.mu.Unlock()
		cancel()
		close(idle)
		s.turns.Done()
	}, nil
}

func (l *live) running() bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cancel != nil
}

// stop cancels the running turn.
func (l *live) stop() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.cancel != nil {
		l.cancel()
	}
}

// waitIdle waits for the running turn to end, at most d.
func (l *live) waitIdle(d time.Duration) {
	l.mu.Lock()
	idle := l.idle
	running := l.cancel != nil
	l.mu.Unlock()
	if !running {
		return
	}
	select {
	case <-idle:
	case <-time.After(d):
	}
}

// update sends one session/update. It is never tied to the turn's
// context: what a cancelled turn still reports (its calls' last status)
// reaches the client before the answer.
func (l *live) update(u acpsdk.SessionUpdate) {
	if err := l.srv.conn.SessionUpdate(context.Background(), acpsdk.SessionNotification{SessionId: l.id, Update: u}); err != nil {
		l.srv.log.line(fmt.Sprintf("session %s: cannot send an update: %v", l.id, err))
	}
}

// notice is a line about something mm did: on stderr, and as a thought
// so that the user sees it.
func (l *live) notice(msg string) {
	l.srv.log.line(fmt.Sprintf("session %s: %s", l.id, msg))
	l.update(acpsdk.UpdateAgentThoughtText(termsafe.Text("· " + msg + "\n")))
}

// prompt runs one prompt: a slash command, or a question to the agent.
func (l *live) prompt(blocks []acpsdk.ContentBlock) (acpsdk.PromptResponse, error) {
	ctx, done, err := l.begin()
	if err != nil {
		return acpsdk.PromptResponse{}, err
	}
	defer done()
	defer l.forgetCalls()
	if name, ok := slashCommand(blocks); ok {
		return l.command(ctx, name)
	}
	if resp, ok := l.slashAsk(ctx, blocks); ok { // ask.go
		return resp, nil
	}
	question, err := PromptText(ctx, blocks, l.srv.cfg.MaxOutput, l.read)
	if err != nil {
		return acpsdk.PromptResponse{}, invalidParams("%v", err)
	}
	if strings.TrimSpace(question) == "" {
		return acpsdk.PromptResponse{}, invalidParams("the prompt is empty")
	}
	ui := &turnUI{l: l, yolo: l.srv.cfg.Yolo, thinking: l.srv.cfg.ShowThinking}
	_, err = l.es.Agent.Ask(ctx, question, ui)
	l.afterTurn(err)
	var stop *agent.StopError
	switch {
	case err == nil:
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, nil
	case errors.Is(err, context.Canceled):
		// Never an error: the SDK would turn a cancellation into one.
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
	case errors.As(err, &stop) && stop.Reason == agent.StopMaxTurns:
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonMaxTurnRequests}, nil
	case errors.As(err, &stop) && stop.Reason == agent.StopMaxTokens:
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonMaxTokens}, nil
	case errors.As(err, &stop) && stop.Reason == agent.StopDenied:
		// A userPrompt hook refused the question: not sent; the user
		// reads why.
		l.update(acpsdk.UpdateAgentMessageText(termsafe.Text(stop.Error())))
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonRefusal}, nil
	}
	// The watchdog, the loop detector, the engine: the text the line
	// mode shows.
	msg := termsafe.Text(err.Error())
	l.srv.log.line(fmt.Sprintf("session %s: %s", l.id, msg))
	return acpsdk.PromptResponse{}, &acpsdk.RequestError{Code: -32603, Message: msg}
}

// read is how a prompt's resource link is read: the way read_file reads
// (through the editor when it holds the files), with its refusals — a
// FIFO, a device, a binary or oversized file named by the client is
// described, never read.
func (l *live) read(ctx context.Context, abs string) (string, error) {
	o := tools.FileOptions{Dir: l.es.Cwd, Editor: l.files}
	return o.ReadText(ctx, abs)
}

// afterTurn saves the conversation once a prompt has run, with the
// turn's error (a stop by mm included; a cancelled turn is no error), as
// the line mode does.
func (l *live) afterTurn(err error) {
	// A question a userPrompt hook refused was not sent: no turn to
	// keep, and no empty session to start.
	var stop *agent.StopError
	if l.store == nil || errors.As(err, &stop) && stop.Reason == agent.StopDenied {
		return
	}
	l.stored.Turns++
	if err != nil && !errors.Is(err, context.Canceled) {
		l.stored.AddError(session.WhereGeneration, err.Error(), time.Now())
	}
	l.save()
}

// recordError adds an error to the stored session's errors (written with
// the next save).
func (l *live) recordError(where, msg string) {
	if l.store != nil {
		l.stored.AddError(where, msg, time.Now())
	}
}

// save writes the stored session with the agent's history.
func (l *live) save() {
	if l.store == nil {
		return
	}
	l.saveFailure(l.write(l.stored, l.es.Agent.History()))
}

// checkpoint writes the conversation as it stands during a turn, the
// running prompt counted (the end of the turn writes it again, whole):
// a kill -9 mid-turn loses neither the prompt nor the tools' work.
func (l *live) checkpoint(history []*ai.Message) {
	s := *l.stored
	s.Turns++
	l.saveFailure(l.write(&s, history))
}

// write saves s with the history given.
func (l *live) write(s *session.Session, history []*ai.Message) error {
	msgs, err := session.FromHistory(history)
	if err == nil {
		s.Messages = msgs
		s.Plan = l.es.Agent.Plan().Items()
		s.Updated = time.Now()
		s.Model = l.srv.cfg.Model
		err = l.store.Save(s)
	}
	return err
}

// saveFailure tells a failed save, once.
func (l *live) saveFailure(err error) {
	if err != nil && !l.saveFailed {
		l.saveFailed = true
		l.notice(fmt.Sprintf("[%v — the conversation is not saved]", err))
	}
}

func trimBrackets(s string) string { return strings.Trim(s, "[]") }
