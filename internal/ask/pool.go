// Package ask runs the other mm agents of mmConfigs: each is a child
// `mm -acp -config PATH`, started on first use and reused, driven with
// the client side of github.com/coder/acp-go-sdk. Every ask is a fresh
// session of the child in the asking turn's working directory. What the
// child does is shown through the asking turn's facade (a
// tools.AgentWatcher), its permission requests go to that facade's user,
// its questions to the facade's tools.UserAsker.
//
// Children never outlive mm: each is in a process group of its own with a
// parent-death signal, its stdin is mm's pipe (a child `mm -acp` exits
// when it closes), and Close kills what is left.
package ask

import (
	"context"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/config"
	"mm/internal/tools"
)

// DepthVar counts how deep asks are nested: unset in the agent a user
// runs, 1 in an agent it asks, 2 in one that agent asks.
const DepthVar = "MM_ASK_DEPTH"

// MaxDepth is the deepest an asked agent may be: one at depth MaxDepth
// cannot ask further.
const MaxDepth = 2

// Options configure a Pool.
type Options struct {
	// Config is the asking agent's (mmConfigs, yolo, maxOutput,
	// watchdogTimeout).
	Config *config.Config
	// Binary is the mm to run ("" = this executable).
	Binary string
	// Getenv reads this process's environment (nil = os.Getenv): the
	// depth.
	Getenv func(string) string
}

// Pool holds the children of one mm process.
type Pool struct {
	opts    Options
	agents  []tools.AgentInfo
	entries map[string]config.MMConfig
	// firstToken is each agent's firstTokenTimeout (its file's): the
	// ask's watch allows it while the agent reads a prompt.
	firstToken map[string]time.Duration
	depth      int

	mu       sync.Mutex
	children map[string]*child
	starting map[string]chan struct{}
	closed   bool
}

// New returns the pool of cfg's mmConfigs; nothing is started yet. Each
// agent's file is read once for its role, provider and model.
func New(opts Options) *Pool {
	if opts.Getenv == nil {
		opts.Getenv = os.Getenv
	}
	p := &Pool{opts: opts, entries: map[string]config.MMConfig{}, firstToken: map[string]time.Duration{}, children: map[string]*child{}, starting: map[string]chan struct{}{}}
	p.depth, _ = strconv.Atoi(strings.TrimSpace(opts.Getenv(DepthVar)))
	for name, e := range opts.Config.MMConfigs {
		p.entries[name] = e
		info, first := describe(name, e)
		p.agents = append(p.agents, info)
		p.firstToken[name] = first
	}
	sort.Slice(p.agents, func(i, j int) bool { return p.agents[i].Name < p.agents[j].Name })
	return p
}

// describe reads an agent's file (alone: this process's environment
// overrides are not the child's) for what the tool and the facades show,
// and its firstTokenTimeout (the built-in one when the file cannot be
// read: asking that agent then fails anyway).
func describe(name string, e config.MMConfig) (tools.AgentInfo, time.Duration) {
	info := tools.AgentInfo{Name: name, Role: strings.TrimSpace(e.Description)}
	// Only a regular file is read: a device such as /dev/zero would be
	// read for ever, at mm's start (asking it then fails in the child).
	var cfg *config.Config
	fi, err := os.Stat(e.Path)
	if err == nil && fi.Mode().IsRegular() {
		cfg, err = config.Load(e.Path, func(string) string { return "" })
	} else if err == nil {
		err = fmt.Errorf("%s is not a file", e.Path)
	}
	first := config.Default().EffectiveFirstTokenTimeout()
	if err == nil {
		first = cfg.EffectiveFirstTokenTimeout()
		info.Provider, info.Model, info.Bash = cfg.Provider, cfg.Model, cfg.BashTool
		if !cfg.ModelSet {
			// The child names the model its server serves when its file
			// names none (engine.Start): the built-in default shown
			// here could be wrong, so no name is shown.
			info.Model = ""
		}
		if cfg.ACP.Title != "" && cfg.ACP.Title != config.DefaultACPTitle {
			info.Title = strings.TrimSpace(cfg.ACP.Title)
		}
		if info.Role == "" && cfg.ACP.Title != "" && cfg.ACP.Title != config.DefaultACPTitle {
			info.Role = cfg.ACP.Title
		}
	}
	if info.Role == "" {
		info.Role = "(no description)"
	}
	return info, first
}

// Agents lists the agents, sorted by name.
func (p *Pool) Agents() []tools.AgentInfo { return p.agents }

// Names are the agents' names, sorted.
func (p *Pool) Names() []string {
	var names []string
	for _, a := range p.agents {
		names = append(names, a.Name)
	}
	return names
}

// Info is one agent's description, false when there is none by that name.
func (p *Pool) Info(name string) (tools.AgentInfo, bool) {
	for _, a := range p.agents {
		if a.Name == name {
			return a, true
		}
	}
	return tools.AgentInfo{}, false
}

// yolo is how the asked agent's calls are decided: its entry's yolo when
// set, else this agent's.
func (p *Pool) yolo(name string) bool {
	if y := p.entries[name].Yolo; y != nil {
		return *y
	}
	return p.opts.Config.Yolo
}

// The reference's error texts.
func unknownAgent(name string, names []string) string {
	return fmt.Sprintf("[ask_agent: unknown agent %s — agents: %s]", strconv.Quote(name), strings.Join(names, ", "))
}
func emptyPrompt(name string) string {
	return fmt.Sprintf("[ask_agent: the prompt is empty — say what %s must do]", name)
}
func failed(name, reason string) string {
	return fmt.Sprintf("[ask_agent: %s failed: %s]", name, reason)
}
func noAnswer(name string) string { return fmt.Sprintf("[ask_agent: %s gave no answer]", name) }
func stopped(name, reason string) string {
	return fmt.Sprintf("[ask_agent: %s stopped before finishing: %s]", name, reason)
}

// tooDeep is the depth error. The reference names it without giving its
// text: this one is mm's.
func tooDeep(name string) string {
	return fmt.Sprintf("[ask_agent: %s cannot be asked: this agent was itself asked by another, %d levels deep (%s), the most there can be — do the task yourself]", name, MaxDepth, DepthVar)
}

// Exit codes of mm --ask (those of -p).
const (
	exitOK       = 0
	exitConfig   = 1
	exitUsage    = 2
	exitEngine   = 3
	exitStopped  = 4
	exitCanceled = 130
)

// Ask runs one ask to its end.
func (p *Pool) Ask(ctx context.Context, req tools.AgentRequest) tools.AgentReply {
	name := req.Agent
	if _, ok := p.entries[name]; !ok {
		return tools.AgentReply{Text: unknownAgent(name, p.Names()), Failed: true, Exit: exitUsage}
	}
	if strings.TrimSpace(req.Prompt) == "" {
		return tools.AgentReply{Text: emptyPrompt(name), Failed: true, Exit: exitUsage}
	}
	if p.depth >= MaxDepth {
		return tools.AgentReply{Text: tooDeep(name), Failed: true, Exit: exitUsage}
	}
	if req.Cwd == "" {
		req.Cwd, _ = os.Getwd()
	}
	prompt := req.Prompt
	if req.History != nil {
		prompt = withContext(req.History, req.Prompt, p.opts.Config.MaxOutput)
	}
	w := newWatch(p.opts.Config.WatchdogTimeout, p.firstToken[name])
	defer w.stop()
	ch, err := p.child(ctx, name, w)
	if err != nil {
		if ctx.Err() != nil {
			return tools.AgentReply{Text: stopped(name, "interrupted by the user"), Failed: true, Exit: exitCanceled}
		}
		code := exitEngine
		if se, ok := err.(*startError); ok && se.code == exitConfig {
			code = exitConfig
		}
		return tools.AgentReply{Text: failed(name, reasonOf(err)), Failed: true, Exit: code}
	}
	r := ch.run(ctx, &call{pool: p, name: name, facade: tools.FacadeFrom(ctx), watch: w, yolo: p.yolo(name)}, req.Cwd, prompt)
	return r
}

// Close stops every child: its stdin closes (a child mm -acp then ends
// its turns and exits), and what is still there after a moment is killed.
func (p *Pool) Close() {
	p.mu.Lock()
	p.closed = true
	all := p.children
	p.children = map[string]*child{}
	p.mu.Unlock()
	var wg sync.WaitGroup
	for _, c := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			c.stop(2 * time.Second)
		}()
	}
	wg.Wait()
}

// child is the running child of agent name, started when there is none
// (or the last one ended).
func (p *Pool) child(ctx context.Context, name string, w *watch) (*child, error) {
	for {
		p.mu.Lock()
		if p.closed {
			p.mu.Unlock()
			return nil, fmt.Errorf("mm is shutting down")
		}
		if c := p.children[name]; c != nil && !c.gone() && !c.closed() {
			p.mu.Unlock()
			return c, nil
		}
		if wait := p.starting[name]; wait != nil {
			p.mu.Unlock()
			select {
			case <-wait:
				continue
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		done := make(chan struct{})
		p.starting[name] = done
		p.mu.Unlock()
		c, err := p.start(ctx, name, w)
		p.mu.Lock()
		delete(p.starting, name)
		close(done)
		if err == nil {
			if p.closed {
				p.mu.Unlock()
				c.stop(time.Second)
				return nil, fmt.Errorf("mm is shutting down")
			}
			p.children[name] = c
		}
		p.mu.Unlock()
		return c, err
	}
}

// withContext is the prompt after the conversation (with_context): the
// questions, the answers and one line per tool call, never a tool's
// output, cut to max characters keeping the most recent.
func withContext(history []*ai.Message, prompt string, max int) string {
	t := transcript(history, max)
	if t == "" {
		return prompt
	}
	return "The conversation so far (questions, answers and tool calls; tool outputs left out):\n\n" + t + "\n\nThe task:\n" + prompt
}
