package config

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"mm/internal/atomicfile"
	"mm/internal/regularfile"
	"mm/internal/userstate"
)

// A project configuration is an agent.yaml mm found by itself in the
// directory it starts in: it comes with the repository, whoever wrote it.
// Until the user trusts it (the line mode's question, `mm trust`), the keys
// that start a process, send a credential or choose where requests and
// files go are not applied (gatedKeys), and the keys that loosen a
// protection may only make it stricter (stricterOnly). The rest applies.
// docs/security.md lists both tables.

// Project is the project configuration and its trust.
type Project struct {
	// Path is the file as the messages show it ("agent.yaml"); Abs its
	// absolute path, the trust record's key; Sum the SHA-256 (hex) of the
	// bytes read, the ones that were decoded.
	Path, Abs, Sum string
	// Trusted says the user's trust record holds this path with this Sum.
	Trusted bool
	// Gated is what the file sets that needs trust, in the tables' order:
	// empty when nothing it sets does.
	Gated []Gated
}

// Gated is one key of the project file that needs trust, and what it
// would do, one line each (`mcp x: sh -c "touch m"`): raw text from the
// file, to be sanitised where it is printed.
type Gated struct {
	Key  string
	What []string
}

// maxShownLine is the most characters of one line of what a project file
// would do that the trust question and mm trust print.
const maxShownLine = 300

// ShownLine is one line of Gated.What as the trust question and mm trust
// print it: one line whatever the file holds (a newline in a server's name
// would start lines of the file's own making under the question's
// heading: a harmless command where the real one is), cut past
// maxShownLine characters with how many more (a long run of spaces would
// scroll the heading and the real lines out of sight). Still raw text:
// termsafe.Text goes over it.
func ShownLine(s string) string {
	s = strings.NewReplacer("\r", `\r`, "\n", `\n`, "\t", `\t`, "\u2028", `\u2028`, "\u2029", `\u2029`).Replace(s)
	if r := []rune(s); len(r) > maxShownLine {
		s = fmt.Sprintf("%s… (%d more characters: read the file)", string(r[:maxShownLine]), len(r)-maxShownLine)
	}
	return s
}

// Keys lists the gated keys' names.
func (p *Project) Keys() []string {
	var keys []string
	for _, g := range p.Gated {
		keys = append(keys, g.Key)
	}
	return keys
}

// Warning is the start-up warning of a mode that cannot ask (-p, --ask,
// ACP): the keys left out and how to apply them.
func (p *Project) Warning(skipped []string) string {
	return fmt.Sprintf("[warning: %s is not trusted: %s not applied — run mm trust in this directory to trust it]", p.Path, strings.Join(skipped, ", "))
}

// gatedKey is a key an untrusted project file does not apply.
type gatedKey struct {
	key string
	// needs reports whether the project file's value needs trust (nil:
	// always, once the file sets the key); dir is the project's directory.
	needs func(c *Config, dir string) bool
	// restore puts the user's layers' value back.
	restore func(c, base *Config)
	// what says what the file's value would do (base: the user's layers),
	// nothing when it does nothing that needs trust.
	what func(c, base *Config, dir string) []string
}

// ProviderDefaults is a provider's built-in base URL, fallback URL and
// API key variable ("" = none), ok false for an unknown name: the llm
// package's table, set by that package (it imports this one).
var ProviderDefaults func(name string) (baseURL, fallback, keyEnv string, ok bool)

// gatedKeys are the keys that start a process, send a credential or choose
// where requests and files go. The servers' env and headers (${VAR}) go
// with their servers: they are only expanded once applied.
var gatedKeys = []gatedKey{
	{key: "mcp.servers", restore: func(c, b *Config) { c.MCP.Servers = b.MCP.Servers }, what: func(c, _ *Config, _ string) []string {
		var out []string
		for _, s := range c.MCP.Servers {
			if s.URL != "" {
				line := "mcp " + s.Name + ": requests to " + shownURL(s.URL)
				if len(s.Headers) > 0 {
					var hs []string
					for _, k := range sortedKeys(s.Headers) {
						hs = append(hs, k+": "+strconv.Quote(s.Headers[k]))
					}
					line += " with headers " + strings.Join(hs, ", ")
				}
				out = append(out, line)
				continue
			}
			line := "mcp " + s.Name + ": " + commandLine(s.Command, s.Args)
			if len(s.Env) > 0 {
				var es []string
				for _, k := range sortedKeys(s.Env) {
					es = append(es, k+"="+strconv.Quote(s.Env[k]))
				}
				line += " with env " + strings.Join(es, " ")
			}
			out = append(out, line)
		}
		return out
	}},
	// A hook is a command run at every tool call, question or answer.
	{key: "hooks", restore: func(c, b *Config) { c.Hooks = b.Hooks.clone() }, what: hooksWould},
	{key: "lsp.servers", restore: func(c, b *Config) { c.LSP.Servers = b.LSP.Servers }, what: func(c, _ *Config, _ string) []string {
		var out []string
		for _, s := range c.LSP.Servers {
			out = append(out, "lsp "+s.Name+": "+commandLine(s.Command, s.Args))
		}
		return out
	}},
	{key: "mmConfigs", restore: func(c, b *Config) { c.MMConfigs = b.MMConfigs }, what: func(c, b *Config, _ string) []string {
		var out []string
		for _, name := range slices.Sorted(maps.Keys(c.MMConfigs)) {
			// The user's own agents, merged under the file's, are not its.
			if m, ok := b.MMConfigs[name]; !ok || m != c.MMConfigs[name] {
				out = append(out, "agent "+name+": mm -acp -config "+c.MMConfigs[name].Path)
			}
		}
		return out
	}},
	// provider picks among the built-in local servers, which is why it
	// applies; but a provider also brings its fallback (a host that is
	// not this machine: host.docker.internal, probed with the key at
	// every start) and its key variable. Those need trust.
	{key: "provider", restore: func(c, b *Config) { c.Provider = b.Provider }, what: providerSends},
	{key: "baseUrl", restore: func(c, b *Config) { c.BaseURL = b.BaseURL }, what: func(c, _ *Config, _ string) []string {
		return []string{"model requests to " + shownURL(c.BaseURL) + withKey(c)}
	}},
	// fallback: "" (no fallback server) sends nothing anywhere: it applies.
	{key: "fallback", needs: func(c *Config, _ string) bool { return c.Fallback != nil && *c.Fallback != "" },
		restore: func(c, b *Config) { c.Fallback = b.Fallback }, what: func(c, _ *Config, _ string) []string {
			return []string{"model requests, when the first server does not answer, to " + shownURL(*c.Fallback) + withKey(c)}
		}},
	{key: "apiKeyEnv", restore: func(c, b *Config) { c.APIKeyEnv = b.APIKeyEnv }, what: func(c, _ *Config, _ string) []string {
		to := shownURL(c.BaseURL)
		if to == "" {
			to = "the " + c.Provider + " server"
		}
		return []string{"$" + c.APIKeyEnv + " sent with the model requests to " + to}
	}},
	{key: "trace.dir", needs: func(c *Config, dir string) bool { return outside(c.Trace.Dir, dir) },
		restore: func(c, b *Config) { c.Trace.Dir = b.Trace.Dir },
		what: func(c, _ *Config, dir string) []string {
			return []string{"traces written to " + absIn(c.Trace.Dir, dir)}
		}},
	{key: "sessions.dir", needs: func(c *Config, dir string) bool { return outside(c.Sessions.Dir, dir) },
		restore: func(c, b *Config) { c.Sessions.Dir = b.Sessions.Dir },
		what: func(c, _ *Config, dir string) []string {
			return []string{"sessions written to " + absIn(c.Sessions.Dir, dir)}
		}},
	{key: "skillsDir", needs: func(c *Config, dir string) bool { return outside(c.SkillsDir, dir) },
		restore: func(c, b *Config) { c.SkillsDir = b.SkillsDir },
		what: func(c, _ *Config, dir string) []string {
			return []string{"skills read from " + absIn(c.SkillsDir, dir)}
		}},
	// Every entry is one more place bash may write in workspace mode.
	{key: "sandbox.writable", restore: func(c, b *Config) { c.Sandbox.Writable = b.Sandbox.Writable }, what: func(c, _ *Config, dir string) []string {
		var out []string
		for _, w := range c.Sandbox.Writable {
			out = append(out, "bash may write in "+w+" (sandbox.writable)")
		}
		if len(out) == 0 {
			out = append(out, "bash may not write the build caches (sandbox.writable: [])")
		}
		return out
	}},
	// Cloud metadata services hand out credentials at link-local
	// addresses.
	{key: "fetchAllowLinkLocal", needs: func(c *Config, _ string) bool { return c.FetchAllowLinkLocal },
		restore: func(c, b *Config) { c.FetchAllowLinkLocal = b.FetchAllowLinkLocal },
		what: func(c, _ *Config, _ string) []string {
			return []string{"fetch_content may reach link-local addresses (169.254.0.0/16, fe80::/10: cloud metadata services)"}
		}},
}

// providerSends is what the project's provider would send that the
// user's layers' provider does not, the user's baseUrl, fallback and
// apiKeyEnv kept: requests to its fallback, its key variable when set.
func providerSends(c, b *Config, _ string) []string {
	getenv := getenvOf(c)
	if c.Provider == b.Provider || ProviderDefaults == nil || getenv("AGENT_PROVIDER") != "" {
		// AGENT_PROVIDER, the user's, wins over every file.
		return nil
	}
	newBase, newFB, newKey, ok := ProviderDefaults(c.Provider)
	if !ok {
		return nil // an unknown provider is an error at start: nothing is sent
	}
	_, oldFB, oldKey, _ := ProviderDefaults(b.Provider)
	key := b.APIKeyEnv
	if key == "" {
		key = newKey
	}
	to := getenv("AGENT_BASE_URL")
	if to == "" {
		to = b.BaseURL
	}
	if to == "" {
		to = newBase
	}
	var out []string
	if b.Fallback == nil && newFB != "" && newFB != oldFB {
		line := "model requests, when the first server does not answer, to " + shownURL(newFB) + " (provider " + c.Provider + "'s fallback)"
		if key != "" && getenvKey(c, key) {
			line += " with $" + key
		}
		out = append(out, line)
	}
	if b.APIKeyEnv == "" && newKey != "" && newKey != oldKey && getenvKey(c, newKey) {
		out = append(out, "$"+newKey+" sent with the model requests to "+shownURL(to)+" (provider "+c.Provider+"'s key)")
	}
	return out
}

// getenvKey reports whether the key variable is set: an unset one sends
// nothing.
func getenvKey(c *Config, name string) bool { return getenvOf(c)(name) != "" }

// getenvOf is the environment c's layers were read with.
func getenvOf(c *Config) func(string) string {
	if c.layers != nil && c.layers.opts.Getenv != nil {
		return c.layers.opts.Getenv
	}
	return os.Getenv
}

// stricterKey is a key an untrusted project file may set only to make mm
// stricter than the user's layers (defaults, user file) made it.
type stricterKey struct {
	key string
	// tighten undoes in c what would be looser than in base, and reports
	// whether it had to.
	tighten func(c, base *Config) bool
	// what says what the looser value would allow.
	what func(c, base *Config) []string
}

// stricterOnly is the hook for the keys that protect the user: an
// untrusted project may turn a protection on, never off. A new key of that
// kind is one more entry here (the sandbox's: a mode further down off →
// workspace → read-only, network true → false, required false → true).
var stricterOnly = []stricterKey{
	{key: "yolo", tighten: func(c, b *Config) bool {
		if c.Yolo && !b.Yolo {
			c.Yolo = false
			return true
		}
		return false
	}, what: func(c, b *Config) []string {
		return []string{"yolo: true — every tool call runs without asking (your configuration says false)"}
	}},
	{key: "mcp.permissions", tighten: func(c, b *Config) bool {
		loosened := false
		for _, k := range sortedKeys(c.MCP.Permissions) {
			v := c.MCP.Permissions[k]
			if v == "ask" || b.MCP.Permissions[k] == v || !looserMCP(k, b) {
				continue
			}
			if old, ok := b.MCP.Permissions[k]; ok {
				c.MCP.Permissions[k] = old
			} else {
				delete(c.MCP.Permissions, k)
			}
			loosened = true
		}
		return loosened
	}, what: func(c, b *Config) []string {
		var out []string
		for _, k := range sortedKeys(c.MCP.Permissions) {
			if v := c.MCP.Permissions[k]; v == "auto" && b.MCP.Permissions[k] != v && looserMCP(k, b) {
				out = append(out, "mcp.permissions "+k+": auto — its calls run without asking (your configuration asks)")
			}
		}
		return out
	}},
	{key: "sandbox.mode", tighten: func(c, b *Config) bool {
		if sandboxRank(c.Sandbox.Mode) < sandboxRank(b.Sandbox.Mode) {
			c.Sandbox.Mode = b.Sandbox.Mode
			return true
		}
		return false
	}, what: func(c, b *Config) []string {
		return []string{"sandbox.mode: " + c.Sandbox.Mode + " — bash less confined (your configuration says " + b.Sandbox.Mode + ")"}
	}},
	{key: "sandbox.network", tighten: func(c, b *Config) bool {
		if c.Sandbox.Network && !b.Sandbox.Network {
			c.Sandbox.Network = false
			return true
		}
		return false
	}, what: func(c, b *Config) []string {
		return []string{"sandbox.network: true — bash may connect (your configuration says false)"}
	}},
	{key: "sandbox.required", tighten: func(c, b *Config) bool {
		if !c.Sandbox.Required && b.Sandbox.Required {
			c.Sandbox.Required, c.Sandbox.RequiredAt = true, b.Sandbox.RequiredAt
			return true
		}
		return false
	}, what: func(c, b *Config) []string {
		return []string{"sandbox.required: false — bash unconfined where the sandbox is missing (your configuration requires it)"}
	}},
	{key: "bashTool", tighten: offOnly(func(c *Config) *bool { return &c.BashTool }), what: toolOn("bash")},
	{key: "editTools", tighten: offOnly(func(c *Config) *bool { return &c.EditTools }), what: toolOn("write_file and edit_file")},
	{key: "fetchContentTool", tighten: offOnly(func(c *Config) *bool { return &c.FetchContentTool }), what: toolOn("fetch_content")},
}

// sandboxRank orders the sandbox modes from the least confined.
func sandboxRank(mode string) int {
	switch mode {
	case SandboxWorkspace:
		return 1
	case SandboxReadOnly:
		return 2
	}
	return 0
}

// looserMCP reports whether "auto" for the permission key k (a server or
// server/tool) would let a call run that the user's layers make ask.
func looserMCP(k string, b *Config) bool {
	server, tool, hasTool := strings.Cut(k, "/")
	if hasTool {
		return b.MCP.MCPPermission(server, tool) == "ask"
	}
	return b.MCP.Permissions[server] == "ask"
}

// offOnly is tighten for a tool switch: the project may turn it off.
func offOnly(field func(*Config) *bool) func(c, b *Config) bool {
	return func(c, b *Config) bool {
		if *field(c) && !*field(b) {
			*field(c) = false
			return true
		}
		return false
	}
}

func toolOn(name string) func(c, b *Config) []string {
	return func(c, b *Config) []string {
		return []string{"the " + name + " tool turned on (your configuration turns it off)"}
	}
}

// newProject sees what l's project file sets that needs trust, and
// whether the user trusts it as it is.
func newProject(l *Layers) *Project {
	p := &Project{Path: l.top.path}
	p.Abs = trustKey(l.top.path)
	sum := sha256.Sum256(l.top.data)
	p.Sum = hex.EncodeToString(sum[:])
	for _, g := range gatedKeys {
		if !l.top.sets(g.key) || (g.needs != nil && !g.needs(l.full, l.top.dir)) {
			continue
		}
		// An empty list (mcp.servers: []) starts nothing: it applies.
		if what := g.what(l.full, l.base, l.top.dir); len(what) > 0 {
			p.Gated = append(p.Gated, Gated{Key: g.key, What: what})
		}
	}
	for _, s := range stricterOnly {
		if !l.top.sets(s.key) {
			continue
		}
		probe := l.full.clone()
		if s.tighten(probe, l.base) {
			p.Gated = append(p.Gated, Gated{Key: s.key, What: s.what(l.full, l.base)})
		}
	}
	if rec, err := readTrust(l.opts.Getenv); err == nil {
		for _, r := range rec.Files {
			if r.Path == p.Abs && r.SHA256 == p.Sum {
				p.Trusted = true
			}
		}
	}
	return p
}

// withhold leaves out of c the project's values that need trust, c being
// the project applied over base, and returns the keys left out.
func (p *Project) withhold(c, base *Config) []string {
	var skipped []string
	for _, g := range gatedKeys {
		if slices.Contains(p.Keys(), g.key) {
			g.restore(c, base)
			skipped = append(skipped, g.key)
		}
	}
	for _, s := range stricterOnly {
		if slices.Contains(p.Keys(), s.key) && s.tighten(c, base) {
			skipped = append(skipped, s.key)
		}
	}
	return skipped
}

// commandLine shows a command and its arguments as a shell would read
// them: a word with a space or a quote is quoted — the command too, which
// is one program's name however many spaces it holds (`command: "gopls
// serve"` runs no gopls).
func commandLine(cmd string, args []string) string {
	var words []string
	for _, a := range append([]string{cmd}, args...) {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$`;&|<>(){}*?#~") {
			a = strconv.Quote(a)
		}
		words = append(words, a)
	}
	return strings.Join(words, " ")
}

// withKey names the API key variable that goes with the model requests.
func withKey(c *Config) string {
	if c.APIKeyEnv == "" {
		return ""
	}
	return " with $" + c.APIKeyEnv
}

// absIn is path as an absolute path, a relative one taken from dir.
func absIn(path, dir string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(dir, path)
}

// outside reports whether path, relative to the project directory dir
// or absolute, leaves it — lexically (..) or through a symbolic link
// that exists now. "" leaves nothing.
func outside(path, dir string) bool {
	if path == "" {
		// No directory: skills off, or no trace: nothing read or written.
		return false
	}
	if !filepath.IsAbs(path) && !filepath.IsLocal(path) {
		return true
	}
	realDir, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return true
	}
	p := absIn(path, dir)
	if filepath.IsAbs(path) && !within(p, dir) && !within(p, realDir) {
		return true
	}
	// The longest part of the path that exists, its links followed.
	rest := ""
	for cur := p; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return !within(filepath.Join(real, rest), realDir)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return true
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// within reports whether p is dir or below it (both clean and absolute).
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && filepath.IsLocal(rel)
}

// trustKey is the absolute path that keys path's trust record: the
// directory's links resolved, so one file has one key.
func trustKey(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return path
	}
	if dir, err := filepath.EvalSymlinks(filepath.Dir(abs)); err == nil {
		return filepath.Join(dir, filepath.Base(abs))
	}
	return abs
}

// TrustFileName is the trust records' file in the user's state directory.
const TrustFileName = "trusted.json"

// TrustRecord is one trusted project file: its absolute path and the
// SHA-256 of the content trusted.
type TrustRecord struct {
	Path    string    `json:"path"`
	SHA256  string    `json:"sha256"`
	Trusted time.Time `json:"trusted"`
}

type trustFile struct {
	Files []TrustRecord `json:"files"`
}

// readTrust reads the records; none when the file does not exist.
func readTrust(getenv func(string) string) (*trustFile, error) {
	dir := userstate.Dir(getenv)
	if dir == "" {
		return &trustFile{}, userstate.ErrNoDir
	}
	path := filepath.Join(dir, TrustFileName)
	fi, err := os.Lstat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &trustFile{}, nil
	}
	if err != nil {
		return nil, err
	}
	if !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	data, err := regularfile.Read(path, MaxFileSize)
	if err != nil {
		return nil, err
	}
	var f trustFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &f, nil
}

// writeTrust replaces the records, atomically, private to the user.
func writeTrust(getenv func(string) string, f *trustFile) error {
	dir, err := userstate.Ensure(getenv)
	if err != nil {
		return err
	}
	path := filepath.Join(dir, TrustFileName)
	data, err := json.MarshalIndent(f, "", "  ")
	if err != nil {
		return err
	}
	prev, err := os.Lstat(path)
	if err != nil {
		prev = nil
	} else if !prev.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	if err := atomicfile.Write(path, string(data)+"\n", prev); err != nil {
		return err
	}
	return os.Chmod(path, 0o600)
}

// Trust records p as trusted, as it is now (its path and Sum).
func Trust(getenv func(string) string, p *Project) error {
	if getenv == nil {
		getenv = os.Getenv
	}
	f, err := readTrust(getenv)
	if err != nil {
		return err
	}
	f.Files = slices.DeleteFunc(f.Files, func(r TrustRecord) bool { return r.Path == p.Abs })
	f.Files = append(f.Files, TrustRecord{Path: p.Abs, SHA256: p.Sum, Trusted: time.Now().UTC().Truncate(time.Second)})
	if err := writeTrust(getenv, f); err != nil {
		return err
	}
	p.Trusted = true
	return nil
}

// Revoke forgets the trust of the file at path; false when it had none.
func Revoke(getenv func(string) string, path string) (bool, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	f, err := readTrust(getenv)
	if err != nil {
		return false, err
	}
	key := trustKey(path)
	n := len(f.Files)
	f.Files = slices.DeleteFunc(f.Files, func(r TrustRecord) bool { return r.Path == key })
	if len(f.Files) == n {
		return false, nil
	}
	return true, writeTrust(getenv, f)
}

// TrustList lists the trusted files, in the order they were trusted.
func TrustList(getenv func(string) string) ([]TrustRecord, error) {
	if getenv == nil {
		getenv = os.Getenv
	}
	f, err := readTrust(getenv)
	if err != nil && !errors.Is(err, userstate.ErrNoDir) {
		return nil, err
	}
	return f.Files, nil
}

// TrustPath is where the records are kept ("" when no state directory
// can be placed).
func TrustPath(getenv func(string) string) string {
	dir := userstate.Dir(getenv)
	if dir == "" {
		return ""
	}
	return filepath.Join(dir, TrustFileName)
}

// TrustWarning is the warning Resolve gave for the project's keys it left
// out, "" when none was.
func (c *Config) TrustWarning() string {
	if len(c.skipped) == 0 || c.layers == nil || c.layers.Project == nil {
		return ""
	}
	return c.layers.Project.Warning(c.skipped)
}

// FileSum is the SHA-256 (hex) of a configuration file's content, as the
// trust records keep it.
func FileSum(path string) (string, error) {
	data, err := readFile(path)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}
