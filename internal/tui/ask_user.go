package tui

// ask_user in the window: the question replaces the input box, `(i/N)`
// after it when there are several; the options are drawn at the bottom,
// the highlighted one in reverse video with `❯`. choice: ↑↓ (wrapping)
// and Enter, or a digit 1–9; multi: ↑↓, Space ticks ([x]), Enter sends
// once one is ticked; confirm: y/o or n, or ←→↑↓ and Enter; text: typed in
// the box (pre-filled with the default), Enter. Esc declines the whole
// form. A key answers only once the form has been on screen for the
// permission's guard time: a question popping up under the fingers does
// not take a key typed for something else.

import (
	"context"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"

	"mm/internal/repl"
	"mm/internal/termsafe"
	"mm/internal/tools"
)

var _ tools.UserAsker = (*windowUI)(nil)

type askReply struct {
	answers []tools.Answer
	err     error
}

type (
	askMsg struct {
		asker string
		qs    []tools.Question
		reply chan askReply
	}
	askCancelMsg struct{ reply chan askReply }
)

// form is the questions of one ask_user call on screen.
type form struct {
	asker   string
	qs      []tools.Question
	i       int // the question shown
	cursor  int
	top     int // the first option shown when they do not all fit
	ticked  []bool
	answers []tools.Answer
	reply   chan askReply
	shown   time.Time
	// engaged: a key reached this question once the guard let it (seen,
	// the keyboard quiet); the keys after it are the user's own, so ↓ then
	// Enter in quick succession answers rather than losing the Enter.
	engaged bool
	draft   string // what the box held before a text question
}

// AskUser shows the questions and waits for the form's answers, or for
// the turn to stop.
func (u *windowUI) AskUser(ctx context.Context, asker string, qs []tools.Question) ([]tools.Answer, error) {
	reply := make(chan askReply, 1)
	u.send(askMsg{asker: asker, qs: qs, reply: reply})
	select {
	case r := <-reply:
		return r.answers, r.err
	case <-ctx.Done():
		u.send(askCancelMsg{reply})
		return nil, ctx.Err()
	}
}

// options are what a question offers to pick from.
func options(q tools.Question) []string {
	if q.Type == tools.QuestionConfirm {
		return []string{"yes", "no"}
	}
	return q.Options
}

func (m *model) openForm(msg askMsg) {
	m.form = &form{asker: msg.asker, qs: msg.qs, reply: msg.reply, draft: m.ta.Value()}
	m.showQuestion()
}

// showQuestion sets the form up for its question i.
func (m *model) showQuestion() {
	f := m.form
	f.shown, f.engaged = time.Now(), false
	q := f.qs[f.i]
	f.cursor, f.top, f.ticked = 0, 0, make([]bool, len(options(q)))
	for j, o := range options(q) {
		if q.HasDefault && o == q.Default {
			f.cursor = j
			if q.Type == tools.QuestionMulti {
				f.ticked[j] = true
			}
		}
	}
	m.ta.Reset()
	if q.Type == tools.QuestionText {
		if q.HasDefault {
			// The model wrote it: shown inert (the box drops C0 and C1
			// controls itself, not the bidi ones), and sent as shown.
			m.ta.SetValue(termsafe.Text(q.Default))
		}
		m.ta.Focus()
	} else {
		m.ta.Blur()
	}
	m.resize()
}

// formZone is the form as drawn in place of the box. Like the permission
// zone it takes at most half the window, whatever the model asked: the
// question is cut to a quarter of that, and options that do not fit are
// shown as a window that follows the cursor, with how many are above and
// below it (keys still reach every one, and the help always shows).
func (m *model) formZone() string {
	f := m.form
	q := f.qs[f.i]
	most := max(4, m.h/2)
	head := "❓ "
	if f.asker != "" {
		head += f.asker + " asks: "
	}
	head += strings.Join(strings.Fields(q.Text), " ")
	if len(f.qs) > 1 {
		head += fmt.Sprintf(" (%d/%d)", f.i+1, len(f.qs))
	}
	lines := strings.Split(ansiWrap(termsafe.Text(head), m.w), "\n")
	if keep := max(1, most/4); len(lines) > keep {
		lines = lines[:keep]
		lines[keep-1] = cutRow(lines[keep-1], m.w)
	}
	var help string
	var tail []string
	switch q.Type {
	case tools.QuestionChoice:
		help = "↑↓ choose · Enter or 1–9 answers · Esc declines"
	case tools.QuestionMulti:
		help = "↑↓ move · Space ticks · Enter sends · Esc declines"
	case tools.QuestionConfirm:
		help = "y or n · ←→ and Enter · Esc declines"
	default:
		tail = append(tail, m.ta.View())
		help = "Enter sends · Esc declines"
	}
	tail = append(tail, dimStyle.Render(clip(help, m.w)))
	lines = append(lines, m.optionRows(q, max(1, most-len(lines)-len(tail)))...)
	return strings.Join(append(lines, tail...), "\n")
}

// optionRows are the rows of q's options in at most room rows.
func (m *model) optionRows(q tools.Question, room int) []string {
	f := m.form
	reverse := lipgloss.NewStyle().Reverse(true)
	var rows [][]string
	total := 0
	for j, o := range options(q) {
		o = termsafe.Text(strings.Join(strings.Fields(o), " "))
		var l string
		switch q.Type {
		case tools.QuestionMulti:
			box := "[ ]"
			if f.ticked[j] {
				box = "[x]"
			}
			l = fmt.Sprintf("%s %s", box, o)
		case tools.QuestionConfirm:
			l = o
		default:
			l = fmt.Sprintf("%d. %s", j+1, o)
		}
		var these []string
		if j == f.cursor {
			// The highlighted option whole, wrapped under its text (up to
			// a quarter of the window): the others are cut to the width,
			// and two options the model wrote alike up to there differ
			// only in what the cut hid.
			wrapped := strings.Split(ansiWrap(l, max(1, m.w-2)), "\n")
			if most := max(1, min(m.h/4, room-2)); len(wrapped) > most {
				wrapped = wrapped[:most]
				wrapped[most-1] = cutRow(wrapped[most-1], m.w-2)
			}
			for r, row := range wrapped {
				lead := "  "
				if r == 0 {
					lead = "❯ "
				}
				these = append(these, reverse.Render(clip(lead+row, m.w)))
			}
		} else {
			these = []string{clip("  "+l, m.w)}
		}
		rows = append(rows, these)
		total += len(these)
	}
	if total <= room {
		var out []string
		for _, r := range rows {
			out = append(out, r...)
		}
		return out
	}
	// A window over the options: two rows say what it hides.
	room = max(1, room-2)
	f.top = min(f.top, f.cursor)
	used := func(from, to int) (n int) {
		for _, r := range rows[from:to] {
			n += len(r)
		}
		return n
	}
	for f.top < f.cursor && used(f.top, f.cursor+1) > room {
		f.top++
	}
	end := f.top
	for end < len(rows) && (end <= f.cursor || used(f.top, end+1) <= room) {
		end++
	}
	more := func(n int, where string) string {
		if n == 0 {
			return ""
		}
		return dimStyle.Render(clip(fmt.Sprintf("  … %d more %s", n, where), m.w))
	}
	out := []string{more(f.top, "above")}
	for _, r := range rows[f.top:end] {
		out = append(out, r...)
	}
	return append(out, more(len(rows)-end, "below"))
}

// formKey handles a key while the form is on screen.
func (m *model) formKey(k tea.KeyPressMsg, now time.Time, quiet bool) tea.Cmd {
	f := m.form
	q := f.qs[f.i]
	opts := options(q)
	s := k.String()
	if s == "esc" {
		m.closeForm(askReply{err: tools.ErrDeclined}, "declined")
		return nil
	}
	// The guard: only a key typed once the question has been seen (for a
	// choice, the keyboard quiet too: a text answer is typed, then sent).
	ready := now.Sub(f.shown) >= repl.PermissionGuard && (quiet || f.engaged || q.Type == tools.QuestionText)
	f.engaged = ready
	move := func(d int) {
		if n := len(opts); n > 0 {
			f.cursor = ((f.cursor+d)%n + n) % n
		}
	}
	switch q.Type {
	case tools.QuestionText:
		if s == "enter" {
			if !ready {
				return nil
			}
			v := strings.TrimSpace(m.boxValue())
			if v == "" && q.HasDefault {
				v = q.Default
			}
			if v != "" {
				m.answered(tools.Answer{Values: []string{v}})
			}
			return nil
		}
		var cmd tea.Cmd
		m.ta, cmd = m.ta.Update(k)
		return cmd
	case tools.QuestionConfirm:
		switch s {
		case "up", "down", "left", "right":
			move(1)
		case "y", "o", "Y", "O":
			if ready {
				m.answered(tools.Answer{Values: []string{"yes"}})
			}
		case "n", "N":
			if ready {
				m.answered(tools.Answer{Values: []string{"no"}})
			}
		case "enter":
			if ready {
				m.answered(tools.Answer{Values: []string{opts[f.cursor]}})
			}
		}
		return nil
	case tools.QuestionMulti:
		switch s {
		case "up":
			move(-1)
		case "down":
			move(1)
		case "space":
			if len(opts) > 0 {
				f.ticked[f.cursor] = !f.ticked[f.cursor]
			}
		case "enter":
			var vals []string
			for j, t := range f.ticked {
				if t {
					vals = append(vals, opts[j])
				}
			}
			if ready && len(vals) > 0 {
				m.answered(tools.Answer{Values: vals})
			}
		}
		return nil
	}
	// choice
	switch {
	case s == "up":
		move(-1)
	case s == "down":
		move(1)
	case s == "enter" && ready && len(opts) > 0:
		m.answered(tools.Answer{Values: []string{opts[f.cursor]}})
	case len(s) == 1 && s[0] >= '1' && s[0] <= '9' && ready:
		if n := int(s[0] - '0'); n <= len(opts) {
			m.answered(tools.Answer{Values: []string{opts[n-1]}})
		}
	}
	return nil
}

// answered records the answer of the question shown and shows the next,
// or sends the form.
func (m *model) answered(a tools.Answer) {
	f := m.form
	f.answers = append(f.answers, a)
	m.addBlock(blockDim, "❓ "+strings.Join(strings.Fields(f.qs[f.i].Text), " ")+" → "+strings.Join(a.Values, ", "))
	if f.i++; f.i < len(f.qs) {
		m.showQuestion()
		return
	}
	m.closeForm(askReply{answers: f.answers}, "")
}

// closeForm sends the form's reply and gives the box back.
func (m *model) closeForm(r askReply, word string) {
	f := m.form
	f.reply <- r // buffered: the agent may have stopped waiting
	m.form = nil
	if word != "" {
		m.addBlock(blockDim, "   → "+word)
	}
	m.ta.Reset()
	m.ta.SetValue(f.draft)
	m.ta.Focus()
	m.resize()
}

// clip cuts a line to width columns.
func clip(s string, width int) string { return ansiTruncate(s, width) }
