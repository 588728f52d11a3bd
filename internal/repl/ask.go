package repl

// The line mode and the other agents: what an asked agent does scrolls in
// the turn (its text, its thinking, its calls titled `<agent> · <title>`),
// its permission requests come up prefixed `<agent> asks:`, and
// /ask-<name> / /ask-with-context-<name> ask one directly, the exchange
// then added to the history.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"mm/internal/agent"
	"mm/internal/engine"
	"mm/internal/tools"
	"mm/internal/ui"
)

var _ tools.AgentWatcher = (*replUI)(nil)

func (u *replUI) AgentText(_, s string) { u.r.p.Text(s) }

func (u *replUI) AgentThinking(_, s string) {
	if u.r.eng.Config.ShowThinking {
		u.r.p.Thinking(s)
	}
}

func (u *replUI) AgentToolStart(name string, c *tools.AgentCall) {
	u.r.p.Line(ui.AgentToolLine(name, c))
	u.r.p.Status(name + " is working")
}

func (u *replUI) AgentToolEnd(name string, c *tools.AgentCall) {
	u.r.p.AgentToolEnd(c)
	u.r.p.Status(name + " is working")
}

// AgentPermission is the 🔐 prompt for an asked agent's call, answered
// with the same keys as this agent's own.
func (u *replUI) AgentPermission(ctx context.Context, name string, c *tools.AgentCall) string {
	r := u.r
	r.p.Status("")
	r.p.AgentPermission(name, c)
	r.p.DimLine(fmt.Sprintf("   [a] allow once · [s] allow this for %s's session · [r] refuse · [n] never", name))
	var d agent.Decision
	if r.rt == nil {
		d = r.plainPermission()
	} else {
		wait := make(chan agent.Decision, 1)
		r.mu.Lock()
		r.permWait = wait
		r.permShown = r.now()
		r.mu.Unlock()
		defer func() {
			r.mu.Lock()
			r.permWait = nil
			r.mu.Unlock()
		}()
		r.p.Status("Waiting for your answer")
		select {
		case <-ctx.Done():
			return tools.RejectOnce
		case d = <-wait:
			r.p.DimLine("   → " + decisionWord(d))
		}
	}
	r.p.Status(name + " is working")
	return AskDecision(d)
}

// AskDecision is an answer to an asked agent's permission request in the
// words the asked agent's protocol has.
func AskDecision(d agent.Decision) string {
	switch d {
	case agent.AllowOnce:
		return tools.AllowOnce
	case agent.AllowSession:
		return tools.AllowAlways
	case agent.Never:
		return tools.RejectAlways
	}
	return tools.RejectOnce
}

// askToolEnd ends an ask_agent call that answered: its answer has
// scrolled already, so one line says so instead of a preview of it.
func (u *replUI) askToolEnd(c *agent.Call) bool {
	if c.Name != tools.AskAgentName || c.Failed {
		return false
	}
	u.r.p.DimLine("   " + tools.AnsweredLine(tools.AskedAgent(c.Args), c.Output, c.AnswerReplaced))
	return true
}

const (
	askPrefix        = "/ask-"
	askContextPrefix = "/ask-with-context-"
)

// askCommand parses /ask-<name> … and /ask-with-context-<name> …: the
// agent, the prompt and whether the conversation goes with it; ok false
// when the line is no such command for an agent of mmConfigs.
func (r *REPL) askCommand(line string) (name, prompt string, withContext, ok bool) {
	a, ok := ParseAsk(r.eng.Agents, line)
	return a.Name, a.Prompt, a.WithContext, ok
}

// Ask is one /ask-<name> or /ask-with-context-<name> command.
type Ask struct {
	Line         string // the command as typed, trimmed
	Name, Prompt string
	WithContext  bool
}

// ParseAsk reads an /ask command for an agent of agents (nil: none); ok
// false when the line is none.
func ParseAsk(agents tools.AgentAsker, line string) (a Ask, ok bool) {
	if agents == nil {
		return Ask{}, false
	}
	line = strings.TrimSpace(line)
	a.Line = line
	head, rest, _ := strings.Cut(line, " ")
	switch {
	case strings.HasPrefix(head, askContextPrefix):
		a.Name, a.WithContext = strings.TrimPrefix(head, askContextPrefix), true
	case strings.HasPrefix(head, askPrefix):
		a.Name = strings.TrimPrefix(head, askPrefix)
	default:
		return Ask{}, false
	}
	for _, info := range agents.Agents() {
		if info.Name == a.Name {
			a.Prompt = strings.TrimSpace(rest)
			return a, true
		}
	}
	return Ask{}, false
}

// Head is the line an /ask starts with: `🗣 ask_agent: <agent>
// (<provider>/<model>) — <the prompt's first line>`.
func (a Ask) Head(agents tools.AgentAsker) string {
	shown := a.Name
	for _, info := range agents.Agents() {
		if info.Name == a.Name && info.Model != "" {
			shown = fmt.Sprintf("%s (%s/%s)", a.Name, info.Provider, info.Model)
		}
	}
	first, _, _ := strings.Cut(a.Prompt, "\n")
	return fmt.Sprintf("%s ask_agent: %s — %s", ui.Icon(tools.AskAgentName), shown, first)
}

// Run asks the agent, its work shown through facade (a
// tools.AgentWatcher), and adds the exchange to eng's history when the
// agent answered: the model reads it on the next question.
func (a Ask) Run(ctx context.Context, eng *engine.Engine, facade any) tools.AgentReply {
	req := tools.AgentRequest{Agent: a.Name, Prompt: a.Prompt, Cwd: eng.Cwd}
	if a.WithContext {
		req.History = eng.Agent.History()
	}
	reply := eng.Asker().Ask(tools.WithFacade(ctx, facade), req)
	if stopped := errors.Is(ctx.Err(), context.Canceled) && reply.Answer == ""; !stopped && (reply.Answer != "" || !reply.Failed) {
		eng.Agent.AddExchange(a.Line, a.Name+" answered:\n"+reply.Text)
	}
	return reply
}

// AskNames are the names of the agents of mmConfigs /ask-<name> asks,
// sorted (none without mmConfigs).
func AskNames(agents tools.AgentAsker) []string {
	if agents == nil {
		return nil
	}
	var names []string
	for _, a := range agents.Agents() {
		names = append(names, a.Name)
	}
	sort.Strings(names)
	return names
}

// AskCommands are the /ask-<name> and /ask-with-context-<name> commands
// of the agents of mmConfigs, for the window's completion.
func AskCommands(agents tools.AgentAsker) []string {
	var out []string
	for _, n := range AskNames(agents) {
		out = append(out, askPrefix+n, askContextPrefix+n)
	}
	return out
}

// AskHelp is /help's lines of the ask commands ("" without mmConfigs).
func AskHelp(agents tools.AgentAsker) string {
	if agents == nil {
		return ""
	}
	names := AskNames(agents)
	return fmt.Sprintf("  %-10s %s\n  %-10s %s\n", "/ask-NAME", "/ask-NAME PROMPT: ask another agent ("+strings.Join(names, ", ")+"); its answer joins the conversation",
		"", "/ask-with-context-NAME PROMPT: the same, this conversation sent before the prompt")
}

// askHelp is the /help lines of the ask commands.
func (r *REPL) askHelp() string { return AskHelp(r.eng.Agents) }

// slashAsk runs /ask-<name> as a turn, and reports whether line was one.
func (r *REPL) slashAsk(ctx context.Context, line string) bool {
	a, ok := ParseAsk(r.eng.Agents, line)
	if !ok {
		return false
	}
	name := a.Name
	r.p.Line(a.Head(r.eng.Agents))
	r.p.Status(name + " is working")
	start := time.Now()
	reply := a.Run(ctx, r.eng, &replUI{r: r})
	r.p.Finish()
	switch {
	case errors.Is(ctx.Err(), context.Canceled) && reply.Answer == "":
		r.p.DimLine("[turn stopped]")
		return true
	case reply.Failed:
		r.p.RedLine(reply.Text)
	default:
		// As an ask_agent call ends: the answer has scrolled already.
		r.p.DimLine("   " + tools.AnsweredLine(name, reply.Text, reply.Replaced))
	}
	// The turn's summary line: this agent made no model call, so it is
	// the time the ask took.
	r.p.DimLine(ui.Summary(&agent.Result{Elapsed: time.Since(start)}))
	r.afterTurn(nil)
	return true
}
