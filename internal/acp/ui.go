package acp

import (
	"context"
	"fmt"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/agent"
	"mm/internal/llm"
	"mm/internal/termsafe"
	"mm/internal/tools"
)

// turnUI is the agent's view of the editor during one turn: the answer
// and the reasoning stream as chunks, each call is a tool_call and its
// updates, a permission is a session/request_permission.
type turnUI struct {
	l        *live
	yolo     bool
	thinking bool       // showThinking
	asked    askedCalls // the calls of the agents it asks (ask.go)
	text     askText    // the text of the agent the running ask_agent asks (ask.go)
}

var _ agent.UI = (*turnUI)(nil)

func (u *turnUI) Text(s string) {
	u.l.update(acpsdk.UpdateAgentMessageText(termsafe.Text(s)))
}

func (u *turnUI) Thinking(s string) {
	if u.thinking {
		u.l.update(acpsdk.UpdateAgentThoughtText(termsafe.Text(s)))
	} else {
		u.l.progress() // unseen, but the model is alive
	}
}

// Progress (the prompt read, the model loading) and Composing show
// nothing in an editor; an asking mm counts them as signs of life.
func (u *turnUI) Progress(llm.Progress) { u.l.progress() }
func (u *turnUI) Composing(string, int) { u.l.progress() }
func (u *turnUI) Notice(msg string)     { u.l.notice(msg) }

// ToolStart announces the call: pending when it will wait for a
// permission, else running.
func (u *turnUI) ToolStart(c *agent.Call) {
	status := acpsdk.ToolCallStatusInProgress
	if u.mayAsk(c) {
		status = acpsdk.ToolCallStatusPending
	}
	u.l.update(startUpdate(u.l.toolCallID(c), c, status))
	u.askStart(c)
}

// mayAsk reports whether the call may wait for a permission (the agent
// decides; an answer "for the session" skips the question).
func (u *turnUI) mayAsk(c *agent.Call) bool {
	t := u.l.es.Tools.Lookup(c.Name)
	if t == nil {
		return false
	}
	if u.yolo {
		// An MCP tool set to ask in mcp.permissions asks under yolo too.
		return t.AsksUnderYolo != nil && t.AsksUnderYolo(c.Args)
	}
	return t.NeedsPermission(c.Args)
}

func (u *turnUI) ToolEnd(c *agent.Call) {
	if c.Name == tools.AskAgentName {
		u.l.update(u.askEnd(c))
		return
	}
	u.l.update(endUpdate(u.l.toolCallID(c), c, !failed(c)))
	u.l.planChanged(c)
}

// The options of a permission request, the line mode's a/s/r/n.
const (
	optAllowOnce    = "allow_once"
	optAllowAlways  = "allow_always"
	optRejectOnce   = "reject_once"
	optRejectAlways = "reject_always"
	// optAllowPrefix is the line mode's p: the command's prefix for the
	// session (agent.Call.Prefix), offered only when the call has one.
	optAllowPrefix = "allow_prefix"
)

// Permission asks the client. A cancelled dialog, or a request that
// fails, refuses this call only; a cancelled turn abandons the request
// (the SDK tells the client with $/cancel_request).
func (u *turnUI) Permission(ctx context.Context, c *agent.Call) agent.Decision {
	status := acpsdk.ToolCallStatusPending
	k := kind(c)
	t := title(c)
	var content []acpsdk.ToolCallContent
	if c.Name == "bash" {
		// The title is cut: the whole command is what is allowed.
		content = append(content, textContent(c.Summary))
	}
	if c.Diff != nil {
		content = append(content, diffContent(c.Diff))
	}
	if c.Name == tools.PlanName && c.Preview != "" {
		// The plan as the call would leave it: what is allowed.
		content = append(content, textContent(c.Preview))
	}
	name := oneLine(c.Name)
	req := acpsdk.RequestPermissionRequest{
		SessionId: u.l.id,
		ToolCall: acpsdk.ToolCallUpdate{
			ToolCallId: u.l.toolCallID(c),
			Title:      &t,
			Kind:       &k,
			Status:     &status,
			Locations:  locations(c),
			Content:    content,
			RawInput:   rawInput(c),
		},
		Options: []acpsdk.PermissionOption{
			{OptionId: optAllowOnce, Kind: acpsdk.PermissionOptionKindAllowOnce, Name: "Allow once"},
			{OptionId: optAllowAlways, Kind: acpsdk.PermissionOptionKindAllowAlways, Name: fmt.Sprintf("Allow %s for this session", name)},
			{OptionId: optRejectOnce, Kind: acpsdk.PermissionOptionKindRejectOnce, Name: "Refuse"},
			{OptionId: optRejectAlways, Kind: acpsdk.PermissionOptionKindRejectAlways, Name: fmt.Sprintf("Refuse %s for this session", name)},
		},
	}
	if c.Prefix != "" {
		// After the tool's own allow_always: a client that takes the
		// first option of a kind still allows the tool.
		opt := acpsdk.PermissionOption{OptionId: optAllowPrefix, Kind: acpsdk.PermissionOptionKindAllowAlways, Name: fmt.Sprintf("Allow %q for this session", oneLine(c.Prefix)+" …")}
		req.Options = append(req.Options[:2], append([]acpsdk.PermissionOption{opt}, req.Options[2:]...)...)
	}
	resp, err := u.l.srv.conn.RequestPermission(ctx, req)
	if err != nil {
		if ctx.Err() == nil {
			u.l.srv.log.line(fmt.Sprintf("session %s: the permission request failed (the call is refused): %v", u.l.id, err))
		}
		return agent.Refuse
	}
	d := agent.Refuse
	if sel := resp.Outcome.Selected; sel != nil {
		switch sel.OptionId {
		case optAllowOnce:
			d = agent.AllowOnce
		case optAllowAlways:
			d = agent.AllowSession
		case optAllowPrefix:
			if c.Prefix != "" {
				d = agent.AllowPrefix
			}
		case optRejectAlways:
			d = agent.Never
		}
	}
	if d == agent.AllowOnce || d == agent.AllowSession || d == agent.AllowPrefix {
		u.l.update(statusUpdate(u.l.toolCallID(c), acpsdk.ToolCallStatusInProgress))
	}
	return d
}
