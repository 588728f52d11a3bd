package acp

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/agent"
	"mm/internal/llm"
	"mm/internal/session"
	"mm/internal/termsafe"
)

// The slash commands that work over ACP.
var slashCommands = []acpsdk.AvailableCommand{
	{Name: "compact", Description: "compress the conversation now: a summary replaces all but the last turns"},
	{Name: "new", Description: "start a new conversation in this session (the history is forgotten; with sessions on, the old one stays listed)"},
	{Name: "context", Description: "what fills the context window now: system prompt, tools, AGENTS.md, history, free (estimated tokens)"},
	{Name: "undo", Description: "put back the files the last turn that changed some changed (bash's changes too); again: one more turn back"},
	{Name: "redo", Description: "take the last /undo back"},
}

// commands tells the client which slash commands the session offers.
func (l *live) commands() {
	l.update(acpsdk.SessionUpdate{AvailableCommandsUpdate: &acpsdk.SessionAvailableCommandsUpdate{
		SessionUpdate: "available_commands_update", AvailableCommands: l.commandList()}})
}

// slashCommand is the command a prompt starts with: its first block is
// text whose first word is one of slashCommands (/compact, /new, …).
func slashCommand(blocks []acpsdk.ContentBlock) (string, bool) {
	if len(blocks) == 0 || blocks[0].Text == nil {
		return "", false
	}
	f := strings.Fields(blocks[0].Text.Text)
	if len(f) == 0 || !strings.HasPrefix(f[0], "/") {
		return "", false
	}
	for _, c := range slashCommands {
		if f[0] == "/"+c.Name {
			return c.Name, true
		}
	}
	return "", false
}

// command runs a slash command; its report is the answer. A failed
// /compact is a JSON-RPC error with the line mode's text (and is in the
// stored session's errors).
func (l *live) command(ctx context.Context, name string) (acpsdk.PromptResponse, error) {
	end := acpsdk.PromptResponse{StopReason: acpsdk.StopReasonEndTurn}
	switch name {
	case "new":
		l.newConversation()
		l.update(acpsdk.UpdateAgentMessageText("new conversation"))
		return end, nil
	case "context":
		// A table of aligned columns: in a code block, as the editor
		// renders the answer as Markdown.
		wctx, cancel := context.WithTimeout(ctx, llm.ProbeTimeout)
		table := l.srv.eng.ContextTable(wctx, l.es.Agent, l.es.Instructions)
		cancel()
		l.update(acpsdk.UpdateAgentMessageText("```text\n" + termsafe.Text(table) + "\n```"))
		return end, nil
	case "undo", "redo":
		l.undo(name == "redo")
		return end, nil
	}
	cfg := l.srv.cfg
	rep, err := l.es.Agent.Compact(ctx, &turnUI{l: l, yolo: cfg.Yolo, thinking: cfg.ShowThinking})
	if !errors.Is(err, agent.ErrNothingToCompact) {
		l.save() // the session holds the history as it is now
	}
	switch {
	case errors.Is(err, agent.ErrNothingToCompact):
		l.update(acpsdk.UpdateAgentMessageText(fmt.Sprintf("nothing to compress: the conversation has no more than the %d question turn(s) context.keepLastTurns keeps", cfg.Context.KeepLastTurns)))
	case errors.Is(err, context.Canceled):
		return acpsdk.PromptResponse{StopReason: acpsdk.StopReasonCancelled}, nil
	case err != nil:
		return acpsdk.PromptResponse{}, &acpsdk.RequestError{Code: -32603, Message: "[error: " + trimBrackets(err.Error()) + " — the history is unchanged]"}
	case cfg.Context.ShowStats:
		l.update(acpsdk.UpdateAgentMessageText(rep.Line()))
	default:
		l.update(acpsdk.UpdateAgentMessageText("conversation compressed"))
	}
	return end, nil
}

// newConversation is /new. With sessions on, the conversation so far is
// written a last time under an id of its own (session/list shows it,
// session/load brings it back), and this session's id goes on with the
// new, empty conversation: the id the client holds always names what it
// shows.
func (l *live) newConversation() {
	if l.store != nil {
		if msgs, err := session.FromHistory(l.es.Agent.History()); err == nil && len(msgs) > 0 {
			old := *l.stored
			old.ID = session.NewID(time.Now())
			old.Messages, old.Updated = msgs, time.Now()
			old.Plan = l.es.Agent.Plan().Items()
			if err := l.store.Save(&old); err != nil {
				l.notice(fmt.Sprintf("[%v — the previous conversation is not saved]", err))
			}
		}
		next := session.New(time.Now(), l.srv.cfg.Model, l.srv.cfg.Provider, l.es.Cwd)
		next.ID = l.stored.ID
		l.stored = next
	}
	l.es.Agent.Reset()
	// The client replaces its plan with each update: an empty one clears
	// what it shows (sent only when it showed one).
	l.sendPlan(nil, false)
	l.save()
}

// undo is /undo and /redo. Nobody can be asked in the middle of a
// command here: a file changed after the turn (it differs from what the
// turn left) is kept as it is, and the report names it.
func (l *live) undo(redo bool) {
	t := l.es.Undo
	if why := t.Unavailable(); why != "" {
		l.update(acpsdk.UpdateAgentMessageText("[/undo is unavailable: " + termsafe.Text(why) + "]"))
		return
	}
	op := t.Undo
	if redo {
		op = t.Redo
	}
	rep, err := op(nil)
	text := rep.Text()
	switch {
	case err != nil && !rep.Changed():
		l.srv.log.line(fmt.Sprintf("session %s: %v", l.id, err))
		text = "[error: " + trimBrackets(err.Error()) + " — no file was changed]"
	case err != nil:
		l.srv.log.line(fmt.Sprintf("session %s: %v", l.id, err))
		text = "[error: " + trimBrackets(err.Error()) + "]\n" + text
	}
	l.update(acpsdk.UpdateAgentMessageText(termsafe.Text(text)))
	l.es.Agent.AddNote(rep.Note())
}
