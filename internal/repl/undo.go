package repl

import (
	"fmt"
	"strings"

	"mm/internal/termsafe"
	"mm/internal/undo"
)

// undo is /undo and /redo: the files the last turn changed back as they
// were before it (or the last /undo taken back), the report on screen,
// and a note for the model with the next question.
func (r *REPL) undo(redo bool) {
	t := r.eng.Undo
	if why := t.Unavailable(); why != "" {
		r.p.Line("[/undo is unavailable: " + why + "]")
		return
	}
	op := t.Undo
	if redo {
		op = t.Redo
	}
	rep, err := op(r.confirmRestore)
	switch {
	case err != nil && !rep.Changed():
		r.p.RedLine("[error: " + strings.Trim(err.Error(), "[]") + " — no file was changed]")
		return
	case err != nil:
		r.p.RedLine("[error: " + strings.Trim(err.Error(), "[]") + "]")
	}
	r.p.Line(rep.Text())
	r.eng.Agent.AddNote(rep.Note())
}

// confirmRestore is asked about the files changed after the turn: they
// are named, and only a "y" puts them back too.
func (r *REPL) confirmRestore(changed []string) bool {
	r.p.Line("changed after the turn (by you or by something else): " + undo.Names(changed))
	const q = "put them back as they were too, losing those changes? [y/N] "
	var line string
	if r.rl != nil {
		r.rl.SetPrompt(q)
		in, err := r.rl.Readline()
		r.rl.SetPrompt("› ")
		if err != nil {
			in = ""
		}
		line = in
	} else {
		fmt.Fprint(r.opts.Out, q)
		in, ok := r.readLine()
		if !ok {
			fmt.Fprintln(r.opts.Out)
		} else {
			fmt.Fprintln(r.opts.Out, termsafe.Text(in))
		}
		line = in
	}
	yes := strings.EqualFold(strings.TrimSpace(line), "y") || strings.EqualFold(strings.TrimSpace(line), "yes")
	if yes {
		r.p.DimLine("   → put back too")
	} else {
		r.p.DimLine("   → kept as they are")
	}
	return yes
}
