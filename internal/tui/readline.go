package tui

// The box's line editing, as the line mode's readline (chzyer/readline)
// does it: the text area's own keys move and cut by blank-separated words
// and keep nothing cut, readline's by words of letters and digits, and
// Ctrl-Y puts the last cut back. Ctrl-R searches the history backwards
// as readline does: the box shows the match, a line under it the search.

import (
	"strings"
	"unicode"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mm/internal/termsafe"
)

// search is Ctrl-R's reverse search through the history.
type search struct {
	query   []rune
	saved   string // the box before the search: Esc, Ctrl-G put it back
	at      int    // the match's index in m.past; len(m.past) for none yet
	failing bool
	fwd     bool // Ctrl-S turned it towards the newer questions
}

// editKey handles the keys of the box this file adds to the text area's,
// and those it does otherwise; ok false: key() goes on with k.
func (m *model) editKey(k tea.KeyPressMsg) (tea.Cmd, bool) {
	if m.perm != nil || m.form != nil {
		return nil, false
	}
	s := k.String()
	if m.cmds.search != nil {
		cmd, ok := m.searchKey(k, s)
		m.resize()
		if ok {
			return cmd, true
		}
	}
	if c := m.cmds.comp; c != nil {
		switch s {
		case "tab", "shift+tab":
		case "esc", "ctrl+g":
			m.setBox(c.typed)
			m.cmds.comp = nil
			m.resize()
			return nil, true
		default:
			m.cmds.comp = nil // the box stays as it is; k goes on to it
			m.resize()
		}
	}
	switch s {
	case "tab", "shift+tab":
		cmd, ok := m.tab(s == "shift+tab")
		m.resize()
		return cmd, ok
	case "ctrl+r":
		m.cmds.search = &search{saved: m.ta.Value(), at: len(m.past)}
		m.resize()
		return nil, true
	case "ctrl+p", "ctrl+n":
		// As ↑ and ↓: the history from the box's first (last) line.
		if up := s == "ctrl+p"; (up && m.ta.Line() == 0) || (!up && m.ta.Line() == m.ta.LineCount()-1) {
			m.recall(up)
			return nil, true
		}
		return nil, false
	}
	switch s {
	case "ctrl+w", "alt+backspace", "ctrl+backspace", "alt+d", "alt+delete", "ctrl+delete",
		"ctrl+k", "ctrl+u", "ctrl+y", "alt+b", "alt+left", "ctrl+left", "alt+f", "alt+right", "ctrl+right":
	default:
		return nil, false
	}
	row, col := m.ta.Line(), m.ta.Column()
	lines := strings.Split(m.ta.Value(), "\n")
	buf := []rune(lines[row])
	col = min(col, len(buf))
	cut := func(from, to int) {
		if from >= to {
			return
		}
		m.cmds.kill = append([]rune(nil), buf[from:to]...)
		buf = append(buf[:from:from], buf[to:]...)
		col = from
	}
	switch s {
	case "ctrl+w", "alt+backspace", "ctrl+backspace":
		cut(prevWord(buf, col), col)
	case "alt+d", "alt+delete", "ctrl+delete":
		cut(col, wordEnd(buf, col))
	case "ctrl+k":
		cut(col, len(buf))
	case "ctrl+u":
		cut(0, col)
	case "ctrl+y":
		if len(m.cmds.kill) == 0 {
			return nil, true
		}
		buf = append(buf[:col:col], append(append([]rune(nil), m.cmds.kill...), buf[col:]...)...)
		col += len(m.cmds.kill)
	case "alt+b", "alt+left", "ctrl+left":
		m.ta.SetCursorColumn(prevWord(buf, col))
		return nil, true
	case "alt+f", "alt+right", "ctrl+right":
		m.ta.SetCursorColumn(nextWord(buf, col))
		return nil, true
	default:
		return nil, false
	}
	lines[row] = string(buf)
	m.setBoxAt(strings.Join(lines, "\n"), row, col)
	m.resize()
	return nil, true
}

// isWord: readline's words are of letters and digits (its own counts
// only ASCII ones; a word of "é" is one here).
func isWord(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }

// prevWord is where the word before col starts (readline's Alt-B, and
// what its Ctrl-W cuts back to).
func prevWord(buf []rune, col int) int {
	for i := col - 1; i > 0; i-- {
		if isWord(buf[i]) && !isWord(buf[i-1]) {
			return i
		}
	}
	return 0
}

// nextWord is where the next word starts (readline's Alt-F).
func nextWord(buf []rune, col int) int {
	for i := col + 1; i < len(buf); i++ {
		if isWord(buf[i]) && !isWord(buf[i-1]) {
			return i
		}
	}
	return len(buf)
}

// wordEnd is where the word at or after col ends (what Alt-D cuts).
func wordEnd(buf []rune, col int) int {
	i := col
	for i < len(buf) && !isWord(buf[i]) {
		i++
	}
	for i < len(buf) && isWord(buf[i]) {
		i++
	}
	return i
}

// setBox puts v in the box, the cursor at its end.
func (m *model) setBox(v string) {
	m.ta.SetValue(intoBox(v))
	m.resize()
}

// setBoxAt puts v in the box, the cursor on its line row at col.
func (m *model) setBoxAt(v string, row, col int) {
	m.ta.SetValue(intoBox(v))
	m.ta.MoveToBegin()
	// CursorDown moves by the rows drawn: a long line takes several.
	for guard := len(v) + 1; m.ta.Line() < row && guard > 0; guard-- {
		m.ta.CursorDown()
	}
	m.ta.SetCursorColumn(col)
}

// searchKey is a key during Ctrl-R's search, as readline takes it: a
// character extends the search, Ctrl-R looks further back (Ctrl-S
// forward, towards the newer questions), Backspace
// shortens it, Enter sends the match, Esc, Ctrl-G or Ctrl-C put the box
// back as it was; any other key ends the search with the match in the
// box, and then does what it does there (ok false).
func (m *model) searchKey(k tea.KeyPressMsg, s string) (tea.Cmd, bool) {
	q := m.cmds.search
	switch s {
	case "ctrl+r", "ctrl+s":
		q.fwd = s == "ctrl+s"
		if len(q.query) > 0 {
			next := q.at - 1
			if q.fwd {
				next = q.at + 1
			}
			m.find(next, true)
		}
		return nil, true
	case "backspace", "ctrl+h":
		if len(q.query) > 0 {
			q.query = q.query[:len(q.query)-1]
			m.find(q.at, false)
		}
		return nil, true
	case "esc", "ctrl+g", "ctrl+c":
		m.setBox(q.saved)
		m.cmds.search = nil
		return nil, true
	case "enter":
		m.cmds.search = nil
		return m.submit(), true
	}
	if k.Text != "" && k.Mod&^tea.ModShift == 0 {
		q.query = append(q.query, []rune(k.Text)...)
		m.find(q.at, false)
		return nil, true
	}
	m.cmds.search = nil
	if q.at < len(m.past) {
		// As readline: ↑ and ↓ go on from the match, and past the newest
		// question bring back what the box held before the search.
		m.histAt, m.draft = q.at, q.saved
	}
	return nil, false
}

// find looks for the search's text from the question at index from
// backwards (older; forward with Ctrl-S), skipping the match shown when
// again, case folded as
// the line mode's readline (HistorySearchFold); the box shows the match,
// the cursor on it. No match: the search is failing, the box unchanged.
func (m *model) find(from int, again bool) {
	q := m.cmds.search
	if len(q.query) == 0 {
		q.failing = false
		return
	}
	shown := m.ta.Value()
	step := -1
	if q.fwd {
		step = 1
	}
	from = min(from, len(m.past)-1)
	for i := from; i >= 0 && i < len(m.past); i += step {
		p := m.past[i]
		if again && p == shown {
			continue
		}
		r := []rune(p)
		if at := foldIndex(r, q.query); at >= 0 {
			q.at, q.failing = i, false
			row, col := 0, 0
			for _, c := range r[:at] {
				if col++; c == '\n' {
					row, col = row+1, 0
				}
			}
			m.setBoxAt(p, row, col)
			return
		}
	}
	q.failing = true
}

// foldIndex is where needle first is in r, case folded; -1 if nowhere.
func foldIndex(r, needle []rune) int {
	for i := 0; i+len(needle) <= len(r); i++ {
		if strings.EqualFold(string(r[i:i+len(needle)]), string(needle)) {
			return i
		}
	}
	return -1
}

// searchLine is the line under the box during a search: readline's.
func (m *model) searchLine() string {
	q := m.cmds.search
	dir := "bck"
	if q.fwd {
		dir = "fwd"
	}
	line := dir + "-i-search: " + termsafe.Text(string(q.query)) + "_"
	if q.failing {
		line = "failing " + line
	}
	return ansi.Truncate(line, m.w, "…")
}

// boxZone is the input box with what this file and complete.go draw
// around it: the candidates over it, the search under it.
func (m *model) boxZone() string {
	z := m.ta.View()
	if l := m.compLine(); l != "" {
		z = l + "\n" + z
	}
	if m.cmds.search != nil {
		z += "\n" + m.searchLine()
	}
	return z
}
