// Package hooks runs the commands of the hooks key at points of a turn
// (docs/hooks.md): before and after a tool call, before and after an
// ask of another agent, before a question is sent, and when a turn is
// about to end. A hook is `sh -c <command>` in the project directory, in
// its own process group (procguard), given one JSON object on stdin; its
// exit status and output decide what happens next.
//
// A Runner is nil when no hook is configured: every method is nil-safe
// and returns at once, so that mm without hooks pays nothing.
package hooks

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path"
	"strings"
	"sync"
	"time"

	"mm/internal/config"
	"mm/internal/procguard"
	"mm/internal/textcut"
)

// The events.
const (
	PreTool    = "preTool"
	PostTool   = "postTool"
	PreAsk     = "preAsk"
	PostAsk    = "postAsk"
	UserPrompt = "userPrompt"
	Stop       = "stop"
)

// Input is the JSON object a hook reads on stdin. The fields an event
// does not have are left out.
type Input struct {
	Event     string          `json:"event"`
	Tool      string          `json:"tool,omitempty"`
	Agent     string          `json:"agent,omitempty"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
	Prompt    *string         `json:"prompt,omitempty"`
	Output    *string         `json:"output,omitempty"`
	Answer    *string         `json:"answer,omitempty"`
	Cwd       string          `json:"cwd"`
	Session   string          `json:"session"`
	AgentName string          `json:"agentName"`
}

// Result is what the hooks of one event decided.
type Result struct {
	// Denied says a hook refused (exit 2, or {"deny": …}); Reason is its
	// reason.
	Denied bool
	Reason string
	// Replaced says Text replaces the event's text (the output, the
	// answer, the question).
	Replaced bool
	Text     string
	// Context is what the hooks added, in order, joined by newlines.
	Context string
	// Continue, for stop, is the reason to go on ("" = the turn ends).
	Continue string
}

// Runner runs one agent's hooks.
type Runner struct {
	hooks map[string][]config.Hook
	// Dir is where the commands run; AgentName the agent's acp.name.
	Dir, AgentName string
	// env is the commands' environment (nil: mm's own).
	env []string

	mu      sync.Mutex
	session func() string
}

// New returns the runner of h, nil when h configures no hook. env is the
// commands' environment (the bash tool's: mm's without its API keys).
func New(h config.HooksConfig, dir, agentName string, env []string) *Runner {
	if h.Empty() {
		return nil
	}
	r := &Runner{hooks: map[string][]config.Hook{}, Dir: dir, AgentName: agentName, env: env}
	for _, ev := range config.HookEvents {
		if l := h.List(ev); len(l) > 0 {
			r.hooks[ev] = l
		}
	}
	return r
}

// SetSession sets what names the session the hooks' input carries (the
// saved session's id; "" before the first save or without sessions).
func (r *Runner) SetSession(id func() string) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.session = id
	r.mu.Unlock()
}

// Has says a hook of event matches name (a tool or an agent; "" for the
// events that name none).
func (r *Runner) Has(event, name string) bool {
	if r == nil {
		return false
	}
	for _, h := range r.hooks[event] {
		if applies(h, event, name) {
			return true
		}
	}
	return false
}

// applies says h runs for name at event: userPrompt and stop name no
// tool nor agent, so their match is not read (docs/configuration.md) —
// matched against "" it would silently keep the hook from ever running.
func applies(h config.Hook, event, name string) bool {
	return event == UserPrompt || event == Stop || matches(h.Match, name)
}

// matches says the glob pattern covers name: "" covers every one.
func matches(pattern, name string) bool {
	if pattern == "" || pattern == "*" {
		return true
	}
	ok, _ := path.Match(pattern, name)
	return ok
}

// text is the event's text a replacement chains through: each hook reads
// what the one before it left.
func (in *Input) text() *string {
	switch in.Event {
	case PostTool:
		return in.Output
	case PostAsk, Stop:
		return in.Answer
	case UserPrompt, PreAsk:
		return in.Prompt
	}
	return nil
}

// Decision is what one hook decided, for a facade that reports it
// (Reporter: the --json events).
type Decision struct {
	// Event is the hook's event, Name the tool or agent ("" for the
	// events that name none), Command the hook's command.
	Event, Name, Command string
	// Decision is "deny", "replace", "context" or "continue"; Text is
	// the reason, the replacement, the context.
	Decision, Text string
}

// Reporter is a facade told of each hook's decision.
type Reporter interface{ HookDecided(Decision) }

// Noticer is a facade that shows a notice line.
type Noticer interface{ Notice(string) }

// Run runs the hooks of in.Event that match name, in order, until one
// denies. When ui is a Noticer it gets a line for each hook that failed
// (its exit code, a timeout, output that is not the JSON of a result):
// the event goes on; when it is a Reporter, each decision.
func (r *Runner) Run(ctx context.Context, name string, in Input, ui any) Result {
	var res Result
	if r == nil {
		return res
	}
	in.Cwd, in.AgentName = r.Dir, r.AgentName
	r.mu.Lock()
	session := r.session
	r.mu.Unlock()
	if session != nil {
		in.Session = session()
	}
	notice, _ := ui.(Noticer)
	report, _ := ui.(Reporter)
	var contexts []string
	for _, h := range r.hooks[in.Event] {
		if !applies(h, in.Event, name) {
			continue
		}
		out, msg := r.runOne(ctx, h, &in)
		if ctx.Err() != nil {
			// The turn was stopped: the hook was killed, nobody decided.
			break
		}
		if msg != "" {
			if notice != nil {
				notice.Notice(fmt.Sprintf("hook %s (%s) %s — ignored", in.Event, shownCommand(h.Command), msg))
			}
			continue
		}
		// A field its event has no use for is said, not dropped in
		// silence: the hook's author meant something mm will not do.
		for _, f := range out.unused(in.Event) {
			if notice != nil {
				notice.Notice(fmt.Sprintf("hook %s (%s) printed %q, which a %s hook cannot use — ignored", in.Event, shownCommand(h.Command), f, in.Event))
			}
		}
		if report != nil {
			for _, d := range []struct {
				what string
				text *string
			}{{"deny", out.deny}, {"replace", out.replace}, {"context", out.context}, {"continue", out.cont}} {
				if d.text != nil {
					report.HookDecided(Decision{Event: in.Event, Name: name, Command: h.Command, Decision: d.what, Text: *d.text})
				}
			}
		}
		if out.deny != nil {
			res.Denied, res.Reason = true, *out.deny
			break
		}
		if out.replace != nil {
			res.Replaced, res.Text = true, *out.replace
			if t := in.text(); t != nil {
				s := *out.replace
				*t = s
			}
		}
		if out.context != nil {
			contexts = append(contexts, *out.context)
		}
		if out.cont != nil && res.Continue == "" {
			res.Continue = *out.cont
		}
	}
	res.Context = strings.Join(contexts, "\n")
	return res
}

// shownCommand is a hook's command in a notice: one line, cut.
func shownCommand(cmd string) string {
	cmd = strings.Join(strings.Fields(cmd), " ")
	if cut := textcut.FirstRunes(cmd, 60); cut != cmd {
		return cut + "…"
	}
	return cmd
}

// MaxReason is the most characters of a deny reason kept.
const MaxReason = 500

// maxOutput bounds what mm keeps of a hook's stdout and of its stderr.
const maxOutput = 1 << 20

// reply is one hook's decision.
type reply struct {
	deny, replace, context, cont *string
}

// unused clears the fields of r that event has no use for (continue
// outside stop; replace and context at stop) and names them.
func (r *reply) unused(event string) []string {
	var names []string
	drop := func(name string, f **string) {
		if *f != nil {
			names = append(names, name)
			*f = nil
		}
	}
	if event == Stop {
		drop("replace", &r.replace)
		drop("context", &r.context)
	} else {
		drop("continue", &r.cont)
	}
	return names
}

// runOne runs h; msg says why its result is ignored ("" when it has
// one).
func (r *Runner) runOne(ctx context.Context, h config.Hook, in *Input) (reply, string) {
	stdin, err := json.Marshal(in)
	if err != nil {
		return reply{}, "could not be given its input: " + err.Error()
	}
	timeout := h.Timeout
	if timeout <= 0 {
		timeout = config.DefaultHookTimeout
	}
	code, stdout, stderr, err := run(ctx, h.Command, r.Dir, r.env, stdin, timeout)
	switch {
	case errors.Is(err, errTimeout):
		return reply{}, "timed out after " + config.FormatDuration(timeout) + " and was killed"
	case err != nil:
		return reply{}, "could not run: " + err.Error()
	case code == 2:
		reason := firstLine(stderr)
		if reason == "" {
			reason = "no reason given"
		}
		return reply{deny: &reason}, ""
	case code < 0:
		return reply{}, "ended by a signal (it crashed, or was killed)"
	case code != 0:
		msg := fmt.Sprintf("exited with status %d", code)
		if l := firstLine(stderr); l != "" {
			msg += ": " + l
		}
		return reply{}, msg
	}
	out := bytes.TrimSpace(stdout)
	if len(out) == 0 {
		return reply{}, ""
	}
	var fields map[string]json.RawMessage
	if json.Unmarshal(out, &fields) != nil {
		return reply{}, "printed something that is not one JSON object"
	}
	var rep reply
	for k, raw := range fields {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return reply{}, fmt.Sprintf("printed %q with a value that is not a string", k)
		}
		switch k {
		case "deny":
			if s = cutReason(s); s == "" {
				s = "no reason given"
			}
			rep.deny = &s
		case "replace":
			rep.replace = &s
		case "context":
			rep.context = &s
		case "continue":
			rep.cont = &s
		default:
			return reply{}, fmt.Sprintf("printed an unknown field %q (deny, replace, context, continue)", k)
		}
	}
	return rep, ""
}

// firstLine is the first non-empty line of b, cut to MaxReason
// characters.
func firstLine(b []byte) string {
	for _, l := range strings.Split(string(b), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			return cutReason(l)
		}
	}
	return ""
}

func cutReason(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexAny(s, "\r\n"); i >= 0 {
		s = strings.TrimSpace(s[:i])
	}
	return textcut.FirstRunes(s, MaxReason)
}

var errTimeout = errors.New("timeout")

// capped keeps the first maxOutput bytes written and drops the rest (a
// hook that prints without end must not fill mm's memory).
type capped struct{ bytes.Buffer }

func (c *capped) Write(p []byte) (int, error) {
	if room := maxOutput - c.Len(); room > 0 {
		c.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// run runs command with sh -c in dir, stdin given, in its own process
// group tied to mm; at timeout (or when ctx ends) the group and what
// left it (the call's MM_CALL cookie) are killed.
func run(ctx context.Context, command, dir string, env []string, stdin []byte, timeout time.Duration) (code int, stdout, stderr []byte, err error) {
	cmd := exec.Command("sh", "-c", command)
	cmd.Dir = dir
	// The cookie finds what leaves the group (setsid) at a timeout.
	cookie := procguard.NewCookie()
	if env == nil {
		env = os.Environ()
	}
	cmd.Env = append(env[:len(env):len(env)], cookie)
	cmd.Stdin = bytes.NewReader(stdin)
	var out, errb capped
	cmd.Stdout, cmd.Stderr = &out, &errb
	// A child left running with the hook's stdout would keep Wait
	// waiting: its pipes are closed this long after the hook exits.
	cmd.WaitDelay = time.Second
	procguard.Tie(cmd)
	// No controlling terminal, as for bash: what a hook writes to
	// /dev/tty would reach the screen past the sanitiser, and one that
	// reads it would stop as a background job until its timeout.
	procguard.NoTerminal(cmd)
	exited := make(chan struct{})
	var waitErr error
	// Taken before the start: the time to the end is then never shorter
	// than Wait's own (its delay counts from the exit), and a wait that
	// lasted the delay is always seen (a start slow under load made it
	// look shorter, and a denying hook's leftover child survived).
	started := time.Now()
	if err := procguard.StartTied(cmd, exited, func(e error) { waitErr = e }); err != nil {
		return 0, nil, nil, err
	}
	pgid := cmd.Process.Pid
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	timedOut := false
	select {
	case <-exited:
	case <-timer.C:
		// A hook that exited in time is not late because a child it left
		// holds its output open: Wait returns within its delay, and the
		// sweep below takes the child.
		if !procguard.Exited(pgid) {
			timedOut = true
			break
		}
		select {
		case <-exited:
		case <-ctx.Done():
			timedOut = true
		}
	case <-ctx.Done():
		timedOut = true
	}
	if timedOut {
		procguard.KillGroup(pgid)
		procguard.Sweep(pgid, cookie, nil)
		<-exited
		if ctx.Err() != nil {
			return 0, nil, nil, ctx.Err()
		}
		return 0, nil, nil, errTimeout
	}
	// What the hook left in its group goes with it; when something held
	// its output open past its exit (a child in the background, perhaps
	// out of the group), what carries its cookie too. Wait reports
	// ErrWaitDelay only for a hook that exited 0: one that denied (exit
	// 2) or failed says nothing of its pipes, so a wait as long as the
	// delay sweeps too (a hook that ran that long can afford the scan).
	procguard.KillGroup(pgid)
	if errors.Is(waitErr, exec.ErrWaitDelay) || time.Since(started) >= cmd.WaitDelay {
		procguard.Sweep(pgid, cookie, nil)
	}
	var ee *exec.ExitError
	if errors.As(waitErr, &ee) {
		return ee.ExitCode(), out.Bytes(), errb.Bytes(), nil
	}
	if waitErr != nil && !errors.Is(waitErr, exec.ErrWaitDelay) {
		return 0, nil, nil, waitErr
	}
	return 0, out.Bytes(), errb.Bytes(), nil
}
