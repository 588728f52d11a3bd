package hooks

import (
	"context"
	"strings"

	"mm/internal/tools"
)

// The reference's texts of the ask events (tools.fr.md, ask_agent,
// Hooks).
const (
	// ContextMark goes before what a hook adds to a text the model reads.
	ContextMark = "[context added by a hook]"
)

// What an ask stopped with the turn while its hooks ran returns, and
// the exit code of mm --ask then (interrupted, as -p's 130).
const (
	AskNotAsked  = "[not asked: the turn was stopped before its preAsk hooks decided]"
	AskWithheld  = "[answer withheld: the turn was stopped before its postAsk hooks decided]"
	exitCanceled = 130
)

// AskDenied is what an ask a hook refused returns.
func AskDenied(reason string) string { return "[ask denied by a hook: " + reason + "]" }

// WithContext is text followed by a hook's context ("" adds nothing).
func WithContext(text, context string) string {
	if context == "" {
		return text
	}
	return text + "\n\n" + ContextMark + "\n" + context
}

// asker runs the preAsk and postAsk hooks around every ask: the
// ask_agent tool, /ask-NAME and mm --ask all go through it.
type asker struct {
	tools.AgentAsker
	r *Runner
}

// WrapAsker is a with r's ask hooks; a itself when r has none (or a is
// nil).
func WrapAsker(a tools.AgentAsker, r *Runner) tools.AgentAsker {
	if a == nil || r == nil || (len(r.hooks[PreAsk]) == 0 && len(r.hooks[PostAsk]) == 0) {
		return a
	}
	return &asker{AgentAsker: a, r: r}
}

// Ask runs preAsk (it may refuse the ask, replace the prompt or add to
// it), asks, then postAsk on an answer (it may refuse it, replace it or
// add context after it).
func (a *asker) Ask(ctx context.Context, req tools.AgentRequest) tools.AgentReply {
	notice := tools.FacadeFrom(ctx)
	if !a.askable(req) {
		// An unknown agent, an empty prompt: the pool's own error, no
		// hook (nobody is asked).
		return a.AgentAsker.Ask(ctx, req)
	}
	if a.r.Has(PreAsk, req.Agent) {
		p := req.Prompt
		res := a.r.Run(ctx, req.Agent, Input{Event: PreAsk, Agent: req.Agent, Prompt: &p}, notice)
		if ctx.Err() != nil {
			// Stopped before the hooks decided: nobody is asked.
			return tools.AgentReply{Text: AskNotAsked, Failed: true, Exit: exitCanceled}
		}
		if res.Denied {
			return tools.AgentReply{Text: AskDenied(res.Reason), Failed: true, Exit: 4}
		}
		if res.Replaced {
			req.Prompt = res.Text
		}
		req.Prompt = WithContext(req.Prompt, res.Context)
	}
	reply := a.AgentAsker.Ask(ctx, req)
	if reply.Failed || !a.r.Has(PostAsk, req.Agent) {
		return reply
	}
	p, ans := req.Prompt, reply.Text
	res := a.r.Run(ctx, req.Agent, Input{Event: PostAsk, Agent: req.Agent, Prompt: &p, Answer: &ans}, notice)
	if ctx.Err() != nil {
		// Stopped before the hooks decided: the answer they were to
		// withhold or rewrite is not the model's (nor stdout's).
		return tools.AgentReply{Text: AskWithheld, Failed: true, Exit: exitCanceled}
	}
	if res.Denied {
		return tools.AgentReply{Text: AskDenied(res.Reason), Answer: reply.Answer, Failed: true, Exit: 4}
	}
	if res.Replaced {
		reply.Text, reply.Replaced = res.Text, true
		tools.MarkReplaced(ctx)
	}
	reply.Text = WithContext(reply.Text, res.Context)
	return reply
}

// askable says req names an agent of the pool and has a prompt.
func (a *asker) askable(req tools.AgentRequest) bool {
	if strings.TrimSpace(req.Prompt) == "" {
		return false
	}
	for _, info := range a.Agents() {
		if info.Name == req.Agent {
			return true
		}
	}
	return false
}
