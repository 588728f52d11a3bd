package engine

import (
	"context"
	"fmt"
	"strings"

	"mm/internal/agent"
	"mm/internal/project"
)

// ContextTable is /context for the conversation of a, whose system prompt
// holds instr: what fills the context window now, part by part, in
// estimated tokens and % of the window. It sends nothing to the model
// (the window is the one already known, or asked of the server once, as
// for the banner).
func (e *Engine) ContextTable(ctx context.Context, a *agent.Agent, instr project.Instructions) string {
	w, assumed := e.Window(ctx)
	size := len(instructionsPart(instr))
	u := a.ContextUse(size)
	if size == 0 {
		u.Instructions = -1 // none: the row says so
	}
	return formatContext(u.Total, w, assumed, []contextRow{
		{"system prompt", u.System},
		{"tools", u.Tools},
		{"AGENTS.md", u.Instructions},
		{fmt.Sprintf("history (%d messages)", u.Messages), u.History},
		{"  last tool outputs", u.LastToolOutputs},
	})
}

// contextRow is one part of the window and its estimated tokens.
type contextRow struct {
	name   string
	tokens int
}

// formatContext lays the table out: a head line with the total and the
// window, one row per part (a negative size: the part is absent), and
// what is free when the window is known.
func formatContext(total, window int, assumed bool, rows []contextRow) string {
	var b strings.Builder
	switch {
	case window > 0:
		fmt.Fprintf(&b, "context: ~%s of %s tokens (%s)", tokenCount(total), humanTokens(window), percent(total, window))
		if assumed {
			b.WriteString(" — the window is Ollama's default, assumed until the model is loaded")
		}
	default:
		fmt.Fprintf(&b, "context: ~%s tokens — the window is unknown (contextWindow sets it)", tokenCount(total))
	}
	row := func(name string, n int) {
		if n < 0 {
			fmt.Fprintf(&b, "\n  %-24s %7s", name, "none")
			return
		}
		fmt.Fprintf(&b, "\n  %-24s %7s", name, "~"+tokenCount(n))
		if window > 0 {
			fmt.Fprintf(&b, "  %5s", percent(n, window))
		}
	}
	for _, r := range rows {
		row(r.name, r.tokens)
	}
	if window > 0 {
		fmt.Fprintf(&b, "\n  %-24s %7s  %5s", "free", "~"+tokenCount(max(0, window-total)), percent(max(0, window-total), window))
	}
	return b.String()
}

func tokenCount(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%.1fk", float64(n)/1000)
}

// percent is n's share of w, rounded, never "0 %" for a part that is there.
func percent(n, w int) string {
	p := (n*100 + w/2) / w
	if p == 0 && n > 0 {
		return "<1 %"
	}
	return fmt.Sprintf("%d %%", p)
}
