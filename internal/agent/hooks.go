package agent

import (
	"context"
	"encoding/json"

	"mm/internal/hooks"
	"mm/internal/tools"
)

// The hooks of the loop (docs/hooks.md). Each runs only when
// Options.Hooks has a hook for its event: a nil runner costs one nil
// check.

// StopDenied is a question a userPrompt hook refused: it was not sent.
const StopDenied StopReason = "denied"

// Hooks is the agent's hooks runner, nil without hooks.
func (a *Agent) Hooks() *hooks.Runner { return a.opts.Hooks }

// withContext is text followed by a hook's context.
func withContext(text, context string) string { return hooks.WithContext(text, context) }

// DeniedText is what the model reads for a tool call a hook refused.
func DeniedText(tool, reason string) string {
	return "[" + tool + " denied by a hook: " + reason + "]"
}

// PostToolStopped is what the model reads of a call whose postTool hooks
// were stopped with the turn, before they decided.
const PostToolStopped = "[output withheld: the turn was stopped before its postTool hooks decided]"

// hookName is the name a tool hook's match and input see: server/tool
// for an MCP tool, the tool's name otherwise.
func hookName(c *Call) string {
	if c.MCP != "" {
		return c.MCP
	}
	return c.Name
}

// userPrompt runs the userPrompt hooks over the question: the question
// to send, or the StopError of a refused one.
func (a *Agent) userPrompt(ctx context.Context, question string, ui UI) (string, error) {
	if !a.opts.Hooks.Has(hooks.UserPrompt, "") {
		return question, nil
	}
	q := question
	r := a.opts.Hooks.Run(ctx, "", hooks.Input{Event: hooks.UserPrompt, Prompt: &q}, ui)
	if err := ctx.Err(); err != nil {
		return "", err
	}
	if r.Denied {
		return "", &StopError{Reason: StopDenied, Msg: "the question was denied by a hook: " + r.Reason + " — it was not sent"}
	}
	if r.Replaced {
		question = r.Text
	}
	return withContext(question, r.Context), nil
}

// hookedRun runs a call that was allowed between its preTool and
// postTool hooks: a preTool hook may refuse it or answer in its place,
// a postTool hook change what the model reads of its output.
func (a *Agent) hookedRun(ctx context.Context, c *Call, ui UI, execute func(context.Context) string) string {
	h := a.opts.Hooks
	name := hookName(c)
	args := json.RawMessage(c.Args)
	if !json.Valid(args) {
		args = nil
	}
	var before string
	if h.Has(hooks.PreTool, name) {
		r := h.Run(ctx, name, hooks.Input{Event: hooks.PreTool, Tool: name, Arguments: args}, ui)
		if ctx.Err() != nil {
			return "[not run: the turn was cancelled]"
		}
		if r.Denied {
			c.Failed = true
			return DeniedText(c.Name, r.Reason)
		}
		if r.Replaced {
			return withContext(r.Text, r.Context)
		}
		before = r.Context
	}
	if c.Name == tools.AskAgentName {
		ctx = tools.WithReplacedMark(ctx, &c.AnswerReplaced)
	}
	out := execute(ctx)
	if h.Has(hooks.PostTool, name) {
		out = tools.Truncate(out, a.opts.MaxOutput)
		r := h.Run(ctx, name, hooks.Input{Event: hooks.PostTool, Tool: name, Arguments: args, Output: &out}, ui)
		if ctx.Err() != nil {
			// The turn was stopped before the hooks decided: the output
			// they were to withhold or rewrite is not the model's.
			c.Failed = true
			return PostToolStopped
		}
		if r.Denied {
			c.Failed = true
			return DeniedText(c.Name, r.Reason)
		}
		if r.Replaced {
			out = r.Text
		}
		if before != "" && r.Context != "" {
			before += "\n"
		}
		before += r.Context
	}
	return withContext(out, before)
}

// stopHook runs the stop hooks of a turn about to end with answer: the
// next user message when a hook wants one more round, "" to end.
func (a *Agent) stopHook(ctx context.Context, answer string, ui UI) string {
	if !a.opts.Hooks.Has(hooks.Stop, "") {
		return ""
	}
	q := a.question
	r := a.opts.Hooks.Run(ctx, "", hooks.Input{Event: hooks.Stop, Prompt: &q, Answer: &answer}, ui)
	// exit 2 on stop refuses the end of the turn: one more round, as
	// Claude Code's Stop hooks do.
	reason := r.Continue
	if reason == "" && r.Denied {
		reason = r.Reason
	}
	if reason != "" {
		ui.Notice("a stop hook asked for one more round: " + reason)
	}
	return reason
}
