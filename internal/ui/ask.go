package ui

import (
	"fmt"
	"strings"

	"mm/internal/termsafe"
	"mm/internal/tools"
)

// What the terminal shows of an asked agent (ask_agent, /ask, mm --ask):
// its calls titled `<agent> · <title>`, their output as a preview, its
// permission requests prefixed `<agent> asks:`.

// AgentToolLine is `🛠️ <agent> · <title>` for a call of an asked agent.
func AgentToolLine(agent string, c *tools.AgentCall) string {
	icon := "🛠️"
	switch c.Kind {
	case tools.KindRead, tools.KindEdit:
		icon = "📝"
	case tools.KindFetch:
		icon = "🌐"
	case tools.KindThink:
		icon = "📋" // an asked agent's plan
	}
	return fmt.Sprintf("%s %s · %s", icon, agent, oneLine(c.Title))
}

// AgentToolEnd writes the preview of an asked agent's call output, as
// for this agent's own calls.
func (p *Printer) AgentToolEnd(c *tools.AgentCall) {
	out := strings.TrimRight(c.Output, "\n")
	if p.PreviewLines <= 0 || out == "" {
		return
	}
	p.write(p.preview(out))
}

// AgentPermissionLine is the head of the prompt for an asked agent's call.
func AgentPermissionLine(agent string, c *tools.AgentCall) string {
	return fmt.Sprintf("🔐 %s asks: %s", agent, compactBlanks(strings.TrimSpace(c.Title)))
}

// AgentPermission writes the head of the prompt for an asked agent's
// call: its title, then, when the title does not hold it as it is, the
// whole of what the call runs, every line (the asked agent's title of a
// long command is cut, its own one line: what the user allows must be
// in view, as for this agent's own calls), then the preview of each file
// change it would make.
func (p *Printer) AgentPermission(agent string, c *tools.AgentCall) {
	head := AgentPermissionLine(agent, c)
	whole := strings.Trim(c.Whole, "\n")
	if strings.TrimSpace(whole) == "" || (!strings.Contains(whole, "\n") && strings.Contains(c.Title, whole)) {
		p.Line(head)
	} else {
		var b strings.Builder
		b.WriteString(termsafe.Text(head))
		writeLines(&b, strings.Split(whole, "\n"))
		p.write(b.String())
	}
	if p.PreviewLines > 0 {
		for _, d := range c.Changes {
			p.write(p.preview(tools.DiffPreview(d)))
		}
	}
}
