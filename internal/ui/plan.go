package ui

import (
	"strings"

	"mm/internal/agent"
	"mm/internal/termsafe"
	"mm/internal/tools"
)

// planEnd writes a plan call's checklist, whole and indented, when the
// call changed the plan: it is what the user follows the work by, so it
// is not folded to previewLines like other output, nor greyed (a plan is
// at most plan.MaxItems short lines). A call that failed or was refused
// shows its error the usual way; ok false leaves it to ToolEnd.
func (p *Printer) planEnd(c *agent.Call) (ok bool) {
	if c.Name != tools.PlanName || c.Failed || c.Refused {
		return false
	}
	p.Plan(c.Output)
	return true
}

// Plan writes a plan's text (tools' `N. [x] text` lines), each line
// indented and sanitised: after a plan call, and after /resume.
func (p *Printer) Plan(text string) {
	text = strings.TrimRight(text, "\n")
	if text == "" {
		return
	}
	var b strings.Builder
	for i, l := range strings.Split(text, "\n") {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("   " + termsafe.Text(l))
	}
	p.write(b.String())
}
