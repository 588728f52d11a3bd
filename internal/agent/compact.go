package agent

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/config"
	"mm/internal/llm"
	"mm/internal/plan"
)

// Compression (context.* in the configuration) replaces the older part of
// the history by a summary the model writes, so that a conversation
// outlives a small context window.
//
// It is cheap for llama.cpp's prompt cache: the summary request is the
// history as it is (system prompt and tools first, byte for byte as on the
// last turn) plus one question, so the server re-reads only that question;
// afterwards the history is the system prompt, the summary and the last
// turns, so the next request re-reads only the summary and those turns.

// SummaryPrompt is the built-in summary request (context.prompt replaces
// it). It asks for what the model needs to go on: the task, the decisions,
// the files by path, the commands that passed or failed, what is left.
const SummaryPrompt = "Summarize the conversation so far. Your summary replaces the earlier messages: you will go on from it alone, so keep everything needed to continue. Write plain text under these headings:\n" +
	"Task: what the user asked for, with their exact requirements.\n" +
	"Decisions: what was decided or found, and why.\n" +
	"Files: every file read, created or changed, with its path and what changed in it.\n" +
	"Commands: the commands run, which passed and which failed (with the error).\n" +
	"Left to do: what is not done yet, and the next step.\n" +
	"Be brief and exact. Do not call any tool."

// summaryMarker is the user message that stands, in the compressed
// history, for the summary request; the model's summary follows it, so the
// roles keep alternating for chat templates that require it.
const summaryMarker = "[The earlier conversation was compressed. Summarize it.]"

// Compaction configures compression; SetCompaction turns it on.
type Compaction struct {
	Context config.ContextConfig
	// Provider is the provider's name; LlamaCpp is true for the servers
	// that run llama-server (dmr, llamacpp, llmman).
	Provider string
	LlamaCpp bool
	// Sampling is the configured sampling map (read only), for the keys
	// the summary request changes.
	Sampling map[string]any
	// Failed, when set, is told of every compression that failed (not of
	// one with nothing to compress), /compact's and the automatic ones:
	// a session records them in its errors.
	Failed func(error)
}

// SetCompaction sets how the history is compressed, by /compact and, with
// context.enabled, before a question that would not fit.
func (a *Agent) SetCompaction(c Compaction) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.compaction = &c
}

// OnCompactionFailed sets Compaction.Failed (a session records the
// failures in its errors); nothing happens before SetCompaction.
func (a *Agent) OnCompactionFailed(f func(error)) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.compaction != nil {
		a.compaction.Failed = f
	}
}

// CompactReport says what a compression did.
type CompactReport struct {
	MessagesBefore, MessagesAfter int
	TokensBefore, TokensAfter     int // estimated
	Elapsed                       time.Duration
	// Summary is the model's summary as kept in the history.
	Summary string
}

// Line is the one-line 🗜️ report of showStats.
func (r CompactReport) Line() string {
	return fmt.Sprintf("🗜️ compressed the conversation: %d → %d messages, ~%s → ~%s tokens, %s",
		r.MessagesBefore, r.MessagesAfter, kTokens(r.TokensBefore), kTokens(r.TokensAfter), r.Elapsed.Round(100*time.Millisecond))
}

func kTokens(n int) string {
	if n < 1000 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%.1fk", float64(n)/1000)
}

// ErrNothingToCompact is Compact's error when the history holds no more
// question turns than context.keepLastTurns keeps.
var ErrNothingToCompact = errors.New("nothing to compress")

// NoGainError is Compact's error when the summary is no shorter than the
// messages it would replace: the history is kept as it was (a summary
// that grows the conversation would be asked for again before every
// question).
type NoGainError struct {
	Replaced int // the messages the summary would have replaced
	Report   CompactReport
}

func (e *NoGainError) Error() string {
	return fmt.Sprintf("compression failed: the summary is no shorter than the %d messages it would replace (~%s → ~%s tokens)",
		e.Replaced, kTokens(e.Report.TokensBefore), kTokens(e.Report.TokensAfter))
}

// Compact replaces the history by the system prompt, a summary of the older
// turns and the last keepLastTurns question turns verbatim. On any failure
// the history is left as it was.
func (a *Agent) Compact(ctx context.Context, ui UI) (CompactReport, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.compact(ctx, ui)
}

func (a *Agent) compact(ctx context.Context, ui UI) (CompactReport, error) {
	start := time.Now()
	c := a.compactionOrDefault()
	before, ratio := a.tokenEstimateRatio()
	rep := CompactReport{MessagesBefore: len(a.history), TokensBefore: before}
	cut, head := a.compressible(c.Context.KeepLastTurns)
	if cut <= head {
		return rep, ErrNothingToCompact
	}
	prompt := SummaryPrompt
	if c.Context.Prompt != "" {
		prompt = c.Context.Prompt
	}
	msgs := append(append([]*ai.Message(nil), a.history[:cut]...), ai.NewUserTextMessage(prompt))
	req := &ai.ModelRequest{Messages: msgs, Tools: a.opts.Tools.Definitions(), Config: summaryOverrides(c)}
	summary, err := a.summarize(ctx, ui, req, c.Context.SummaryMaxTokens)
	if err != nil {
		if c.Failed != nil && ctx.Err() == nil {
			c.Failed(err)
		}
		return rep, err
	}
	kept := append([]*ai.Message(nil), a.history[:head]...)
	kept = append(kept, ai.NewUserTextMessage(summaryMarker), ai.NewModelTextMessage(summary+planPart(a.opts.Plan)))
	kept = append(kept, a.history[cut:]...)
	// Before and after are the same estimate: the tools and the kept
	// turns are in both, so the difference is the bytes replaced, at the
	// bytes per token the last count measured.
	removed, added := historyBytes(a.history[head:cut]), historyBytes(kept[head:head+2])
	rep.MessagesAfter = len(kept)
	rep.TokensAfter = max(0, before-int(float64(removed-added)/ratio))
	rep.Summary = summary
	rep.Elapsed = time.Since(start)
	if added >= removed {
		// Not tried again automatically before the part to compress
		// has clearly outgrown this summary (autoCompact).
		a.noGain = added
		err := &NoGainError{Replaced: cut - head, Report: rep}
		if c.Failed != nil {
			c.Failed(err)
		}
		return rep, err
	}
	a.noGain = 0
	a.history = kept
	a.fit.reset()
	return rep, nil
}

// compressible is where compression would cut the history (cutPoint),
// and the first message after the system prompt: history[head:cut] is
// what a summary would replace.
func (a *Agent) compressible(keep int) (cut, head int) {
	if len(a.history) > 0 && a.history[0].Role == ai.RoleSystem {
		head = 1
	}
	return cutPoint(a.history, keep), head
}

// historyBytes is the size of messages as the estimates count it.
func historyBytes(h []*ai.Message) int {
	n := 0
	for _, m := range h {
		n += messageSize(m)
	}
	return n
}

// compactionOrDefault is the configured compression, or the reference's
// defaults for an agent built without one (tests, facades without it).
func (a *Agent) compactionOrDefault() Compaction {
	if a.compaction != nil {
		return *a.compaction
	}
	return Compaction{Context: config.Default().Context}
}

// cutPoint is the index of the first message kept verbatim: the start of
// the keep-th question turn from the end. A question turn starts at a user
// message that mm did not write itself, so the kept part begins with a
// question and every tool result in it follows its call.
func cutPoint(h []*ai.Message, keep int) int {
	if keep < 1 {
		keep = 1
	}
	var starts []int
	for i, m := range h {
		if isQuestion(m) {
			starts = append(starts, i)
		}
	}
	if len(starts) <= keep {
		return 0
	}
	return starts[len(starts)-keep]
}

// isQuestion tells the user's questions from the user messages mm adds in
// a turn (a call cut by max_tokens, a call not run) and from the summary.
func isQuestion(m *ai.Message) bool {
	if m.Role != ai.RoleUser {
		return false
	}
	t := m.Text()
	return t != summaryMarker && !strings.HasPrefix(t, "[Your ") && !strings.HasPrefix(t, "[Tool call not run: ")
}

// summaryOverrides are the sampling keys the summary request changes:
// max_tokens, and reasoning switched off the way each server respects
// (a thinking model's reasoning would eat the summary's budget).
func summaryOverrides(c Compaction) map[string]any {
	o := map[string]any{"max_tokens": c.Context.SummaryMaxTokens}
	if c.LlamaCpp {
		kw := map[string]any{}
		if old, ok := c.Sampling["chat_template_kwargs"].(map[string]any); ok {
			for k, v := range old {
				kw[k] = v
			}
		}
		kw["enable_thinking"] = false
		o["chat_template_kwargs"] = kw
	}
	switch {
	case c.Provider == "ollama":
		// The only switch Ollama respects.
		o["reasoning_effort"] = "none"
	case c.Sampling["reasoning_effort"] != nil:
		// gpt-oss has no "off": the least it does.
		o["reasoning_effort"] = "low"
	}
	return o
}

// summarize makes the summary request under a watchdog twice as patient
// (the prompt is the whole history) and returns the summary's text.
func (a *Agent) summarize(ctx context.Context, ui UI, req *ai.ModelRequest, budget int) (string, error) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	wd := startWatchdog(a.opts.FirstToken, 2*a.opts.Watchdog, cancel)
	defer wd.stop()
	ctx, capture := llm.WithCapture(ctx)
	onChunk := func(_ context.Context, c *ai.ModelResponseChunk) error {
		switch v := c.Custom.(type) {
		case llm.KeepAlive:
			wd.keepAlive()
		case llm.Progress:
			if !v.Loading {
				wd.progress(v.Processed)
			}
			ui.Progress(v)
		}
		if len(c.Content) > 0 {
			wd.token()
		}
		return nil
	}
	resp, err := a.opts.Model.Generate(ctx, req, onChunk)
	if err != nil {
		var stop *StopError
		if cause := context.Cause(ctx); errors.As(cause, &stop) {
			return "", fmt.Errorf("compression failed: %s", stop.Msg)
		}
		if ctx.Err() != nil {
			return "", context.Cause(ctx)
		}
		return "", fmt.Errorf("compression failed: %s", strings.Trim(err.Error(), "[]"))
	}
	if full := capture.Response(); full != nil {
		resp = full
	}
	var text, reasoning strings.Builder
	for _, p := range resp.Message.Content {
		switch {
		case p.IsReasoning():
			reasoning.WriteString(p.Text)
		case p.IsText():
			text.WriteString(p.Text)
		}
	}
	summary := strings.TrimSpace(text.String())
	switch {
	case summary == "" && resp.FinishMessage == "length" && reasoning.Len() > 0:
		return "", fmt.Errorf("compression failed: the model reasoned until the limit (context.summaryMaxTokens: %d) without writing a summary — raise context.summaryMaxTokens", budget)
	case summary == "":
		return "", errors.New("compression failed: the model wrote no summary")
	case resp.FinishMessage == "length":
		summary += "\n[summary cut at context.summaryMaxTokens]"
	}
	return summary, nil
}

// autoCompact compresses the history before a question when
// context.enabled and the conversation is near the window. A failure is
// reported and the question still goes out (the window check refuses it
// if it cannot fit).
func (a *Agent) autoCompact(ctx context.Context, question string, ui UI) {
	c := a.compaction
	if c == nil || !c.Context.Enabled || !a.needsCompaction(ctx, c.Context, len(question)) {
		return
	}
	if a.noGain > 0 {
		// The last summary was no shorter than what it would have
		// replaced: a new one is asked for only once the part to
		// compress is a quarter larger than that summary, not before
		// every question.
		cut, head := a.compressible(c.Context.KeepLastTurns)
		if cut <= head || historyBytes(a.history[head:cut])*4 < a.noGain*5 {
			return
		}
	}
	// The summary is a model call, as long as a turn's: a kill -9 during
	// it must not lose the question, which is not in the history yet.
	if a.checkpoint != nil {
		h := append(slices.Clip(a.history), ai.NewUserTextMessage(question), ai.NewModelTextMessage(checkpointNote))
		a.checkpoint(h)
	}
	rep, err := a.compact(ctx, ui)
	var noGain *NoGainError
	switch {
	case errors.Is(err, ErrNothingToCompact), ctx.Err() != nil:
		// Nothing to do, or the turn was stopped: the question's own call
		// says so.
	case errors.As(err, &noGain):
		ui.Notice(strings.Trim(err.Error(), "[]") + " — the history is unchanged, and compressed again once it has grown")
	case err != nil:
		ui.Notice(strings.Trim(err.Error(), "[]") + " — the history is unchanged")
	case c.Context.ShowStats:
		ui.Notice(rep.Line())
	}
}

// needsCompaction: the estimated next prompt passes threshold % of the
// window; or, where the window is unknown (or not asked: the estimate is
// too low for any window), the history has maxMessages messages.
func (a *Agent) needsCompaction(ctx context.Context, cc config.ContextConfig, questionBytes int) bool {
	est := a.tokenEstimate() + questionBytes/4
	w := 0
	if a.window != nil && est > askBelow {
		w = a.window(ctx)
	}
	if w > 0 && est*100 >= cc.Threshold*w {
		return true
	}
	return w <= 0 && cc.MaxMessages > 0 && len(a.history) >= cc.MaxMessages
}

// tokenEstimate is the next prompt's size as best known, for the
// compression trigger and its report: the server's count of the last
// call plus what was added since, at the bytes per token that count
// measured; before any count, the ratio of the last count of this
// process (a compression or /new forgets the count, not the tokenizer),
// else 4 bytes a token. (The window check's estimate, window.go, is a
// lower bound instead.)
func (a *Agent) tokenEstimate() int {
	n, _ := a.tokenEstimateRatio()
	return n
}

// tokenEstimateRatio is tokenEstimate and the bytes per token it used.
func (a *Agent) tokenEstimateRatio() (int, float64) {
	toolBytes := 0
	if b, err := json.Marshal(a.opts.Tools.Definitions()); err == nil {
		toolBytes = len(b)
	}
	if a.fit.known > 0 && a.fit.at <= len(a.history) {
		counted := toolBytes + historyBytes(a.history[:a.fit.at])
		since := historyBytes(a.history[a.fit.at:])
		ratio := float64(counted) / float64(a.fit.known)
		ratio = max(2, min(ratio, bytesPerToken))
		a.ratio = ratio
		return a.fit.known + int(float64(since)/ratio), ratio
	}
	ratio := 4.0
	if a.ratio > 0 {
		ratio = a.ratio
	}
	return int(float64(toolBytes+historyBytes(a.history)) / ratio), ratio
}

// planPart is what the summary message adds for the plan: the plan is
// state, not history, and the plan tool's results it came from are among
// the messages the summary replaces, so its text as it stands follows
// the summary ("" without a plan).
func planPart(p *plan.Plan) string {
	text := p.Text()
	if text == "" {
		return ""
	}
	return "\n\n" + PlanAfterSummary + "\n" + text
}

// PlanAfterSummary heads the plan's text after a compression's summary.
const PlanAfterSummary = "[The plan, as it stands (the plan tool):]"
