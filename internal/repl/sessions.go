package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/agent"
	"mm/internal/engine"
	"mm/internal/session"
)

// Sessions is sessions.enabled for a terminal facade (the line mode and
// the window): the conversation saved during and after each turn, /new,
// /sessions, /resume, and -resume or -continue at start. A nil *Sessions
// is sessions off.
type Sessions struct {
	eng   *engine.Engine
	store *session.Store // nil when sessions are off
	// warn shows a failed save (once): the facade's red line.
	warn func(string)

	mu  sync.Mutex
	cur *session.Session
	// lock is cur held by this mm (session.Lock); nil when none could be
	// taken.
	lock *session.Lock
	// failed is set once a save failed and was reported: the user is told
	// once, not after every turn.
	failed bool
}

// sessionsOff is what /sessions and /resume say without sessions.enabled.
const sessionsOff = "sessions are off — set sessions.enabled: true in the configuration to keep conversations"

// NewSessions hooks the saves into eng's agent when sessions are on; warn
// shows a failed save, once. Its methods run on the facade's goroutines
// one at a time (a turn's checkpoints, then its end, then a command).
func NewSessions(eng *engine.Engine, warn func(string)) *Sessions {
	s := &Sessions{eng: eng, warn: warn}
	c := eng.Config.Sessions
	if c.Enabled {
		s.store = &session.Store{Base: eng.Root, Dir: c.Dir}
		// A failed compression, /compact's or the automatic one before a
		// question, goes to the session's errors (saved with the turn, or
		// by /compact).
		eng.Agent.OnCompactionFailed(func(err error) {
			s.RecordError(session.WhereCompression, strings.Trim(err.Error(), "[]"))
		})
		// During a turn, after the question, before each tool call and after
		// its result: a kill -9 mid-turn loses nothing said or run.
		eng.Agent.OnCheckpoint(s.checkpoint)
	}
	// A hook reads the saved session's id.
	eng.Agent.Hooks().SetSession(s.ID)
	return s
}

// Enabled says whether conversations are saved.
func (s *Sessions) Enabled() bool { return s != nil && s.store != nil }

// ID is the session the conversation is saved in, "" before the first
// save (or with sessions off).
func (s *Sessions) ID() string {
	if !s.Enabled() {
		return ""
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return ""
	}
	return s.cur.ID
}

// checkpoint writes the conversation as it stands during a turn, the
// running question counted (the end of the turn writes it again, whole).
func (s *Sessions) checkpoint(history []*ai.Message) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := *s.current()
	c.Turns++
	s.write(&c, history)
}

// current is the session the conversation is saved in, started on first
// use (s.mu held).
func (s *Sessions) current() *session.Session {
	if s.cur == nil {
		cfg := s.eng.Config
		s.cur = session.New(time.Now(), cfg.Model, cfg.Provider, s.eng.Cwd)
		s.lock, _ = s.store.Lock(s.cur.ID)
	}
	return s.cur
}

// AfterTurn saves the conversation once a question has run, with the
// turn's error when one was shown (a stop by mm — the loop detector, the
// watchdog — included; a turn the user stopped is no error).
func (s *Sessions) AfterTurn(err error) {
	// A question a userPrompt hook refused was not sent: no turn to
	// keep, and no empty session to start (as with -p).
	var stop *agent.StopError
	if !s.Enabled() || errors.As(err, &stop) && stop.Reason == agent.StopDenied {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.current()
	c.Turns++
	if err != nil && !errors.Is(err, context.Canceled) {
		c.AddError(session.WhereGeneration, err.Error(), time.Now())
	}
	s.save()
}

// Save writes the current session with the agent's history.
func (s *Sessions) Save() {
	if !s.Enabled() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.save()
}

func (s *Sessions) save() {
	if s.cur == nil {
		return
	}
	s.write(s.cur, s.eng.Agent.History())
}

// write saves c with the history given; a failure is told once.
func (s *Sessions) write(c *session.Session, history []*ai.Message) {
	msgs, err := session.FromHistory(history)
	if err == nil {
		c.Messages = msgs
		c.Plan = s.eng.Agent.Plan().Items()
		c.Updated = time.Now()
		c.Model = s.eng.Config.Model
		err = s.store.Save(c)
	}
	if err != nil && !s.failed {
		s.failed = true
		s.warn(fmt.Sprintf("[%v — the conversation is not saved]", err))
	}
}

// NewConversation is /new: the old conversation is written a last time,
// and the next turn starts a session of its own.
func (s *Sessions) NewConversation() {
	if !s.Enabled() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.save()
	s.release()
}

// Close gives the session up as mm leaves (its lock file goes).
func (s *Sessions) Close() {
	if !s.Enabled() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.release()
}

// release gives the current session up: the next turn starts another.
func (s *Sessions) release() {
	s.lock.Release()
	s.cur, s.lock = nil, nil
}

// List is /sessions: newest first, one line each; red says the text is
// an error.
func (s *Sessions) List() (text string, red bool) {
	if !s.Enabled() {
		return sessionsOff, false
	}
	list, err := s.store.List()
	if err != nil {
		return err.Error(), true
	}
	if len(list) == 0 {
		return fmt.Sprintf("no session in %s yet", s.store.Path()), false
	}
	var b strings.Builder
	fmt.Fprintf(&b, "sessions in %s, newest first (/resume ID):", s.store.Path())
	for _, e := range list {
		when := e.Updated.Local().Format("2006-01-02 15:04")
		if e.Foreign {
			// Nothing of a foreign file is shown but its name and the
			// file's time: its content is whoever put it there's.
			fmt.Fprintf(&b, "\n  %s  %s  (foreign: not written by your mm — never resumed)", e.ID, when)
			continue
		}
		if e.Err != nil {
			fmt.Fprintf(&b, "\n  %s  %s  (does not load: %v)", e.ID, when, e.Err)
			continue
		}
		c := e.Session
		fmt.Fprintf(&b, "\n  %s  %s  %s  %s  %s", e.ID, when, plural(c.Turns, "turn"), c.Model, firstLine(c.FirstQuestion(), 60))
	}
	return b.String(), false
}

// Resume is /resume [ID], -resume ID and -continue: the session id (""
// for the latest) becomes the conversation. A session that does not load
// leaves the conversation as it was; the failure is recorded. It returns
// the line to show, red when it failed.
func (s *Sessions) Resume(id string) (text string, red bool) {
	if !s.Enabled() {
		return sessionsOff, false
	}
	var c *session.Session
	var err error
	if id == "" {
		c, err = s.store.Latest()
	} else {
		c, err = s.store.Load(id)
	}
	if err == nil {
		err = s.eng.Agent.Restore(c.History())
	}
	if err == nil {
		s.eng.Agent.Plan().Set(c.Plan)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		msg := fmt.Sprintf("[resume failed: %v]", err)
		s.current().AddError(session.WhereResume, msg, time.Now())
		return msg, true
	}
	// The conversation goes on in its own file when no other mm holds
	// it, else in a file of its own: two mm never write the same file.
	cfg := s.eng.Config
	if s.cur == nil || s.cur.ID != c.ID {
		s.release()
		s.cur, s.lock = s.store.Continue(c, time.Now(), cfg.Model, cfg.Provider, s.eng.Cwd)
	} else {
		// This mm's own conversation, as last saved.
		s.cur = c
	}
	model := ""
	if c.Model != "" && c.Model != cfg.Model {
		model = fmt.Sprintf(", it was with the model %s", c.Model)
	}
	return fmt.Sprintf("resumed session %s: %s, %s, last change %s%s — first question: %s",
		c.ID, plural(c.Turns, "turn"), plural(len(c.Messages), "message"), c.Updated.Local().Format("2006-01-02 15:04"), model, firstLine(c.FirstQuestion(), 60)), false
}

// RecordError adds an error shown to the user to the session's errors
// (written with the next save); /compact's failure goes through here with
// session.WhereCompression, followed by Save.
func (s *Sessions) RecordError(where, msg string) {
	if !s.Enabled() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.current().AddError(where, msg, time.Now())
}

func plural(n int, what string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", what)
	}
	return fmt.Sprintf("%d %ss", n, what)
}

// firstLine is s on one line, cut to n characters, quoted.
func firstLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		s = string(r[:n-1]) + "…"
	}
	return fmt.Sprintf("%q", s)
}

// The line mode's side: the printer shows what Sessions returns.

func (r *REPL) initSessions() {
	r.sess = NewSessions(r.eng, r.p.RedLine)
}

// afterTurn saves the conversation once a question has run.
func (r *REPL) afterTurn(err error) { r.sess.AfterTurn(err) }

// saveSession writes the current session with the agent's history.
func (r *REPL) saveSession() { r.sess.Save() }

// newConversation is /new: the old conversation is written a last time,
// and the next turn starts a session of its own.
func (r *REPL) newConversation() { r.sess.NewConversation() }

// listSessions is /sessions.
func (r *REPL) listSessions() { r.show(r.sess.List()) }

// resume is /resume [ID], -resume ID and -continue.
func (r *REPL) resume(id string) {
	text, red := r.sess.Resume(id)
	r.show(text, red)
	if plan := r.eng.Agent.Plan().Text(); !red && plan != "" {
		// The plan came back with the conversation: the user sees
		// where the work stands, as the model does.
		r.p.DimLine(PlanHead)
		r.p.Plan(plan)
	}
}

// PlanHead is the line above a resumed conversation's plan.
const PlanHead = "📋 the plan:"

func (r *REPL) show(text string, red bool) {
	if red {
		r.p.RedLine(text)
		return
	}
	r.p.Line(text)
}

// resumeAtStart is -resume ID or -continue, after the banner.
func (r *REPL) resumeAtStart() {
	if r.opts.Resume != "" || r.opts.Continue {
		r.resume(r.opts.Resume)
	}
}

// recordError adds an error shown to the user to the session's errors.
func (r *REPL) recordError(where, msg string) { r.sess.RecordError(where, msg) }
