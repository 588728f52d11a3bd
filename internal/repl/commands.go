package repl

import (
	"fmt"
	"strings"
)

// The slash commands that work now; /help lists exactly these.
var commands = []struct{ name, help string }{
	{"/help", "list the commands"},
	{"/new", "start a new conversation (the history is forgotten)"},
	{"/abort", "stop the running turn (type it while the model works; Esc and Ctrl-C do the same)"},
	{"/quit", "leave mm (Ctrl-D on an empty line does the same)"},
}

// command runs a slash command and reports whether line was one.
func (r *REPL) command(line string) bool {
	line = strings.TrimSpace(line)
	if !strings.HasPrefix(line, "/") || strings.HasPrefix(line, "//") {
		return false
	}
	name := strings.Fields(line)[0]
	switch name {
	case "/help":
		var b strings.Builder
		for _, c := range commands {
			fmt.Fprintf(&b, "  %-8s %s\n", c.name, c.help)
		}
		b.WriteString("  Keys: Esc or Ctrl-C stops a turn; Ctrl-D on an empty line quits; ↑/↓ and Ctrl-R search the history.")
		r.p.Line(b.String())
	case "/new":
		r.eng.Agent.Reset()
		r.p.DimLine("new conversation")
	case "/abort":
		r.p.DimLine("nothing is running")
	case "/quit", "/exit":
		r.mu.Lock()
		r.quit = true
		r.mu.Unlock()
	default:
		r.p.Line(fmt.Sprintf("unknown command %s — /help lists them", name))
	}
	return true
}
