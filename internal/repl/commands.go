package repl

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"mm/internal/agent"
	"mm/internal/config"
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
		b.WriteString(CommandsHelp())
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
		r.p.DimLine(NothingRunning)
	case "/quit", "/exit":
		r.mu.Lock()
		r.quit = true
		r.mu.Unlock()
	default:
		r.p.Line(UnknownCommand(name))
	}
	return true
}

// The line mode's texts the window mode (internal/tui) shows too: shared
// rather than copied, so the two facades say the same.

// CommandsHelp is /help's list of the commands, one "  /name  help" line
// each.
func CommandsHelp() string {
	var b strings.Builder
	for _, c := range commands {
		fmt.Fprintf(&b, "  %-10s %s\n", c.name, c.help)
	}
	return b.String()
}

// CommandNames are the commands /help lists, in its order.
func CommandNames() []string {
	names := make([]string, len(commands))
	for i, c := range commands {
		names[i] = c.name
	}
	return names
}

// NothingRunning is /abort's answer when no turn runs.
const NothingRunning = "nothing is running"

// UnknownCommand is the answer to a slash command mm does not know.
func UnknownCommand(name string) string {
	return fmt.Sprintf("unknown command %s — /help lists them", name)
}

// compact is /compact: it works whether context.enabled is on or not.
func (r *REPL) compact() {
	r.p.Status("Compressing the conversation")
	rep, err := r.eng.Agent.Compact(context.Background(), &replUI{r: r})
	r.p.Finish()
	if text, failed := CompactOutcome(r.eng.Config, rep, err); failed {
		r.p.RedLine(text)
	} else {
		r.p.DimLine(text)
	}
	if !errors.Is(err, agent.ErrNothingToCompact) {
		r.saveSession() // the session holds the history as it is now
	}
}

// CompactOutcome is what /compact says once Compact returned rep and err,
// and whether it is an error (shown red).
func CompactOutcome(cfg *config.Config, rep agent.CompactReport, err error) (text string, failed bool) {
	switch {
	case errors.Is(err, agent.ErrNothingToCompact):
		return fmt.Sprintf("nothing to compress: the conversation has no more than the %d question turn(s) context.keepLastTurns keeps", cfg.Context.KeepLastTurns), false
	case err != nil:
		return "[error: " + strings.Trim(err.Error(), "[]") + " — the history is unchanged]", true
	case cfg.Context.ShowStats:
		return rep.Line(), false
	}
	return "conversation compressed", false
}

// model is /model: with no argument, the models the server serves, the
// one in use marked; with a name, the model of the next requests.
func (r *REPL) model(args []string) {
	if len(args) > 1 {
		r.p.Line(ModelUsage)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), llm.ProbeTimeout)
	defer cancel()
	served, err := r.eng.Models(ctx)
	text, use := ModelOutcome(args, served, err, r.eng.Endpoint.Shown(), r.eng.Config.Model)
	if use != "" {
		r.eng.SetModel(use)
	}
	r.p.Line(text)
}

// ModelUsage is /model's answer to more than one argument.
const ModelUsage = "usage: /model [NAME]"

// ModelOutcome is what /model [NAME] says once the server at where was
// asked what it serves (served, err), inUse the model of the requests
// now, and the model to use from the next request ("" for no change).
func ModelOutcome(args []string, served llm.Served, err error, where, inUse string) (text, use string) {
	if len(args) == 1 {
		msg := fmt.Sprintf("model: %s (from the next request)", args[0])
		if err == nil && !served.AnyName && !served.Has(args[0]) {
			msg += fmt.Sprintf(" — the server does not list it (it serves: %s)", served.List())
		}
		return msg, args[0]
	}
	if err != nil {
		return fmt.Sprintf("model: %s — %s", inUse, strings.Trim(err.Error(), "[]")), ""
	}
	return modelList(served, where, inUse), ""
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
func (r *REPL) showConfig() { r.p.Line(ConfigText(r.eng.Config)) }

// ConfigText is what /config shows of cfg (unsanitised: the caller's
// printer sanitises it).
func ConfigText(cfg *config.Config) string {
	var b strings.Builder
	b.WriteString("config: " + cfg.InUse())
	for _, s := range cfg.Settings() {
		fmt.Fprintf(&b, "\n  %-26s %s  (%s)", s.Key, s.Value, s.From)
	}
	return b.String()
}
