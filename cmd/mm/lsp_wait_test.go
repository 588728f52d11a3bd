package main_test

import (
	"strings"
	"sync"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// diagnosticsCeiling bounds how long a session waits for one diagnostics
// answer from a real server: generous, since a loaded machine is slow.
const diagnosticsCeiling = 2 * time.Minute

// step is one scripted turn of an lsp session. until, on a diagnostics
// call, is the answer (without " (as last published)") it waits for.
type step struct {
	turn  llmtest.Turn
	path  string // the diagnostics call's path
	until func(string) bool
}

func plain(turn llmtest.Turn) step { return step{turn: turn} }

// diagnostics is a diagnostics call on path that is made again until its
// answer satisfies until.
func diagnostics(path string, until func(string) bool) step {
	return step{turn: lspCall(`{"action":"diagnostics","path":"` + path + `"}`), path: path, until: until}
}

// session serves steps one turn at a time, as a model that waits for a
// server's diagnostics would. The lsp tool waits at most 3 s for them
// (the reference fixes it) and a loaded machine can miss that, so a
// diagnostics call whose answer does not satisfy its until yet is made
// again ("call again in a moment", the tool says) until it does or
// diagnosticsCeiling passes. An answer is only seen in the next request,
// after that turn was chosen, so each such call is followed by one more;
// the repeats alternate path and ./path so that mm's loop detector does
// not count them as one call repeated.
type session struct {
	srv     *llmtest.Server
	steps   []step
	mu      sync.Mutex
	served  []served // the turn each request got, in order
	seen    int      // requests seen
	results []string // per step: the answer that satisfied it, else the last one
	done    []bool
	until   []time.Time // per step: when to stop calling again
}

type served struct{ step, attempt int }

func newSession(t *testing.T, steps ...step) *session {
	s := &session{steps: steps, results: make([]string, len(steps)), done: make([]bool, len(steps)), until: make([]time.Time, len(steps))}
	s.served = []served{{0, 0}}
	s.until[0] = time.Now().Add(diagnosticsCeiling)
	s.srv = llmtest.New(t, s.turn(0, 0))
	return s
}

func (s *session) turn(i, attempt int) llmtest.Turn {
	turn := s.steps[i].turn
	if attempt > 0 {
		path := s.steps[i].path
		if attempt%2 == 1 {
			path = "./" + path
		}
		turn = lspCall(`{"action":"diagnostics","path":"` + path + `"}`)
	}
	orig := turn.Expect
	turn.Expect = func(req *llmtest.Request) error {
		s.next(req)
		if orig != nil {
			return orig(req)
		}
		return nil
	}
	return turn
}

// next, for the request being answered, records the answer to the turn
// before it and queues the turn after it.
func (s *session) next(req *llmtest.Request) {
	s.mu.Lock()
	k := s.seen
	s.seen++
	poll := false
	if k > 0 {
		prev := s.served[k-1].step
		if !s.done[prev] {
			got := lastToolResult(req)
			s.results[prev] = got
			st := s.steps[prev]
			if st.until == nil || st.until(strings.Replace(got, " (as last published)", "", 1)) || time.Now().After(s.until[prev]) {
				s.done[prev] = true
			} else {
				poll = true
			}
		}
	}
	cur := s.served[k]
	nxt, more := served{cur.step + 1, 0}, cur.step+1 < len(s.steps)
	if s.steps[cur.step].until != nil && !s.done[cur.step] {
		nxt, more = served{cur.step, cur.attempt + 1}, true
	}
	if more {
		if nxt.attempt == 0 {
			s.until[nxt.step] = time.Now().Add(diagnosticsCeiling)
		}
		s.served = append(s.served, nxt)
	}
	s.mu.Unlock()
	if more {
		s.srv.Push(s.turn(nxt.step, nxt.attempt))
	}
	if poll {
		// Past its 3 s the tool answers at once with the last
		// publication: poll, do not spin.
		time.Sleep(50 * time.Millisecond)
	}
}

// Results are the answers per step; ok is false when a step got none.
func (s *session) Results(t *testing.T) []string {
	t.Helper()
	s.mu.Lock()
	defer s.mu.Unlock()
	for i, st := range s.steps {
		if len(st.turn.ToolCalls) > 0 && !s.done[i] {
			t.Errorf("step %d (%s) got no answer", i, st.turn.ToolCalls[0].Arguments)
		}
	}
	return append([]string(nil), s.results...)
}

// lspCalls is how many lsp calls the session made.
func (s *session) lspCalls() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	n := 0
	for _, sv := range s.served {
		if c := s.steps[sv.step].turn.ToolCalls; sv.attempt > 0 || len(c) > 0 && c[0].Name == "lsp" {
			n++
		}
	}
	return n
}

func lastToolResult(req *llmtest.Request) string {
	msgs, _ := req.JSON["messages"].([]any)
	if len(msgs) == 0 {
		return ""
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	if last["role"] != "tool" {
		return ""
	}
	s, _ := last["content"].(string)
	return s
}
