package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"mm/internal/agent"
	"mm/internal/llm"
)

// The slash commands that work now; /help lists exactly these.
var commands = []struct{ name, help string }{
	{"/help", "list the commands"},
	{"/new", "start a new conversation (the history is forgotten)"},
	{"/compact", "compress the conversation now: a summary replaces all but the last turns"},
	{"/context", "what fills the context window now: system prompt, tools, AGENTS.md, history, free (estimated tokens)"},
	{"/config", "every configuration key: its value and where it comes from (built-in, a file, env, a flag)"},
	{"/sessions", "list the saved conversations, newest first (sessions.enabled)"},
	{"/resume", "/resume [ID]: go on with a saved conversation (no ID: the latest)"},
	{"/undo", "put back the files the last turn that changed some changed (bash's changes too); again: one more turn back"},
	{"/redo", "take the last /undo back"},
	{"/model", "list the models the server serves; /model NAME uses NAME from the next request"},
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
	if _, _, _, ok := r.askCommand(line); ok {
		return false // a turn: ask.go
	}
	switch name {
	case "/help":
		var b strings.Builder
		for _, c := range commands {
			fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.help)
		}
		b.WriteString(r.askHelp())
		b.WriteString("  Keys: Esc or Ctrl-C stops a turn; Ctrl-D on an empty line quits; ↑/↓ and Ctrl-R search the history.")
		r.p.Line(b.String())
	case "/new":
		r.newConversation()
		r.eng.Agent.Reset()
		r.p.DimLine("new conversation")
	case "/compact":
		r.compact()
	case "/context":
		ctx, cancel := context.WithTimeout(context.Background(), llm.ProbeTimeout)
		r.p.Line(r.eng.ContextTable(ctx, r.eng.Agent, r.eng.Instructions))
		cancel()
	case "/config":
		r.showConfig()
	case "/model":
		r.model(strings.Fields(line)[1:])
	case "/undo", "/redo":
		r.undo(name == "/redo")
	case "/sessions":
		r.listSessions()
	case "/resume":
		if args := strings.Fields(line)[1:]; len(args) > 1 {
			r.p.Line("usage: /resume [ID]")
		} else {
			r.resume(strings.Join(args, ""))
		}
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

// compact is /compact: it works whether context.enabled is on or not.
func (r *REPL) compact() {
	r.p.Status("Compressing the conversation")
	rep, err := r.eng.Agent.Compact(context.Background(), &replUI{r: r})
	r.p.Finish()
	switch {
	case errors.Is(err, agent.ErrNothingToCompact):
		r.p.DimLine(fmt.Sprintf("nothing to compress: the conversation has no more than the %d question turn(s) context.keepLastTurns keeps", r.eng.Config.Context.KeepLastTurns))
	case err != nil:
		r.p.RedLine("[error: " + strings.Trim(err.Error(), "[]") + " — the history is unchanged]")
	case r.eng.Config.Context.ShowStats:
		r.p.DimLine(rep.Line())
	default:
		r.p.DimLine("conversation compressed")
	}
	if !errors.Is(err, agent.ErrNothingToCompact) {
		r.saveSession() // the session holds the history as it is now
	}
}

// model is /model: with no argument, the models the server serves, the
// one in use marked; with a name, the model of the next requests.
func (r *REPL) model(args []string) {
	if len(args) > 1 {
		r.p.Line("usage: /model [NAME]")
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), llm.ProbeTimeout)
	defer cancel()
	served, err := r.eng.Models(ctx)
	if len(args) == 1 {
		r.eng.SetModel(args[0])
		msg := fmt.Sprintf("model: %s (from the next request)", args[0])
		if err == nil && !served.AnyName && !served.Has(args[0]) {
			msg += fmt.Sprintf(" — the server does not list it (it serves: %s)", served.List())
		}
		r.p.Line(msg)
		return
	}
	if err != nil {
		r.p.Line(fmt.Sprintf("model: %s — %s", r.eng.Config.Model, strings.Trim(err.Error(), "[]")))
		return
	}
	r.p.Line(modelList(served, r.eng.Endpoint.Shown(), r.eng.Config.Model))
}

// modelList is what /model shows.
func modelList(s llm.Served, where, inUse string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "models at %s:", where)
	marked := false
	for _, id := range s.IDs {
		if !marked && (llm.Served{IDs: []string{id}}).Has(inUse) {
			marked = true
			fmt.Fprintf(&b, "\n* %s (in use)", id)
			continue
		}
		fmt.Fprintf(&b, "\n  %s", id)
	}
	if len(s.IDs) == 0 {
		b.WriteString("\n  (none)")
	}
	switch {
	case marked:
	case s.AnyName:
		fmt.Fprintf(&b, "\nllama-server answers every request with its model, whatever the name; mm asks for %q", inUse)
	default:
		fmt.Fprintf(&b, "\nin use: %s, which the server does not list — /model NAME picks one", inUse)
	}
	return b.String()
}

// showConfig is /config: each key's effective value and its origin. The
// values come from files a repository may ship: the printer sanitises
// them.
func (r *REPL) showConfig() {
	var b strings.Builder
	b.WriteString("config: " + r.eng.Config.InUse())
	for _, s := range r.eng.Config.Settings() {
		fmt.Fprintf(&b, "\n  %-26s %s  (%s)", s.Key, s.Value, s.From)
	}
	r.p.Line(b.String())
}
