package oneshot

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"unicode/utf8"

	"mm/internal/agent"
	"mm/internal/llm"
	"mm/internal/termsafe"
)

// Events writes `mm -p --json`: one JSON object per line, each with a
// "type" (docs/scripting.md lists them field by field). The last line is
// always the result.
type Events struct {
	mu sync.Mutex
	w  io.Writer
}

// NewEvents writes the events to w (stdout).
func NewEvents(w io.Writer) *Events { return &Events{w: w} }

// UsageEvent is the token usage of the turn, as the server reported it
// (the usage event, and the usage field of the result, without a type).
type UsageEvent struct {
	Type    string `json:"type,omitempty"`
	Input   int    `json:"input_tokens"`
	Output  int    `json:"output_tokens"`
	Cached  int    `json:"cached_tokens"`
	Context int    `json:"context_tokens"`
}

// ResultEvent is the last line of every run.
type ResultEvent struct {
	Type     string `json:"type"`
	ExitCode int    `json:"exit_code"`
	Reason   string `json:"reason"`
	// Error is the message mm also wrote on stderr ("" when answered).
	Error      string      `json:"error,omitempty"`
	Answer     string      `json:"answer"`
	DurationMs int64       `json:"duration_ms"`
	ModelCalls int         `json:"model_calls"`
	ToolCalls  int         `json:"tool_calls"`
	Usage      *UsageEvent `json:"usage,omitempty"`
}

// emit writes one event. encoding/json escapes the C0 controls; inert
// escapes the rest a terminal could interpret, so that --json printed to a
// terminal is as inert as the text output, while a parser reads the exact
// text.
func (e *Events) emit(v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		// Only a value that cannot be encoded gets here; say so rather
		// than break the one-object-per-line promise.
		b.Reset()
		msg, _ := json.Marshal("an event could not be encoded: " + err.Error())
		fmt.Fprintf(&b, "{\"type\":\"notice\",\"message\":%s}\n", msg)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	e.w.Write(inert(b.Bytes()))
}

// Result writes the last line. res may be nil (mm stopped before the turn).
func (e *Events) Result(code int, msg string, res *agent.Result) {
	r := ResultEvent{Type: "result", ExitCode: code, Reason: Reason(code), Error: msg}
	if res != nil {
		if code == ExitOK {
			r.Answer = res.Text
		}
		r.DurationMs = res.Elapsed.Milliseconds()
		r.ModelCalls = res.ModelCalls
		r.ToolCalls = len(res.Calls)
		r.Usage = usageOf(res)
	}
	e.emit(r)
}

func usageOf(res *agent.Result) *UsageEvent {
	return &UsageEvent{Input: res.Usage.Input, Output: res.Usage.Output, Cached: res.Usage.Cached, Context: res.Usage.Context}
}

// JSONOptions is what the start event says.
type JSONOptions struct {
	Model, Provider, Cwd string
	Yolo                 bool
	// Warnings are the start-up warnings, also written on stderr.
	Warnings []string
	// Done, when set, is told how the turn ended (a session saves it).
	Done func(error)
}

// The events, "type" first. Field by field in docs/scripting.md.
type (
	startEvent struct {
		Type     string `json:"type"`
		Model    string `json:"model"`
		Provider string `json:"provider"`
		Cwd      string `json:"cwd"`
		Yolo     bool   `json:"yolo"`
	}
	messageEvent struct { // warning, notice
		Type    string `json:"type"`
		Message string `json:"message"`
	}
	textEvent struct { // text, thinking, answer
		Type string `json:"type"`
		Text string `json:"text"`
	}
	progressEvent struct {
		Type      string `json:"type"`
		Processed int    `json:"processed"`
		Total     int    `json:"total"`
		Cache     int    `json:"cache"`
	}
	toolStartEvent struct {
		Type      string   `json:"type"`
		ID        string   `json:"id"`
		Name      string   `json:"name"`
		Arguments any      `json:"arguments"`
		Summary   string   `json:"summary"`
		Kind      string   `json:"kind"`
		Repairs   []string `json:"repairs,omitempty"`
	}
	permissionEvent struct {
		Type     string `json:"type"`
		ID       string `json:"id"`
		Name     string `json:"name"`
		Summary  string `json:"summary"`
		Decision string `json:"decision"`
		Reason   string `json:"reason"`
	}
	toolEndEvent struct {
		Type       string `json:"type"`
		ID         string `json:"id"`
		Name       string `json:"name"`
		Output     string `json:"output"`
		Refused    bool   `json:"refused"`
		DurationMs int64  `json:"duration_ms"`
	}
)

// Warning writes a start-up warning found before the run (the run's own
// are in JSONOptions).
func (e *Events) Warning(msg string) { e.emit(messageEvent{"warning", msg}) }

// RunJSON asks the question with every event on ev, the errors also on
// errw, and returns the exit code.
func RunJSON(ctx context.Context, a *agent.Agent, question string, ev *Events, errw io.Writer, opts JSONOptions) int {
	ev.emit(startEvent{"start", opts.Model, opts.Provider, opts.Cwd, opts.Yolo})
	for _, w := range opts.Warnings {
		ev.emit(messageEvent{"warning", w})
	}
	res, err := a.Ask(ctx, question, &jsonUI{ev: ev})
	if opts.Done != nil {
		opts.Done(err)
	}
	code, msg := Describe(err)
	if msg != "" {
		fmt.Fprintln(errw, msg)
	}
	if res != nil {
		u := usageOf(res)
		u.Type = "usage"
		ev.emit(u)
		if err == nil {
			ev.emit(textEvent{"answer", res.Text})
		}
	}
	ev.Result(code, msg, res)
	return code
}

// jsonUI turns the agent's events into lines.
type jsonUI struct{ ev *Events }

func (j *jsonUI) Text(s string) { j.ev.emit(textEvent{"text", s}) }
func (j *jsonUI) Thinking(s string) {
	if s != "" {
		j.ev.emit(textEvent{"thinking", s})
	}
}
func (j *jsonUI) Progress(p llm.Progress) {
	if p.Loading {
		return // the notice that the server loads its model says it once
	}
	j.ev.emit(progressEvent{"progress", p.Processed, p.Total, p.Cache})
}
func (j *jsonUI) Composing(string, int) {}

func (j *jsonUI) ToolStart(c *agent.Call) {
	j.ev.emit(toolStartEvent{"tool_start", c.ID, c.Name, arguments(c.Args), c.Summary, string(c.Kind), c.Repairs})
}

func (j *jsonUI) ToolEnd(c *agent.Call) {
	j.ev.emit(toolEndEvent{"tool_end", c.ID, c.Name, c.Output, c.Refused, c.Duration.Milliseconds()})
}

func (j *jsonUI) Notice(msg string) { j.ev.emit(messageEvent{"notice", msg}) }

func (j *jsonUI) Permission(_ context.Context, c *agent.Call) agent.Decision {
	_, why := refusal(c)
	j.ev.emit(permissionEvent{"permission", c.ID, c.Name, c.Summary, "refused", why})
	return agent.Refuse
}

// arguments is a call's arguments as JSON when they are (the recovery
// layer repairs them), else as the string the model wrote.
func arguments(raw json.RawMessage) any {
	if len(raw) == 0 {
		return map[string]any{}
	}
	if json.Valid(raw) {
		return raw
	}
	return string(raw)
}

// inert escapes, in encoded JSON, DEL, the C1 controls and the Unicode
// bidirectional controls as \uXXXX. They can only be inside strings, where
// the escape means the same character.
func inert(b []byte) []byte {
	var out []byte
	last := 0
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x7f {
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if c == 0x7f || (r >= 0x80 && r <= 0x9f) || termsafe.BidiControl(r) {
			out = append(out, b[last:i]...)
			out = fmt.Appendf(out, `\u%04x`, r)
			last = i + n
		}
		i += n
	}
	if out == nil {
		return b
	}
	return append(out, b[last:]...)
}
