package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/engine"
	"mm/internal/session"
)

// oneshotSession is sessions.enabled for mm -p: the turn is saved like a
// line-mode turn, and -resume ID / -continue put a saved conversation
// before the prompt. A resumed conversation goes on in its own file when
// no other mm holds it (so mm -continue -p in a loop keeps one file),
// else in a file of its own, as in line mode.
type oneshotSession struct {
	eng   *engine.Engine
	store *session.Store
	cur   *session.Session
	lock  *session.Lock
	// failed is the first failed save's message: done returns it, so
	// that it is told once.
	failed string
}

// startOneshotSession returns nil without sessions. It restores the
// session asked for; its error is the message to print.
func startOneshotSession(eng *engine.Engine, resume string, cont bool) (*oneshotSession, error) {
	c := eng.Config
	if !c.Sessions.Enabled {
		return nil, nil
	}
	o := &oneshotSession{eng: eng, store: &session.Store{Base: eng.Root, Dir: c.Sessions.Dir}}
	if resume == "" && !cont {
		o.cur = session.New(time.Now(), c.Model, c.Provider, eng.Cwd)
		o.lock, _ = o.store.Lock(o.cur.ID)
	} else {
		var s *session.Session
		var err error
		if cont {
			s, err = o.store.Latest()
		} else {
			s, err = o.store.Load(resume)
		}
		if err == nil {
			err = eng.Agent.Restore(s.History())
		}
		if err == nil {
			eng.Agent.Plan().Set(s.Plan)
		}
		if err != nil {
			return nil, fmt.Errorf("[resume failed: %v]", err)
		}
		o.cur, o.lock = o.store.Continue(s, time.Now(), c.Model, c.Provider, eng.Cwd)
	}
	id := o.cur.ID
	eng.Agent.Hooks().SetSession(func() string { return id })
	// During the turn, after the question, before each tool call and after
	// its result: a kill -9 mid-turn loses nothing said or run.
	eng.Agent.OnCheckpoint(func(history []*ai.Message) {
		s := *o.cur
		s.Turns++
		o.write(&s, history)
	})
	return o, nil
}

// done saves the turn, with its error when it failed (a turn the user
// stopped is no error), gives the session up, and returns a warning when
// a write failed ("" when none did).
func (o *oneshotSession) done(err error) string {
	defer o.lock.Release()
	o.cur.Turns++
	if err != nil && !errors.Is(err, context.Canceled) {
		o.cur.AddError(session.WhereGeneration, strings.TrimSpace(err.Error()), time.Now())
	}
	o.write(o.cur, o.eng.Agent.History())
	return o.failed
}

// write saves s with the history given, and keeps the first failure.
func (o *oneshotSession) write(s *session.Session, history []*ai.Message) {
	msgs, err := session.FromHistory(history)
	if err == nil {
		s.Messages = msgs
		s.Plan = o.eng.Agent.Plan().Items()
		s.Updated = time.Now()
		s.Model = o.eng.Config.Model
		err = o.store.Save(s)
	}
	if err != nil && o.failed == "" {
		o.failed = fmt.Sprintf("[%v — the conversation is not saved]", err)
	}
}
