package engine

import (
	"time"

	"mm/internal/config"
	"mm/internal/llm"
	"mm/internal/mcp"
)

// mcpGrace is how long the start of a session waits for its MCP servers:
// a server not ready by then is reported in the banner's warnings and its
// tools are declared once it is (refreshMCP).
var mcpGrace = 5 * time.Second

// sessionMCP is a session's MCP servers and what is declared of them.
type sessionMCP struct {
	m *mcp.Manager
	// builtins is the count of built-in tools: the MCP ones follow.
	builtins int
	declared int  // MCP tools declared
	final    bool // the declarations will not change any more
}

// startMCP starts the session's MCP servers (mcp.servers, then the ACP
// client's), waits for them up to mcpGrace and declares the tools of the
// ready ones after the built-in tools.
func (e *Engine) startMCP(s *Session, extra []config.MCPServer) {
	cfg := e.Config
	servers := append(append([]config.MCPServer(nil), cfg.MCP.Servers...), extra...)
	if len(servers) == 0 {
		return
	}
	m := mcp.Start(mcp.Options{
		Servers: servers, Dir: s.Cwd, Env: llm.ChildEnv(cfg.APIKeyEnv),
		Timeout: cfg.MCP.Timeout, MaxOutput: cfg.MaxOutput, Warn: e.warn,
	})
	s.MCP = m
	s.mcp = &sessionMCP{m: m, builtins: len(s.Tools.List())}
	s.Warnings = append(s.Warnings, m.Wait(mcpGrace)...)
	s.declareMCP(cfg)
}

// declareMCP declares the ready servers' tools in place of the MCP tools
// declared so far.
func (s *Session) declareMCP(cfg *config.Config) {
	ts := s.mcp.m.Tools()
	s.mcp.declared = len(ts)
	s.Tools.ReplaceFrom(s.mcp.builtins, mcp.Declarations(s.mcp.m, ts, mcp.DeclareOptions{
		Budget: cfg.MCP.PromptBudget, MaxOutput: cfg.MaxOutput, Taken: s.Tools.Names()[:s.mcp.builtins],
		Ask: func(server, tool string) bool { return cfg.MCP.MCPPermission(server, tool) == "ask" },
	}))
}

// refreshMCP runs before each turn. Once every server that was late at
// start-up has settled (ready or failed), the declarations are made again
// with the tools of all the ready servers — once: the request prefix
// changes at most one time in a session, at the start of a turn, never
// between the model calls of a turn.
func (s *Session) refreshMCP(cfg *config.Config) {
	if s.mcp == nil || s.mcp.final || s.mcp.m.Pending() {
		return
	}
	s.mcp.final = true
	if len(s.mcp.m.Tools()) != s.mcp.declared {
		s.declareMCP(cfg)
	}
}
