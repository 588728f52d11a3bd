// Package ui writes what a turn does for a person in a terminal: the
// streamed answer, the reasoning, the tool lines with their output preview,
// the spinner, and the turn summary. The one-shot mode and the line REPL
// share it.
package ui

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"golang.org/x/term"

	"mm/internal/agent"
	"mm/internal/termsafe"
)

// ANSI styles; empty when colour is off.
type styles struct{ dim, grey, red, reset string }

// Printer renders turn events. Answer text goes to Out, everything else
// (activity) to Err: with `mm -p`, stdout then holds only the answer. The
// REPL gives the same writer for both.
type Printer struct {
	Out, Err     io.Writer
	ShowThinking bool
	PreviewLines int

	st      styles
	spinner bool // a terminal: the status line may be drawn
	width   func() int

	mu       sync.Mutex
	outOpen  bool // Out has text not ended by a newline
	errOpen  bool // Err has a thinking line not ended by a newline
	thinking bool
	// thinkMark starts each line of the reasoning when there is no colour
	// to dim it: the thinking stays told apart from the answer.
	thinkMark string
	// A streamed piece that ends in "\r" may be the first half of a
	// "\r\n": the CR waits for the next piece.
	outCR, thinkCR bool

	status      string // the spinner's text; "" = no spinner
	input       string // what the user types while a turn runs
	statusSince time.Time
	drawn       bool // the status line is on screen
	// below: the status line is drawn on the row under an answer line
	// still open (the cursor stays at the end of that line).
	below    bool
	frame    int
	ticker   *time.Ticker
	stopTick chan struct{}

	// echo: a dumb terminal, where no status line can be drawn: what the
	// user types shows as plain lines instead (see echoInput). echoed is
	// the type-ahead as the screen last showed it; echoOpen: on a line
	// not ended yet, which the next key extends.
	echo     bool
	echoed   string
	echoOpen bool
}

// ThinkingMark starts each line of the reasoning when there is no colour
// to dim it.
const ThinkingMark = "┊ "

// NewPrinter returns a printer. Colour is on when errw is a terminal,
// NO_COLOR is not set and TERM is not dumb; the spinner likewise, whatever
// NO_COLOR says.
func NewPrinter(out, errw io.Writer, showThinking bool, previewLines int) *Printer {
	p := &Printer{Out: out, Err: errw, ShowThinking: showThinking, PreviewLines: previewLines, width: func() int { return 0 }}
	if ColorEnabled(errw) {
		p.st = styles{dim: "\x1b[2m", grey: "\x1b[90m", red: "\x1b[31m", reset: "\x1b[0m"}
	} else {
		p.thinkMark = ThinkingMark
	}
	if f, ok := errw.(*os.File); ok && term.IsTerminal(int(f.Fd())) && DumbTerminal() {
		p.echo = true
	} else if ok && term.IsTerminal(int(f.Fd())) {
		p.spinner = true
		p.width = func() int {
			w, _, err := term.GetSize(int(f.Fd()))
			if err != nil {
				return 0
			}
			return w
		}
	}
	return p
}

// ColorEnabled reports whether w is a terminal, NO_COLOR is unset and
// TERM is not dumb.
func ColorEnabled(w io.Writer) bool {
	if _, off := os.LookupEnv("NO_COLOR"); off || DumbTerminal() {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// DumbTerminal reports TERM=dumb: a terminal that moves no cursor and
// shows no colour (Emacs' shell, some CI logs).
func DumbTerminal() bool { return os.Getenv("TERM") == "dumb" }

// Every text the printer is given passes termsafe.Text before it is written:
// its callers hand it what the model, a tool or a server wrote, and only
// the printer's own styles are escape sequences.

// Text writes a piece of the answer.
func (p *Printer) Text(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
	p.status = ""
	p.endThinking()
	s = streamed(s, &p.outCR)
	if s == "" {
		return
	}
	io.WriteString(p.Out, s)
	p.outOpen = !strings.HasSuffix(s, "\n")
	p.redraw()
}

// Thinking writes a piece of the reasoning, dimmed, when showThinking.
func (p *Printer) Thinking(s string) {
	if !p.ShowThinking || s == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
	p.status = ""
	p.endOut()
	s = streamed(s, &p.thinkCR)
	if s == "" {
		return
	}
	if !p.thinking {
		p.thinking = true
		io.WriteString(p.Err, p.st.dim)
	}
	if p.thinkMark != "" {
		s = p.markThinking(s)
	}
	io.WriteString(p.Err, s)
	p.errOpen = !strings.HasSuffix(s, "\n")
	p.redraw()
}

// markThinking puts the mark at the start of each line of s that begins
// a line on the screen.
func (p *Printer) markThinking(s string) string {
	var b strings.Builder
	for len(s) > 0 {
		if !p.errOpen {
			b.WriteString(p.thinkMark)
		}
		line, rest, nl := strings.Cut(s, "\n")
		b.WriteString(line)
		if nl {
			b.WriteByte('\n')
		}
		p.errOpen = !nl
		s = rest
	}
	return b.String()
}

// streamed sanitises one streamed piece. A final "\r" is held back (cr)
// until the next piece says whether it began a "\r\n".
func streamed(s string, cr *bool) string {
	if *cr {
		*cr = false
		s = "\r" + s
	}
	if strings.HasSuffix(s, "\r") {
		*cr = true
		s = s[:len(s)-1]
	}
	return termsafe.Text(s)
}

func (p *Printer) endThinking() {
	if p.thinkCR {
		p.thinkCR = false
		if p.ShowThinking {
			io.WriteString(p.Err, "^M")
		}
	}
	if !p.thinking {
		return
	}
	p.thinking = false
	io.WriteString(p.Err, p.st.reset)
	if p.errOpen {
		io.WriteString(p.Err, "\n")
		p.errOpen = false
	}
}

func (p *Printer) endOut() {
	if p.outCR {
		p.outCR = false
		io.WriteString(p.Out, "^M")
		p.outOpen = true
	}
	if p.outOpen {
		io.WriteString(p.Out, "\n")
		p.outOpen = false
	}
}

// Line writes one activity line (the spinner, if any, comes back below it).
func (p *Printer) Line(s string) { p.write(termsafe.Text(s)) }

// DimLine and RedLine write an activity line dimmed or in red (plain
// without colour).
func (p *Printer) DimLine(s string) { p.write(p.st.dim + termsafe.Text(s) + p.st.reset) }
func (p *Printer) RedLine(s string) { p.write(p.st.red + termsafe.Text(s) + p.st.reset) }

// write writes a line that is already safe.
func (p *Printer) write(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
	p.endThinking()
	p.endOut()
	fmt.Fprintln(p.Err, s)
	p.redraw()
}

// redraw puts back at once what the user is typing, which has no spinner
// tick to bring it back when no status shows.
func (p *Printer) redraw() {
	if p.echo {
		p.echoInput()
		return
	}
	if p.input != "" {
		p.drawStatus()
	}
}

// echoInput shows the type-ahead on a dumb terminal, which can neither
// keep a status line nor move back to redraw one: a key that adds to the
// text shown on the open line is written after it, like a terminal's own
// echo; any other change (a Backspace, text typed after some output)
// starts a new line "› " with the whole text; Ctrl-U ends the line, as a
// terminal's kill echoes a newline. Nothing is written inside a line the
// answer or the thinking is still writing: the text shows once that line
// ends.
func (p *Printer) echoInput() {
	if p.outOpen || p.errOpen || p.input == p.echoed {
		return
	}
	if p.echoOpen && strings.HasPrefix(p.input, p.echoed) {
		io.WriteString(p.Err, inputText(p.input[len(p.echoed):]))
	} else {
		p.endEcho()
		if p.input != "" {
			io.WriteString(p.Err, "› "+inputText(p.input))
			p.echoOpen = true
		}
	}
	p.echoed = p.input
}

// endEcho ends the line the type-ahead is echoed on, before other output.
func (p *Printer) endEcho() {
	if p.echoOpen {
		io.WriteString(p.Err, "\n")
		p.echoOpen = false
	}
}

// TypedSoFar says, on a dumb terminal, what is typed when a 🔐 prompt has
// just come up under it: the prompt does not take it, and the user must
// know it is there for a key to answer (it must be cleared first).
func (p *Printer) TypedSoFar() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.echo || p.input == "" {
		return
	}
	p.endEcho()
	p.endThinking()
	p.endOut()
	fmt.Fprintf(p.Err, "   (typed so far: \"%s\" — Ctrl-U clears it, Enter sends it)\n", inputText(p.input))
	p.echoed = p.input
}

// Status shows a spinner with this text on the last line until the next
// output ("" hides it): "Thinking", "Reading the prompt 12.0k/25.3k tokens",
// "Composing a tool call". Only on a terminal.
func (p *Printer) Status(s string) {
	if !p.spinner {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if s != p.status {
		if p.status == "" || !strings.HasPrefix(s, strings.SplitN(p.status, " ", 2)[0]) {
			p.statusSince = time.Now()
		}
		p.status = s
	}
	if s == "" {
		p.clearStatus()
		p.redraw()
		return
	}
	if p.ticker == nil {
		p.ticker = time.NewTicker(100 * time.Millisecond)
		p.stopTick = make(chan struct{})
		go p.tick(p.ticker, p.stopTick)
	}
	p.drawStatus()
}

func (p *Printer) tick(t *time.Ticker, stop chan struct{}) {
	for {
		select {
		case <-t.C:
			p.mu.Lock()
			if p.status != "" {
				p.frame++
				p.drawStatus()
			}
			p.mu.Unlock()
		case <-stop:
			return
		}
	}
}

var frames = []string{"⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"}

func (p *Printer) drawStatus() {
	if !p.spinner {
		return
	}
	open := p.outOpen || p.errOpen
	if open && p.input == "" {
		// Never draw over a line the answer is still writing.
		return
	}
	var line string
	if p.status != "" {
		line = fmt.Sprintf("%s %s", frames[p.frame%len(frames)], p.status)
		if d := time.Since(p.statusSince); d >= 2*time.Second {
			line += fmt.Sprintf(" (%ds)", int(d.Seconds()))
		}
		if p.input != "" {
			line += "   "
		}
	}
	if p.input != "" {
		line += "› " + inputText(p.input)
	}
	if line == "" {
		p.clearStatus()
		return
	}
	if w := p.width(); w > 4 {
		line = clipWidth(line, w-1)
	}
	if open {
		// What the user types stays in view while the answer writes a
		// line: it is drawn on the row below, and the cursor goes back
		// to the end of the answer. IND then RI first make sure that row
		// exists (IND scrolls at the bottom of the screen), so the saved
		// position (DECSC) is still right when it is restored (DECRC).
		p.clearStatus()
		io.WriteString(p.Err, "\x1bD\x1bM\x1b7\x1bD\r\x1b[2K"+p.st.dim+line+p.st.reset+"\x1b8")
		p.drawn, p.below = true, true
		return
	}
	io.WriteString(p.Err, "\r\x1b[2K"+p.st.dim+line+p.st.reset)
	p.drawn, p.below = true, false
}

// inputText is what the user typed as the status line shows it: one line.
func inputText(s string) string {
	return termsafe.Text(strings.NewReplacer("\n", " ", "\t", " ").Replace(s))
}

func (p *Printer) clearStatus() {
	p.endEcho()
	if !p.drawn {
		return
	}
	if p.below {
		io.WriteString(p.Err, "\x1b7\x1bD\r\x1b[2K\x1b8")
	} else {
		io.WriteString(p.Err, "\r\x1b[2K")
	}
	p.drawn, p.below = false, false
}

// SetInput shows, after the spinner, what the user types while a turn runs.
func (p *Printer) SetInput(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.input = s
	if p.echo {
		p.echoInput()
		return
	}
	if s == "" && p.status == "" {
		p.clearStatus()
		return
	}
	p.drawStatus()
}

// Close stops the spinner.
func (p *Printer) Close() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
	p.status = ""
	if p.ticker != nil {
		p.ticker.Stop()
		close(p.stopTick)
		p.ticker = nil
	}
}

// Icon is the mark of a tool's terminal line.
func Icon(tool string) string {
	switch tool {
	case "bash":
		return "🛠️"
	case "read_skill":
		return "📖"
	case "read_file", "write_file", "edit_file":
		return "📝"
	case "lsp":
		return "🔎"
	case "fetch_content":
		return "🌐"
	case "ask_agent":
		return "🗣"
	case "ask_user":
		return "❓"
	case "mcp":
		return "🔌"
	case "plan":
		return "📋"
	}
	return "🛠️"
}

// ToolLine is `🛠️ bash: <command>` (one line: a multi-line command shows
// its first line and how many more).
func ToolLine(c *agent.Call) string {
	if c.MCP != "" {
		// An MCP tool: its server and its own name, not the declared one.
		return fmt.Sprintf("🔌 %s: %s", c.MCP, clipWidth(oneLine(c.Summary), 200))
	}
	return fmt.Sprintf("%s %s: %s", Icon(c.Name), c.Name, oneLine(c.Summary))
}

// ToolStart writes the tool line.
func (p *Printer) ToolStart(c *agent.Call) { p.Line(ToolLine(c)) }

// ToolEnd writes up to PreviewLines lines of the output, grey and indented,
// or (no output). Reading a skill or a file shows nothing: the content is
// for the model.
func (p *Printer) ToolEnd(c *agent.Call) {
	if p.planEnd(c) {
		return
	}
	if p.PreviewLines <= 0 || c.Name == "read_skill" || c.Name == "read_file" {
		return
	}
	out := strings.TrimRight(c.Output, "\n")
	if c.Asked && c.Preview != "" {
		// The permission prompt just showed this diff ("would apply"):
		// the header alone says it was written ("applied").
		head, body, _ := strings.Cut(out, "\n")
		_, shown, _ := strings.Cut(strings.TrimRight(c.Preview, "\n"), "\n")
		if body != "" && body == shown {
			out = head
		}
	}
	if out == "" || out == "(no output)" {
		p.write(fmt.Sprintf("%s   (no output)%s", p.st.grey, p.st.reset))
		return
	}
	p.write(p.preview(out))
}

// preview is text as a tool preview: up to PreviewLines lines, grey,
// indented, each cut to the terminal's width, then how many were left out.
func (p *Printer) preview(text string) string {
	width := p.width()
	var b strings.Builder
	lines := strings.Split(text, "\n")
	more := 0
	if len(lines) > p.PreviewLines {
		more = len(lines) - p.PreviewLines
		lines = lines[:p.PreviewLines]
	}
	for i, l := range lines {
		if i > 0 {
			b.WriteByte('\n')
		}
		l = "   " + termsafe.Text(strings.TrimRight(l, "\r"))
		if width > 4 {
			l = clipWidth(l, width-1)
		}
		fmt.Fprintf(&b, "%s%s%s", p.st.grey, l, p.st.reset)
	}
	if more > 0 {
		fmt.Fprintf(&b, "\n%s   … %d more line(s)%s", p.st.grey, more, p.st.reset)
	}
	return b.String()
}

// Permission writes the 🔐 prompt's head: the tool and what the call
// does, every line of it (a multi-line command is shown whole, never cut
// to the terminal's width: nothing the user approves is hidden), then the
// planned change when the tool made one (a write's diff, cut to
// PreviewLines like any preview).
func (p *Printer) Permission(c *agent.Call) {
	summary := strings.Trim(c.Summary, "\n")
	name := c.Name
	if c.MCP != "" {
		name = c.MCP // server/tool
	}
	if !strings.Contains(summary, "\n") {
		p.Line(fmt.Sprintf("🔐 %s %s", name, compactBlanks(summary)))
	} else {
		lines := strings.Split(summary, "\n")
		var b strings.Builder
		fmt.Fprintf(&b, "🔐 %s: %d lines", termsafe.Text(c.Name), len(lines))
		writeLines(&b, lines)
		p.write(b.String())
	}
	if c.Preview != "" && p.PreviewLines > 0 {
		p.write(p.preview(strings.TrimRight(c.Preview, "\n")))
	}
}

// writeLines writes a command's lines under a 🔐 head, each sanitised
// and its blanks compacted.
func writeLines(b *strings.Builder, lines []string) {
	for i := 0; i < len(lines); i++ {
		// A run of blank lines is counted, not printed: thousands of
		// them would scroll the start of the command out of sight.
		n := 0
		for i+n < len(lines) && strings.TrimSpace(lines[i+n]) == "" {
			n++
		}
		if n > 2 {
			fmt.Fprintf(b, "\n   │ [… %d blank lines …]", n)
			i += n - 1
			continue
		}
		b.WriteString("\n   │ ")
		b.WriteString(termsafe.Text(compactBlanks(lines[i])))
	}
}

// compactBlanks shows a run of more than 32 spaces or tabs as its count:
// padding could otherwise push a part of the command off the screen (the
// terminal wraps it into empty rows) and leave a harmless tail in view.
func compactBlanks(s string) string {
	const most = 32
	if !strings.Contains(s, strings.Repeat(" ", most)) && !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		switch {
		case j-i > most:
			fmt.Fprintf(&b, "[… %d blanks …]", j-i)
		case j > i:
			b.WriteString(s[i:j])
		default:
			b.WriteByte(s[i])
			j = i + 1
		}
		i = j
	}
	return b.String()
}

// Notice writes a line about something mm did.
func (p *Printer) Notice(msg string) { p.DimLine("· " + msg) }

// Finish ends an open answer line and hides the spinner.
func (p *Printer) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clearStatus()
	p.status = ""
	p.endThinking()
	p.endOut()
}

func oneLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		n := strings.Count(s[i:], "\n")
		return fmt.Sprintf("%s … (+%d line(s))", strings.TrimSpace(s[:i]), n)
	}
	return s
}

// clipWidth cuts s to n runes (a terminal column per rune is close enough
// for a preview line) with an ellipsis.
func clipWidth(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

// Summary is the line after an answer: the non-zero counters, the elapsed
// time and the tokens the server reported.
func Summary(res *agent.Result) string {
	var parts []string
	add := func(n int, icon, label string) {
		if n > 0 {
			parts = append(parts, fmt.Sprintf("%s %d %s", icon, n, label))
		}
	}
	add(res.ToolCalls["bash"], "⚙", "command(s)")
	add(res.ToolCalls["read_file"]+res.ToolCalls["write_file"]+res.ToolCalls["edit_file"], "📝", "file op(s)")
	add(res.ToolCalls["read_skill"], "📖", "skill(s)")
	add(res.ToolCalls["lsp"], "🔎", "lsp call(s)")
	mcpCalls := 0
	for _, c := range res.Calls {
		if c.MCP != "" || c.Name == "mcp" {
			mcpCalls++
		}
	}
	add(mcpCalls, "🔌", "mcp call(s)")
	add(res.ToolCalls["plan"], "📋", "plan call(s)")
	parts = append(parts, formatElapsed(res.Elapsed))
	if res.Usage.Input > 0 || res.Usage.Output > 0 {
		tok := fmt.Sprintf("%s in / %s out tokens", count(res.Usage.Input), count(res.Usage.Output))
		if res.Usage.Cached > 0 {
			tok += fmt.Sprintf(" (%s cached)", count(res.Usage.Cached))
		}
		parts = append(parts, tok)
	}
	return strings.Join(parts, " · ")
}

func formatElapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

func count(n int) string {
	if n >= 10000 {
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}

// Tokens writes a token count the way the spinner does: 950, 12.0k.
func Tokens(n int) string {
	if n >= 1000 {
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}

// CommandList is the numbered list of the calls of a turn (displayCommands).
func CommandList(calls []*agent.Call) string {
	var b strings.Builder
	for i, c := range calls {
		if i > 0 {
			b.WriteByte('\n')
		}
		mark := ""
		if c.Refused {
			mark = " (refused)"
		}
		fmt.Fprintf(&b, "%d. %s: %s%s", i+1, c.Name, oneLine(c.Summary), mark)
	}
	return b.String()
}
