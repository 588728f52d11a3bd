package acp

import (
	"fmt"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/config"
)

// mcpServers turns the client's mcpServers of session/new or session/load
// into mm's servers: stdio always, streamable HTTP (mm advertises
// mcpCapabilities.http), under a name mm can use in tool names (lower
// case, [a-z0-9-], unique beside mcp.servers). The others (SSE, ACP) are
// skipped, with a line for the log.
func mcpServers(offered []acpsdk.McpServer, configured []config.MCPServer) (servers []config.MCPServer, skipped []string) {
	taken := map[string]bool{}
	for _, c := range configured {
		taken[c.Name] = true
	}
	for _, o := range offered {
		var s config.MCPServer
		switch {
		case o.Stdio != nil:
			s = config.MCPServer{Name: o.Stdio.Name, Command: o.Stdio.Command, Args: o.Stdio.Args}
			if len(o.Stdio.Env) > 0 {
				s.Env = map[string]string{}
				for _, e := range o.Stdio.Env {
					s.Env[e.Name] = e.Value
				}
			}
		case o.Http != nil:
			s = config.MCPServer{Name: o.Http.Name, URL: o.Http.Url}
			if len(o.Http.Headers) > 0 {
				s.Headers = map[string]string{}
				for _, h := range o.Http.Headers {
					s.Headers[h.Name] = h.Value
				}
			}
		default:
			skipped = append(skipped, "an MCP server over a transport mm does not take (SSE, ACP) is skipped")
			continue
		}
		if s.Command == "" && s.URL == "" {
			skipped = append(skipped, fmt.Sprintf("the MCP server %q has no command or url: skipped", s.Name))
			continue
		}
		s.Name = serverName(s.Name, taken)
		taken[s.Name] = true
		servers = append(servers, s)
	}
	return servers, skipped
}

// serverName is a client's server name as mm's: lower case, characters
// outside [a-z0-9-] as -, "mcp" when nothing is left, -2, -3… when taken.
func serverName(name string, taken map[string]bool) string {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' {
			b.WriteRune(r)
		} else {
			b.WriteByte('-')
		}
	}
	base := strings.Trim(b.String(), "-")
	if len(base) > 32 {
		base = base[:32]
	}
	if base == "" {
		base = "mcp"
	}
	n := base
	for i := 2; taken[n]; i++ {
		n = fmt.Sprintf("%s-%d", base, i)
	}
	return n
}
