package undo

import (
	"errors"
	"fmt"
	"os/exec"
	"path"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"mm/internal/textcut"
	"mm/internal/userstate"
)

// ErrUnavailable wraps why /undo cannot work (no git on PATH, no state
// directory).
var ErrUnavailable = errors.New("/undo is unavailable")

// Tracker is one conversation's /undo: the turns that changed the
// project, oldest first, and the undos /redo can take back. The agent
// calls Before (before the first change of a turn) and After (when that
// turn ends); the facade calls Undo and Redo between turns.
type Tracker struct {
	root     string
	getenv   func(string) string
	git      string
	why      string // why /undo is unavailable, "" when it is not
	mu       sync.Mutex
	repo     *Repo
	turn     *turn // the running turn, once it took its snapshot
	done     []*turn
	undone   []*undoneTurn
	toldLeft bool // the files left out were named once
	toldRule bool // the first report said what is never kept
}

type turn struct {
	question      string
	before, after Snap
}

// undoneTurn is an /undo: the turn it took back, and the project before
// and after it.
type undoneTurn struct {
	t             *turn
	before, after Snap
}

// New is the tracker of the project at root; getenv nil means
// os.Getenv. Nothing is written until the first snapshot.
func New(root string, getenv func(string) string) *Tracker {
	t := &Tracker{root: root, getenv: getenv}
	git, err := exec.LookPath("git")
	if err != nil {
		t.why = "git is not on PATH"
	}
	t.git = git
	return t
}

// Unavailable says why /undo cannot work, or "".
func (t *Tracker) Unavailable() string {
	if t == nil {
		return "not in this mode"
	}
	return t.why
}

// Notice is the start-up line that says /undo is unavailable, or "".
func (t *Tracker) Notice() string {
	if t == nil || t.why == "" {
		return ""
	}
	return "[/undo is unavailable: " + t.why + "]"
}

func (t *Tracker) open() (*Repo, error) {
	if t.repo != nil {
		return t.repo, nil
	}
	state, err := userstate.Ensure(t.getenv)
	if err != nil {
		return nil, err
	}
	r, err := Open(state, t.root, t.git)
	if err != nil {
		return nil, err
	}
	t.repo = r
	return r, nil
}

// Before takes the turn's snapshot, once per turn, before its first
// change; it returns a notice for the user ("" for none): what the
// snapshot left out, the first time, or why there is none.
func (t *Tracker) Before(question string) string {
	if t == nil || t.why != "" {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.turn != nil {
		return ""
	}
	r, err := t.open()
	if err != nil {
		return fmt.Sprintf("[/undo: no snapshot of the project before this turn: %v]", err)
	}
	s, err := r.Snapshot("before: " + firstLine(question))
	if err != nil {
		return fmt.Sprintf("[/undo: no snapshot of the project before this turn: %v]", err)
	}
	t.turn = &turn{question: question, before: s}
	return t.leftOut(s)
}

// leftOut names, once, what a snapshot left out beyond the ignored files.
func (t *Tracker) leftOut(s Snap) string {
	if t.toldLeft || len(s.Big)+len(s.Nested) == 0 {
		return ""
	}
	t.toldLeft = true
	var parts []string
	if len(s.Big) > 0 {
		parts = append(parts, "over 10 MB: "+list(s.Big))
	}
	if len(s.Nested) > 0 {
		parts = append(parts, "repositories of their own: "+list(s.Nested))
	}
	return "[/undo keeps no copy of the .gitignore'd files, nor of these — " + strings.Join(parts, "; ") + "]"
}

// After ends the turn: its snapshot when it took one before. A turn that
// changed nothing is forgotten; one that did can be undone, and the
// undos before it can no longer be redone.
func (t *Tracker) After() string {
	if t == nil {
		return ""
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	cur := t.turn
	t.turn = nil
	if cur == nil {
		return ""
	}
	s, err := t.repo.Snapshot("after: " + firstLine(cur.question))
	if err != nil {
		return fmt.Sprintf("[/undo: no snapshot of the project after this turn: %v — it cannot be undone]", err)
	}
	if s.Tree == cur.before.Tree {
		return ""
	}
	cur.after = s
	t.done = append(t.done, cur)
	t.undone = nil
	return ""
}

// Report is what an /undo or a /redo did.
type Report struct {
	// Redo says it was a /redo.
	Redo bool
	// Nothing says there was nothing to undo (or redo).
	Nothing bool
	// Question is the question of the turn undone or redone.
	Question string
	// Rule says the report is the conversation's first: it says what
	// /undo never keeps.
	Rule bool
	// Written and Removed are the paths put back; Kept those the user
	// changed after the turn and chose to keep; Failed the paths that
	// could not be put back, with why.
	Written, Removed, Kept, Failed []string
}

// Confirm is asked about the files the user changed after the turn: true
// puts them back too, false keeps them as they are. nil keeps them.
type Confirm func(changed []string) bool

// Undo puts the files the last turn that changed something changed back
// as they were before it. The project as it was before the undo is kept:
// Redo brings it back.
func (t *Tracker) Undo(confirm Confirm) (Report, error) {
	if t == nil || t.why != "" {
		return Report{}, fmt.Errorf("%w: %s", ErrUnavailable, t.Unavailable())
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.done) == 0 {
		return Report{Nothing: true}, nil
	}
	e := t.done[len(t.done)-1]
	rep := Report{Question: e.question, Rule: !t.toldRule}
	t.toldRule = true
	before, after, err := t.back(e.after, e.before, confirm, &rep)
	if err != nil {
		return rep, err
	}
	t.done = t.done[:len(t.done)-1]
	t.undone = append(t.undone, &undoneTurn{t: e, before: before, after: after})
	return rep, nil
}

// Redo takes the last /undo back: the files it put back are as they were
// before it.
func (t *Tracker) Redo(confirm Confirm) (Report, error) {
	if t == nil || t.why != "" {
		return Report{Redo: true}, fmt.Errorf("%w: %s", ErrUnavailable, t.Unavailable())
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.undone) == 0 {
		return Report{Redo: true, Nothing: true}, nil
	}
	u := t.undone[len(t.undone)-1]
	rep := Report{Redo: true, Question: u.t.question}
	before, after, err := t.back(u.after, u.before, confirm, &rep)
	if err != nil {
		return rep, err
	}
	t.undone = t.undone[:len(t.undone)-1]
	// The turn is undoable again, from the project as the redo left it.
	t.done = append(t.done, &turn{question: u.t.question, before: before, after: after})
	return rep, nil
}

// back puts the paths that differ between the snapshots from (what the
// project was when the step ended) and to (what it must be again) in
// their state of to. A path that differs now from its state in from was
// changed since: confirm decides. It returns the snapshots of the project
// before and after.
func (t *Tracker) back(from, to Snap, confirm Confirm, rep *Report) (Snap, Snap, error) {
	r, err := t.open()
	if err != nil {
		return Snap{}, Snap{}, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	cmd := "/undo"
	if rep.Redo {
		cmd = "/redo"
	}
	now, err := r.snapshot("before " + cmd + ": " + firstLine(rep.Question))
	if err != nil {
		return Snap{}, Snap{}, err
	}
	steps, err := r.Diff(from.Commit, to.Commit)
	if err != nil {
		return Snap{}, Snap{}, err
	}
	since, err := r.Diff(from.Commit, now.Commit)
	if err != nil {
		return Snap{}, Snap{}, err
	}
	changed := map[string]bool{}
	for _, c := range since {
		changed[c.Path] = true
	}
	var targets []Target
	var mine []string
	for _, c := range steps {
		if changed[c.Path] {
			mine = append(mine, c.Path)
		}
	}
	restoreMine := len(mine) > 0 && confirm != nil && confirm(mine)
	for _, c := range steps {
		if changed[c.Path] && !restoreMine {
			rep.Kept = append(rep.Kept, c.Path)
			continue
		}
		targets = append(targets, Target{Path: c.Path, Want: c.To})
	}
	dirs, err := r.dirsOf(to.Commit)
	if err != nil {
		return Snap{}, Snap{}, err
	}
	keep := func(d string) bool { return dirs[d] }
	// A path that to lacks may only have been left out of it: a file the
	// rules of then ignored (the turn changed a .gitignore), over 10 MB,
	// in a repository of its own. It was there, untouched, and is not
	// removed. The ignore files are put back first, then the removals
	// are checked against them.
	var rules, rest []Target
	for _, tg := range targets {
		if path.Base(tg.Path) == ".gitignore" {
			rules = append(rules, tg)
		} else {
			rest = append(rest, tg)
		}
	}
	res, err := r.restore(rules, keep)
	if err == nil {
		rest, err = r.notLeftOut(rest, to)
	}
	if err == nil {
		var more Restored
		more, err = r.restore(rest, keep)
		res.Written = append(res.Written, more.Written...)
		res.Removed = append(res.Removed, more.Removed...)
		res.Failed = append(res.Failed, more.Failed...)
	}
	rep.Written, rep.Removed, rep.Failed = res.Written, res.Removed, res.Failed
	sort.Strings(rep.Written)
	sort.Strings(rep.Removed)
	if err != nil {
		return Snap{}, Snap{}, err
	}
	after, err := r.snapshot("after " + cmd + ": " + firstLine(rep.Question))
	if err != nil {
		return Snap{}, Snap{}, err
	}
	return now, after, nil
}

// Changed says the undo or redo put some file back.
func (rep Report) Changed() bool { return len(rep.Written)+len(rep.Removed) > 0 }

// Text is the report for the user.
func (rep Report) Text() string {
	cmd := "/undo"
	if rep.Redo {
		cmd = "/redo"
	}
	if rep.Nothing {
		if rep.Redo {
			return "/redo: nothing to redo (no /undo since the last turn that changed files)"
		}
		return "/undo: nothing to undo (no turn of this conversation changed a file that /undo keeps)"
	}
	what := "undid the turn"
	if rep.Redo {
		what = "redid the turn"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s: %s %q", cmd, what, firstLine(rep.Question))
	if len(rep.Written) > 0 {
		b.WriteString("\n  restored: " + Names(rep.Written))
	}
	if len(rep.Removed) > 0 {
		b.WriteString("\n  removed: " + Names(rep.Removed))
	}
	if len(rep.Kept) > 0 {
		b.WriteString("\n  kept as you changed them after the turn: " + Names(rep.Kept))
	}
	if len(rep.Failed) > 0 {
		b.WriteString("\n  not restored: " + strings.Join(rep.Failed, ", "))
	}
	if len(rep.Written)+len(rep.Removed)+len(rep.Kept)+len(rep.Failed) == 0 {
		b.WriteString("\n  (no file to put back)")
	}
	if !rep.Redo {
		b.WriteString("\n  /redo takes it back")
	}
	if rep.Rule {
		b.WriteString("\n  (.gitignore'd files and files over 10 MB are never kept, so never put back)")
	}
	return b.String()
}

// Note is what the model reads, with the next question, about this undo
// or redo; "" when no file was put back.
func (rep Report) Note() string {
	if rep.Nothing || !rep.Changed() {
		return ""
	}
	var b strings.Builder
	if rep.Redo {
		fmt.Fprintf(&b, "[The user ran /redo: the changes of the turn that began with %q, undone before, are back", firstLine(rep.Question))
	} else {
		fmt.Fprintf(&b, "[The user ran /undo: the files changed during the turn that began with %q are back as they were before it", firstLine(rep.Question))
	}
	if len(rep.Written) > 0 {
		b.WriteString("; restored: " + list(rep.Written))
	}
	if len(rep.Removed) > 0 {
		b.WriteString("; removed: " + list(rep.Removed))
	}
	if len(rep.Kept) > 0 {
		b.WriteString("; left as the user changed them: " + list(rep.Kept))
	}
	b.WriteString(".]")
	return b.String()
}

// Names joins paths for the user, each on the line it is named on: a
// name that holds a line break or another control character (or is not
// UTF-8) is shown quoted, so that it cannot end the report's line and
// start a made-up one ("x\n  kept as you changed them: …").
func Names(ps []string) string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = showName(p)
	}
	return strings.Join(out, ", ")
}

func showName(p string) string {
	if !utf8.ValidString(p) || strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		return strconv.Quote(p)
	}
	return p
}

// firstLine is a question's first line, cut for a report.
func firstLine(q string) string {
	q, _, _ = strings.Cut(strings.TrimSpace(q), "\n")
	if cut := textcut.FirstRunes(q, 80); cut != q {
		return cut + "…"
	}
	return q
}

// list joins paths, at most 20 named.
func list(ps []string) string {
	if len(ps) > 20 {
		return Names(ps[:20]) + fmt.Sprintf(" and %d more", len(ps)-20)
	}
	return Names(ps)
}
