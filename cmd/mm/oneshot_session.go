package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"mm/internal/engine"
	"mm/internal/session"
)

// oneshotSession is sessions.enabled for mm -p: the turn is saved like a
// line-mode turn, and -resume ID / -continue put a saved conversation
// before the prompt. A resumed conversation goes on in a file of its own,
// as in line mode.
type oneshotSession struct {
	eng   *engine.Engine
	store *session.Store
	cur   *session.Session
}

// startOneshotSession returns nil without sessions. It restores the
// session asked for; its error is the message to print.
func startOneshotSession(eng *engine.Engine, resume string, cont bool) (*oneshotSession, error) {
	c := eng.Config
	if !c.Sessions.Enabled {
		return nil, nil
	}
	o := &oneshotSession{eng: eng, store: &session.Store{Base: eng.Root, Dir: c.Sessions.Dir}}
	o.cur = session.New(time.Now(), c.Model, c.Provider, eng.Cwd)
	if resume == "" && !cont {
		return o, nil
	}
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
	if err != nil {
		return nil, fmt.Errorf("[resume failed: %v]", err)
	}
	o.cur.Turns, o.cur.ResumedFrom, o.cur.Errors = s.Turns, s.ID, s.Errors
	return o, nil
}

// done saves the turn, with its error when it failed (a turn the user
// stopped is no error), and returns a warning when the file could not be
// written ("" when it was).
func (o *oneshotSession) done(err error) string {
	o.cur.Turns++
	if err != nil && !errors.Is(err, context.Canceled) {
		o.cur.AddError(session.WhereGeneration, strings.TrimSpace(err.Error()), time.Now())
	}
	msgs, err := session.FromHistory(o.eng.Agent.History())
	if err == nil {
		o.cur.Messages = msgs
		o.cur.Updated = time.Now()
		o.cur.Model = o.eng.Config.Model
		err = o.store.Save(o.cur)
	}
	if err != nil {
		return fmt.Sprintf("[%v — the conversation is not saved]", err)
	}
	return ""
}
