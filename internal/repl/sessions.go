package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/session"
)

// sessions is the line mode's side of sessions.enabled: the conversation
// saved after each turn and /new, /sessions, /resume, and -resume or
// -continue at start.
type sessions struct {
	store *session.Store // nil when sessions are off
	cur   *session.Session
	// lock is cur held by this mm (session.Lock); nil when none could be
	// taken.
	lock *session.Lock
	// failed is set once a save failed and was reported: the user is told
	// once, not after every turn.
	failed bool
}

// sessionsOff is what /sessions and /resume say without sessions.enabled.
const sessionsOff = "sessions are off — set sessions.enabled: true in the configuration to keep conversations"

func (r *REPL) initSessions() {
	c := r.eng.Config.Sessions
	if c.Enabled {
		r.sess.store = &session.Store{Base: r.eng.Root, Dir: c.Dir}
		// A failed compression, /compact's or the automatic one before a
		// question, goes to the session's errors (saved with the turn, or
		// by /compact).
		r.eng.Agent.OnCompactionFailed(func(err error) {
			r.recordError(session.WhereCompression, strings.Trim(err.Error(), "[]"))
		})
		// During a turn, after the question, before each tool call and after
		// its result: a kill -9 mid-turn loses nothing said or run.
		r.eng.Agent.OnCheckpoint(r.checkpoint)
	}
}

// checkpoint writes the conversation as it stands during a turn, the
// running question counted (the end of the turn writes it again, whole).
func (r *REPL) checkpoint(history []*ai.Message) {
	s := *r.current()
	s.Turns++
	r.write(&s, history)
}

// current is the session the conversation is saved in, started on first
// use.
func (r *REPL) current() *session.Session {
	if r.sess.cur == nil {
		r.sess.cur = session.New(time.Now(), r.eng.Config.Model, r.eng.Config.Provider, r.eng.Cwd)
		r.sess.lock, _ = r.sess.store.Lock(r.sess.cur.ID)
	}
	return r.sess.cur
}

// afterTurn saves the conversation once a question has run, with the
// turn's error when one was shown (a stop by mm — the loop detector, the
// watchdog — included; a turn the user stopped is no error).
func (r *REPL) afterTurn(err error) {
	if r.sess.store == nil {
		return
	}
	s := r.current()
	s.Turns++
	if err != nil && !errors.Is(err, context.Canceled) {
		s.AddError(session.WhereGeneration, err.Error(), time.Now())
	}
	r.saveSession()
}

// saveSession writes the current session with the agent's history.
func (r *REPL) saveSession() {
	if r.sess.store == nil || r.sess.cur == nil {
		return
	}
	r.write(r.sess.cur, r.eng.Agent.History())
}

// write saves s with the history given; a failure is told once.
func (r *REPL) write(s *session.Session, history []*ai.Message) {
	msgs, err := session.FromHistory(history)
	if err == nil {
		s.Messages = msgs
		s.Updated = time.Now()
		s.Model = r.eng.Config.Model
		err = r.sess.store.Save(s)
	}
	if err != nil && !r.sess.failed {
		r.sess.failed = true
		r.p.RedLine(fmt.Sprintf("[%v — the conversation is not saved]", err))
	}
}

// newConversation is /new: the old conversation is written a last time,
// and the next turn starts a session of its own.
func (r *REPL) newConversation() {
	r.saveSession()
	r.release()
}

// release gives the current session up: the next turn starts another.
func (r *REPL) release() {
	r.sess.lock.Release()
	r.sess.cur, r.sess.lock = nil, nil
}

// listSessions is /sessions: newest first, one line each.
func (r *REPL) listSessions() {
	if r.sess.store == nil {
		r.p.Line(sessionsOff)
		return
	}
	list, err := r.sess.store.List()
	if err != nil {
		r.p.RedLine(err.Error())
		return
	}
	if len(list) == 0 {
		r.p.Line(fmt.Sprintf("no session in %s yet", r.sess.store.Path()))
		return
	}
	var b strings.Builder
	fmt.Fprintf(&b, "sessions in %s, newest first (/resume ID):", r.sess.store.Path())
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
		s := e.Session
		fmt.Fprintf(&b, "\n  %s  %s  %s  %s  %s", e.ID, when, plural(s.Turns, "turn"), s.Model, firstLine(s.FirstQuestion(), 60))
	}
	r.p.Line(b.String())
}

// resume is /resume [ID], -resume ID and -continue: the session id (""
// for the latest) becomes the conversation. A session that does not load
// leaves the conversation as it was; the failure is recorded.
func (r *REPL) resume(id string) {
	if r.sess.store == nil {
		r.p.Line(sessionsOff)
		return
	}
	var s *session.Session
	var err error
	if id == "" {
		s, err = r.sess.store.Latest()
	} else {
		s, err = r.sess.store.Load(id)
	}
	if err == nil {
		err = r.eng.Agent.Restore(s.History())
	}
	if err != nil {
		msg := fmt.Sprintf("[resume failed: %v]", err)
		r.p.RedLine(msg)
		r.recordError(session.WhereResume, msg)
		return
	}
	// The conversation goes on in its own file when no other mm holds
	// it, else in a file of its own: two mm never write the same file.
	if r.sess.cur == nil || r.sess.cur.ID != s.ID {
		r.release()
		r.sess.cur, r.sess.lock = r.sess.store.Continue(s, time.Now(), r.eng.Config.Model, r.eng.Config.Provider, r.eng.Cwd)
	} else {
		// This mm's own conversation, as last saved.
		r.sess.cur = s
	}
	model := ""
	if s.Model != "" && s.Model != r.eng.Config.Model {
		model = fmt.Sprintf(", it was with the model %s", s.Model)
	}
	r.p.Line(fmt.Sprintf("resumed session %s: %s, %s, last change %s%s — first question: %s",
		s.ID, plural(s.Turns, "turn"), plural(len(s.Messages), "message"), s.Updated.Local().Format("2006-01-02 15:04"), model, firstLine(s.FirstQuestion(), 60)))
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

// resumeAtStart is -resume ID or -continue, after the banner.
func (r *REPL) resumeAtStart() {
	if r.opts.Resume != "" || r.opts.Continue {
		r.resume(r.opts.Resume)
	}
}

// recordError adds an error shown to the user to the session's errors
// (written with the next save); /compact's failure goes through here with
// session.WhereCompression, followed by saveSession.
func (r *REPL) recordError(where, msg string) {
	if r.sess.store != nil {
		r.current().AddError(where, msg, time.Now())
	}
}
