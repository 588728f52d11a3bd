package config

import (
	"fmt"
	"maps"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"gopkg.in/yaml.v3"
)

// MCPConfig is the Model Context Protocol servers whose tools mm declares
// (docs/mcp.md).
type MCPConfig struct {
	Servers []MCPServer `yaml:"servers"`
	// Permissions maps a server name, or server/tool, to "ask" or "auto".
	// It is read under yolo: true only; yolo: false asks for every MCP
	// call whatever it says (the reference).
	Permissions map[string]string `yaml:"permissions"`
	// Timeout bounds one MCP call (and a server's start).
	Timeout time.Duration `yaml:"timeout"`
	// PromptBudget is the bytes of MCP tool declarations past which the
	// single mcp tool is declared instead of one tool per MCP tool.
	PromptBudget int `yaml:"promptBudget"`
}

// MCPServer is one server: a command on stdio, or a streamable HTTP URL.
type MCPServer struct {
	Name    string            `yaml:"name"`
	Command string            `yaml:"command"`
	Args    []string          `yaml:"args"`
	Env     map[string]string `yaml:"env"`
	URL     string            `yaml:"url"`
	Headers map[string]string `yaml:"headers"`
}

// MCPPermission is mcp.permissions for one tool: the server/tool entry,
// else the server's, else "auto".
func (c *MCPConfig) MCPPermission(server, tool string) string {
	if p, ok := c.Permissions[server+"/"+tool]; ok {
		return p
	}
	if p, ok := c.Permissions[server]; ok {
		return p
	}
	return "auto"
}

func (d *decoder) mcp(n *yaml.Node) error {
	m := &d.cfg.MCP
	return d.section(n, "mcp", mcpKeys, func(key, path string, v *yaml.Node) (err error) {
		switch key {
		case "servers":
			m.Servers, err = d.mcpServers(v, path)
		case "permissions":
			// A mapping: a later layer's entries are merged over the
			// earlier ones, key by key, like sampling.
			var perms map[string]string
			if perms, err = d.stringMap(v, path); err == nil {
				merged := maps.Clone(m.Permissions)
				if merged == nil {
					merged = map[string]string{}
				}
				maps.Copy(merged, perms)
				m.Permissions = merged
			}
		case "timeout":
			m.Timeout, err = d.duration(v, path)
		case "promptBudget":
			m.PromptBudget, err = d.integer(v, path)
		}
		return err
	})
}

func (d *decoder) mcpServers(v *yaml.Node, path string) ([]MCPServer, error) {
	if v.Kind != yaml.SequenceNode {
		return nil, d.errAt(v, "%s must be a list of servers, got %s", path, describe(v))
	}
	servers := make([]MCPServer, 0, len(v.Content))
	for i, item := range v.Content {
		var s MCPServer
		at := fmt.Sprintf("%s[%d]", path, i)
		err := d.section(resolve(item), at, mcpServerKeys, func(key, path string, v *yaml.Node) (err error) {
			switch key {
			case "name":
				s.Name, err = d.str(v, path)
			case "command":
				s.Command, err = d.str(v, path)
			case "args":
				s.Args, err = d.stringList(v, path)
			case "env":
				s.Env, err = d.stringMap(v, path)
			case "url":
				s.URL, err = d.str(v, path)
			case "headers":
				s.Headers, err = d.stringMap(v, path)
			}
			return err
		})
		if err != nil {
			return nil, err
		}
		servers = append(servers, s)
	}
	return servers, nil
}

// stringMap reads a mapping of keys to strings (numbers and booleans read
// as written: `PORT: 3000` is "3000").
func (d *decoder) stringMap(n *yaml.Node, key string) (map[string]string, error) {
	ps, err := d.mapping(n, key, " of names to strings")
	if err != nil {
		return nil, err
	}
	d.read(key, n)
	out := make(map[string]string, len(ps))
	for _, p := range ps {
		s, err := d.str(resolve(p.val), join(key, p.key.Value))
		if err != nil {
			return nil, err
		}
		out[p.key.Value] = s
	}
	return out, nil
}

// mcpServerName is a valid server name: it starts the declared tool
// names (<server>_<tool>) and the permission keys (server/tool).
var mcpServerName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]*$`)

// validateMCP checks the mcp section. N in the messages is the 0-based
// index of the entry in mcp.servers.
func validateMCP(m *MCPConfig) *problem {
	seen := map[string]int{}
	for i, s := range m.Servers {
		at := fmt.Sprintf("mcp.servers[%d]", i)
		switch {
		case blank(s.Name):
			return &problem{key: at + ".name", msg: at + ".name must not be empty"}
		case !mcpServerName.MatchString(s.Name):
			return &problem{key: at + ".name", msg: fmt.Sprintf("%s.name: %s is not a valid name (use lowercase letters, digits and -, starting with a letter or a digit: the name starts its tools' names)", at, strconv.Quote(s.Name))}
		}
		if j, dup := seen[s.Name]; dup {
			return &problem{key: at + ".name", msg: fmt.Sprintf("%s.name: %s is already the name of mcp.servers[%d]", at, strconv.Quote(s.Name), j)}
		}
		seen[s.Name] = i
		switch {
		case blank(s.Command) && blank(s.URL):
			return &problem{key: at, msg: at + " needs a command (a server on stdio) or a url (streamable HTTP)"}
		case !blank(s.Command) && !blank(s.URL):
			return &problem{key: at + ".url", msg: at + " has both a command and a url: give one"}
		case !blank(s.URL) && len(s.Args) > 0:
			return &problem{key: at + ".args", msg: at + ".args goes with a command, not a url"}
		case !blank(s.URL) && len(s.Env) > 0:
			return &problem{key: at + ".env", msg: at + ".env goes with a command, not a url"}
		case !blank(s.Command) && len(s.Headers) > 0:
			return &problem{key: at + ".headers", msg: at + ".headers goes with a url, not a command"}
		}
		if s.URL != "" {
			u, err := url.Parse(s.URL)
			if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.Opaque != "" {
				return &problem{key: at + ".url", msg: at + ".url must be an absolute http(s) URL, like http://127.0.0.1:3000/mcp", got: true}
			}
		}
	}
	for _, k := range sortedKeys(m.Permissions) {
		v := m.Permissions[k]
		server, tool, hasTool := strings.Cut(k, "/")
		if server == "" || (hasTool && tool == "") {
			return &problem{key: "mcp.permissions." + k, msg: fmt.Sprintf("mcp.permissions: %s must be a server name or server/tool", strconv.Quote(k))}
		}
		if v != "ask" && v != "auto" {
			return &problem{key: "mcp.permissions." + k, msg: fmt.Sprintf(`mcp.permissions.%s must be "ask" or "auto"`, k), got: true}
		}
	}
	switch {
	case m.Timeout <= 0:
		return &problem{key: "mcp.timeout", msg: "mcp.timeout must be > 0", got: true, raw: true}
	case m.PromptBudget < 0:
		return &problem{key: "mcp.promptBudget", msg: "mcp.promptBudget must be >= 0", got: true}
	}
	return nil
}

// envRef is ${NAME} in a header or an environment value.
var envRef = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// expandMCP replaces ${VAR} in the servers' headers and env values with
// the variable's value, so that a token stays out of the file. A variable
// that is not set is an error: a server sent "Bearer " would only answer
// 401, later and less clearly.
func expandMCP(m *MCPConfig, getenv func(string) string) *problem {
	for i := range m.Servers {
		s := &m.Servers[i]
		for _, part := range []struct {
			name string
			vals map[string]string
		}{{"env", s.Env}, {"headers", s.Headers}} {
			for _, k := range sortedKeys(part.vals) {
				v := part.vals[k]
				var missing string
				out := envRef.ReplaceAllStringFunc(v, func(ref string) string {
					name := ref[2 : len(ref)-1]
					val := getenv(name)
					if val == "" && missing == "" {
						missing = name
					}
					return val
				})
				if missing != "" {
					key := fmt.Sprintf("mcp.servers[%d].%s.%s", i, part.name, k)
					return &problem{key: key, msg: fmt.Sprintf("%s: ${%s} is not set in the environment", key, missing)}
				}
				part.vals[k] = out
			}
		}
	}
	return nil
}

// sortedKeys lists a map's keys in order, so that one file always gives
// the same first error.
func sortedKeys(m map[string]string) []string {
	return slices.Sorted(maps.Keys(m))
}
