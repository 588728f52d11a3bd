package tui

// Tab-completion in the input box, as OpenCode's and Claude Code's users
// expect it from a list of candidates, and a shell's from Tab: one
// candidate completes the box (and a blank follows it); several complete
// their common part and are listed on a line over the box; Tab again puts
// each in the box in turn (Shift-Tab goes back), Enter sends the one in
// the box, Esc puts back what was typed, any other key keeps the box as
// it is and closes the list. What is completed: the slash commands and
// /ask-<name> (the agents of mmConfigs), /model's names (asked of the
// server once, off the Update loop) and /resume's session ids (listed off
// the loop at each Tab).

import (
	"context"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"mm/internal/llm"
	"mm/internal/repl"
	"mm/internal/session"
	"mm/internal/termsafe"
)

// completion is the list of candidates shown over the box.
type completion struct {
	typed string   // the box before Tab went through the candidates
	cands []string // whole values of the box
	at    int      // the candidate in the box, -1 for none yet
	note  string   // shown in place of candidates: a wait, no match
	// waiting is the box a fetch will complete once it answers (the user
	// typed nothing since).
	waiting string
}

// tab is Tab (back: Shift-Tab) in the box: the next candidate when a
// list is shown, else a completion of what the box holds. ok false: Tab
// is not a completion here (the box takes it).
func (m *model) tab(back bool) (tea.Cmd, bool) {
	if c := m.cmds.comp; c != nil && len(c.cands) > 1 {
		n := len(c.cands)
		switch {
		case c.at < 0 && back:
			c.at = n - 1
		case back:
			c.at = (c.at + n - 1) % n
		default:
			c.at = (c.at + 1) % n
		}
		m.setBox(c.cands[c.at])
		return nil, true
	}
	v := m.ta.Value()
	if c := m.cmds.comp; c != nil && c.waiting != "" && c.waiting == v {
		return nil, true // the fetch this box waits for is on its way
	}
	if back || !strings.HasPrefix(v, "/") || strings.Contains(v, "\n") || m.ta.Column() != len([]rune(v)) {
		return nil, false
	}
	return m.completeBox(v), true
}

// completeBox completes v, the box, or starts what it needs first.
func (m *model) completeBox(v string) tea.Cmd {
	cands, fetch := m.candidates(v)
	switch {
	case fetch != nil:
		m.cmds.comp = &completion{typed: v, at: -1, note: "…", waiting: v}
		return fetch
	case len(cands) == 0:
		m.cmds.comp = &completion{typed: v, at: -1, note: "(no completion)"}
	case len(cands) == 1:
		m.cmds.comp = nil
		m.setBox(cands[0] + " ")
	default:
		if p := commonPrefix(cands); len(p) > len(v) {
			m.setBox(p)
			v = p
		}
		m.cmds.comp = &completion{typed: v, cands: cands, at: -1}
	}
	return nil
}

// candidates are the values the box v completes to, or the fetch that
// gets them (a message that completes the box again once it answers).
func (m *model) candidates(v string) ([]string, tea.Cmd) {
	head, rest, spaced := strings.Cut(v, " ")
	if !spaced {
		names := append(repl.CommandNames(), "/exit")
		names = append(names, repl.AskCommands(m.eng.Agents)...)
		return withPrefix(names, "", v), nil
	}
	if strings.Contains(rest, " ") {
		return nil, nil // one argument at most
	}
	switch head {
	case "/model":
		if m.cmds.models == nil {
			return nil, m.fetchModels()
		}
		return withPrefix(m.cmds.models, "/model ", rest), nil
	case "/resume":
		if m.cmds.sessions == nil {
			return nil, m.fetchSessions()
		}
		ids := m.cmds.sessions
		m.cmds.sessions = nil
		return withPrefix(ids, "/resume ", rest), nil
	}
	return nil, nil
}

// withPrefix are base+name for the names that start with typed, sorted
// as given, without repeats.
func withPrefix(names []string, base, typed string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, typed) && !slices.Contains(out, base+n) {
			out = append(out, base+n)
		}
	}
	return out
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			_, size := lastRune(p)
			p = p[:len(p)-size]
		}
	}
	return p
}

func lastRune(s string) (rune, int) {
	r := []rune(s)
	if len(r) == 0 {
		return 0, 0
	}
	return r[len(r)-1], len(string(r[len(r)-1]))
}

// completable are the names fit to be put in the box: a name from the
// server with a blank, a control or a bidi character in it (termsafe
// would change it) is not offered.
func completable(names []string) []string {
	out := []string{}
	for _, n := range names {
		if n != "" && termsafe.Text(n) == n && !strings.ContainsAny(n, " \t") {
			out = append(out, n)
		}
	}
	return out
}

// modelsMsg is the server's list of its models, for /model's completion.
type modelsMsg struct {
	ids []string
	err error
}

func (msg modelsMsg) apply(m *model) tea.Cmd {
	if msg.err == nil {
		m.cmds.models = completable(msg.ids)
	}
	return m.fetched(msg.err)
}

// fetched completes the box a fetch was waiting for, if it still holds
// what it held then.
func (m *model) fetched(err error) tea.Cmd {
	c := m.cmds.comp
	if c == nil || c.waiting == "" || c.waiting != m.ta.Value() {
		return nil
	}
	if err != nil {
		c.note, c.waiting = "(no completion: "+termsafe.Text(strings.Trim(err.Error(), "[]"))+")", ""
		m.resize()
		return nil
	}
	cmd := m.completeBox(c.waiting)
	m.resize()
	return cmd
}

// fetchModels asks the server what it serves (GET /models), off the loop.
func (m *model) fetchModels() tea.Cmd {
	ctx := m.ctx
	return func() tea.Msg {
		ctx, cancel := context.WithTimeout(ctx, llm.ProbeTimeout)
		defer cancel()
		served, err := m.eng.Models(ctx)
		return modelsMsg{ids: served.IDs, err: err}
	}
}

// sessionsMsg is the ids /resume can take, newest first.
type sessionsMsg struct {
	ids []string
	err error
}

func (msg sessionsMsg) apply(m *model) tea.Cmd {
	m.cmds.sessions = msg.ids
	if m.cmds.sessions == nil {
		m.cmds.sessions = []string{}
	}
	cmd := m.fetched(msg.err)
	m.cmds.sessions = nil
	return cmd
}

// fetchSessions lists the saved sessions as /resume finds them (the
// session store of sessions.dir), off the loop: a foreign file, or one
// that does not load, is not offered.
func (m *model) fetchSessions() tea.Cmd {
	c := m.eng.Config.Sessions
	if !c.Enabled {
		return func() tea.Msg { return sessionsMsg{} }
	}
	st := &session.Store{Base: m.eng.Root, Dir: c.Dir}
	return func() tea.Msg {
		list, err := st.List()
		var ids []string
		for _, e := range list {
			if !e.Foreign && e.Err == nil {
				ids = append(ids, e.ID)
			}
		}
		return sessionsMsg{ids: completable(ids), err: err}
	}
}

// compLine is the line over the box: the candidates, dimmed, the one in
// the box in reverse video; "" when none is shown.
func (m *model) compLine() string {
	c := m.cmds.comp
	if c == nil {
		return ""
	}
	if len(c.cands) == 0 {
		return m.dim(ansi.Truncate(c.note, m.w, "…"))
	}
	// Shown by their last word (a /model NAME by its NAME), from one
	// that keeps the one in the box on the line.
	words := make([]string, len(c.cands))
	for i, s := range c.cands {
		words[i] = s[strings.LastIndexByte(s, ' ')+1:]
	}
	from := 0
	for from < c.at && ansi.StringWidth(strings.Join(words[from:c.at+1], "  ")) > m.w-4 {
		from++
	}
	var b strings.Builder
	width := 0
	if from > 0 {
		b.WriteString(m.dim("… "))
		width += 2
	}
	for i := from; i < len(words); i++ {
		w := words[i]
		if i > from {
			b.WriteString("  ")
			width += 2
		}
		if width+ansi.StringWidth(w) > m.w-2 {
			b.WriteString(m.dim("…"))
			break
		}
		width += ansi.StringWidth(w)
		if i == c.at {
			b.WriteString(headStyle.Render(w))
		} else {
			b.WriteString(m.dim(w))
		}
	}
	return b.String()
}

// dim is s faint, with NO_COLOR as is (as the window's other dimmed
// lines); the candidate in the box stays in reverse video, as the header.
func (m *model) dim(s string) string {
	if m.noColor {
		return s
	}
	return dimStyle.Render(s)
}
