// Package config reads mm's YAML configuration file: every key of the
// reference (shared/spec/config.fr.md), its default, the environment
// overrides and the validation messages, word for word.
//
// The files are decoded in layers over the defaults — the user's file,
// then the project's (or -c's) — so a key a file leaves out keeps the
// earlier value and a key mm does not know is ignored (with a start-up
// warning that names the nearest known key). A project file mm found by
// itself applies its gated keys only once trusted (trust.go).
package config

import (
	"time"
)

// Config is the whole configuration of one mm agent.
type Config struct {
	Provider string `yaml:"provider"`
	Model    string `yaml:"model"`
	BaseURL  string `yaml:"baseUrl"`
	// Fallback is nil when the key is absent (use the provider's default
	// fallback) and points to "" when the file sets `fallback: ""` (no
	// fallback at all).
	Fallback      *string `yaml:"fallback"`
	APIKeyEnv     string  `yaml:"apiKeyEnv"`
	ContextWindow int     `yaml:"contextWindow"`
	MaxOutput     int     `yaml:"maxOutput"`
	MaxTurns      int     `yaml:"maxTurns"`
	PreviewLines  int     `yaml:"previewLines"`

	DisplayCommands  bool   `yaml:"displayCommands"`
	ShowThinking     bool   `yaml:"showThinking"`
	System           string `yaml:"system"`
	SkillsDir        string `yaml:"skillsDir"`
	BashTool         bool   `yaml:"bashTool"`
	EditTools        bool   `yaml:"editTools"`
	FetchContentTool bool   `yaml:"fetchContentTool"`
	AskUserTool      bool   `yaml:"askUserTool"`
	PlanTool         bool   `yaml:"planTool"`

	// Sampling is passed to the server as generation parameters, with the
	// OpenAI names. It is kept as a map: keys the OpenAI API does not declare
	// go to the top level of the request unchanged. The Go type of each
	// value is described on decoder.sampling; IsOpenAISamplingKey tells the
	// declared keys.
	Sampling map[string]any `yaml:"sampling"`

	WatchdogTimeout   time.Duration `yaml:"watchdogTimeout"`
	FirstTokenTimeout time.Duration `yaml:"firstTokenTimeout"`
	BashTimeout       time.Duration `yaml:"bashTimeout"`

	Context  ContextConfig  `yaml:"context"`
	Sessions SessionsConfig `yaml:"sessions"`
	Trace    TraceConfig    `yaml:"trace"`
	ACP      ACPConfig      `yaml:"acp"`
	LSP      LSPConfig      `yaml:"lsp"`
	MCP      MCPConfig      `yaml:"mcp"`
	Sandbox  SandboxConfig  `yaml:"sandbox"`
	// Hooks are the commands run at points of a turn (hooks.go).
	Hooks HooksConfig `yaml:"hooks"`

	// FetchAllowLinkLocal lets fetch_content reach link-local addresses
	// (169.254.0.0/16, fe80::/10), where cloud metadata services hand
	// out credentials: off unless the user's own configuration says so.
	FetchAllowLinkLocal bool `yaml:"fetchAllowLinkLocal"`

	TUI bool `yaml:"tui"`
	// TUIFlag says -tui set TUI that no file set: mm -continue alone
	// would not open the window again.
	TUIFlag bool `yaml:"-"`
	Yolo    bool `yaml:"yolo"`
	// Permissions is the deprecated predecessor of Yolo: "ask" or "auto".
	Permissions string `yaml:"permissions"`

	// MMConfigs names the other mm agents this one can ask, by name.
	MMConfigs map[string]MMConfig `yaml:"mmConfigs"`

	// ProjectInstructions adds the project's AGENTS.md to the system
	// prompt (an mm addition to the reference).
	ProjectInstructions bool `yaml:"projectInstructions"`

	// ToolCallRetry asks a llama.cpp server again, once, with the tool
	// call constrained by its grammar when a reply's call could not be
	// repaired (an mm addition; docs/tool-calls.md).
	ToolCallRetry bool `yaml:"toolCallRetry"`

	// Path is the last configuration file read (the project's ./agent.yaml
	// or -c's, else the user-level file), as given on the command line
	// ("agent.yaml" when it was picked up from the current directory, the
	// absolute path of the user-level file, "" when mm runs on its built-in
	// defaults). Dir is the absolute directory of that file ("" without a
	// file). InUse names every file read.
	Path string `yaml:"-"`
	Dir  string `yaml:"-"`
	// Warnings are the start-up warnings (not errors) the file produced, in
	// the order found. The facade prints them.
	Warnings []string `yaml:"-"`
	// ModelSet says the model was chosen (the file's model key, AGENT_MODEL
	// or -m): without it, a server that serves one model gets that one
	// named instead of the built-in default.
	ModelSet bool `yaml:"-"`
	// ModelServed says Model is the one model the server serves, taken
	// because none was chosen (/config names it as the origin).
	ModelServed bool `yaml:"-"`
	// SkillsDirSet says the file gives skillsDir: only then is a
	// directory without skills worth a warning.
	SkillsDirSet bool `yaml:"-"`

	// layers is what Resolve made this from (nil for Default()), for
	// /config's origins and the banner; skipped are the project file's
	// keys left out because it is not trusted.
	layers  *Layers
	skipped []string
}

// ContextConfig is the automatic compression of the history.
type ContextConfig struct {
	Enabled          bool   `yaml:"enabled"`
	Threshold        int    `yaml:"threshold"`
	MaxMessages      int    `yaml:"maxMessages"`
	KeepLastTurns    int    `yaml:"keepLastTurns"`
	SummaryMaxTokens int    `yaml:"summaryMaxTokens"`
	Prompt           string `yaml:"prompt"`
	ShowStats        bool   `yaml:"showStats"`
}

// SessionsConfig is the persistent sessions, per project.
type SessionsConfig struct {
	Enabled bool   `yaml:"enabled"`
	Dir     string `yaml:"dir"`
}

// TraceConfig writes every model request and response to files.
type TraceConfig struct {
	Enabled bool   `yaml:"enabled"`
	Dir     string `yaml:"dir"`
}

// The sandbox modes of the bash tool (sandbox.mode).
const (
	SandboxOff       = "off"
	SandboxWorkspace = "workspace"
	SandboxReadOnly  = "read-only"
)

// SandboxConfig confines what a bash command, and every process it
// starts, may write and reach (docs/security.md).
type SandboxConfig struct {
	// Mode is SandboxOff (the reference's behaviour), SandboxWorkspace
	// (writes under the project root, the temp directories and
	// Writable) or SandboxReadOnly (writes to the temp directories only).
	Mode string `yaml:"mode"`
	// Network false forbids TCP connect and bind.
	Network bool `yaml:"network"`
	// Writable are the directories a workspace command may also write;
	// nil is the default, the user's build caches. A relative path is
	// the project root's, ~/ the home directory's.
	Writable []string `yaml:"writable"`
	// Required makes a system that cannot confine bash a configuration
	// error instead of a warning.
	Required bool `yaml:"required"`
	// RequiredAt is where required: true was read ("" = not from a
	// file), for the error that names its line.
	RequiredAt Place `yaml:"-"`
}

// Place is a line of a configuration file.
type Place struct {
	Path string
	Line int
}

// ACPConfig is how `mm -acp` introduces itself to the editor.
type ACPConfig struct {
	Name  string `yaml:"name"`
	Title string `yaml:"title"`
}

// LSPConfig lists the language servers behind the lsp tool.
type LSPConfig struct {
	Servers []LSPServer `yaml:"servers"`
}

// LSPServer is one language server.
type LSPServer struct {
	Name       string   `yaml:"name"`
	Command    string   `yaml:"command"`
	Args       []string `yaml:"args"`
	Extensions []string `yaml:"extensions"`
}

// MMConfig is one entry of mmConfigs. The short form `name: path` sets only
// Path.
type MMConfig struct {
	// Path is absolute: a relative path in the file is resolved against the
	// directory of the file that declares it.
	Path        string `yaml:"path"`
	Description string `yaml:"description"`
	// Yolo is nil when the entry does not set it: the asking agent's own
	// yolo decides then.
	Yolo *bool `yaml:"yolo"`
}

// Built-in values that other packages show or compare against.
const (
	DefaultModel    = "huggingface.co/jetbrains/mellum2-12b-a2.5b-instruct-gguf-q4_k_m:Q4_K_M"
	DefaultACPName  = "bob"
	DefaultACPTitle = "Bob (bash-first agent)"
)

// Default returns the built-in configuration: what mm uses for every key the
// file does not set.
func Default() *Config {
	return &Config{
		Provider:     "dmr",
		Model:        DefaultModel,
		MaxOutput:    16000,
		MaxTurns:     10,
		PreviewLines: 20,
		ShowThinking: true,
		System:       DefaultSystemPrompt,
		SkillsDir:    "skills",
		BashTool:     true,
		EditTools:    true,
		AskUserTool:  true,
		Sampling: map[string]any{
			"temperature": 0.0,
			"top_p":       0.9,
			"max_tokens":  4096,
		},
		WatchdogTimeout:   20 * time.Second,
		FirstTokenTimeout: 3 * time.Minute,
		BashTimeout:       30 * time.Second,
		Context: ContextConfig{
			Threshold:        75,
			MaxMessages:      80,
			KeepLastTurns:    3,
			SummaryMaxTokens: 1200,
			ShowStats:        true,
		},
		Sessions: SessionsConfig{Dir: ".mm/sessions"},
		Trace:    TraceConfig{Dir: ".mm/traces"},
		ACP:      ACPConfig{Name: DefaultACPName, Title: DefaultACPTitle},
		MCP:      MCPConfig{Timeout: 60 * time.Second, PromptBudget: 4096},
		Sandbox:  SandboxConfig{Mode: SandboxOff, Network: true},
		Yolo:     true,

		ProjectInstructions: true,
		ToolCallRetry:       true,
	}
}

// EffectiveFirstTokenTimeout is firstTokenTimeout, never shorter than
// watchdogTimeout (the reference's rule).
func (c *Config) EffectiveFirstTokenTimeout() time.Duration {
	if c.FirstTokenTimeout < c.WatchdogTimeout {
		return c.WatchdogTimeout
	}
	return c.FirstTokenTimeout
}

// MaxTokens is sampling.max_tokens as an integer, 0 when unset or not a
// number.
func (c *Config) MaxTokens() int {
	switch v := c.Sampling["max_tokens"].(type) {
	case int:
		return v
	case int64:
		return int(v)
	case float64:
		return int(v)
	}
	return 0
}
