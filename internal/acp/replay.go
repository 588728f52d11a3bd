package acp

import (
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/agent"
	"mm/internal/session"
	"mm/internal/termsafe"
	"mm/internal/tools"
)

// LoadSession brings a stored conversation back: its history is replayed
// as session/update notifications, in order, then answered; the next
// prompts continue it.
func (s *server) LoadSession(_ context.Context, p acpsdk.LoadSessionRequest) (acpsdk.LoadSessionResponse, error) {
	if !s.cfg.Sessions.Enabled {
		return acpsdk.LoadSessionResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionLoad)
	}
	if err := checkCwd(p.Cwd); err != nil {
		return acpsdk.LoadSessionResponse{}, err
	}
	cwd := filepath.Clean(p.Cwd)
	store := &session.Store{Base: cwd, Dir: s.cfg.Sessions.Dir}
	id := string(p.SessionId)
	if _, err := os.Lstat(filepath.Join(store.Path(), id+".json")); errors.Is(err, fs.ErrNotExist) || strings.ContainsAny(id, `/\`) {
		return acpsdk.LoadSessionResponse{}, invalidParams("there is no session %q in %s", id, store.Path())
	}
	stored, err := store.Load(id)
	if err != nil {
		return acpsdk.LoadSessionResponse{}, invalidParams("%v", err)
	}
	// The session is written by one mm at a time: one that another mm
	// holds (a line mode that resumed it) is refused rather than written
	// by both. One this connection has open is its own (open passes its
	// lock on).
	var lock *session.Lock
	s.mu.Lock()
	_, isOpen := s.sessions[p.SessionId]
	s.mu.Unlock()
	if !isOpen {
		if lock, err = store.Lock(id); errors.Is(err, session.ErrInUse) {
			return acpsdk.LoadSessionResponse{}, invalidParams("session %s is in use by another mm: load it once that mm has ended", id)
		}
		// Read again under the lock: a holder may have written it and
		// ended since the read above.
		if lock != nil {
			if stored, err = store.Load(id); err != nil {
				lock.Release()
				return acpsdk.LoadSessionResponse{}, invalidParams("%v", err)
			}
		}
	}
	l, err := s.open(p.SessionId, cwd, stored, p.McpServers)
	if err != nil {
		lock.Release()
		return acpsdk.LoadSessionResponse{}, err
	}
	if lock != nil {
		l.lock = lock
	}
	if err := l.es.Agent.Restore(stored.History()); err != nil {
		s.mu.Lock()
		delete(s.sessions, l.id)
		s.mu.Unlock()
		l.es.Close()
		l.lock.Release()
		return acpsdk.LoadSessionResponse{}, invalidParams("session %s is not loaded: %v", id, err)
	}
	l.es.Agent.Plan().Set(stored.Plan)
	l.replay(stored)
	l.replayPlan()
	l.commands()
	return acpsdk.LoadSessionResponse{}, nil
}

// replay sends the stored conversation as the client would have seen it
// live: the user's text, the model's reasoning and text, each call and
// its result, with the same titles, kinds and locations as live calls.
// mm's own notes (a cut call handed back, an interruption) are the
// history's too, and show as they are. Each call is a tool_call pending,
// then one tool_call_update completed or failed: never in_progress.
func (l *live) replay(s *session.Session) {
	defer l.forgetCalls()
	// A model may give two calls of one reply the same id: each response
	// goes with the first call of its id still open.
	calls := map[string][]*agent.Call{}
	for _, m := range s.Messages {
		for _, p := range m.Parts {
			switch {
			case m.Role == "user" && p.Type == "text":
				l.update(acpsdk.UpdateUserMessageText(termsafe.Text(p.Text)))
			case p.Type == "reasoning":
				if l.srv.cfg.ShowThinking {
					l.update(acpsdk.UpdateAgentThoughtText(termsafe.Text(p.Text)))
				}
			case m.Role == "model" && p.Type == "text":
				if p.Text != "" {
					l.update(acpsdk.UpdateAgentMessageText(termsafe.Text(p.Text)))
				}
			case p.Type == "toolRequest":
				c := l.callOf(p)
				calls[p.Ref] = append(calls[p.Ref], c)
				// Nothing runs now, and a refused call never ran: pending
				// ("not started") until its stored result closes it.
				l.update(startUpdate(l.toolCallID(c), c, acpsdk.ToolCallStatusPending))
			case p.Type == "toolResponse":
				open := calls[p.Ref]
				if len(open) == 0 {
					continue
				}
				c := open[0]
				calls[p.Ref] = open[1:]
				c.Output = p.Output
				l.update(endUpdate(l.toolCallID(c), c, !failedOutput(p.Output)))
			}
		}
	}
}

// callOf is a stored tool request as the agent would have made it: its
// kind, summary and paths from the session's tools.
func (l *live) callOf(p session.Part) *agent.Call {
	c := &agent.Call{ID: p.Ref, Name: p.Name, Args: json.RawMessage(p.Arguments), Kind: tools.KindOther, Summary: p.Arguments}
	if t := l.es.Tools.Lookup(p.Name); t != nil {
		c.Kind = t.KindFor(c.Args)
		c.Summary = t.SummaryOf(c.Args)
		c.Paths = t.PathsOf(c.Args)
	}
	return c
}

// ListSessions lists the stored sessions of a cwd (without one, of mm's
// launch directory), newest first. A file that does not load is left
// out.
func (s *server) ListSessions(_ context.Context, p acpsdk.ListSessionsRequest) (acpsdk.ListSessionsResponse, error) {
	if !s.cfg.Sessions.Enabled {
		return acpsdk.ListSessionsResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionList)
	}
	base := s.opts.LaunchDir
	if p.Cwd != nil {
		if err := checkCwd(*p.Cwd); err != nil {
			return acpsdk.ListSessionsResponse{}, err
		}
		base = filepath.Clean(*p.Cwd)
	}
	store := &session.Store{Base: base, Dir: s.cfg.Sessions.Dir}
	resp := acpsdk.ListSessionsResponse{Sessions: []acpsdk.SessionInfo{}}
	if _, err := os.Stat(store.Path()); errors.Is(err, fs.ErrNotExist) {
		return resp, nil // listing creates no directory
	}
	list, err := store.List()
	if err != nil {
		return resp, &acpsdk.RequestError{Code: -32603, Message: termsafe.Text(err.Error())}
	}
	for _, e := range list {
		if e.Session == nil || (p.Cwd != nil && e.Session.Cwd != base) {
			continue
		}
		info := acpsdk.SessionInfo{SessionId: acpsdk.SessionId(e.ID), Cwd: e.Session.Cwd}
		if q := oneLine(e.Session.FirstQuestion()); q != "" {
			if r := []rune(q); len(r) > 80 {
				q = string(r[:79]) + "…"
			}
			info.Title = &q
		}
		when := e.Updated.UTC().Format(time.RFC3339)
		info.UpdatedAt = &when
		resp.Sessions = append(resp.Sessions, info)
	}
	return resp, nil
}
