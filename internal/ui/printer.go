// Package ui writes what a turn does for a person in a terminal: the
// streamed answer, the reasoning, the tool lines with their output preview,
// and the turn summary. The one-shot mode and the line REPL share it.
package ui

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"golang.org/x/term"

	"mm/internal/agent"
)

// ANSI styles; empty when colour is off.
type styles struct{ dim, grey, bold, reset string }

// Printer renders turn events. Answer text goes to Out, everything else
// (activity) to Err: with `mm -p`, stdout then holds only the answer.
type Printer struct {
	Out, Err     io.Writer
	ShowThinking bool
	PreviewLines int

	st        styles
	mu        sync.Mutex
	outOpen   bool // Out has text not ended by a newline
	errOpen   bool // Err has a thinking line not ended by a newline
	thinking  bool
	textStart bool
}

// NewPrinter returns a printer; colour is on when w is a terminal and
// NO_COLOR is not set.
func NewPrinter(out, errw io.Writer, showThinking bool, previewLines int) *Printer {
	p := &Printer{Out: out, Err: errw, ShowThinking: showThinking, PreviewLines: previewLines}
	if ColorEnabled(errw) {
		p.st = styles{dim: "\x1b[2m", grey: "\x1b[90m", bold: "\x1b[1m", reset: "\x1b[0m"}
	}
	return p
}

// ColorEnabled reports whether w is a terminal and NO_COLOR is unset.
func ColorEnabled(w io.Writer) bool {
	if _, off := os.LookupEnv("NO_COLOR"); off {
		return false
	}
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// Text writes a piece of the answer.
func (p *Printer) Text(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endThinking()
	if s == "" {
		return
	}
	io.WriteString(p.Out, s)
	p.outOpen = !strings.HasSuffix(s, "\n")
}

// Thinking writes a piece of the reasoning, dimmed, when showThinking.
func (p *Printer) Thinking(s string) {
	if !p.ShowThinking || s == "" {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endOut()
	if !p.thinking {
		p.thinking = true
		io.WriteString(p.Err, p.st.dim)
	}
	io.WriteString(p.Err, s)
	p.errOpen = !strings.HasSuffix(s, "\n")
}

func (p *Printer) endThinking() {
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
	if p.outOpen {
		io.WriteString(p.Out, "\n")
		p.outOpen = false
	}
}

// Line writes one activity line.
func (p *Printer) Line(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.endThinking()
	p.endOut()
	fmt.Fprintln(p.Err, s)
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
	}
	return "🛠️"
}

// ToolStart writes `🛠️ bash: <command>` (one line: a multi-line command
// shows its first line and how many more).
func (p *Printer) ToolStart(c *agent.Call) {
	p.Line(fmt.Sprintf("%s %s: %s", Icon(c.Name), c.Name, oneLine(c.Summary)))
}

// ToolEnd writes up to PreviewLines lines of the output, grey and indented,
// or (no output).
func (p *Printer) ToolEnd(c *agent.Call) {
	if p.PreviewLines <= 0 || c.Name == "read_skill" {
		return
	}
	out := strings.TrimRight(c.Output, "\n")
	var b strings.Builder
	if out == "" || out == "(no output)" {
		fmt.Fprintf(&b, "%s   (no output)%s", p.st.grey, p.st.reset)
	} else {
		lines := strings.Split(out, "\n")
		more := 0
		if len(lines) > p.PreviewLines {
			more = len(lines) - p.PreviewLines
			lines = lines[:p.PreviewLines]
		}
		for i, l := range lines {
			if i > 0 {
				b.WriteByte('\n')
			}
			fmt.Fprintf(&b, "%s   %s%s", p.st.grey, strings.ReplaceAll(l, "\x1b", "^["), p.st.reset)
		}
		if more > 0 {
			fmt.Fprintf(&b, "\n%s   … %d more line(s)%s", p.st.grey, more, p.st.reset)
		}
	}
	p.Line(b.String())
}

// Notice writes a line about something mm did.
func (p *Printer) Notice(msg string) {
	p.Line(p.st.dim + "· " + msg + p.st.reset)
}

// Finish ends an open answer line.
func (p *Printer) Finish() {
	p.mu.Lock()
	defer p.mu.Unlock()
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
