package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"charm.land/bubbles/v2/key"
	"charm.land/bubbles/v2/textarea"
	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"mm/internal/agent"
	"mm/internal/config"
	"mm/internal/engine"
	"mm/internal/repl"
	"mm/internal/termsafe"
	"mm/internal/tools"
	"mm/internal/ui"
)

type blockKind int

const (
	blockDim   blockKind = iota // mm's own lines: the banner, notices, summaries
	blockUser                   // the user's question
	blockLabel                  // `‣ mm [<acp.title>]` over an answer
	blockText                   // the answer, streamed
	blockThink                  // the reasoning, streamed, dimmed
	blockTool                   // `‣ bash <command>` and its folded output
	blockRed                    // an error
)

// block is one piece of the conversation. Its text is sanitised when it
// is drawn (wrap), so a piece of an escape sequence split across two
// streamed deltas is still shown inert.
type block struct {
	kind  blockKind
	text  strings.Builder
	tool  callView
	lines []string // wrapped and styled, for width
	width int
	dirty bool
	// folded: a reasoning the answer followed shows only its first lines.
	folded bool
	// unfolded: a tool's whole output shows (Ctrl-O), not its preview.
	unfolded bool
	// reopened: a folded reasoning shown whole again (Ctrl-O); Ctrl-O
	// folds it back.
	reopened bool
	// answer: the permission's answer (`→ allowed once`), under the
	// call's line and above its output, which comes after it.
	answer string
	// The lines of a streamed block's ended lines (up to stableAt in its
	// text), laid out once for stableWidth: a new piece only lays out the
	// line it extends.
	stable      []string
	stableAt    int
	stableWidth int
	md          mdState // an answer's Markdown state after stableAt (markdown.go)
	start       int     // its first line in model.lines
}

var (
	dimStyle    = lipgloss.NewStyle().Faint(true)
	redStyle    = lipgloss.NewStyle().Foreground(lipgloss.Red)
	boldStyle   = lipgloss.NewStyle().Bold(true)
	headStyle   = lipgloss.NewStyle().Reverse(true)
	statusStyle = lipgloss.NewStyle().Faint(true)
)

type flushMsg struct{}

// foldedThinking is how many lines a folded reasoning keeps.
const foldedThinking = 2

// frame is how often streamed text is laid out again: a token does not
// cost a full layout of the conversation.
const frame = 16 * time.Millisecond

type model struct {
	ctx context.Context
	eng *engine.Engine
	ev  *events // the turn's messages, in order (tui.go)
	ui  *windowUI

	w, h   int
	vp     scroller
	ta     textarea.Model
	header string
	name   string // `mm [<acp.title>]`

	blocks  []*block
	tools   map[string]*block // the tool blocks of the turn, by call id
	lines   []string
	dirty   bool // some block changed since the last layout
	pending bool // a flushMsg is on its way

	running   bool
	turnStart time.Time
	status    string
	summary   string // the last turn's status line
	turn      turnState
	turns     sync.WaitGroup
	next      string // a question sent during the turn, asked once it stops

	perm      *permMsg
	form      *form // ask_user's questions on screen (ask_user.go)
	permShown time.Time
	lastKey   time.Time
	ctrlC     bool   // one Ctrl-C seen: the next one quits
	panicked  string // a turn's panic, reported once the window is closed
	exitCode  int    // mm's status once the window is closed

	// hist is .mm/history, shared with the line mode; past are its
	// questions and those of this window, histAt the one shown (len(past):
	// the draft, kept in draft).
	noColor bool // NO_COLOR: no styles, the reasoning marked instead

	hist   *repl.History
	past   []string
	histAt int
	draft  string

	sess  winSessions // sessions.go
	ag    askState    // ask_agent.go
	cmds  cmdState    // the commands, Tab-completion, readline keys (commands.go)
	frame frameCache  // the view's parts streaming leaves alone (frame.go)
	// starting: eng is a stand-in until the engine has started; waiting
	// are the keys that came meanwhile (start.go).
	starting bool
	waiting  []tea.Msg
	// resumeID, continueOn: -resume ID, -continue, done once the engine
	// has started (start.go).
	resumeID   string
	continueOn bool
}

type panicMsg struct{ report string }

// signalMsg is a SIGINT or SIGTERM mm received.
type signalMsg struct{ sig os.Signal }

func newModel(ctx context.Context, eng *engine.Engine) *model {
	m := &model{ctx: ctx, eng: eng, tools: map[string]*block{}, w: 80, h: 24}
	m.header = Header(eng.Config, eng.Provider.Name)
	_, m.noColor = os.LookupEnv("NO_COLOR")
	m.name = agentName(eng.Config)
	m.ev = &events{wake: func(tea.Msg) {}}
	m.ui = &windowUI{send: m.ev.post, showThinking: eng.Config.ShowThinking, previewLines: eng.Config.PreviewLines}
	m.ta = textarea.New()
	m.ta.Prompt = "› "
	m.ta.ShowLineNumbers = false
	m.ta.Placeholder = ""
	// No height limit of the widget's own: resize caps the box at a third
	// of the window. The widget's default (99 rows) also sizes its cache of
	// wrapped lines, and a paste of more lines than that thrashed it: each
	// cursor step wrapped every line above again (20 s for 300 lines).
	m.ta.MaxHeight = 0
	m.ta.SetHeight(1)
	m.ta.KeyMap.InsertNewline = key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"))
	// The box in the terminal's own colours: the default styles paint the
	// cursor line black, wrong on a light terminal.
	st := m.ta.Styles()
	plainState := textarea.StyleState{Base: lipgloss.NewStyle(), CursorLine: lipgloss.NewStyle(), Text: lipgloss.NewStyle(),
		Prompt: lipgloss.NewStyle(), EndOfBuffer: lipgloss.NewStyle(), Placeholder: dimStyle, Selection: lipgloss.NewStyle().Reverse(true)}
	st.Focused, st.Blurred = plainState, plainState
	// A steady cursor: a blinking one redraws the box twice a second while
	// nothing else moves (idle CPU, docs/benchmarks.md).
	st.Cursor.Blink = false
	m.ta.SetStyles(st)
	m.ta.Focus()
	m.resize()
	return m
}

// Init lays the conversation out for the first frame.
func (m *model) Init() tea.Cmd { return func() tea.Msg { return flushMsg{} } }

func (m *model) addBlock(kind blockKind, text string) *block {
	b := &block{kind: kind, dirty: true}
	b.text.WriteString(text)
	m.blocks = append(m.blocks, b)
	m.dirty = true
	return b
}

// stream appends a delta to the last block when it is of kind, else to a
// new one.
func (m *model) stream(kind blockKind, s string) {
	if n := len(m.blocks); n > 0 && m.blocks[n-1].kind == kind {
		b := m.blocks[n-1]
		b.text.WriteString(s)
		b.dirty = true
		m.dirty = true
		return
	}
	m.addBlock(kind, s)
}

// later asks for a layout at the next frame.
func (m *model) later() tea.Cmd {
	if !m.dirty || m.pending {
		return nil
	}
	m.pending = true
	return tea.Tick(m.frameDelay(), func(time.Time) tea.Msg { return flushMsg{} })
}

// layout wraps the changed blocks and hands the lines to the viewport,
// which stays at the bottom if it was there.
func (m *model) layout() {
	if !m.dirty {
		return
	}
	m.dirty = false
	follow := m.vp.AtBottom()
	first := -1
	for i, b := range m.blocks {
		if b.dirty || b.width != m.w {
			if first < 0 {
				first = i
			}
			b.lines = wrap(b, m.w, m.noColor)
			b.width, b.dirty = m.w, false
		}
	}
	if first < 0 {
		return
	}
	cut := 0 // where the first changed block starts: after the last unchanged one
	if first > 0 {
		prev := m.blocks[first-1]
		cut = prev.start + len(prev.lines)
	}
	m.lines = m.lines[:cut]
	for _, b := range m.blocks[first:] {
		b.start = len(m.lines)
		m.lines = append(m.lines, b.lines...)
	}
	m.vp.SetLines(m.lines)
	if follow {
		m.vp.GotoBottom()
	}
}

// wrap lays a block out for width columns: sanitised, wrapped, styled
// line by line (a style never spans a line the viewport may cut).
func wrap(b *block, width int, noColor bool) []string {
	if b.kind == blockText || (b.kind == blockThink && !b.folded) {
		return b.streamed(width, noColor)
	}
	var text string
	style := lipgloss.Style{}
	plain := true
	switch b.kind {
	case blockTool:
		text = toolText(b.tool, b.unfolded)
		if b.answer != "" {
			head, rest, _ := strings.Cut(text, "\n")
			text = strings.TrimSuffix(head+"\n   → "+b.answer+"\n"+rest, "\n")
		}
		if showsDiff(b.tool) {
			text = colorDiff(text, noColor)
		}
	case blockLabel:
		text, style, plain = termsafe.Text(b.text.String()), boldStyle, false
	case blockDim, blockThink:
		text, style, plain = termsafe.Text(b.text.String()), dimStyle, false
	case blockRed:
		text, style, plain = termsafe.Text(b.text.String()), redStyle, false
	case blockUser:
		text = "› " + termsafe.Text(b.text.String())
	default:
		text = termsafe.Text(b.text.String())
	}
	text = strings.TrimRight(strings.ReplaceAll(text, "\t", "    "), "\n")
	if width < 10 {
		width = 10
	}
	if b.kind == blockThink && noColor {
		width -= len([]rune(ui.ThinkingMark))
	}
	lines := strings.Split(ansi.Wrap(text, width, ""), "\n")
	if b.kind == blockTool {
		lines = carrySGR(lines) // a diff's colours, row by row
	}
	if b.folded && len(lines) > foldedThinking {
		more := len(lines) - foldedThinking
		lines = append(lines[:foldedThinking:foldedThinking], fmt.Sprintf("… %d more line(s) of thinking (Ctrl-O unfolds)", more))
	}
	if b.kind == blockThink && noColor {
		// Without colour to dim it, the reasoning is marked as the line
		// mode marks it.
		for i, l := range lines {
			lines[i] = ui.ThinkingMark + l
		}
		plain = true
	}
	if !plain && !noColor {
		for i, l := range lines {
			lines[i] = style.Render(l)
		}
	}
	return append(lines, "")
}

// maxLineShown is how much of one line of an answer is drawn: a line of
// megabytes from the model would otherwise be laid out again at every
// frame and fill thousands of rows. The rest is counted, not drawn (the
// model's text is kept whole in the history).
const maxLineShown = 16 << 10

// streamed lays out an answer or a reasoning being streamed: the ended
// lines once, the line still growing at each call.
func (b *block) streamed(width int, noColor bool) []string {
	if width < 10 {
		width = 10
	}
	if width != b.stableWidth {
		b.stable, b.stableAt, b.stableWidth, b.md = nil, 0, width, mdState{}
	}
	raw := b.text.String()
	if end := strings.LastIndexByte(raw, '\n') + 1; end > b.stableAt {
		for _, l := range strings.SplitAfter(raw[b.stableAt:end], "\n") {
			if l != "" {
				b.stable = append(b.stable, b.layLine(l, width, noColor, &b.md)...)
			}
		}
		b.stableAt = end
	}
	lines := b.stable[:len(b.stable):len(b.stable)]
	if tail := raw[b.stableAt:]; tail != "" {
		st := b.md // the growing line does not move the state on
		lines = append(lines, b.layLine(tail, width, noColor, &st)...)
	}
	return append(lines, "")
}

// layLine is one line of a streamed block (with or without its "\n"):
// sanitised, cut to maxLineShown, wrapped, styled; an answer's line is
// rendered as Markdown from st, which it moves on.
func (b *block) layLine(l string, width int, noColor bool, st *mdState) []string {
	l = strings.TrimSuffix(strings.TrimSuffix(l, "\n"), "\r")
	more := 0
	if len(l) > maxLineShown {
		cut := maxLineShown
		for cut > 0 && !utf8.RuneStart(l[cut]) {
			cut--
		}
		more, l = len(l)-cut, l[:cut]
	}
	text := strings.ReplaceAll(termsafe.Text(l), "\t", "    ")
	if more > 0 {
		text += fmt.Sprintf(" [… %d more bytes on this line]", more)
	}
	if b.kind == blockText {
		lines, next := mdLine(text, *st, width, noColor)
		*st = next
		return lines
	}
	mark := b.kind == blockThink && noColor
	if mark {
		width -= utf8.RuneCountInString(ui.ThinkingMark)
	}
	lines := strings.Split(ansi.Wrap(text, width, ""), "\n")
	for i, w := range lines {
		switch {
		case mark:
			lines[i] = ui.ThinkingMark + w
		case b.kind == blockThink && !noColor:
			lines[i] = dimStyle.Render(w)
		}
	}
	return lines
}

func ansiWrap(s string, width int) string     { return ansi.Wrap(s, width, "") }
func ansiTruncate(s string, width int) string { return ansi.Truncate(s, width, "…") }

// cutRow is the last row kept of a longer text, in width columns: " …"
// says the rest is cut (clip's own "…" would say it twice).
func cutRow(row string, width int) string {
	return ansi.Truncate(row, max(1, width-2), "") + " …"
}

// toolText is `‣ bash <command>` with its status and duration, then the
// folded output (already sanitised by the line mode's printer).
func toolText(v callView, unfolded bool) string {
	name := v.name
	if v.mcp != "" {
		name = v.mcp
	}
	summary := strings.TrimSpace(v.summary)
	if i := strings.IndexByte(summary, '\n'); i >= 0 {
		summary = fmt.Sprintf("%s … (+%d line(s))", strings.TrimSpace(summary[:i]), strings.Count(summary[i:], "\n"))
	}
	status := "running"
	switch {
	case !v.done:
	case v.refused:
		status = "refused"
	case v.failed:
		status = "failed"
	default:
		status = "done"
	}
	line := fmt.Sprintf("‣ %s %s · %s", name, summary, status)
	if v.name == "ask_user" && !v.done {
		line = fmt.Sprintf("‣ %s %s … waiting for your answer", name, summary)
	}
	if v.done {
		line += " · " + formatDuration(v.duration)
	}
	line = termsafe.Text(line)
	switch {
	case unfolded && v.full != "":
		line += "\n" + v.full
	case v.preview != "":
		line += "\n" + v.preview
		if v.full != "" {
			line += "\n   (Ctrl-O unfolds)"
		}
	}
	return line
}

func formatDuration(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// permLines are the permission zone's rows, its head (the line mode's 🔐
// text) and its keys, and how many of the head's last rows do not fit.
// The zone never takes more than half the window (its head is the line
// mode's, which already folds a planned change); the keys always show,
// or the zone would wait for keys it does not name.
func (m *model) permLines() (head, keys []string, cut int) {
	// A tab is laid out as the conversation lays it (four columns):
	// written raw, the terminal would move to its own tab stop, past
	// what the wrap counted.
	head = carrySGR(strings.Split(ansi.Wrap(colorDiff(strings.ReplaceAll(m.perm.head, "\t", "    "), m.noColor), m.w, ""), "\n"))
	keys = strings.Split(ansi.Wrap(m.perm.keys, m.w, ""), "\n")
	if most := max(3, m.h/2); len(head)+len(keys) > most {
		keep := max(1, most-len(keys)-1)
		cut = len(head) - keep
	}
	return head, keys, cut
}

// permWhole puts the request asked about in the conversation, once, when
// the permission zone cuts it (on arrival, or when the window shrinks
// later): a command is answered only once it can be read to its end, as
// the line mode prints it whole, and PgUp reaches it there.
func (m *model) permWhole() {
	if m.perm == nil || m.perm.whole {
		return
	}
	if _, _, cut := m.permLines(); cut > 0 {
		m.addBlock(blockOutput, m.perm.head)
		m.perm.whole = true
	}
}

// zone is what stands at the bottom: the permission zone or the input box.
func (m *model) zone() string {
	if m.form != nil {
		return m.formZone()
	}
	if m.perm != nil {
		head, keys, cut := m.permLines()
		if cut > 0 {
			more := fmt.Sprintf("… %d more line(s)", cut)
			if m.perm.whole {
				more += ": the whole request is in the conversation (PgUp)"
			}
			head = append(head[:len(head)-cut], dimStyle.Render(clip(more, m.w)))
		}
		return strings.Join(append(head, keys...), "\n")
	}
	return m.boxZone()
}

// zoneHeight is the zone's height. The box's is counted, not drawn: the
// widget draws every line it holds at each draw (a 300-line paste: 18 ms),
// and resize runs at each key.
func (m *model) zoneHeight() int {
	if m.form != nil || m.perm != nil {
		return lipgloss.Height(m.zone())
	}
	h := m.ta.Height()
	if m.compLine() != "" {
		h++
	}
	if m.cmds.search != nil {
		h++
	}
	return h
}

// resize gives the viewport what the header, the status line and the
// zone leave.
func (m *model) resize() {
	follow := m.vp.AtBottom()
	m.ta.SetWidth(m.w)
	// The box grows with its lines, up to a third of the window.
	h := min(max(1, m.ta.LineCount()), max(1, m.h/3))
	grew := h > m.ta.Height()
	m.ta.SetHeight(h)
	if grew && m.ta.ScrollYOffset() > 0 {
		// The box's view keeps its offset when it grows, so a paste into
		// the one-row box showed its last line on the first row and empty
		// rows under it. From the top again, then down to the cursor,
		// which the view follows only as far as it must (at the new
		// height: CursorDown moves the view).
		row, col := m.ta.Line(), m.ta.Column()
		m.ta.MoveToBegin()
		if row == m.ta.LineCount()-1 {
			// The usual case, a paste at the end: one jump, where stepping
			// down costs a wrap of every line above the cursor per step.
			m.ta.MoveToEnd()
		} else {
			for guard := m.ta.Length() + 1; m.ta.Line() < row && guard > 0; guard-- {
				m.ta.CursorDown()
			}
		}
		m.ta.SetCursorColumn(col)
	}
	m.vp.SetHeight(max(1, m.h-2-m.zoneHeight()))
	if follow {
		m.vp.GotoBottom()
	}
}

func (m *model) statusLine() string {
	var parts []string
	if !m.vp.AtBottom() {
		// First: the rest may be cut to the width.
		parts = append(parts, "scrolled up (End follows)")
	}
	switch {
	case m.ctrlC:
		parts = append(parts, "Ctrl-C again quits")
	case m.perm != nil || m.form != nil:
		parts = append(parts, "Waiting for your answer")
	case m.running:
		s := m.status
		if s == "" {
			s = "Thinking"
		}
		run := fmt.Sprintf("%s… %s", s, formatDuration(time.Since(m.turnStart)))
		if n := len(m.tools); n > 0 {
			run += fmt.Sprintf(" · %d call(s)", n)
		}
		parts = append(parts, run+" · Esc stops")
	case m.summary != "":
		parts = append(parts, m.summary)
	}
	if m.eng.Config.Yolo {
		parts = append(parts, "yolo")
	}
	if sb := m.eng.Config.Sandbox.Mode; sb != "" && sb != config.SandboxOff && m.eng.Config.BashTool {
		parts = append(parts, "sandbox "+sb)
	}
	return ansi.Truncate(termsafe.Text(strings.Join(parts, " · ")), m.w, "…")
}

// View draws what the last layout made: it runs after every message (a
// streamed token too), the layout at most once a frame (flushMsg).
func (m *model) View() tea.View {
	if testPanic != nil && len(m.past) > 0 {
		testPanic("view", m.past[len(m.past)-1]) // testhooks.go
	}
	content := m.headRow() + "\n" + m.vp.View() + "\n" + m.statusRow() + "\n" + m.cachedZone()
	v := tea.NewView(content)
	v.AltScreen = true
	v.MouseMode = tea.MouseModeCellMotion
	return v
}

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	// Whatever changed the conversation is laid out at the next frame.
	if later := m.later(); later != nil {
		return m, tea.Batch(cmd, later)
	}
	return m, cmd
}

func (m *model) update(msg tea.Msg) tea.Cmd {
	m.frame.touch(msg) // frame.go
	if m.early(msg) {
		return nil // start.go: handled once the engine is there
	}
	switch msg := msg.(type) {
	case engineMsg:
		return m.started(msg)
	case startFailedMsg:
		return tea.Quit
	case drainMsg:
		var cmds []tea.Cmd
		for _, msg := range m.ev.take() {
			cmds = append(cmds, m.update(msg))
		}
		m.drained() // frame.go
		return tea.Batch(cmds...)
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.dirty = true
		m.permWhole() // a smaller window may cut a request that fitted
		m.resize()
		m.layout()
		return nil
	case tickMsg:
		if m.running {
			return tick()
		}
		return nil
	case flushMsg:
		m.pending = false
		m.layout()
		return nil
	case textMsg:
		m.speak("") // ask_agent.go
		if n := len(m.blocks); n > 0 && m.blocks[n-1].kind == blockThink {
			// The answer starts: the reasoning folds to its first lines.
			b := m.blocks[n-1]
			b.folded, b.dirty = true, true
		}
		m.stream(blockText, string(msg))
	case thinkMsg:
		m.speak("")
		m.stream(blockThink, string(msg))
	case statusMsg:
		m.status = string(msg)
		return nil
	case noticeMsg:
		m.addBlock(blockDim, "· "+string(msg))
	case toolMsg:
		if b := m.tools[msg.c.id]; b != nil && msg.c.id != "" {
			b.tool, b.dirty, m.dirty = msg.c, true, true
		} else {
			b := m.addBlock(blockTool, "")
			b.tool = msg.c
			m.tools[msg.c.id] = b
		}
	case permMsg:
		m.perm = &msg
		m.permWhole()
		m.permShown = time.Now()
		m.ta.Blur()
		m.resize()
	case askMsg:
		m.openForm(msg)
	case askCancelMsg:
		if m.form != nil && m.form.reply == msg.reply {
			m.closeForm(askReply{err: context.Canceled}, "cancelled (the turn stopped)")
		}
	case permCancelMsg:
		if m.perm != nil && m.perm.reply == msg.reply {
			m.closePerm("refused (the turn stopped)")
		}
	case turnDoneMsg:
		return m.turnDone(msg)
	case panicMsg:
		m.panicked = msg.report
		return tea.Quit
	case signalMsg:
		if msg.sig == syscall.SIGTERM {
			m.exitCode = 128 + int(syscall.SIGTERM)
			return tea.Quit
		}
		return m.interrupt()
	case tea.MouseWheelMsg:
		m.layout()
		switch msg.Mouse().Button {
		case tea.MouseWheelUp:
			m.vp.Scroll(-3)
		case tea.MouseWheelDown:
			m.vp.Scroll(3)
		}
		return nil
	case tea.KeyPressMsg:
		return m.key(msg)
	case cmdMsg: // commands.go, complete.go: work done off the loop
		return msg.apply(m)
	case tea.PasteMsg:
		m.cmds.search, m.cmds.comp = nil, nil // a paste ends them, the box kept as it is
		if m.perm == nil && (m.form == nil || m.form.qs[m.form.i].Type == tools.QuestionText) {
			var cmd tea.Cmd
			msg.Content = intoBox(msg.Content) // tabs.go
			m.ta, cmd = m.ta.Update(msg)
			m.resize()
			return cmd
		}
		return nil
	default:
		if cmd, ok := m.askUpdate(msg); ok { // ask_agent.go
			return cmd
		}
	}
	return nil
}

// key handles a key press: the window's own keys first, then the
// permission zone's answers, then the input box.
func (m *model) key(k tea.KeyPressMsg) tea.Cmd {
	now := time.Now()
	quiet := m.lastKey.IsZero() || now.Sub(m.lastKey) >= repl.PermissionGuard
	m.lastKey = now
	s := k.String()
	if s != "ctrl+c" {
		m.ctrlC = false
	}
	if cmd, ok := m.editKey(k); ok { // readline.go: Tab, Ctrl-R, readline's keys
		return cmd
	}
	switch s {
	case "ctrl+c":
		if !m.ctrlC && m.perm == nil && m.form == nil && m.ta.Value() != "" && !m.cancellable() {
			// The line mode's Ctrl-C at the prompt: it clears the line
			// and quits nothing. A person clearing a long question must
			// not be one Ctrl-C away from leaving; on the empty box the
			// next one starts to.
			m.setBox("")
			return nil
		}
		return m.interrupt()
	}
	if m.form != nil {
		switch s {
		case "ctrl+d":
			m.closeForm(askReply{err: tools.ErrDeclined}, "declined")
		case "pgup":
			m.layout()
			m.vp.PageUp()
		case "pgdown":
			m.layout()
			m.vp.PageDown()
		default:
			cmd := m.formKey(k, now, quiet)
			m.resize()
			return cmd
		}
		return nil
	}
	switch s {
	case "esc":
		m.stopTurn()
		return nil
	case "ctrl+d":
		if m.perm != nil {
			m.answer(agent.Refuse) // as at the line mode's prompt
			return nil
		}
		if m.ta.Value() == "" {
			return tea.Quit
		}
	case "ctrl+o":
		m.unfoldLast()
		return nil
	case "pgup":
		m.layout()
		m.vp.PageUp()
		return nil
	case "pgdown":
		m.layout()
		m.vp.PageDown()
		return nil
	case "home":
		if m.ta.Value() == "" || m.perm != nil {
			m.layout()
			m.vp.GotoTop()
			return nil
		}
	case "end":
		if m.ta.Value() == "" || m.perm != nil {
			m.layout()
			m.vp.GotoBottom()
			return nil
		}
	}
	if m.perm != nil {
		// The line mode's guard: only a key typed once the zone has been
		// on screen a while, the keyboard quiet, answers it; any other
		// key is ignored (the zone hides the box).
		if r := []rune(k.Text); len(r) == 1 && quiet && now.Sub(m.permShown) >= repl.PermissionGuard {
			if d, ok := repl.PermissionKey(r[0], m.perm.prefix); ok {
				m.answer(d)
			}
		}
		return nil
	}
	if s == "enter" {
		return m.submit()
	}
	if (s == "up" && m.ta.Line() == 0) || (s == "down" && m.ta.Line() == m.ta.LineCount()-1) {
		m.recall(s == "up")
		return nil
	}
	var cmd tea.Cmd
	m.ta, cmd = m.ta.Update(k)
	m.resize()
	return cmd
}

// recall shows the question before (or after) the one shown, through
// the history; past the last one, the draft comes back.
func (m *model) recall(back bool) {
	at := m.histAt
	if back && at > 0 {
		at--
	} else if !back && at < len(m.past) {
		at++
	} else {
		return
	}
	if m.histAt == len(m.past) {
		m.draft = m.ta.Value()
	}
	m.histAt = at
	if at == len(m.past) {
		m.ta.SetValue(m.draft)
	} else {
		m.ta.SetValue(intoBox(m.past[at]))
	}
	m.resize()
}

// unfoldLast shows the whole of the last thing folded, a tool call's
// output or a reasoning, or folds it again.
func (m *model) unfoldLast() {
	for i := len(m.blocks) - 1; i >= 0; i-- {
		b := m.blocks[i]
		switch {
		case b.kind == blockTool && b.tool.full != "":
			b.unfolded, b.dirty, m.dirty = !b.unfolded, true, true
			return
		case b.kind == blockThink && (b.folded || b.reopened):
			// The last folded thing may be the reasoning before an answer.
			b.folded, b.reopened = b.reopened, !b.reopened
			b.stableWidth, b.dirty, m.dirty = 0, true, true // laid out again whole
			return
		}
	}
}

// interrupt is Ctrl-C (or SIGINT): the first stops the turn, the second
// quits.
func (m *model) interrupt() tea.Cmd {
	if m.ctrlC {
		m.exitCode = 130
		return tea.Quit
	}
	m.ctrlC = true
	m.stopTurn()
	return nil
}

// answer gives the waiting permission its answer.
func (m *model) answer(d agent.Decision) {
	p := m.perm
	p.reply <- d // buffered: the agent may have stopped waiting
	m.closePerm(repl.PermissionWord(d, p.prefix))
}

func (m *model) closePerm(word string) {
	if b := m.tools[m.perm.id]; b != nil && m.perm.id != "" {
		b.answer, b.dirty, m.dirty = word, true, true
	} else {
		m.addBlock(blockDim, "   → "+word)
	}
	m.perm = nil
	// The box in the terminal's own colours: the default styles paint the
	// cursor line black, wrong on a light terminal.
	st := m.ta.Styles()
	plainState := textarea.StyleState{Base: lipgloss.NewStyle(), CursorLine: lipgloss.NewStyle(), Text: lipgloss.NewStyle(),
		Prompt: lipgloss.NewStyle(), EndOfBuffer: lipgloss.NewStyle(), Placeholder: dimStyle, Selection: lipgloss.NewStyle().Reverse(true)}
	st.Focused, st.Blurred = plainState, plainState
	m.ta.SetStyles(st)
	m.ta.Focus()
	m.resize()
}

// submit sends what the box holds: a command of the window, or a question
// (during a turn it stops the turn and is asked next, as in line mode).
func (m *model) submit() tea.Cmd {
	line := strings.TrimSpace(m.boxValue())
	m.ta.Reset()
	m.resize()
	if line != "" {
		if n := len(m.past); n == 0 || m.past[n-1] != line {
			m.past = append(m.past, line)
		}
		if m.hist != nil {
			m.hist.Add(line)
		}
	}
	m.histAt, m.draft = len(m.past), ""
	switch line {
	case "":
		return nil
	case "/quit", "/exit":
		return tea.Quit
	case "/abort":
		if m.running {
			m.stopTurn()
			return nil
		}
	}
	if m.running {
		m.next = line
		if !m.cmds.busy {
			m.stopTurn() // a command runs to its end, as in the line mode
		}
		return nil
	}
	return m.ask(line)
}

// ask starts a turn in its own goroutine; its events come back as
// messages.
func (m *model) ask(question string) tea.Cmd {
	if cmd, ok := m.command(question); ok {
		return cmd
	}
	m.addBlock(blockUser, question)
	m.addBlock(blockLabel, "‣ "+m.name)
	m.ag.speaker = ""
	return m.goTurn("Thinking", func(ctx context.Context) {
		if testPanic != nil {
			testPanic("turn", question) // testhooks.go
		}
		res, err := m.eng.Agent.Ask(ctx, question, m.ui)
		// Saved as the line mode saves it (sessions.go).
		m.sess.AfterTurn(err)
		window, _ := m.eng.Window(m.ctx) // asked once per model, then kept
		m.ev.post(turnDoneMsg{res, err, window})
	})
}

// goTurn runs work off the Update loop as a turn: the status line shows
// status and the time, Esc (Ctrl-C, /abort) cancels work's context, and
// work posts what it ends with. A question, an /ask-NAME and the commands
// that wait on the server (commands.go) all run so.
func (m *model) goTurn(status string, work func(ctx context.Context)) tea.Cmd {
	m.running, m.turnStart, m.status = true, time.Now(), status
	m.tools = map[string]*block{}
	ctx, cancel := context.WithCancel(m.ctx)
	m.turn.mu.Lock()
	m.turn.cancel = cancel
	m.turn.mu.Unlock()
	m.turns.Add(1)
	go func() {
		defer m.turns.Done()
		defer cancel()
		defer func() {
			// A panic in the turn must not leave the terminal in the
			// window's modes: the window closes first, Run reports it.
			if r := recover(); r != nil {
				m.ev.post(panicMsg{fmt.Sprintf("%v\n%s", r, debug.Stack())})
			}
		}()
		work(ctx)
	}()
	m.vp.GotoBottom()
	return tea.Batch(m.later(), tick())
}

// undo is /undo and /redo, as ACP runs them: nobody is asked in the
// middle of a command here yet, so a file changed after the turn (it
// differs from what the turn left) is kept as it is, and the report names
// it. The next request tells the model.
func (m *model) undo(redo bool) string {
	t := m.eng.Undo
	if why := t.Unavailable(); why != "" {
		return "[/undo is unavailable: " + termsafe.Text(why) + "]"
	}
	op := t.Undo
	if redo {
		op = t.Redo
	}
	rep, err := op(nil)
	text := rep.Text()
	switch {
	case err != nil && !rep.Changed():
		text = "[error: " + strings.Trim(err.Error(), "[]") + " — no file was changed]"
	case err != nil:
		text = "[error: " + strings.Trim(err.Error(), "[]") + "]\n" + text
	}
	m.eng.Agent.AddNote(rep.Note())
	return termsafe.Text(text)
}

type tickMsg struct{}

// tick redraws the status line's clock while a turn runs.
func tick() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

// cancellable reports whether a turn or a command runs that Ctrl-C stops.
func (m *model) cancellable() bool {
	m.turn.mu.Lock()
	defer m.turn.mu.Unlock()
	return m.turn.cancel != nil
}

func (m *model) stopTurn() {
	m.turn.mu.Lock()
	defer m.turn.mu.Unlock()
	if m.turn.cancel != nil {
		m.turn.cancel()
	}
}

func (m *model) turnDone(d turnDoneMsg) tea.Cmd {
	m.running = false
	m.turn.mu.Lock()
	m.turn.cancel = nil
	m.turn.mu.Unlock()
	if m.perm != nil {
		m.closePerm("refused (the turn stopped)")
	}
	if m.form != nil {
		m.closeForm(askReply{err: context.Canceled}, "cancelled (the turn stopped)")
	}
	switch {
	case d.err == nil:
	case errors.Is(d.err, context.Canceled):
		m.addBlock(blockDim, "[turn stopped]")
	default:
		m.addBlock(blockRed, d.err.Error())
	}
	m.summary = ""
	if d.res != nil && (d.err == nil || len(d.res.Calls) > 0) {
		m.summary = ui.Summary(d.res)
		m.addBlock(blockDim, m.summary)
	}
	if n := d.res; n != nil && n.Usage.Input > 0 {
		if w := d.window; w > 0 {
			m.summary += fmt.Sprintf(" · context %s/%s (%d%%)", ui.Tokens(n.Usage.Input), ui.Tokens(w), n.Usage.Input*100/w)
		} else {
			m.summary += " · context " + ui.Tokens(n.Usage.Input)
		}
	}
	if q := m.next; q != "" {
		m.next = ""
		return m.ask(q)
	}
	return m.later()
}
