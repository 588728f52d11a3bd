package tui

// ask_agent and /ask-<name> in the window: while the asked agent works
// the header names it (`mm [<its acp.title>] · <its model> @ <its
// provider> · asked by <this agent>`), its answer sits under `‣ mm [<its
// acp.title>]` (its mmConfigs name when it has no title), its calls
// scroll titled `<agent> · <title>`, its permission requests come up in
// the permission zone prefixed `<agent> asks:`, and the call ends with
// `<agent> answered (N characters)`. The texts are the line mode's
// (internal/repl, internal/ui), and /ask runs the line mode's ask.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"mm/internal/agent"
	"mm/internal/repl"
	"mm/internal/termsafe"
	"mm/internal/tools"
	"mm/internal/ui"
)

var _ tools.AgentWatcher = (*windowUI)(nil)

type (
	// agentTextMsg is a piece of an asked agent's answer (or reasoning).
	agentTextMsg struct {
		agent, text string
		think       bool
	}
	// agentToolMsg is an asked agent's call, started or ended.
	agentToolMsg struct {
		agent string
		c     callView
	}
	// askedMsg puts the asked agent in the header ("": this agent again).
	askedMsg struct{ agent string }
	// answeredMsg is an ask's end: `<agent> answered (N characters)`,
	// or the failure in red.
	answeredMsg struct {
		text   string
		failed bool
	}
)

// askState is what the window knows of the asked agents.
type askState struct {
	// speaker is who the last answer's label names: "" this agent, else
	// the asked agent's name.
	speaker string
	// started are the asked agents' calls running, for their duration.
	started map[string]time.Time
}

func (u *windowUI) AgentText(name, s string) { u.send(agentTextMsg{agent: name, text: s}) }

func (u *windowUI) AgentThinking(name, s string) {
	if u.showThinking {
		u.send(agentTextMsg{agent: name, text: s, think: true})
	}
}

func (u *windowUI) AgentToolStart(name string, c *tools.AgentCall) {
	u.send(agentToolMsg{agent: name, c: callView{id: agentCallID(name, c), name: name + " ·", summary: c.Title}})
	u.send(statusMsg(name + " is working"))
}

func (u *windowUI) AgentToolEnd(name string, c *tools.AgentCall) {
	v := callView{id: agentCallID(name, c), name: name + " ·", summary: c.Title, done: true, failed: c.Failed}
	v.preview = printed(u.previewLines, func(p *ui.Printer) { p.AgentToolEnd(c) })
	u.send(agentToolMsg{agent: name, c: v})
	u.send(statusMsg(name + " is working"))
}

// agentCallID keys an asked agent's call: its id is unique in its own
// session only.
func agentCallID(name string, c *tools.AgentCall) string { return "ask\x00" + name + "\x00" + c.ID }

// AgentPermission puts an asked agent's request in the permission zone,
// in the line mode's words, answered with the same keys and guard.
func (u *windowUI) AgentPermission(ctx context.Context, name string, c *tools.AgentCall) string {
	head := printed(u.previewLines, func(p *ui.Printer) { p.AgentPermission(name, c) })
	keys := termsafe.Text(fmt.Sprintf("[a] allow once · [s] allow this for %s's session · [r] refuse · [n] never", name))
	reply := make(chan agent.Decision, 1)
	u.send(permMsg{head: head, keys: keys, id: agentCallID(name, c), reply: reply})
	var d agent.Decision
	select {
	case d = <-reply:
	case <-ctx.Done():
		u.send(permCancelMsg{reply})
		return tools.RejectOnce
	}
	u.send(statusMsg(name + " is working"))
	return repl.AskDecision(d)
}

// askToolStart names the agent an ask_agent call asks in the header.
func (u *windowUI) askToolStart(c *agent.Call) {
	if c.Name == tools.AskAgentName {
		name := tools.AskedAgent(c.Args)
		u.send(askedMsg{name})
		u.send(statusMsg(name + " is working"))
	}
}

// askToolEnd ends an ask_agent call: this agent in the header again and,
// when it answered, `<agent> answered (N characters)` under the answer
// that scrolled, in place of a preview of it (true then).
func (u *windowUI) askToolEnd(c *agent.Call) bool {
	if c.Name != tools.AskAgentName {
		return false
	}
	u.send(askedMsg{""})
	if c.Failed {
		return false
	}
	u.send(answeredMsg{text: "   " + tools.AnsweredLine(tools.AskedAgent(c.Args), c.Output, c.AnswerReplaced)})
	return true
}

// askedName is `mm [<its acp.title>]`, or `mm [<its name>]` when its
// file gives it no title.
func (m *model) askedName(name string) string {
	t := name
	if info, ok := m.agentInfo(name); ok && info.Title != "" {
		t = info.Title
	}
	return "mm [" + termsafe.Text(oneLine(t)) + "]"
}

func (m *model) agentInfo(name string) (tools.AgentInfo, bool) {
	if m.eng.Agents == nil {
		return tools.AgentInfo{}, false
	}
	for _, a := range m.eng.Agents.Agents() {
		if a.Name == name {
			return a, true
		}
	}
	return tools.AgentInfo{}, false
}

// askedHeader is the header while name works: `mm [<its acp.title>] ·
// <its model> @ <its provider> · asked by <this agent>`. A model its file
// does not name (its server's only one) is left out, as the line mode
// leaves it out of its `🗣` line.
func (m *model) askedHeader(name string) string {
	info, _ := m.agentInfo(name)
	parts := []string{m.askedName(name)}
	switch {
	case info.Model != "":
		parts = append(parts, oneLine(info.Model)+" @ "+oneLine(info.Provider))
	case info.Provider != "":
		parts = append(parts, oneLine(info.Provider))
	}
	parts = append(parts, "asked by "+m.name)
	return termsafe.Text(strings.Join(parts, " · "))
}

// speak labels the answer that follows with who says it, when that
// changes: `‣ mm [<its title>]` for an asked agent, `‣ mm …` for this one
// again (not twice under the turn's own label).
func (m *model) speak(name string) {
	if name == m.ag.speaker {
		return
	}
	m.ag.speaker = name
	label := "‣ " + m.name
	if name != "" {
		label = "‣ " + m.askedName(name)
	}
	if n := len(m.blocks); n > 0 && m.blocks[n-1].kind == blockLabel && m.blocks[n-1].text.String() == label {
		return
	}
	m.addBlock(blockLabel, label)
}

// askUpdate handles the messages of this file and of sessions.go; false
// when msg is none of them.
func (m *model) askUpdate(msg tea.Msg) (tea.Cmd, bool) {
	switch msg := msg.(type) {
	case agentTextMsg:
		m.speak(msg.agent)
		if msg.think {
			m.stream(blockThink, msg.text)
			return nil, true
		}
		if n := len(m.blocks); n > 0 && m.blocks[n-1].kind == blockThink {
			b := m.blocks[n-1]
			b.folded, b.dirty = true, true
		}
		m.stream(blockText, msg.text)
	case agentToolMsg:
		m.speak(msg.agent)
		if m.ag.started == nil {
			m.ag.started = map[string]time.Time{}
		}
		if !msg.c.done {
			m.ag.started[msg.c.id] = time.Now()
		} else if t, ok := m.ag.started[msg.c.id]; ok {
			msg.c.duration = time.Since(t)
			delete(m.ag.started, msg.c.id)
		}
		return m.update(toolMsg{msg.c}), true
	case askedMsg:
		m.header = Header(m.eng.Config, m.eng.Provider.Name)
		if msg.agent != "" {
			m.header = m.askedHeader(msg.agent)
		}
	case answeredMsg:
		kind := blockDim
		if msg.failed {
			kind = blockRed
		}
		m.addBlock(kind, msg.text)
	case sessLineMsg:
		m.sessionLine(msg.text, msg.red)
	default:
		return nil, false
	}
	return nil, true
}

// askCommand runs /ask-<name> and /ask-with-context-<name> as a turn: the
// line mode's ask, shown as an ask_agent call is; ok false when line is
// no such command.
func (m *model) askCommand(line string) (tea.Cmd, bool) {
	a, ok := repl.ParseAsk(m.eng.Agents, line)
	if !ok {
		return nil, false
	}
	m.addBlock(blockDim, a.Head(m.eng.Agents))
	m.ag.speaker = ""
	m.header = m.askedHeader(a.Name)
	return m.goTurn(a.Name+" is working", func(ctx context.Context) {
		start := time.Now()
		reply := a.Run(ctx, m.eng, m.ui)
		m.ev.post(askedMsg{""})
		if errors.Is(ctx.Err(), context.Canceled) && reply.Answer == "" {
			m.ev.post(turnDoneMsg{err: context.Canceled})
			return
		}
		if reply.Failed {
			m.ev.post(answeredMsg{text: reply.Text, failed: true})
		} else {
			m.ev.post(answeredMsg{text: "   " + tools.AnsweredLine(a.Name, reply.Text, reply.Replaced)})
		}
		m.sess.AfterTurn(nil)
		// The turn's summary line: this agent made no model call, so it
		// is the time the ask took.
		m.ev.post(turnDoneMsg{res: &agent.Result{Elapsed: time.Since(start)}})
	}), true
}
