package repl

import (
	"context"
	"fmt"
	"strings"

	"mm/internal/llm"
)

// contextTable is /context: what fills the context window now, part by
// part, in estimated tokens and % of the window. It sends nothing to the
// model (the window is the one already known, or asked of the server
// once, as for the banner).
func (r *REPL) contextTable() {
	ctx, cancel := context.WithTimeout(context.Background(), llm.ProbeTimeout)
	defer cancel()
	w, assumed := r.eng.Window(ctx)
	instr := r.eng.InstructionsSize()
	u := r.eng.Agent.ContextUse(instr)
	if instr == 0 {
		u.Instructions = -1 // none: the row says so
	}
	r.p.Line(formatContext(u.Total, w, assumed, [][2]any{
		{"system prompt", u.System},
		{"tools", u.Tools},
		{"AGENTS.md", u.Instructions},
		{fmt.Sprintf("history (%d messages)", u.Messages), u.History},
		{"  last tool outputs", u.LastToolOutputs},
	}))
}

// formatContext lays the table out: a head line with the total and the
// window, one row per part (a negative size: the part is absent), and
// what is free when the window is known.
func formatContext(total, window int, assumed bool, rows [][2]any) string {
	var b strings.Builder
	switch {
	case window > 0:
		fmt.Fprintf(&b, "context: ~%s of %s tokens (%s)", tokens(total), windowSize(window), percent(total, window))
		if assumed {
			b.WriteString(" — the window is Ollama's default, assumed until the model is loaded")
		}
	default:
		fmt.Fprintf(&b, "context: ~%s tokens — the window is unknown (contextWindow sets it)", tokens(total))
	}
	row := func(name string, n int) {
		if n < 0 {
			fmt.Fprintf(&b, "\n  %-24s %7s", name, "none")
			return
		}
		fmt.Fprintf(&b, "\n  %-24s %7s", name, "~"+tokens(n))
		if window > 0 {
			fmt.Fprintf(&b, "  %5s", percent(n, window))
		}
	}
	for _, r := range rows {
		row(r[0].(string), r[1].(int))
	}
	if window > 0 {
		fmt.Fprintf(&b, "\n  %-24s %7s  %5s", "free", "~"+tokens(max(0, window-total)), percent(max(0, window-total), window))
	}
	return b.String()
}

// windowSize writes a window as the banner does: 32k for 32768.
func windowSize(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%dk", n/1024)
	}
	return tokens(n)
}

func tokens(n int) string {
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
