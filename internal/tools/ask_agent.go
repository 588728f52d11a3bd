package tools

// ask_agent hands a task to another mm agent of mmConfigs and returns its
// answer. The agents themselves run in internal/ask (child `mm -acp`
// processes); this file is the tool as the model sees it, and the
// interfaces between the pool, the tool and the facades. The tool does
// not import internal/ask (which imports this package): the engine hands
// it the pool as an AgentAsker.

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/firebase/genkit/go/ai"
)

//go:embed ask_agent.md
var askAgentDescription string

const askAgentSchema = `{"type":"object","properties":{` +
	`"agent":{"type":"string","description":"The agent's name, from the list."},` +
	`"prompt":{"type":"string","description":"The task, complete and self-contained."},` +
	`"with_context":{"type":"boolean","description":"Send this conversation (questions, answers, tool calls; no tool outputs) before the prompt. Default false."}},` +
	`"required":["agent","prompt"]}`

// AgentInfo is one agent of mmConfigs as the tool and the facades show it.
type AgentInfo struct {
	Name string
	// Role is the entry's description, else the agent file's acp.title
	// when it is not the built-in one, else "(no description)".
	Role string
	// Provider and Model are what the agent's file says (what it will
	// run), "" when its file cannot be read.
	Provider, Model string
	// Bash is the file's bashTool (false when it cannot be read): mm
	// --ask warns when the child will find no bash to declare.
	Bash bool
	// Title is the file's acp.title, "" when empty or the built-in one:
	// the window names the agent by it while it works.
	Title string
}

// AgentRequest is one ask.
type AgentRequest struct {
	Agent, Prompt string
	// History, when not nil, is the conversation sent before the prompt
	// (with_context, /ask-with-context-<name>).
	History []*ai.Message
	// Cwd is the working directory of the asking turn: the asked agent's
	// session cwd.
	Cwd string
}

// AgentReply is how an ask ended.
type AgentReply struct {
	// Text is what the model reads: the answer, or one of the
	// reference's error texts (a stopped run: what was answered, then the
	// stop text).
	Text string
	// Answer is what the agent answered (possibly partial).
	Answer string
	// Failed says Text is not a whole answer.
	Failed bool
	// Replaced says a postAsk hook replaced the answer: Text is the
	// replacement.
	Replaced bool
	// Exit is the exit code of `mm --ask` for this ending (the codes of
	// -p: 0 answered, 1 the agent's configuration, 3 failed, 4 stopped,
	// 130 interrupted).
	Exit int
}

// AgentAsker asks the agents of mmConfigs: internal/ask's pool.
type AgentAsker interface {
	// Agents lists the agents, sorted by name.
	Agents() []AgentInfo
	// Ask runs one ask in a fresh session of the agent. What the agent
	// does is shown through the facade in ctx (FacadeFrom) when it is an
	// AgentWatcher; its questions go to the facade's UserAsker.
	Ask(ctx context.Context, req AgentRequest) AgentReply
	// Close stops the agents' processes.
	Close()
}

// AgentCall is one tool call of an asked agent, as a facade shows it.
type AgentCall struct {
	// ID is the asked agent's own id for the call (unique in its
	// session, not in this one).
	ID string
	// Title is the asked agent's title of the call (`Run `ls``).
	Title string
	// Kind is its ACP kind.
	Kind Kind
	// Whole is, in a permission request, the text the request carries
	// besides its title (mm's bash: the whole command, which the title
	// cuts at 120 characters): a prompt shows it, so the start of a long
	// command cannot stand for the rest.
	Whole string
	// Changes are, in a permission request, the file changes the call
	// would make (the request's diffs): a prompt shows them, as it
	// previews this agent's own.
	Changes []Diff
	// Output is set at the end (the text the asked agent reported);
	// Failed says it failed.
	Output string
	Failed bool
}

// Permission answers to an asked agent's request (the ACP option kinds).
const (
	AllowOnce    = "allow_once"
	AllowAlways  = "allow_always"
	RejectOnce   = "reject_once"
	RejectAlways = "reject_always"
)

// AgentWatcher is a facade that shows an asked agent at work and can put
// its permission requests to its user. Every method is called with the
// agent's name; the facade titles its calls `<agent> · <title>` and
// prefixes its requests `<agent> asks:`.
type AgentWatcher interface {
	AgentText(agent, delta string)
	AgentThinking(agent, delta string)
	AgentToolStart(agent string, c *AgentCall)
	AgentToolEnd(agent string, c *AgentCall)
	// AgentPermission asks this agent's user whether the asked agent's
	// call may run; it returns one of AllowOnce, AllowAlways, RejectOnce,
	// RejectAlways (a facade where nobody can answer refuses).
	AgentPermission(ctx context.Context, agent string, c *AgentCall) string
}

// AgentProgress is a facade that passes on an asked agent's signs of life
// that show nothing (its prompt read, its hidden reasoning): an asked mm
// -acp tells the agent that asks it, whose watch counts them.
type AgentProgress interface {
	AgentProgress(agent string)
}

type historyKey struct{}

// WithHistory puts the conversation at the start of the turn in ctx (the
// agent does, for ask_agent's with_context).
func WithHistory(ctx context.Context, msgs []*ai.Message) context.Context {
	return context.WithValue(ctx, historyKey{}, msgs)
}

// HistoryFrom is the conversation WithHistory put in ctx, nil when none.
func HistoryFrom(ctx context.Context) []*ai.Message {
	m, _ := ctx.Value(historyKey{}).([]*ai.Message)
	return m
}

// AskAgentOptions configures ask_agent.
type AskAgentOptions struct {
	Asker AgentAsker
	// Dir is the working directory of the asking conversation.
	Dir string
}

type askAgentArgs struct {
	Agent       string    `json:"agent"`
	Prompt      string    `json:"prompt"`
	WithContext fetchBool `json:"with_context"`
}

// AskAgentName is the tool's name.
const AskAgentName = "ask_agent"

// NewAskAgent returns ask_agent, or nil when there is no agent to ask. Its
// description lists the agents: it is in every request, so it stays
// short, and its order is fixed (sorted by name) so that the request
// prefix does not change from turn to turn.
func NewAskAgent(o AskAgentOptions) *Tool {
	if o.Asker == nil {
		return nil
	}
	agents := o.Asker.Agents()
	if len(agents) == 0 {
		return nil
	}
	var b strings.Builder
	b.WriteString(strings.TrimSpace(askAgentDescription))
	b.WriteString("\nAgents:")
	for _, a := range agents {
		fmt.Fprintf(&b, "\n %s — %s", a.Name, oneLineRole(a.Role))
	}
	byName := map[string]AgentInfo{}
	for _, a := range agents {
		byName[a.Name] = a
	}
	run := func(ctx context.Context, args json.RawMessage) (string, bool) {
		var a askAgentArgs
		if err := json.Unmarshal(args, &a); err != nil {
			return fmt.Sprintf("[ask_agent: cannot read the arguments: %v]", err), true
		}
		req := AgentRequest{Agent: strings.TrimSpace(a.Agent), Prompt: a.Prompt, Cwd: o.Dir}
		if a.WithContext {
			req.History = HistoryFrom(ctx)
			if req.History == nil {
				req.History = []*ai.Message{}
			}
		}
		r := o.Asker.Ask(ctx, req)
		return r.Text, r.Failed
	}
	return &Tool{
		Name:        AskAgentName,
		Description: b.String(),
		Schema:      MustSchema(askAgentSchema),
		SchemaText:  askAgentSchema,
		Kind:        KindOther,
		// Asking another agent is submitted like bash: the asked agent
		// runs commands and writes files.
		Mutates: func(json.RawMessage) bool { return true },
		Summary: func(args json.RawMessage) string {
			var a askAgentArgs
			_ = json.Unmarshal(args, &a)
			name := strings.TrimSpace(a.Agent)
			first, _, _ := strings.Cut(strings.TrimSpace(a.Prompt), "\n")
			if info, ok := byName[name]; ok && info.Model != "" {
				return fmt.Sprintf("%s (%s/%s) — %s", name, info.Provider, info.Model, first)
			}
			return fmt.Sprintf("%s — %s", name, first)
		},
		// The summary names the agent and the task's first line: the
		// permission prompt shows the whole task, and whether the
		// conversation goes with it, since the asked agent may run its
		// calls unasked (its entry's yolo).
		Preview: func(args json.RawMessage) string {
			var a askAgentArgs
			if json.Unmarshal(args, &a) != nil {
				return ""
			}
			p := strings.TrimSpace(a.Prompt)
			if !strings.Contains(p, "\n") && !bool(a.WithContext) {
				return "" // the summary shows it all
			}
			if bool(a.WithContext) {
				p += "\n(with this conversation: its questions, answers and tool calls)"
			}
			return p
		},
		Checked: run,
		Run: func(ctx context.Context, args json.RawMessage) string {
			out, _ := run(ctx, args)
			return out
		},
	}
}

// AskedAgent is the agent a call of ask_agent names ("" when unreadable).
func AskedAgent(args json.RawMessage) string {
	var a askAgentArgs
	_ = json.Unmarshal(args, &a)
	return strings.TrimSpace(a.Agent)
}

// AnsweredLine is what the editor and the terminal show as the output of
// an ask_agent call that answered: the answer has scrolled already. output
// is the call's output, cut to maxOutput: N is the whole answer's length.
// replaced says a postAsk hook replaced the answer (N is then the
// replacement's length).
func AnsweredLine(agent, output string, replaced bool) string {
	if replaced {
		return fmt.Sprintf("%s answered; a hook replaced the answer (%d characters)", agent, UntruncatedLen(output))
	}
	return fmt.Sprintf("%s answered (%d characters)", agent, UntruncatedLen(output))
}

type replacedKey struct{}

// WithReplacedMark gives ctx a mark MarkReplaced sets: the agent loop
// learns from it that a hook replaced the answer of the ask_agent call
// that ran in ctx (only when hooks are configured).
func WithReplacedMark(ctx context.Context, mark *bool) context.Context {
	return context.WithValue(ctx, replacedKey{}, mark)
}

// MarkReplaced sets ctx's mark, if it has one.
func MarkReplaced(ctx context.Context) {
	if m, _ := ctx.Value(replacedKey{}).(*bool); m != nil {
		*m = true
	}
}

func oneLineRole(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
