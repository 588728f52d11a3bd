// Package agent is mm's generation loop: per question, up to maxTurns
// model ↔ tools round trips. It streams the model's answer to a UI, repairs
// and runs the tool calls itself, asks the UI for permission when it must,
// and stops a turn that hangs, loops or runs away. It never prints: every
// facade (one-shot, line REPL, ACP) drives it through the UI interface.
package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/config"
	"mm/internal/hooks"
	"mm/internal/llm"
	"mm/internal/plan"
	"mm/internal/textcut"
	"mm/internal/toolcall"
	"mm/internal/tools"
)

// StopError ends a turn that mm stopped itself: watchdog, max turns,
// max_tokens, loop detector, runaway tool call. The command-line facades
// exit with code 4 on it.
type StopError struct {
	Msg string
	// Reason tells the two limits apart (ACP answers them with stop
	// reasons of their own); "" for the other stops.
	Reason StopReason
}

// StopReason is why a StopError stopped the turn, when it was a limit.
type StopReason string

// The limits a turn can reach.
const (
	StopMaxTurns  StopReason = "maxTurns"   // the model used all maxTurns model calls
	StopMaxTokens StopReason = "max_tokens" // a tool call was cut by max_tokens once too often
)

func (e *StopError) Error() string { return "[error: " + e.Msg + "]" }

// Decision is the user's answer to a permission request.
type Decision int

const (
	// Refuse refuses this call.
	Refuse Decision = iota
	// AllowOnce runs this call.
	AllowOnce
	// AllowSession runs this call and every later call of the same tool.
	AllowSession
	// Never refuses this call and every later call of the same tool.
	Never
	// AllowPrefix runs this call and every later call the prefix it
	// offered covers (Call.Prefix: bash's `npm test`).
	AllowPrefix
)

// Call is one tool call as the UI sees it.
type Call struct {
	ID      string
	Name    string
	Args    json.RawMessage
	Summary string
	Kind    tools.Kind
	// Repairs says what mm fixed in a broken call before running it.
	Repairs []string
	// Asked says a permission prompt was put to the user for this call
	// (it showed Preview).
	Asked bool
	// Preview is the planned change a permission prompt shows (the diff of
	// a write), set before Permission is asked; "" when there is none.
	Preview string
	// Diff is the same planned change as whole texts (an editor's diff
	// view), set with Preview; nil when the call changes no file.
	Diff *tools.Diff
	// Paths are the files the call reads or changes, absolute (the
	// locations an editor shows); set before ToolStart.
	Paths []string
	// MCP is "server/tool" for an MCP server's tool (tools.Tool.MCP).
	MCP string
	// Session is what an answer "for the session" covers when it is not
	// the tool (tools.Tool.SessionKey); set before Permission.
	Session string
	// UnderYolo says the call asks although yolo is true (mcp.permissions
	// says ask), so that a refusal can say why; set before Permission.
	UnderYolo bool
	// Prefix is the command prefix an AllowPrefix answer allows for the
	// session (tools.Tool.Prefix); "" when none is offered. Set before
	// Permission.
	Prefix string

	// Set when the call has run.
	Output  string
	Refused bool
	// Failed says the call did not do what it was asked (a refusal by
	// the user, a plan the tool refused, a checked tool's failure), as
	// far as the tool tells; the output says why.
	Failed   bool
	Duration time.Duration
	// AnswerReplaced says a postAsk hook replaced the answer of this
	// ask_agent call (its output is the replacement).
	AnswerReplaced bool
}

// UI receives what happens during a turn. Implementations must return
// quickly from the event methods (they run on the stream's goroutine).
type UI interface {
	// Text and Thinking are pieces of the answer and of the reasoning.
	Text(delta string)
	Thinking(delta string)
	// Progress reports how far the server has read the prompt (llama.cpp).
	Progress(p llm.Progress)
	// Composing reports that a tool call is being streamed: its name and
	// the size of its arguments so far.
	Composing(name string, size int)
	ToolStart(c *Call)
	ToolEnd(c *Call)
	// Notice is a line for the user about something mm did (a call cut by
	// max_tokens handed back to the model, a call not run).
	Notice(msg string)
	// Permission asks whether a call that changes something may run. It is
	// only asked when yolo is false.
	Permission(ctx context.Context, c *Call) Decision
}

// Options configures an Agent.
type Options struct {
	Model ai.Model
	Tools *tools.Registry
	// System is the system prompt, the first message of every history.
	System    string
	MaxTurns  int
	MaxOutput int
	// MaxTokens is sampling.max_tokens, for the messages about it.
	MaxTokens int
	// Watchdog is watchdogTimeout; FirstToken is firstTokenTimeout. 0
	// disables the watchdog.
	Watchdog   time.Duration
	FirstToken time.Duration
	Yolo       bool
	// BeforeTurn, when set, runs at the start of each Ask, before the
	// first request: the engine declares there the tools of MCP servers
	// that were late at start-up, so the tool list changes only between
	// turns.
	BeforeTurn func()
	// Snapshots, when set, is told about the turns that change the
	// project (/undo: internal/undo): Before runs once per turn, just
	// before the first call that may change files runs (one that needs
	// permission and is not a read), After when that turn ends. What
	// they return, when not "", is a notice for the user.
	Snapshots Snapshotter
	// Plan is the conversation's plan (the plan tool's state), nil
	// without the tool: /new clears it, and a compression keeps it
	// (compact.go).
	Plan *plan.Plan
	// Hooks runs the hooks key's commands (hooks.go); nil without any.
	Hooks *hooks.Runner
}

// Snapshotter takes the snapshots /undo restores (Options.Snapshots).
type Snapshotter interface {
	Before(question string) string
	After() string
}

// maxTokensRetries is how many times a tool call cut by max_tokens is handed
// back to the model before the turn stops.
const maxTokensRetries = 2

// Agent holds one conversation.
type Agent struct {
	opts Options

	mu      sync.Mutex // guards history (Ask runs one at a time)
	history []*ai.Message
	loop    loopDetector
	allowed map[string]bool // tools allowed for the session
	never   map[string]bool // tools refused for the session
	// prefixes are the command prefixes allowed for the session, by tool.
	prefixes map[string][]string
	callSeq  int
	// The context window check (window.go).
	fit      fitCheck
	window   func(context.Context) int
	overflow func(tokens, window int) string
	// confirm and promptCheck: SetWindowConfirm, SetPromptCheck.
	confirm     func(context.Context) int
	promptCheck func(ctx context.Context, sent, likely, read int) string
	// compaction is how the history is compressed (compact.go); nil
	// until SetCompaction.
	compaction *Compaction
	// noGain is the size (messageSize bytes) of the last summary that was
	// no shorter than what it would replace; 0 when none (compact.go).
	noGain int
	// ratio is the bytes per token the server's last count measured, for
	// the estimates between a compression and the next count (0: none).
	ratio float64
	// turnStart is the history at the start of the running turn, its
	// question included: what ask_agent's with_context sends.
	turnStart []*ai.Message
	// checkpoint, when set, is given the conversation during a turn
	// (OnCheckpoint).
	checkpoint func(history []*ai.Message)
	// question is the running turn's; snapped says its snapshot is
	// taken (Options.Snapshots).
	question string
	snapped  bool
	// note goes before the next question (AddNote).
	note string
	// retry asks a broken reply again with constrained tool calling
	// (SetToolCallRetry, retry.go).
	retry bool
}

// AddNote makes the next question's message start with note: what the
// user did between turns that the model must know (an /undo). It goes in
// the user's message, never in the system prompt, so the request prefix
// stays the same.
func (a *Agent) AddNote(note string) {
	if note == "" {
		return
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.note != "" {
		a.note += "\n"
	}
	a.note += note
}

// OnCheckpoint sets f, called during a turn once the question is asked
// (before an automatic compression too), before each tool call runs and after its result, with the
// conversation as it would stand if mm ended there: the call running
// answered as cut off, the calls of the reply not run yet answered
// "[not run: …]", and a closing note for the turn. A session writes it,
// so that a kill -9 mid-turn loses neither the question nor the tools'
// work. f runs on the turn's goroutine with the agent busy: it must not
// call the agent.
func (a *Agent) OnCheckpoint(f func(history []*ai.Message)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.checkpoint = f
}

// checkpointNote closes a turn in a checkpoint: a history that a kill
// ended there still alternates its roles, and the model reads, after a
// resume, that the turn did not finish.
const checkpointNote = "[interrupted: mm ended before the turn was over]"

// checkpointRunning answers, in a checkpoint, the call that was running:
// it may have changed things, so the model must not read "not run".
const checkpointRunning = "[cut off: mm ended while this call ran — it may have run, in part or whole]"

// saveCheckpoint calls the checkpoint with the history, the results of
// the running reply's calls so far (done), the call starting (running,
// nil when none) and the calls still to run.
func (a *Agent) saveCheckpoint(done []*ai.Part, running *Call, pending []*Call) {
	if a.checkpoint == nil {
		return
	}
	h := append([]*ai.Message(nil), a.history...)
	if running != nil || len(done)+len(pending) > 0 {
		parts := append([]*ai.Part(nil), done...)
		if running != nil {
			parts = append(parts, ai.NewToolResponsePart(&ai.ToolResponse{Name: running.Name, Ref: running.ID, Output: checkpointRunning}))
		}
		for _, c := range pending {
			parts = append(parts, ai.NewToolResponsePart(&ai.ToolResponse{Name: c.Name, Ref: c.ID, Output: "[not run: mm ended before this call ran]"}))
		}
		h = append(h, ai.NewMessage(ai.RoleTool, nil, parts...))
	}
	h = append(h, ai.NewModelTextMessage(checkpointNote))
	a.checkpoint(h)
}

// New returns an agent with an empty conversation.
func New(opts Options) *Agent {
	a := &Agent{opts: opts}
	a.Reset()
	return a
}

// Reset starts a new conversation (/new): the history is back to the system
// prompt, the loop detector and the session's permission answers are
// forgotten.
func (a *Agent) Reset() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.history = nil
	if a.opts.System != "" {
		a.history = append(a.history, ai.NewSystemTextMessage(a.opts.System))
	}
	a.loop.reset()
	a.allowed = map[string]bool{}
	a.never = map[string]bool{}
	a.prefixes = map[string][]string{}
	a.fit.reset()
	a.noGain = 0
	a.note = ""
	a.opts.Plan.Clear()
}

// Plan is the conversation's plan: nil without the plan tool. A facade
// reads it to show the plan, a session saves and restores it.
func (a *Agent) Plan() *plan.Plan { return a.opts.Plan }

// History returns the conversation so far.
func (a *Agent) History() []*ai.Message {
	a.mu.Lock()
	defer a.mu.Unlock()
	return append([]*ai.Message(nil), a.history...)
}

// Usage is the token usage the server reported for one question.
type Usage struct {
	Input, Output, Cached int
	// Context is the prompt size of the last model call: how much of the
	// context window the conversation uses now.
	Context int
}

// Result is what one question produced.
type Result struct {
	// Text is the final answer (the text of the last model reply).
	Text string
	// ModelCalls is the number of model calls made.
	ModelCalls int
	// ToolCalls counts the tool responses per tool name.
	ToolCalls map[string]int
	// Calls lists the calls that ran, in order (for displayCommands).
	Calls   []*Call
	Usage   Usage
	Elapsed time.Duration
}

// Ask runs one question to its answer. The returned Result is never nil:
// on an error it holds what happened before it. The error is an
// *llm.EngineError (server), a *StopError (mm stopped the turn), or the
// context's error when the turn was cancelled.
func (a *Agent) Ask(ctx context.Context, question string, ui UI) (*Result, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	start := time.Now()
	res := &Result{ToolCalls: map[string]int{}}
	defer func() { res.Elapsed = time.Since(start) }()

	if a.opts.BeforeTurn != nil {
		a.opts.BeforeTurn()
	}
	// A question a hook refuses is not sent, nor kept.
	question, err := a.userPrompt(ctx, question, ui)
	if err != nil {
		return res, err
	}
	a.question, a.snapped = question, false
	defer func() {
		if a.snapped {
			if n := a.opts.Snapshots.After(); n != "" {
				ui.Notice(n)
			}
		}
	}()
	a.autoCompact(ctx, question, ui)
	before := len(a.history)
	if a.note != "" {
		question = a.note + "\n\n" + question
		a.note = ""
	}
	a.history = append(a.history, ai.NewUserTextMessage(question))
	a.turnStart = append([]*ai.Message(nil), a.history...)
	a.saveCheckpoint(nil, nil, nil)
	cutCalls := 0
	for {
		if res.ModelCalls >= a.opts.MaxTurns {
			err := &StopError{Reason: StopMaxTurns, Msg: fmt.Sprintf("the model used all %d turns (maxTurns) without finishing — ask again to let it go on, or raise maxTurns", a.opts.MaxTurns)}
			a.interrupted("", err)
			return res, err
		}
		if err := a.fits(ctx); err != nil {
			a.overflowed(before, err)
			return res, err
		}
		res.ModelCalls++
		sent := len(a.history)
		sentTokens, likelyTokens := 0, 0
		if a.promptCheck != nil {
			sentTokens, likelyTokens = a.sentEstimate(), a.tokenEstimate()
		}
		resp, guard, partial, err := a.generate(ctx, ui)
		if err != nil {
			var ee *llm.EngineError
			if errors.As(err, &ee) && ee.Overflow {
				a.overflowed(before, err)
				return res, err
			}
			a.interrupted(partial, err)
			return res, err
		}
		a.fit.record(sent, resp.Usage)
		addUsage(&res.Usage, resp.Usage)
		a.checkPrompt(ctx, sentTokens, likelyTokens, resp.Usage, ui)

		reply := a.recover(resp)
		text := reply.Text
		if rest := guard.finish(text); rest != "" {
			ui.Text(rest)
		}
		res.Text = text
		if a.wantsRetry(resp, reply) {
			r, rp, err := a.retryConstrained(ctx, ui, resp, reply, res)
			if err != nil {
				// Stopped by the user: the turn ends as it would have on
				// the next request, the corrections sent.
				a.history = append(a.history, modelMessage(resp.Message, text, nil))
				a.correct(reply.Rejections, ui)
				a.interrupted("", err)
				return res, err
			}
			if r != nil {
				resp, reply, text = r, rp, rp.Text
				res.Text = text
			}
		}
		if resp.FinishMessage == "length" && (len(llm.RawToolCalls(resp.Message)) > 0 || anyTruncated(reply.Rejections)) {
			// A call cut by max_tokens must never run: hand it back.
			cutCalls++
			a.history = append(a.history, modelMessage(resp.Message, text, nil))
			if cutCalls > maxTokensRetries {
				return res, &StopError{Reason: StopMaxTokens, Msg: fmt.Sprintf("the model hit max_tokens (%d) while writing a tool call", a.opts.MaxTokens)}
			}
			name := cutName(resp.Message, reply.Rejections)
			ui.Notice(fmt.Sprintf("the %s call was cut at max_tokens (%d) and not run; asking the model to proceed in smaller pieces", name, a.opts.MaxTokens))
			a.history = append(a.history, ai.NewUserTextMessage(fmt.Sprintf(
				"[Your %s call was cut off: the reply reached max_tokens (%d) before the call was complete, so it was NOT run. Proceed in smaller pieces: keep each call short (for a long file, write a first part, then add the rest with further calls).]",
				name, a.opts.MaxTokens)))
			continue
		}

		calls := a.prepare(reply.Calls)
		a.history = append(a.history, modelMessage(resp.Message, text, calls))
		if len(calls) == 0 && len(reply.Rejections) == 0 {
			if resp.FinishMessage == "length" {
				ui.Notice(fmt.Sprintf("the answer was cut at max_tokens (%d)", a.opts.MaxTokens))
			}
			if next := a.stopHook(ctx, text, ui); next != "" {
				// One more round, bounded by maxTurns like every other.
				a.history = append(a.history, ai.NewUserTextMessage(next))
				continue
			}
			return res, nil
		}
		res.Text = ""

		responses, err := a.runCalls(ctx, calls, ui, res)
		if len(responses) > 0 {
			a.history = append(a.history, ai.NewMessage(ai.RoleTool, nil, responses...))
		}
		if err != nil {
			a.interrupted("", err)
			return res, err
		}
		a.correct(reply.Rejections, ui)
	}
}

// correct tells the user and the model about the calls that were not run.
func (a *Agent) correct(rs []toolcall.Rejection, ui UI) {
	if len(rs) == 0 {
		return
	}
	var notes []string
	for _, r := range rs {
		notes = append(notes, r.Reason)
		ui.Notice("tool call not run: " + r.Reason)
	}
	a.history = append(a.history, ai.NewUserTextMessage("[Tool call not run: "+strings.Join(notes, " ")+"]"))
}

// generate makes one model call under the watchdog. The answer's text goes
// to the UI through a guard that holds back what may be a tool call written
// as text; the caller shows the rest once the recovery layer has run. On
// failure it returns the text streamed so far.
//
// The answer is kept once, by the client (an llm.Capture takes it past
// Genkit, which would copy it several times); generate and the guard keep
// only what they need while it streams.
func (a *Agent) generate(ctx context.Context, ui UI) (*ai.ModelResponse, *textGuard, string, error) {
	return a.generateFor(ctx, ui, &ai.ModelRequest{Messages: a.history, Tools: a.opts.Tools.Definitions()})
}

// generateFor is generate for a request of the caller's: the constrained
// retry's (retry.go).
func (a *Agent) generateFor(ctx context.Context, ui UI, req *ai.ModelRequest) (*ai.ModelResponse, *textGuard, string, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	wd := startWatchdog(a.opts.FirstToken, a.opts.Watchdog, cancel)
	defer wd.stop()
	ctx, capture := llm.WithCapture(ctx)

	guard := &textGuard{}
	args := map[int]*strings.Builder{}
	names := map[int]string{}
	loading := false
	onChunk := func(_ context.Context, c *ai.ModelResponseChunk) error {
		switch v := c.Custom.(type) {
		case llm.KeepAlive:
			wd.keepAlive()
		case llm.Progress:
			if v.Loading {
				// The server is loading its model and the client waits:
				// nothing moves, so the first-token wait goes on.
				if !loading {
					loading = true
					ui.Notice(fmt.Sprintf("the server is loading the model — waiting for it (up to %s, firstTokenTimeout)", config.FormatDuration(wd.firstToken)))
				}
			} else {
				wd.progress(v.Processed)
			}
			ui.Progress(v)
		}
		for _, p := range c.Content {
			switch {
			case p.IsReasoning():
				wd.token()
				ui.Thinking(p.Text)
			case p.IsText():
				wd.token()
				if show := guard.add(p.Text); show != "" {
					ui.Text(show)
				}
			case p.IsToolRequest():
				wd.token()
				i, _ := p.Metadata[llm.ToolCallDelta].(int)
				b := args[i]
				if b == nil {
					b = &strings.Builder{}
					args[i] = b
				}
				piece, _ := p.ToolRequest.Input.(string)
				b.WriteString(piece)
				names[i] = p.ToolRequest.Name
				if msg := runawayCheck(b.String()); msg != "" {
					return &StopError{Msg: msg}
				}
				ui.Composing(names[i], b.Len())
			}
		}
		return nil
	}
	resp, err := a.opts.Model.Generate(ctx, req, onChunk)
	if err != nil {
		partial := capture.Partial()
		var stop *StopError
		if cause := context.Cause(ctx); errors.As(cause, &stop) {
			if loading && wd.expired() {
				return nil, nil, partial, llm.StillLoading(nil, wd.firstToken)
			}
			return nil, nil, partial, stop
		}
		if errors.As(err, &stop) {
			return nil, nil, partial, stop
		}
		var ee *llm.EngineError
		if errors.As(err, &ee) {
			return nil, nil, partial, ee
		}
		if ctx.Err() != nil {
			return nil, nil, partial, context.Cause(ctx)
		}
		return nil, nil, partial, &llm.EngineError{Msg: err.Error()}
	}
	if full := capture.Response(); full != nil {
		resp = full
	}
	guard.complete(rawText(resp.Message))
	return resp, guard, "", nil
}

// interrupted closes a turn that failed: the partial answer goes into the
// history as the model's reply, so that the roles keep alternating and the
// model knows, on the next question, what it had said.
func (a *Agent) interrupted(partial string, err error) {
	note := "[interrupted: " + strings.Trim(err.Error(), "[]") + "]"
	if errors.Is(err, context.Canceled) {
		note = "[interrupted by the user]"
	}
	if partial != "" {
		note = partial + "\n" + note
	}
	a.history = append(a.history, ai.NewModelTextMessage(note))
}

// recover decides which calls of a reply run: the recovery layer repairs the
// broken calls of small models and refuses the ones that must not run.
func (a *Agent) recover(resp *ai.ModelResponse) toolcall.Result {
	in := toolcall.Input{FinishReason: resp.FinishMessage}
	for _, p := range resp.Message.Content {
		switch {
		case p.IsReasoning():
			in.Reasoning += p.Text
		case p.IsText():
			in.Content += p.Text
		}
	}
	for _, c := range llm.RawToolCalls(resp.Message) {
		in.ToolCalls = append(in.ToolCalls, toolcall.RawCall{ID: c.ID, Name: c.Name, Arguments: c.Arguments})
	}
	for _, t := range a.opts.Tools.List() {
		in.Tools = append(in.Tools, toolcall.Tool{Name: t.Name, Schema: t.Schema})
	}
	return toolcall.Recover(in)
}

// prepare turns recovered calls into Calls with ids.
func (a *Agent) prepare(recovered []toolcall.Call) []*Call {
	var calls []*Call
	seen := map[string]bool{}
	for _, rc := range recovered {
		id := rc.ID
		if id == "" || seen[id] {
			a.callSeq++
			id = fmt.Sprintf("call_%d", a.callSeq)
		}
		seen[id] = true
		c := &Call{ID: id, Name: rc.Name, Args: rc.Arguments, Repairs: rc.Repairs}
		if t := a.opts.Tools.Lookup(rc.Name); t != nil {
			c.Kind = t.KindFor(rc.Arguments)
			c.Summary = t.SummaryOf(rc.Arguments)
			c.Paths = t.PathsOf(rc.Arguments)
			c.MCP = t.MCP
		}
		calls = append(calls, c)
	}
	return calls
}

// runCalls runs the calls of one reply in order and returns their responses.
// Every call gets a response, even when the turn stops before running it:
// the server's chat template expects one per call.
func (a *Agent) runCalls(ctx context.Context, calls []*Call, ui UI, res *Result) ([]*ai.Part, error) {
	var parts []*ai.Part
	respond := func(c *Call) {
		parts = append(parts, ai.NewToolResponsePart(&ai.ToolResponse{Name: c.Name, Ref: c.ID, Output: c.Output}))
	}
	for i, c := range calls {
		if ctx.Err() != nil {
			for _, rest := range calls[i:] {
				rest.Output = "[not run: the turn was cancelled]"
				respond(rest)
			}
			return parts, ctx.Err()
		}
		t := a.opts.Tools.Lookup(c.Name)
		// Before the call runs: a kill -9 while it runs leaves the reply
		// that asked for it, and the call answered as cut off, not as
		// never run (it may have changed things).
		a.saveCheckpoint(parts, c, calls[i+1:])
		ui.ToolStart(c)
		start := time.Now()
		if t == nil {
			// The recovery layer only passes declared tools; this guards
			// against a registry changed under it.
			c.Output = fmt.Sprintf("[error: there is no tool named %s]", shortName(c.Name))
		} else {
			// The tools that ask people or agents reach the facade
			// through the call's context (tools.FacadeFrom).
			// ask_agent's with_context reads the history at the start
			// of the turn (tools.HistoryFrom).
			tctx := tools.WithHistory(tools.WithFacade(ctx, ui), a.turnStart)
			c.Output = tools.Truncate(a.run(tctx, t, c, ui), a.opts.MaxOutput)
		}
		c.Duration = time.Since(start)
		res.ToolCalls[c.Name]++
		res.Calls = append(res.Calls, c)

		n := a.loop.record(c.Name, string(c.Args), c.Output)
		if n >= LoopStopAt {
			respond(c)
			ui.ToolEnd(c)
			for _, rest := range calls[i+1:] {
				rest.Output = "[not run: the turn was stopped by the loop detector]"
				respond(rest)
			}
			return parts, &StopError{Msg: loopStopMessage(c.Name)}
		}
		if n >= LoopWarnAt {
			c.Output += "\n" + LoopWarning
		}
		respond(c)
		ui.ToolEnd(c)
		a.saveCheckpoint(parts, nil, calls[i+1:])
	}
	if ctx.Err() != nil {
		return parts, ctx.Err()
	}
	return parts, nil
}

// run runs one call of a declared tool, asking for permission when it
// must. A tool that plans is worked out first: a call decided without
// changing anything (a refusal, a dry run) asks nobody, and the prompt
// shows the planned change, which is what runs once allowed.
func (a *Agent) run(ctx context.Context, t *tools.Tool, c *Call, ui UI) string {
	var plan tools.Planned
	if t.Plan != nil {
		plan = t.Plan(c.Args)
		if plan.Done != "" || plan.Apply == nil {
			c.Failed = plan.Failed
			return plan.Done
		}
		c.Preview = plan.Preview
		c.Diff = plan.Diff
	} else if t.Preview != nil {
		c.Preview = t.Preview(c.Args)
	}
	if !a.permitted(ctx, t, c, ui) {
		if ctx.Err() != nil {
			// The turn was stopped while the user was asked: nobody
			// refused anything.
			return "[not run: the turn was cancelled]"
		}
		c.Refused, c.Failed = true, true
		return t.RefusalFor(c.Args)
	}
	if a.opts.Hooks != nil {
		return a.hookedRun(ctx, c, ui, func(ctx context.Context) string { return a.execute(ctx, t, c, plan, ui) })
	}
	return a.execute(ctx, t, c, plan, ui)
}

// execute runs a call that was allowed: the snapshot /undo needs first.
func (a *Agent) execute(ctx context.Context, t *tools.Tool, c *Call, plan tools.Planned, ui UI) string {
	if a.opts.Snapshots != nil && !a.snapped && t.NeedsPermission(c.Args) && t.KindFor(c.Args) != tools.KindRead && t.KindFor(c.Args) != tools.KindThink {
		// Before the first change of the turn, never for a call refused
		// or decided without changing anything, nor for one that changes
		// no file (the plan).
		a.snapped = true
		if n := a.opts.Snapshots.Before(a.question); n != "" {
			ui.Notice(n)
		}
	}
	if plan.Apply != nil {
		out := plan.Apply(ctx)
		c.Failed = plan.Diff != nil && !plan.Diff.Applied
		return out
	}
	if t.Checked != nil {
		out, failed := t.Checked(ctx, c.Args)
		c.Failed = failed
		return out
	}
	return t.Run(ctx, c.Args)
}

// permitted applies yolo and the session's answers, and asks the UI when it
// must.
func (a *Agent) permitted(ctx context.Context, t *tools.Tool, c *Call, ui UI) bool {
	// Under yolo, a tool asks only when it says so (an MCP tool set to
	// ask in mcp.permissions).
	yolo := a.opts.Yolo && (t.AsksUnderYolo == nil || !t.AsksUnderYolo(c.Args))
	key := c.Name
	if t.SessionKey != nil {
		key = t.SessionKey(c.Args)
		c.Session = key
	}
	if yolo || !t.NeedsPermission(c.Args) || a.allowed[key] {
		return true
	}
	if a.never[key] {
		return false
	}
	if t.PrefixAllows != nil && t.PrefixAllows(a.prefixes[key], c.Args) {
		return true
	}
	c.UnderYolo = a.opts.Yolo
	if t.Prefix != nil {
		c.Prefix = t.Prefix(c.Args)
	}
	c.Asked = true
	switch ui.Permission(ctx, c) {
	case AllowOnce:
		return true
	case AllowSession:
		a.allowed[key] = true
		return true
	case AllowPrefix:
		if c.Prefix != "" {
			a.prefixes[key] = append(a.prefixes[key], c.Prefix)
		}
		return true
	case Never:
		a.never[key] = true
	}
	return false
}

// modelMessage is the model's reply as the history keeps it: the reasoning,
// the text without the call markup the recovery layer took out, and the
// calls that run, with their repaired arguments.
func modelMessage(orig *ai.Message, text string, calls []*Call) *ai.Message {
	m := &ai.Message{Role: ai.RoleModel}
	for _, p := range orig.Content {
		if p.IsReasoning() {
			m.Content = append(m.Content, p)
		}
	}
	if text != "" || len(calls) == 0 {
		m.Content = append(m.Content, ai.NewTextPart(text))
	}
	for _, c := range calls {
		m.Content = append(m.Content, ai.NewToolRequestPart(&ai.ToolRequest{Name: c.Name, Ref: c.ID, Input: c.Args}))
	}
	return m
}

func anyTruncated(rs []toolcall.Rejection) bool {
	for _, r := range rs {
		if r.Truncated {
			return true
		}
	}
	return false
}

// cutName names the tool whose call max_tokens cut.
func cutName(m *ai.Message, rs []toolcall.Rejection) string {
	for _, c := range llm.RawToolCalls(m) {
		if c.Name != "" {
			return shortName(c.Name)
		}
	}
	for _, r := range rs {
		if r.Truncated && r.Name != "" {
			return r.Name
		}
	}
	return "tool"
}

func addUsage(u *Usage, g *ai.GenerationUsage) {
	if g == nil {
		return
	}
	u.Input += g.InputTokens
	u.Output += g.OutputTokens
	u.Cached += g.CachedContentTokens
	u.Context = g.InputTokens + g.OutputTokens
}

// shortName is a tool name the model wrote, cut to quote it back: a name
// of 200 KB would otherwise come back whole and fill the window.
func shortName(name string) string {
	if cut := textcut.FirstRunes(name, 64); cut != name {
		return cut + "…"
	}
	return name
}
