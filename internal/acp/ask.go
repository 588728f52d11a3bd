package acp

// ACP and the other agents: what an asked agent does comes as this
// session's updates (its text and thoughts as chunks, its calls as
// tool calls titled `<agent> · <title>`, with ids unique here), its
// permission requests go to the editor prefixed `<agent> asks:`, the
// ask_agent call's output is `<agent> answered (N characters)` (the
// answer has streamed already), and /ask-<name>, /ask-with-context-<name>
// are slash commands.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/agent"
	"mm/internal/termsafe"
	"mm/internal/textcut"
	"mm/internal/tools"
)

var _ tools.AgentWatcher = (*turnUI)(nil)

// askedCalls maps an asked agent's call to the *agent.Call this session
// knows it by (live.toolCallID makes its id unique).
type askedCalls struct {
	mu    sync.Mutex
	calls map[string]*agent.Call
}

func (u *turnUI) askedCall(name string, c *tools.AgentCall) *agent.Call {
	u.asked.mu.Lock()
	defer u.asked.mu.Unlock()
	if u.asked.calls == nil {
		u.asked.calls = map[string]*agent.Call{}
	}
	key := name + "\x00" + c.ID
	ac := u.asked.calls[key]
	if ac == nil {
		// The id the child gave, unique in its session only: toolCallID
		// makes a new one when this session used it.
		ac = &agent.Call{ID: c.ID, Name: name}
		u.asked.calls[key] = ac
	}
	return ac
}

func askedTitle(name, title string) string {
	s := oneLine(name + " · " + title)
	if cut := textcut.FirstRunes(s, maxTitle); cut != s {
		s = cut + "…"
	}
	return s
}

func askedKind(k tools.Kind) acpsdk.ToolKind {
	switch k {
	case tools.KindExecute, tools.KindRead, tools.KindEdit, tools.KindFetch:
		return acpsdk.ToolKind(k)
	}
	return acpsdk.ToolKindOther
}

var _ tools.AgentProgress = (*turnUI)(nil)

// AgentProgress passes on a sign of life of an agent this one asks.
func (u *turnUI) AgentProgress(string) { u.l.progress() }

// askText is the text of the asked agent of the running ask_agent call:
// it is that call's content, never this session's own message (an
// editor would mix it into this agent's answer). Content in a
// tool_call_update replaces the call's whole content, so the text goes a
// round at a time (each round one block, sent when the asked agent's
// next call starts and when the ask ends), not a delta at a time.
type askText struct {
	mu     sync.Mutex
	call   *agent.Call // the ask_agent call running; nil: none (/ask)
	blocks []string    // the rounds that ended
	round  strings.Builder
}

// askStart notes this session's ask_agent call that starts.
func (u *turnUI) askStart(c *agent.Call) {
	if c.Name != tools.AskAgentName {
		return
	}
	u.text.mu.Lock()
	u.text.call, u.text.blocks = c, nil
	u.text.round.Reset()
	u.text.mu.Unlock()
}

// endRound closes the asked agent's round of text; it returns the
// ask_agent call and its blocks when the round had text (t.mu held).
func (t *askText) endRound() (*agent.Call, []string) {
	r := strings.TrimSpace(t.round.String())
	t.round.Reset()
	if t.call == nil || r == "" {
		return nil, nil
	}
	t.blocks = append(t.blocks, r)
	return t.call, append([]string(nil), t.blocks...)
}

// flushRound sends the round that ended as the ask_agent call's content.
func (u *turnUI) flushRound() {
	u.text.mu.Lock()
	c, blocks := u.text.endRound()
	u.text.mu.Unlock()
	if c == nil {
		return
	}
	u.l.update(acpsdk.SessionUpdate{ToolCallUpdate: &acpsdk.SessionToolCallUpdate{
		SessionUpdate: "tool_call_update",
		ToolCallId:    u.l.toolCallID(c),
		Content:       textBlocks(blocks),
	}})
}

// askEnd is the end of an ask_agent call: its content is the asked
// agent's rounds, then `<agent> answered (N characters)` or, when it
// failed, the reason (the output's last line: the rest is the text shown
// above it). Without text, the output as it is.
func (u *turnUI) askEnd(c *agent.Call) acpsdk.SessionUpdate {
	shown := askShown(c)
	u.text.mu.Lock()
	var blocks []string
	if u.text.call == c {
		u.text.endRound()
		blocks = u.text.blocks
		u.text.call, u.text.blocks = nil, nil
	}
	u.text.mu.Unlock()
	ok := !failed(c)
	up := endUpdate(u.l.toolCallID(c), shown, ok)
	if len(blocks) > 0 {
		last := shown.Output
		if !ok {
			last = last[strings.LastIndexByte(last, '\n')+1:]
		}
		up.ToolCallUpdate.Content = textBlocks(append(blocks, last))
	}
	return up
}

func textBlocks(list []string) []acpsdk.ToolCallContent {
	out := make([]acpsdk.ToolCallContent, len(list))
	for i, s := range list {
		out[i] = textContent(s)
	}
	return out
}

// AgentText is the asked agent's text: the running ask_agent call's
// content, or, for /ask-<name> (no call), this turn's answer.
func (u *turnUI) AgentText(_, s string) {
	u.text.mu.Lock()
	if u.text.call != nil {
		u.text.round.WriteString(s)
		u.text.mu.Unlock()
		return
	}
	u.text.mu.Unlock()
	u.Text(s)
}

func (u *turnUI) AgentThinking(_, s string) { u.Thinking(s) }

func (u *turnUI) AgentToolStart(name string, c *tools.AgentCall) {
	u.flushRound()
	id := u.l.toolCallID(u.askedCall(name, c))
	u.l.update(acpsdk.SessionUpdate{ToolCall: &acpsdk.SessionUpdateToolCall{
		SessionUpdate: "tool_call",
		ToolCallId:    id,
		Title:         askedTitle(name, c.Title),
		Kind:          askedKind(c.Kind),
		Status:        acpsdk.ToolCallStatusInProgress,
	}})
}

func (u *turnUI) AgentToolEnd(name string, c *tools.AgentCall) {
	id := u.l.toolCallID(u.askedCall(name, c))
	status := acpsdk.ToolCallStatusCompleted
	if c.Failed {
		status = acpsdk.ToolCallStatusFailed
	}
	u.l.update(acpsdk.SessionUpdate{ToolCallUpdate: &acpsdk.SessionToolCallUpdate{
		SessionUpdate: "tool_call_update",
		ToolCallId:    id,
		Status:        &status,
		Content:       []acpsdk.ToolCallContent{textContent(c.Output)},
	}})
}

// AgentPermission asks the editor about an asked agent's call, with the
// four options of this agent's own calls.
func (u *turnUI) AgentPermission(ctx context.Context, name string, c *tools.AgentCall) string {
	id := u.l.toolCallID(u.askedCall(name, c))
	t := oneLine(name + " asks: " + c.Title)
	k := askedKind(c.Kind)
	status := acpsdk.ToolCallStatusPending
	who := oneLine(name)
	req := acpsdk.RequestPermissionRequest{
		SessionId: u.l.id,
		ToolCall:  acpsdk.ToolCallUpdate{ToolCallId: id, Title: &t, Kind: &k, Status: &status},
		Options: []acpsdk.PermissionOption{
			{OptionId: optAllowOnce, Kind: acpsdk.PermissionOptionKindAllowOnce, Name: "Allow once"},
			{OptionId: optAllowAlways, Kind: acpsdk.PermissionOptionKindAllowAlways, Name: fmt.Sprintf("Allow for this ask of %s", who)},
			{OptionId: optRejectOnce, Kind: acpsdk.PermissionOptionKindRejectOnce, Name: "Refuse"},
			{OptionId: optRejectAlways, Kind: acpsdk.PermissionOptionKindRejectAlways, Name: fmt.Sprintf("Refuse for this ask of %s", who)},
		},
	}
	if strings.TrimSpace(c.Whole) != "" {
		// The asked agent's title is cut: its whole command is what is
		// allowed, as for this agent's own bash calls.
		req.ToolCall.Content = []acpsdk.ToolCallContent{textContent(c.Whole)}
	}
	for i := range c.Changes {
		// Its file changes, as the editor's diff view shows this agent's.
		req.ToolCall.Content = append(req.ToolCall.Content, diffContent(&c.Changes[i]))
	}
	resp, err := u.l.srv.conn.RequestPermission(ctx, req)
	if err != nil || resp.Outcome.Selected == nil {
		return tools.RejectOnce
	}
	switch resp.Outcome.Selected.OptionId {
	case optAllowOnce:
		return tools.AllowOnce
	case optAllowAlways:
		return tools.AllowAlways
	case optRejectAlways:
		return tools.RejectAlways
	}
	return tools.RejectOnce
}

// askShown is the call as the editor shows its end: an ask_agent call
// that answered says so in one line.
func askShown(c *agent.Call) *agent.Call {
	if c.Name != tools.AskAgentName || c.Failed {
		return c
	}
	shown := *c
	shown.Output = tools.AnsweredLine(tools.AskedAgent(c.Args), c.Output, c.AnswerReplaced)
	return &shown
}

// commandList is the slash commands of this connection: mm's, then an
// /ask-<name> and /ask-with-context-<name> per agent.
func (l *live) commandList() []acpsdk.AvailableCommand {
	list := append([]acpsdk.AvailableCommand(nil), slashCommands...)
	agents := l.srv.eng.Agents
	if agents == nil {
		return list
	}
	for _, a := range agents.Agents() {
		hint := &acpsdk.AvailableCommandInput{Unstructured: &acpsdk.UnstructuredCommandInput{Hint: "what " + a.Name + " must do"}}
		list = append(list,
			acpsdk.AvailableCommand{Name: "ask-" + a.Name, Description: termsafe.Text("ask " + a.Name + ": " + a.Role), Input: hint},
			acpsdk.AvailableCommand{Name: "ask-with-context-" + a.Name, Description: termsafe.Text("ask " + a.Name + ", with this conversation"), Input: hint})
	}
	return list
}

// askCommand is the agent, prompt and with-context of a prompt that starts
// with /ask-<name> or /ask-with-context-<name>.
func (l *live) askCommand(blocks []acpsdk.ContentBlock) (name, prompt string, withContext, ok bool) {
	agents := l.srv.eng.Agents
	if agents == nil || len(blocks) == 0 || blocks[0].Text == nil {
		return "", "", false, false
	}
	text := strings.TrimSpace(blocks[0].Text.Text)
	head, rest, _ := strings.Cut(text, " ")
	if i := strings.IndexAny(head, "\n\t"); i >= 0 {
		head, rest = head[:i], text[i+1:]
	}
	switch {
	case strings.HasPrefix(head, "/ask-with-context-"):
		name, withContext = strings.TrimPrefix(head, "/ask-with-context-"), true
	case strings.HasPrefix(head, "/ask-"):
		name = strings.TrimPrefix(head, "/ask-")
	default:
		return "", "", false, false
	}
	for _, a := range agents.Agents() {
		if a.Name == name {
			return name, strings.TrimSpace(rest), withContext, true
		}
	}
	return "", "", false, false
}

// slashAsk runs /ask-<name> …: the asked agent's work streams as this
// session's updates, and the exchange joins the conversation.
func (l *live) slashAsk(ctx context.Context, blocks []acpsdk.ContentBlock) (acpsdk.PromptResponse, bool) {
	name, prompt, withContext, ok := l.askCommand(blocks)
	if !ok {
		return acpsdk.PromptResponse{}, false
	}
	req := tools.AgentRequest{Agent: name, Prompt: prompt, Cwd: l.es.Cwd}
	if withContext {
		req.History = l.es.Agent.History()
	}
	ui := &turnUI{l: l, yolo: l.srv.cfg.Yolo, thinking: l.srv.cfg.ShowThinking}
	reply := l.es.Agents.Ask(tools.WithFacade(ctx, ui), req)
	if errors.Is(ctx.Err(), context.Canceled) && reply.Answer == "" {
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, true
	}
	if reply.Failed {
		// The answer (if any) has streamed: the reason follows it.
		last := reply.Text[strings.LastIndexByte(reply.Text, '\n')+1:]
		l.update(acpsdk.UpdateAgentMessageText(termsafe.Text("\n" + last)))
	}
	if reply.Answer != "" || !reply.Failed {
		line := strings.TrimSpace(blocks[0].Text.Text)
		l.es.Agent.AddExchange(line, name+" answered:\n"+reply.Text)
	}
	l.afterTurn(nil)
	if ctx.Err() != nil {
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, true
	}
	return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}, true
}
