package config

import (
	"strings"
	"testing"
	"time"
)

func TestMCPDefaultsAndRead(t *testing.T) {
	c := Default()
	if c.MCP.Timeout != 60*time.Second || c.MCP.PromptBudget != 4096 || len(c.MCP.Servers) != 0 {
		t.Errorf("defaults: %+v", c.MCP)
	}
	cfg := mustLoad(t, `mcp:
  servers:
    - name: fs
      command: npx
      args: ["-y", "@modelcontextprotocol/server-filesystem", "."]
      env: {SOME_KEY: value, PORT: 3000}
    - name: api
      url: http://127.0.0.1:3000/mcp
      headers: {Authorization: "Bearer ${API_TOKEN}"}
  permissions:
    fs: auto
    fs/write_file: ask
  timeout: 5s
  promptBudget: 1000
`, map[string]string{"API_TOKEN": "t0k"})
	m := cfg.MCP
	if len(m.Servers) != 2 || m.Servers[0].Command != "npx" || len(m.Servers[0].Args) != 3 || m.Servers[0].Env["PORT"] != "3000" {
		t.Errorf("servers: %+v", m.Servers)
	}
	if m.Servers[1].Headers["Authorization"] != "Bearer t0k" {
		t.Errorf("headers: %+v", m.Servers[1].Headers)
	}
	if m.Timeout != 5*time.Second || m.PromptBudget != 1000 {
		t.Errorf("timeout, budget: %+v", m)
	}
	if m.MCPPermission("fs", "write_file") != "ask" || m.MCPPermission("fs", "read_file") != "auto" || m.MCPPermission("api", "x") != "auto" {
		t.Errorf("permissions: %+v", m.Permissions)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings: %v", cfg.Warnings)
	}
}

// One case per message of the mcp section.
func TestMCPValidationMessages(t *testing.T) {
	srv := "mcp:\n  servers:\n"
	cases := []struct {
		name, yaml string
		env        map[string]string
		want       string
	}{
		{"name empty", srv + "    - command: x", nil, "line 3: mcp.servers[0].name must not be empty"},
		{"name invalid", srv + "    - name: My_FS\n      command: x", nil, `line 3: mcp.servers[0].name: "My_FS" is not a valid name (use lowercase letters, digits and -, starting with a letter or a digit: the name starts its tools' names)`},
		{"name twice", srv + "    - name: fs\n      command: x\n    - name: fs\n      command: y", nil, `line 5: mcp.servers[1].name: "fs" is already the name of mcp.servers[0]`},
		{"neither", srv + "    - name: fs\n      args: [a]", nil, "line 3: mcp.servers[0] needs a command (a server on stdio) or a url (streamable HTTP)"},
		{"both", srv + "    - name: fs\n      command: x\n      url: http://127.0.0.1:1/mcp", nil, "line 5: mcp.servers[0] has both a command and a url: give one"},
		{"args with url", srv + "    - name: fs\n      url: http://127.0.0.1:1/mcp\n      args: [a]", nil, "line 5: mcp.servers[0].args goes with a command, not a url"},
		{"env with url", srv + "    - name: fs\n      url: http://127.0.0.1:1/mcp\n      env: {A: b}", nil, "line 5: mcp.servers[0].env goes with a command, not a url"},
		{"headers with command", srv + "    - name: fs\n      command: x\n      headers: {A: b}", nil, "line 5: mcp.servers[0].headers goes with a url, not a command"},
		{"url", srv + "    - name: fs\n      url: 127.0.0.1:3000", nil, `line 4: mcp.servers[0].url must be an absolute http(s) URL, like http://127.0.0.1:3000/mcp (got "127.0.0.1:3000")`},
		{"permission key", "mcp:\n  permissions:\n    fs/: ask", nil, `line 3: mcp.permissions: "fs/" must be a server name or server/tool`},
		{"permission value", "mcp:\n  permissions:\n    fs/write_file: never", nil, `line 3: mcp.permissions.fs/write_file must be "ask" or "auto" (got "never")`},
		{"timeout", "mcp:\n  timeout: 0s", nil, "line 2: mcp.timeout must be > 0 (got 0s)"},
		{"promptBudget", "mcp:\n  promptBudget: -1", nil, "line 2: mcp.promptBudget must be >= 0 (got -1)"},
		{"header variable", srv + "    - name: api\n      url: http://127.0.0.1:1/mcp\n      headers:\n        Authorization: Bearer ${API_TOKEN}", nil, "line 6: mcp.servers[0].headers.Authorization: ${API_TOKEN} is not set in the environment"},
		{"env variable", srv + "    - name: fs\n      command: x\n      env:\n        KEY: ${MY_KEY}", nil, "line 6: mcp.servers[0].env.KEY: ${MY_KEY} is not set in the environment"},
		// The decoder's own messages, in the mcp section's words.
		{"servers not list", "mcp:\n  servers: fs", nil, `line 2: mcp.servers must be a list of servers, got "fs"`},
		{"server not mapping", srv + "    - fs", nil, `line 3: mcp.servers[0] must be a mapping, got "fs"`},
		{"env not mapping", srv + "    - name: fs\n      command: x\n      env: [A]", nil, "line 5: mcp.servers[0].env must be a mapping of names to strings, got a list"},
		{"timeout not duration", "mcp:\n  timeout: soon", nil, `line 2: mcp.timeout must be a duration like 20s or 3m, got "soon"`},
		{"promptBudget not integer", "mcp:\n  promptBudget: big", nil, `line 2: mcp.promptBudget must be an integer, got "big"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			wantError(t, c.yaml+"\n", c.env, "[config error: agent.yaml: "+c.want+"]")
		})
	}
}

func TestMCPUnknownKeys(t *testing.T) {
	cfg := mustLoad(t, "mcp:\n  server: []\n  timeout: 1s\n  servers:\n    - name: fs\n      comand: x\n      command: x\n", nil)
	want := []string{
		`[warning: agent.yaml: line 2: unknown key "mcp.server" (did you mean "mcp.servers"?) — ignored]`,
		`[warning: agent.yaml: line 6: unknown key "mcp.servers[0].comand" (did you mean "mcp.servers[0].command"?) — ignored]`,
	}
	if strings.Join(cfg.Warnings, "\n") != strings.Join(want, "\n") {
		t.Errorf("warnings:\n%s", strings.Join(cfg.Warnings, "\n"))
	}
}
