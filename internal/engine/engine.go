// Package engine assembles one mm agent from its configuration: the
// provider and the endpoint that answers, the Genkit model over it, the
// declared tools and the agent loop. Every facade (one-shot, line REPL,
// ACP) starts from here, so they all run the same engine.
package engine

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/agent"
	"mm/internal/config"
	"mm/internal/hooks"
	"mm/internal/llm"
	"mm/internal/lsp"
	"mm/internal/mcp"
	"mm/internal/plan"
	"mm/internal/procguard"
	"mm/internal/project"
	"mm/internal/skills"
	"mm/internal/tools"
	"mm/internal/undo"
	"mm/internal/version"
)

// Options are what the facade adds to the configuration.
type Options struct {
	// Cwd is the working directory of the tools ("" = the process's).
	Cwd string
	// SkillsBase is the directory a relative skillsDir is resolved
	// against: mm's launch directory ("" = Cwd), or the configuration
	// file's directory in ACP mode with a file.
	SkillsBase string
	// Warn prints a one-line warning that comes up while mm runs (a trace
	// directory that cannot be written).
	Warn func(string)
	// Agents asks the agents of mmConfigs (internal/ask's pool): with
	// it, ask_agent is declared. The engine closes it.
	Agents tools.AgentAsker
	// MCPPerSession: the facade makes sessions of its own (ACP) and each
	// starts its MCP servers (NewSession); the engine's session, which
	// nobody talks to, starts none, so no server runs unused from the
	// process's start.
	MCPPerSession bool
	// Undo: the facade offers /undo (line mode, ACP), so each session
	// snapshots the project before the first change of a turn. mm -p
	// offers none, and takes none.
	Undo bool
}

// Engine is a ready agent and what the banner says about it.
type Engine struct {
	Config   *config.Config
	Provider llm.Provider
	Endpoint *llm.Endpoint
	Client   *llm.Client
	Model    ai.Model
	Tools    *tools.Registry
	Agent    *agent.Agent
	Cwd      string
	// Root is the project root (project.Root of Cwd): mm's .mm directory
	// (history, traces) lives there.
	Root string
	// Warnings are start-up warnings (compression that can never happen);
	// SkillWarnings are the banner's (skills not found or skipped), shown
	// in line mode only, as the reference has it.
	Warnings      []string
	SkillWarnings []string
	// Skills are the skills read_skill offers.
	Skills []skills.Skill
	// Instructions is the project's AGENTS.md, read once at start and
	// appended to the system prompt (empty when none or turned off).
	Instructions project.Instructions
	// LSP runs the language servers behind the lsp tool; Close stops them.
	LSP *lsp.Manager
	// Agents is Options.Agents (nil without mmConfigs); Close stops them.
	Agents tools.AgentAsker
	// MCP runs the MCP servers of the engine's session; Close stops them.
	MCP *mcp.Manager
	// Undo is the engine's session's /undo (nil without Options.Undo).
	Undo *undo.Tracker
	// warn is Options.Warn; undo is Options.Undo.
	warn func(string)
	undo bool
	// asker is Agents with the engine's session's ask hooks (Asker).
	asker tools.AgentAsker

	// The context window, asked once per model (model.go).
	windowMu  sync.Mutex
	windowFor string
	window    int
	// windowRetries counts the asks left while the window is unknown
	// because the server was still loading its model at start-up.
	windowRetries int
	// windowAssumed says window is Ollama's default for a model not
	// loaded yet; running is the loaded model's window as /api/ps said
	// it after a response (runningFor: the model it was asked for), and
	// loadedFor the model ConfirmWindow loaded (window.go).
	windowAssumed bool
	running       int
	runningFor    string
	loadedFor     string
}

// Start finds the model server and builds the agent. Its errors are
// *llm.EngineError (unknown provider, nothing answers).
func Start(ctx context.Context, cfg *config.Config, opts Options) (*Engine, error) {
	p, err := llm.LookupProvider(cfg.Provider)
	if err != nil {
		return nil, err
	}
	cwd := opts.Cwd
	if cwd == "" {
		cwd, _ = os.Getwd()
	}
	root := project.Root(cwd)
	apiKey := ""
	keyEnv := cfg.APIKeyEnv
	if keyEnv == "" {
		keyEnv = p.APIKeyEnv
	}
	if keyEnv != "" {
		apiKey = os.Getenv(keyEnv)
	}
	httpClient := llm.NewHTTPClient()
	ep, err := llm.ResolveEndpoint(ctx, llm.EndpointOptions{Provider: p, BaseURL: cfg.BaseURL, Fallback: cfg.Fallback, APIKey: apiKey, HTTP: httpClient})
	if err != nil {
		return nil, err
	}
	// The base URL's query (…/v1?token=…) goes with every request.
	llm.WithQuery(httpClient, ep.Query)
	if !cfg.ModelSet {
		// No model chosen: the built-in default is Docker Model Runner's
		// name. A server that serves one model (llama-server, most often)
		// is told, and shown, the one it serves; with several the default
		// stays, and the start-up warning lists them.
		if only := ep.OnlyModel(); only != "" {
			cfg.Model, cfg.ModelServed = only, true
		}
	}
	client := &llm.Client{Provider: p, BaseURL: ep.BaseURL, Model: cfg.Model, APIKey: apiKey, Sampling: cfg.Sampling, HTTP: httpClient}
	if cfg.Trace.Enabled {
		client.Trace = &llm.Tracer{Dir: cfg.Trace.Dir, Name: cfg.ACP.Name, Cwd: func() string { return root }, Warn: opts.Warn}
	}
	g := llm.NewGenkit(ctx)
	model := llm.DefineModel(g, client)
	e := &Engine{Config: cfg, Provider: p, Endpoint: ep, Client: client, Model: model, Agents: opts.Agents, warn: opts.Warn, undo: opts.Undo}
	s := e.NewSession(SessionOptions{Cwd: cwd, SkillsBase: opts.SkillsBase, noMCP: opts.MCPPerSession})
	e.Tools, e.Cwd, e.Root, e.SkillWarnings, e.Skills = s.Tools, s.Cwd, s.Root, s.SkillWarnings, s.Skills
	e.LSP, e.Warnings, e.Instructions, e.Agent = s.LSP, s.Warnings, s.Instructions, s.Agent
	e.MCP, e.Undo = s.MCP, s.Undo
	e.asker = s.Agents
	if n := e.Undo.Notice(); n != "" {
		// Once, under the banner (ACP: on stderr at start); /undo says
		// it again when asked.
		e.Warnings = append(e.Warnings, n)
	}
	if w := cfg.SandboxWarning(procguard.SandboxUnavailable()); w != "" {
		e.Warnings = append(e.Warnings, w)
	}
	e.wireModel()
	e.wireAgent(e.Agent)
	if cfg.Context.Enabled && cfg.Context.MaxMessages == 0 {
		// Only this case needs the window at start-up: do not make every
		// start ask the server for it.
		if w := cfg.CompressionWarning(e.ContextWindow(ctx) > 0); w != "" {
			e.Warnings = append(e.Warnings, w)
		}
	}
	return e, nil
}

// SessionOptions are what one conversation adds to the engine.
type SessionOptions struct {
	// Cwd is the working directory of the tools; it must be absolute.
	Cwd string
	// SkillsBase is the directory a relative skillsDir is resolved
	// against ("" = Cwd).
	SkillsBase string
	// Files, when set, is where the file tools read and write instead of
	// the disk (an editor's buffers, ACP fs/*).
	Files tools.Editor
	// MCPServers are the session's own MCP servers (an ACP client's
	// mcpServers), after those of mcp.servers.
	MCPServers []config.MCPServer
	// noMCP: the session starts no MCP server (Options.MCPPerSession).
	noMCP bool
}

// Session is one conversation with a working directory of its own: its
// tools, language servers and agent (history, permissions, loop
// detector). The line mode and -p use the engine's own (Engine.Agent);
// ACP makes one per session. Close stops its language servers.
type Session struct {
	Cwd string
	// Root is the project root of Cwd (project.Root).
	Root          string
	Tools         *tools.Registry
	Agent         *agent.Agent
	LSP           *lsp.Manager
	Skills        []skills.Skill
	SkillWarnings []string
	// Warnings are the language servers' and the project instructions'.
	Warnings     []string
	Instructions project.Instructions
	// MCP runs the session's MCP servers (nil without any); Close stops
	// them.
	MCP *mcp.Manager
	mcp *sessionMCP
	// Undo snapshots the project for /undo (nil when the facade offers
	// none).
	Undo *undo.Tracker
	// Agents is the engine's Agents with the session's ask hooks.
	Agents tools.AgentAsker
}

// NewSession builds the tools and the agent of one conversation in
// opts.Cwd. The model, endpoint and client are the engine's: sessions
// share them (the server's prompt cache too).
func (e *Engine) NewSession(opts SessionOptions) *Session {
	cfg := e.Config
	cwd := opts.Cwd
	base := opts.SkillsBase
	if base == "" {
		base = cwd
	}
	s := &Session{Cwd: cwd, Root: project.Root(cwd)}
	s.LSP, s.Warnings = lsp.New(cfg.LSP.Servers, lsp.Options{Root: cwd, Env: llm.ChildEnv(cfg.APIKeyEnv)})
	bash, w := findBash(cfg)
	s.Warnings = append(s.Warnings, w...)
	var pl *plan.Plan
	if cfg.PlanTool {
		pl = plan.New()
	}
	runner := hooks.New(cfg.Hooks, cwd, cfg.ACP.Name, llm.ChildEnv(cfg.APIKeyEnv))
	// Every ask of this session (ask_agent, /ask-NAME) runs the preAsk
	// and postAsk hooks.
	s.Agents = hooks.WrapAsker(e.Agents, runner)
	s.Tools, s.Skills, s.SkillWarnings = toolsWith(cfg, toolPlace{cwd: cwd, skillsBase: base, files: opts.Files, agents: s.Agents, bash: bash, plan: pl}, s.LSP)
	if !opts.noMCP {
		e.startMCP(s, opts.MCPServers)
	}
	if cfg.ProjectInstructions {
		var w []string
		s.Instructions, w = project.ReadInstructions(cwd, s.Root)
		s.Warnings = append(s.Warnings, w...)
	}
	var snapshots agent.Snapshotter
	if e.undo {
		s.Undo = undo.New(s.Root, nil)
		snapshots = s.Undo
	}
	s.Agent = agent.New(agent.Options{
		Model: e.Model, Tools: s.Tools, System: systemPrompt(cfg, s.Tools.Lookup("bash") != nil, s.Instructions),
		MaxTurns: cfg.MaxTurns, MaxOutput: cfg.MaxOutput, MaxTokens: cfg.MaxTokens(),
		Watchdog: cfg.WatchdogTimeout, FirstToken: cfg.EffectiveFirstTokenTimeout(),
		Yolo: cfg.Yolo, BeforeTurn: func() { s.refreshMCP(cfg) }, Snapshots: snapshots, Plan: pl,
		Hooks: runner,
	})
	if e.Agent != nil {
		// A session made after Start: the engine's model is wired already.
		e.wireAgent(s.Agent)
	}
	return s
}

// Asker is what asks the agents of mmConfigs for /ask-NAME: Agents with
// the hooks' preAsk and postAsk.
func (e *Engine) Asker() tools.AgentAsker { return e.asker }

// Close stops what the session started: its language servers.
func (s *Session) Close() {
	s.LSP.Close()
	s.MCP.Close()
}

// Tools declares the tools the configuration turns on, in a fixed order
// (the server's prompt cache wants the same bytes on every request), and
// returns the warnings about skills. cwd is the tools' working directory,
// skillsBase the directory a relative skillsDir is resolved against.
func Tools(cfg *config.Config, cwd, skillsBase string) (reg *tools.Registry, found []skills.Skill, warnings []string) {
	// Looking the servers up starts none: there is nothing to stop.
	servers, _ := lsp.New(cfg.LSP.Servers, lsp.Options{Root: cwd, Env: llm.ChildEnv(cfg.APIKeyEnv)})
	bash, bashWarnings := findBash(cfg)
	reg, found, warnings = toolsWith(cfg, toolPlace{cwd: cwd, skillsBase: skillsBase, bash: bash}, servers)
	return reg, found, append(bashWarnings, warnings...)
}

// findBash is the bash the bash tool runs, found once per session: ""
// with a warning when bashTool is on and the PATH has none, and then the
// tool is not declared (a model told of a shell that cannot start would
// only read failures). "" without one when bashTool is off.
func findBash(cfg *config.Config) (string, []string) {
	if !cfg.BashTool {
		return "", nil
	}
	path, err := tools.LookBash()
	if err != nil {
		return "", []string{tools.NoBashWarning}
	}
	return path, nil
}

// toolPlace is where the tools of one conversation work.
type toolPlace struct {
	cwd, skillsBase string
	files           tools.Editor // nil = the disk
	agents          tools.AgentAsker
	bash            string     // the bash the tool runs ("" = not declared)
	plan            *plan.Plan // the plan tool's state (nil = a plan of its own)
}

// toolsWith is Tools with the language servers of the lsp tool.
func toolsWith(cfg *config.Config, at toolPlace, servers *lsp.Manager) (reg *tools.Registry, found []skills.Skill, warnings []string) {
	cwd, skillsBase := at.cwd, at.skillsBase
	reg = tools.NewRegistry()
	if cfg.BashTool && at.bash != "" {
		sb := procguard.NewSandbox(cfg.Sandbox.Mode, cfg.Sandbox.Network, cfg.Sandbox.Writable, project.Root(cwd))
		reg.Add(tools.NewBash(tools.BashOptions{Dir: cwd, Timeout: cfg.BashTimeout, Env: llm.ChildEnv(cfg.APIKeyEnv), MaxOutput: cfg.MaxOutput, Path: at.bash, Sandbox: sb}))
	}
	if cfg.SkillsDir != "" {
		dir := skills.Resolve(cfg.SkillsDir, skillsBase)
		list, err := skills.Load(dir)
		found = list
		warnings = append(warnings, skills.Warnings(err)...)
		// The default ./skills is looked in wherever mm starts: most
		// projects have none, and saying so at every start is noise.
		// A skillsDir the file names is meant to hold skills.
		if w := skills.Warning(dir, len(list)); w != "" && cfg.SkillsDirSet {
			warnings = append(warnings, w)
		}
		if t := tools.NewReadSkill(tools.SkillOptions{Dir: dir, MaxOutput: cfg.MaxOutput, Skills: list}); t != nil {
			reg.Add(t)
		}
	}
	if cfg.EditTools {
		files := tools.FileOptions{Dir: cwd, MaxOutput: cfg.MaxOutput, Changed: servers.Changed, Editor: at.files}
		reg.Add(tools.NewReadFile(files))
		reg.Add(tools.NewWriteFile(files))
		reg.Add(tools.NewEditFile(files))
	}
	if t := tools.NewLSP(servers); t != nil {
		reg.Add(t)
	}
	if cfg.FetchContentTool {
		reg.Add(tools.NewFetchContent(tools.FetchOptions{Dir: cwd, MaxOutput: cfg.MaxOutput, AllowLinkLocal: cfg.FetchAllowLinkLocal}))
	}
	if cfg.PlanTool {
		p := at.plan
		if p == nil {
			p = plan.New()
		}
		reg.Add(tools.NewPlan(p))
	}
	if cfg.AskUserTool {
		// Last: asking the user is the tool of last resort.
		reg.Add(tools.NewAskUser())
	}
	// Last: the tools before it keep their bytes, and the server's
	// prompt cache its prefix, whether agents are configured or not.
	if len(cfg.MMConfigs) > 0 {
		if t := tools.NewAskAgent(tools.AskAgentOptions{Asker: at.agents, Dir: cwd}); t != nil {
			reg.Add(t)
		}
	}
	return reg, found, warnings
}

// systemPrompt is the configured prompt; the built-in one is fitted to the
// declared tools (bash: whether it is, which bashTool alone does not say
// when the PATH has none). The project's AGENTS.md follows it, a custom
// prompt included: the instructions are the project's, the prompt the
// agent's.
func systemPrompt(cfg *config.Config, bash bool, instr project.Instructions) string {
	prompt := cfg.System
	if prompt == config.DefaultSystemPrompt {
		prompt = config.SystemPromptFor(bash)
	}
	prompt += instructionsPart(instr)
	return prompt
}

// instructionsPart is what the project's instructions add to the system
// prompt ("" when there are none).
func instructionsPart(instr project.Instructions) string {
	if instr.Text == "" {
		return ""
	}
	return "\n\nThe project's instructions (" + project.InstructionsFile + "):\n\n" + instr.Text
}

// Close stops what the engine started: the language servers and the
// asked agents.
func (e *Engine) Close() {
	e.LSP.Close()
	e.MCP.Close()
	if e.Agents != nil {
		e.Agents.Close()
	}
}

// ContextWindow asks the server for its context size once per model
// (contextWindow: 0), or returns the configured one. 0 means unknown.
func (e *Engine) ContextWindow(ctx context.Context) int {
	if e.Config.ContextWindow > 0 {
		return e.Config.ContextWindow
	}
	e.windowMu.Lock()
	defer e.windowMu.Unlock()
	model := e.Config.Model
	retry := e.window == 0 && e.windowRetries > 0
	if e.windowFor != model || model == "" || retry {
		if retry {
			e.windowRetries--
		} else if e.Endpoint.ModelsStatus == http.StatusServiceUnavailable {
			// A server that was loading its model at start-up tells its
			// window only once loaded: an unknown window is asked again
			// at the next few model calls instead of being kept.
			e.windowRetries = 5
		}
		// The engine's client: it carries the base URL's query.
		e.window, e.windowAssumed = llm.DiscoverWindow(ctx, e.Client.HTTP, e.Provider, e.Endpoint, model, e.Client.APIKey)
		e.windowFor = model
		if e.Provider.Name == "ollama" && e.window > 0 && !e.windowAssumed {
			// /api/ps said it: the model is loaded, no need to ask again
			// after its first answer (window.go).
			e.running, e.runningFor = e.window, model
		}
	}
	return e.window
}

// Banner is the one line that says what runs: provider, model, endpoint,
// context window, tools, skills, the configuration file and the project
// instructions in use, and the trace directory when tracing is on.
func (e *Engine) Banner(ctx context.Context) string {
	trace := ""
	if e.Client.Trace != nil {
		trace = e.Client.Trace.AbsDir()
	}
	return e.banner(ctx, e.Tools, e.Skills, e.Instructions, trace)
}

// SessionBanner is the banner of one session (ACP logs it once per
// session): its tools, skills and instructions, and the trace directory
// of its cwd.
func (e *Engine) SessionBanner(ctx context.Context, s *Session) string {
	trace := ""
	if e.Client.Trace != nil {
		trace = e.Client.Trace.AbsDirFor(llm.WithWorkDir(ctx, s.Cwd))
	}
	return e.banner(ctx, s.Tools, s.Skills, s.Instructions, trace)
}

func (e *Engine) banner(ctx context.Context, reg *tools.Registry, found []skills.Skill, instr project.Instructions, trace string) string {
	window := "context ?"
	if n, assumed := e.Window(ctx); n > 0 {
		window = fmt.Sprintf("context %s", humanTokens(n))
		if assumed {
			window += " (assumed until the model is loaded)"
		}
	}
	tools := strings.Join(reg.Names(), ", ")
	if tools == "" {
		tools = "no tools"
	}
	// A password or a query value in the base URL is masked: the banner
	// is on screen.
	line := fmt.Sprintf("mm %s · %s @ %s (%s) · %s · tools: %s", version.String(), e.Config.Model, e.Provider.Name, e.Endpoint.Shown(), window, tools)
	if len(found) > 0 {
		var names []string
		for _, s := range found {
			names = append(names, s.Name)
		}
		if list := strings.Join(names, ", "); len(list) <= 80 {
			line += " · skills: " + list
		} else {
			line += fmt.Sprintf(" · skills: %d", len(names))
		}
	}
	// The file names come from the command line, the user's directory and
	// the project; the printer sanitises the whole line.
	if inUse := e.Config.InUse(); inUse != "" {
		line += " · config: " + inUse
	}
	if instr.Shown != "" {
		line += " · instructions: " + instr.Shown
	}
	if trace != "" {
		line += " | trace: " + filepath.Clean(trace)
	}
	return line
}

func humanTokens(n int) string {
	if n >= 1024 && n%1024 == 0 {
		return fmt.Sprintf("%dk", n/1024)
	}
	if n >= 1000 {
		return fmt.Sprintf("%.1fk", float64(n)/1000)
	}
	return fmt.Sprint(n)
}
