package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

// env turns a map into a getenv function.
func env(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

// loadText writes text to agent.yaml in a fresh directory, moves there and
// loads it by that relative name, so error messages read "agent.yaml".
func loadText(t *testing.T, text string, vars map[string]string) (*Config, error) {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("agent.yaml", []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return Load("agent.yaml", env(vars))
}

// mustLoad loads text and fails the test on any error.
func mustLoad(t *testing.T, text string, vars map[string]string) *Config {
	t.Helper()
	cfg, err := loadText(t, text, vars)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return cfg
}

// wantError loads text and checks the whole error line.
func wantError(t *testing.T, text string, vars map[string]string, want string) {
	t.Helper()
	cfg, err := loadText(t, text, vars)
	if err == nil {
		t.Fatalf("Load succeeded (%+v), want %s", cfg, want)
	}
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("error %T %v is not a *config.Error", err, err)
	}
	if cfg != nil {
		t.Errorf("Load returned a config with its error")
	}
	if err.Error() != want {
		t.Errorf("error:\n got %s\nwant %s", err.Error(), want)
	}
}

func TestDefaultMatchesReference(t *testing.T) {
	c := Default()
	checks := []struct {
		name      string
		got, want any
	}{
		{"provider", c.Provider, "dmr"},
		{"model", c.Model, "huggingface.co/jetbrains/mellum2-12b-a2.5b-instruct-gguf-q4_k_m:Q4_K_M"},
		{"baseUrl", c.BaseURL, ""},
		{"fallback", c.Fallback == nil, true},
		{"apiKeyEnv", c.APIKeyEnv, ""},
		{"contextWindow", c.ContextWindow, 0},
		{"maxOutput", c.MaxOutput, 16000},
		{"maxTurns", c.MaxTurns, 10},
		{"previewLines", c.PreviewLines, 20},
		{"displayCommands", c.DisplayCommands, false},
		{"showThinking", c.ShowThinking, true},
		{"system", c.System, DefaultSystemPrompt},
		{"skillsDir", c.SkillsDir, "skills"},
		{"bashTool", c.BashTool, true},
		{"editTools", c.EditTools, true},
		{"fetchContentTool", c.FetchContentTool, false},
		{"askUserTool", c.AskUserTool, true},
		{"sampling", c.Sampling, map[string]any{"temperature": 0.0, "top_p": 0.9, "max_tokens": 4096}},
		{"watchdogTimeout", c.WatchdogTimeout, 20 * time.Second},
		{"firstTokenTimeout", c.FirstTokenTimeout, 3 * time.Minute},
		{"bashTimeout", c.BashTimeout, 30 * time.Second},
		{"context", c.Context, ContextConfig{Threshold: 75, MaxMessages: 80, KeepLastTurns: 3, SummaryMaxTokens: 1200, ShowStats: true}},
		{"sessions", c.Sessions, SessionsConfig{Dir: ".mm/sessions"}},
		{"trace", c.Trace, TraceConfig{Dir: ".mm/traces"}},
		{"acp", c.ACP, ACPConfig{Name: "bob", Title: "Bob (bash-first agent)"}},
		{"lsp", len(c.LSP.Servers), 0},
		{"tui", c.TUI, false},
		{"yolo", c.Yolo, true},
		{"permissions", c.Permissions, ""},
		{"mmConfigs", len(c.MMConfigs), 0},
		{"sandbox", c.Sandbox, SandboxConfig{Mode: "off", Network: true}},
		{"fetchAllowLinkLocal", c.FetchAllowLinkLocal, false},
	}
	for _, ck := range checks {
		if !reflect.DeepEqual(ck.got, ck.want) {
			t.Errorf("%s = %#v, want %#v", ck.name, ck.got, ck.want)
		}
	}
	// Each call gets its own sampling map: a caller changing one must not
	// change the next configuration's defaults.
	c.Sampling["temperature"] = 1.0
	if Default().Sampling["temperature"] != 0.0 {
		t.Error("Default shares its sampling map between calls")
	}
}

func TestValidationMessages(t *testing.T) {
	cases := []struct {
		name string
		yaml string
		env  map[string]string
		want string
	}{
		{"provider", `provider: ""`, nil, "line 1: provider must not be empty"},
		{"provider blank", `provider: "  "`, nil, `line 1: provider must not be empty (got "  ")`},
		{"model", `model: ""`, nil, "line 1: model must not be empty"},
		{"contextWindow", `contextWindow: -1`, nil, "line 1: contextWindow must be >= 0 (got -1)"},
		{"maxOutput zero", `maxOutput: 0`, nil, "line 1: maxOutput must be > 0 (got 0)"},
		{"maxOutput negative", `maxOutput: -5`, nil, "line 1: maxOutput must be > 0 (got -5)"},
		{"maxTurns", `maxTurns: 0`, nil, "line 1: maxTurns must be > 0 (got 0)"},
		{"previewLines", `previewLines: -1`, nil, "line 1: previewLines must be >= 0 (got -1)"},
		{"threshold zero", "context:\n  threshold: 0", nil, "line 2: context.threshold must be between 1 and 100 (got 0)"},
		{"threshold high", "context:\n  threshold: 101", nil, "line 2: context.threshold must be between 1 and 100 (got 101)"},
		{"keepLastTurns", "context:\n  keepLastTurns: 0", nil, "line 2: context.keepLastTurns must be >= 1 (got 0)"},
		{"summaryMaxTokens", "context:\n  summaryMaxTokens: 0", nil, "line 2: context.summaryMaxTokens must be > 0 (got 0)"},
		{"maxMessages", "context:\n  maxMessages: -1", nil, "line 2: context.maxMessages must be >= 0 (got -1)"},
		{"sessions.dir", "sessions:\n  dir: \"\"", nil, "line 2: sessions.dir must not be empty"},
		{"trace.dir enabled", "trace:\n  enabled: true\n  dir: \"\"", nil, "line 3: trace.dir must not be empty"},
		{"trace.dir by AGENT_TRACE", "trace:\n  dir: \"\"", map[string]string{"AGENT_TRACE": "1"}, "line 2: trace.dir must not be empty"},
		{"acp.name empty", "acp:\n  name: \"\"", nil, "line 2: acp.name must not be empty"},
		{"acp.name blank", "acp:\n  name: \"   \"", nil, `line 2: acp.name must not be empty (got "   ")`},
		{"lsp name", "lsp:\n  servers:\n    - command: gopls\n      extensions: [.go]", nil, "line 3: lsp.servers[0].name must not be empty"},
		{"lsp command", "lsp:\n  servers:\n    - name: gopls\n      command: gopls\n      extensions: [.go]\n    - name: ts\n      extensions: [.ts]", nil, "line 6: lsp.servers[1].command must not be empty"},
		{"lsp extensions", "lsp:\n  servers:\n    - name: gopls\n      command: gopls", nil, "line 3: lsp.servers[0].extensions must list at least one extension"},
		{"lsp extensions empty list", "lsp:\n  servers:\n    - name: gopls\n      command: gopls\n      extensions: []", nil, "line 5: lsp.servers[0].extensions must list at least one extension"},
		{"lsp dot", "lsp:\n  servers:\n    - name: gopls\n      command: gopls\n      extensions: [go]", nil, `line 5: lsp.servers[0].extensions: "go" must start with a dot, like ".go"`},
		{"lsp dot ts", "lsp:\n  servers:\n    - name: ts\n      command: tsls\n      extensions: [.tsx, ts]", nil, `line 5: lsp.servers[0].extensions: "ts" must start with a dot, like ".ts"`},
		{"lsp served", "lsp:\n  servers:\n    - name: typescript\n      command: tsls\n      extensions: [.ts]\n    - name: deno\n      command: deno\n      extensions: [.ts]", nil, `line 8: lsp.servers[1]: extension ".ts" is already served by "typescript"`},
		{"lsp served any case", "lsp:\n  servers:\n    - name: typescript\n      command: tsls\n      extensions: [.ts]\n    - name: deno\n      command: deno\n      extensions: [.js, .TS]", nil, `line 8: lsp.servers[1]: extension ".TS" is already served by "typescript"`},
		{"permissions", `permissions: never`, nil, `line 1: permissions must be "auto" or "ask" (got "never")`},
		{"permissions empty", `permissions: ""`, nil, `line 1: permissions must be "auto" or "ask"`},
		{"AGENT_YOLO", ``, map[string]string{"AGENT_YOLO": "maybe"}, `AGENT_YOLO="maybe": must be true or false`},
		{"AGENT_TRACE", ``, map[string]string{"AGENT_TRACE": "often"}, `AGENT_TRACE="often": must be true or false`},
		{"bashTimeout zero", `bashTimeout: 0s`, nil, "line 1: bashTimeout must be > 0 (got 0s)"},
		{"bashTimeout negative", `bashTimeout: -5s`, nil, "line 1: bashTimeout must be > 0 (got -5s)"},
		{"watchdogTimeout", `watchdogTimeout: 0s`, nil, "line 1: watchdogTimeout must be > 0 (got 0s)"},
		{"firstTokenTimeout", `firstTokenTimeout: -1s`, nil, "line 1: firstTokenTimeout must be >= 0 (got -1s)"},
		{"mmConfigs uppercase", "mmConfigs:\n  Bob: bob.yaml", nil, `line 2: mmConfigs: "Bob" is not a valid name (use lowercase letters, digits and -, starting with a letter or a digit: the name becomes the command /ask-<name>)`},
		{"mmConfigs space", "mmConfigs:\n  \"my agent\": a.yaml", nil, `line 2: mmConfigs: "my agent" is not a valid name (use lowercase letters, digits and -, starting with a letter or a digit: the name becomes the command /ask-<name>)`},
		{"mmConfigs dash first", "mmConfigs:\n  -x: a.yaml", nil, `line 2: mmConfigs: "-x" is not a valid name (use lowercase letters, digits and -, starting with a letter or a digit: the name becomes the command /ask-<name>)`},
		{"mmConfigs underscore", "mmConfigs:\n  a_b: a.yaml", nil, `line 2: mmConfigs: "a_b" is not a valid name (use lowercase letters, digits and -, starting with a letter or a digit: the name becomes the command /ask-<name>)`},
		{"mmConfigs with-context", "mmConfigs:\n  with-context-x: x.yaml", nil, `line 2: mmConfigs: "with-context-x" is not a valid name (it would read as /ask-with-context-…)`},
		{"mmConfigs with-context alone", "mmConfigs:\n  with-context: x.yaml", nil, `line 2: mmConfigs: "with-context" is not a valid name (it would read as /ask-with-context-…)`},
		{"mmConfigs empty short", "mmConfigs:\n  helper: \"\"", nil, "line 2: mmConfigs.helper: the path must not be empty"},
		{"mmConfigs null short", "mmConfigs:\n  helper:", nil, "line 2: mmConfigs.helper: the path must not be empty"},
		{"mmConfigs long without path", "mmConfigs:\n  helper:\n    description: reviews code", nil, "line 2: mmConfigs.helper: the path must not be empty"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, tc.yaml, tc.env, "[config error: agent.yaml: "+tc.want+"]")
		})
	}
}

func TestValidValuesAtTheLimits(t *testing.T) {
	// The bounds themselves are valid: the checks must not be off by one.
	cfg := mustLoad(t, `
contextWindow: 0
maxOutput: 1
maxTurns: 1
previewLines: 0
firstTokenTimeout: 0s
trace:
  dir: ""
context:
  threshold: 100
  keepLastTurns: 1
  summaryMaxTokens: 1
  maxMessages: 0
`, nil)
	if cfg.Context.Threshold != 100 || cfg.MaxTurns != 1 || cfg.FirstTokenTimeout != 0 || cfg.Trace.Dir != "" {
		t.Errorf("values not read: %+v", cfg)
	}
	if got := mustLoad(t, "context:\n  threshold: 1", nil).Context.Threshold; got != 1 {
		t.Errorf("threshold = %d, want 1", got)
	}
}

func TestLineErrors(t *testing.T) {
	cases := []struct {
		name, yaml, want string
	}{
		{"int from string", "provider: dmr\nmodel: m\n\nmaxTurns: abc\n", `line 4: maxTurns must be an integer, got "abc"`},
		{"int from decimal", "maxTurns: 40.5", `line 1: maxTurns must be an integer, got 40.5`},
		{"int from list", "maxOutput: [1, 2]", `line 1: maxOutput must be an integer, got a list`},
		{"nested int", "context:\n  enabled: true\n  threshold: high", `line 3: context.threshold must be an integer, got "high"`},
		{"bool", "tui: maybe", `line 1: tui must be true or false, got "maybe"`},
		{"quoted bool", `yolo: "yes"`, `line 1: yolo must be true or false, got "yes"`},
		{"nested bool", "sessions:\n  enabled: 3", `line 2: sessions.enabled must be true or false, got 3`},
		{"string from mapping", "model:\n  name: x", `line 2: model must be a string, got a mapping`},
		{"section not mapping", "context: true", `line 1: context must be a mapping, got true`},
		{"duration words", "watchdogTimeout: 20 seconds", `line 1: watchdogTimeout must be a duration like 20s or 3m, got "20 seconds"`},
		{"duration bare number", "\nbashTimeout: 30", `line 2: bashTimeout must be a duration like 20s or 3m, got 30`},
		{"duration days", "firstTokenTimeout: 1d", `line 1: firstTokenTimeout must be a duration like 20s or 3m, got "1d"`},
		{"lsp servers not list", "lsp:\n  servers: gopls", `line 2: lsp.servers must be a list of servers, got "gopls"`},
		{"lsp server not mapping", "lsp:\n  servers:\n    - gopls", `line 3: lsp.servers[0] must be a mapping, got "gopls"`},
		{"lsp args", "lsp:\n  servers:\n    - name: g\n      command: g\n      args: [--stdio, {a: 1}]", `line 5: lsp.servers[0].args[1] must be a string, got a mapping`},
		{"mmConfigs list", "mmConfigs:\n  - a.yaml", `line 2: mmConfigs must be a mapping of names to config files, got a list`},
		{"mmConfigs entry list", "mmConfigs:\n  helper: [a.yaml]", `line 2: mmConfigs.helper must be a path or a mapping with path, description and yolo, got a list`},
		{"mmConfigs yolo", "mmConfigs:\n  helper:\n    path: h.yaml\n    yolo: sometimes", `line 4: mmConfigs.helper.yolo must be true or false, got "sometimes"`},
		{"sampling not mapping", "sampling: 0.5", `line 1: sampling must be a mapping of generation parameters, got 0.5`},
		{"duplicate key", "maxTurns: 3\nmodel: m\nmaxTurns: 4", `line 3: maxTurns is set twice (first on line 1)`},
		{"duplicate nested key", "context:\n  enabled: true\n  enabled: false", `line 3: context.enabled is set twice (first on line 2)`},
		{"root list", "- a\n- b", `line 1: the file must be a mapping of keys to values, like maxTurns: 40, got a list`},
		{"root scalar", "hello", `line 1: the file must be a mapping of keys to values, like maxTurns: 40, got "hello"`},
		{"permissions list", "permissions: [ask]", `line 1: permissions must be a string, got a list`},
		{"long string cut", "maxTurns: \"" + strings.Repeat("x", 100) + "\"", `line 1: maxTurns must be an integer, got "` + strings.Repeat("x", 40) + `…"`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, tc.yaml, nil, "[config error: agent.yaml: "+tc.want+"]")
		})
	}
}

func TestSyntaxErrors(t *testing.T) {
	cases := []struct {
		name, yaml, want string
	}{
		{"mapping in scalar", "provider: dmr\nmodel: m\nmaxTurns: 4: 5\n", "[config error: agent.yaml: line 3: mapping values are not allowed in this context]"},
		{"tab indentation", "context:\n\tenabled: true\n", "[config error: agent.yaml: line 2: found character that cannot start any token]"},
		{"unclosed quote", "provider: dmr\nmodel: \"abc\n", "[config error: agent.yaml: line 2: found unexpected end of stream]"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			wantError(t, tc.yaml, nil, tc.want)
		})
	}
	// Whatever the parser's words, a syntax error never shows the raw
	// "yaml:" prefix of the library.
	for _, text := range []string{"a: [1, 2\nb: 3\n", "a: *nowhere\n", "a: 1\n a: 2\n", "\xff\xfe\x00"} {
		_, err := loadText(t, text, nil)
		var ce *Error
		if !errors.As(err, &ce) || strings.HasPrefix(ce.Msg, "yaml") || ce.Msg == "" {
			t.Errorf("%q: error = %v", text, err)
		}
	}
}

func TestEmptyAndUnknown(t *testing.T) {
	for _, text := range []string{"", "\n\n", "# only a comment\n", "~\n", "---\n"} {
		cfg := mustLoad(t, text, nil)
		want := Default()
		want.Path = "agent.yaml"
		want.Dir = cfg.Dir
		want.layers, want.skipped = cfg.layers, cfg.skipped // where each key came from
		if !reflect.DeepEqual(cfg, want) {
			t.Errorf("%q: got %+v, want the defaults", text, cfg)
		}
		if len(cfg.Warnings) != 0 {
			t.Errorf("%q: warnings %v", text, cfg.Warnings)
		}
	}
	cfg := mustLoad(t, `
someFutureKey: 12
plugins:
  servers: {x: 1}
maxTurns: 7
context:
  enabled: true
  unknownInside: [1, 2]
triggers: [a, b]
`, nil)
	if cfg.MaxTurns != 7 || !cfg.Context.Enabled {
		t.Errorf("known keys not read next to unknown ones: %+v", cfg)
	}
	if cfg.Context.Threshold != 75 || cfg.Provider != "dmr" {
		t.Errorf("absent keys lost their defaults: %+v", cfg)
	}
}

func TestNullKeepsDefault(t *testing.T) {
	cfg := mustLoad(t, "maxTurns:\nsystem: ~\ncontext:\nsampling: null\n", nil)
	if cfg.MaxTurns != 10 || cfg.System != DefaultSystemPrompt || cfg.Context.Threshold != 75 || cfg.MaxTokens() != 4096 {
		t.Errorf("null values did not keep the defaults: %+v", cfg)
	}
}

func TestEveryKeyIsRead(t *testing.T) {
	cfg := mustLoad(t, `
provider: ollama
model: qwen3:8b
baseUrl: http://127.0.0.1:11434/v1
fallback: http://other:11434/v1
apiKeyEnv: MY_KEY
contextWindow: 32768
maxOutput: 9000
maxTurns: 25
previewLines: 0
displayCommands: yes
showThinking: false
system: "Be brief."
skillsDir: my-skills
bashTool: false
editTools: off
fetchContentTool: true
askUserTool: false
watchdogTimeout: 1m30s
firstTokenTimeout: 500ms
bashTimeout: 2m
context:
  enabled: true
  threshold: 60
  maxMessages: 0
  keepLastTurns: 2
  summaryMaxTokens: 800
  prompt: Summarize.
  showStats: false
sessions:
  enabled: true
  dir: /tmp/s
trace:
  enabled: true
  dir: traces
acp:
  name: homer
  title: Homer (coder)
tui: true
yolo: false
projectInstructions: false
sandbox:
  mode: read-only
  network: false
  writable: [~/.cache, build]
  required: true
fetchAllowLinkLocal: true
toolCallRetry: false
`, nil)
	fb := "http://other:11434/v1"
	want := &Config{
		Provider: "ollama", Model: "qwen3:8b", BaseURL: "http://127.0.0.1:11434/v1", Fallback: &fb,
		APIKeyEnv: "MY_KEY", ContextWindow: 32768, MaxOutput: 9000, MaxTurns: 25, PreviewLines: 0,
		DisplayCommands: true, ShowThinking: false, System: "Be brief.", SkillsDir: "my-skills",
		BashTool: false, EditTools: false, FetchContentTool: true, AskUserTool: false,
		Sampling:        map[string]any{"temperature": 0.0, "top_p": 0.9, "max_tokens": 4096},
		WatchdogTimeout: 90 * time.Second, FirstTokenTimeout: 500 * time.Millisecond, BashTimeout: 2 * time.Minute,
		Context:  ContextConfig{Enabled: true, Threshold: 60, MaxMessages: 0, KeepLastTurns: 2, SummaryMaxTokens: 800, Prompt: "Summarize.", ShowStats: false},
		Sessions: SessionsConfig{Enabled: true, Dir: "/tmp/s"},
		Trace:    TraceConfig{Enabled: true, Dir: "traces"},
		ACP:      ACPConfig{Name: "homer", Title: "Homer (coder)"},
		MCP:      MCPConfig{Timeout: 60 * time.Second, PromptBudget: 4096},
		Sandbox: SandboxConfig{Mode: SandboxReadOnly, Network: false, Writable: []string{"~/.cache", "build"}, Required: true,
			RequiredAt: Place{Path: "agent.yaml", Line: 46}},
		FetchAllowLinkLocal: true,
		TUI:                 true, Yolo: false,
		Path: "agent.yaml", Dir: cfg.Dir,
		ModelSet: true, SkillsDirSet: true,
	}
	want.layers, want.skipped = cfg.layers, cfg.skipped // where each key came from
	if !reflect.DeepEqual(cfg, want) {
		t.Errorf("got\n%+v\nwant\n%+v", cfg, want)
	}
	if cfg.EffectiveFirstTokenTimeout() != 90*time.Second {
		t.Errorf("EffectiveFirstTokenTimeout = %v, want watchdogTimeout", cfg.EffectiveFirstTokenTimeout())
	}
}

func TestDurations(t *testing.T) {
	for text, want := range map[string]time.Duration{
		"20s": 20 * time.Second, "3m": 3 * time.Minute, "1m30s": 90 * time.Second,
		"500ms": 500 * time.Millisecond, "1h": time.Hour, `"45s"`: 45 * time.Second,
	} {
		cfg := mustLoad(t, "bashTimeout: "+text, nil)
		if cfg.BashTimeout != want {
			t.Errorf("bashTimeout: %s = %v, want %v", text, cfg.BashTimeout, want)
		}
	}
	// firstTokenTimeout 0 is allowed (>= 0) and then never shorter than the
	// watchdog.
	cfg := mustLoad(t, "firstTokenTimeout: 0\nwatchdogTimeout: 45s", nil)
	if cfg.FirstTokenTimeout != 0 || cfg.EffectiveFirstTokenTimeout() != 45*time.Second {
		t.Errorf("first token %v, effective %v", cfg.FirstTokenTimeout, cfg.EffectiveFirstTokenTimeout())
	}
}

func TestFallback(t *testing.T) {
	if cfg := mustLoad(t, "provider: dmr", nil); cfg.Fallback != nil {
		t.Errorf("absent fallback = %q, want nil", *cfg.Fallback)
	}
	if cfg := mustLoad(t, "fallback:", nil); cfg.Fallback != nil {
		t.Errorf("empty fallback = %q, want nil", *cfg.Fallback)
	}
	if cfg := mustLoad(t, "fallback: null", nil); cfg.Fallback != nil {
		t.Errorf("null fallback = %q, want nil", *cfg.Fallback)
	}
	if cfg := mustLoad(t, `fallback: ""`, nil); cfg.Fallback == nil || *cfg.Fallback != "" {
		t.Errorf(`fallback: "" = %v, want a pointer to ""`, cfg.Fallback)
	}
	if cfg := mustLoad(t, `fallback: http://h:1/v1`, nil); cfg.Fallback == nil || *cfg.Fallback != "http://h:1/v1" {
		t.Errorf("fallback = %v", cfg.Fallback)
	}
}

func TestEnvOverrides(t *testing.T) {
	file := "provider: ollama\nmodel: file-model\nbaseUrl: http://file/v1\nyolo: true\n"
	cfg := mustLoad(t, file, map[string]string{
		"AGENT_PROVIDER": "llamacpp", "AGENT_MODEL": "env-model", "AGENT_BASE_URL": "http://env/v1",
		"AGENT_YOLO": "false", "AGENT_TRACE": "TRUE",
	})
	if cfg.Provider != "llamacpp" || cfg.Model != "env-model" || cfg.BaseURL != "http://env/v1" || cfg.Yolo || !cfg.Trace.Enabled {
		t.Errorf("environment did not win: %+v", cfg)
	}
	// An empty variable is no override.
	cfg = mustLoad(t, file, map[string]string{"AGENT_PROVIDER": "", "AGENT_MODEL": "", "AGENT_BASE_URL": "", "AGENT_YOLO": ""})
	if cfg.Provider != "ollama" || cfg.Model != "file-model" || cfg.BaseURL != "http://file/v1" || !cfg.Yolo {
		t.Errorf("empty variables changed the file's values: %+v", cfg)
	}
	// The environment can repair a value the file leaves empty.
	cfg = mustLoad(t, `model: ""`, map[string]string{"AGENT_MODEL": "m"})
	if cfg.Model != "m" {
		t.Errorf("model = %q", cfg.Model)
	}
	for _, v := range []string{"1", "t", "T", "true", "True"} {
		if cfg := mustLoad(t, "yolo: false", map[string]string{"AGENT_YOLO": v}); !cfg.Yolo {
			t.Errorf("AGENT_YOLO=%s did not set yolo", v)
		}
	}
	for _, v := range []string{"0", "f", "F", "false", "FALSE"} {
		if cfg := mustLoad(t, "trace:\n  enabled: true", map[string]string{"AGENT_TRACE": v}); cfg.Trace.Enabled {
			t.Errorf("AGENT_TRACE=%s did not clear trace.enabled", v)
		}
	}
}

func TestPermissions(t *testing.T) {
	cfg := mustLoad(t, "yolo: true\npermissions: ask\n", nil)
	if cfg.Yolo {
		t.Error("permissions: ask did not win over yolo: true")
	}
	if cfg.Permissions != "ask" {
		t.Errorf("Permissions = %q", cfg.Permissions)
	}
	if len(cfg.Warnings) != 1 || !strings.HasPrefix(cfg.Warnings[0], "[warning: permissions: ask is deprecated — use yolo: false instead") {
		t.Errorf("warnings = %q", cfg.Warnings)
	}

	cfg = mustLoad(t, "yolo: true\npermissions: ask\n", map[string]string{"AGENT_YOLO": "true"})
	if !cfg.Yolo {
		t.Error("AGENT_YOLO=true did not win over permissions: ask")
	}

	for _, file := range []string{"permissions: auto", "yolo: false\npermissions: auto"} {
		cfg = mustLoad(t, file, nil)
		wantYolo := !strings.Contains(file, "yolo: false")
		if cfg.Yolo != wantYolo {
			t.Errorf("%q: yolo = %v, want %v (auto changes nothing)", file, cfg.Yolo, wantYolo)
		}
		if len(cfg.Warnings) != 1 || !strings.HasPrefix(cfg.Warnings[0], "[warning: permissions: auto is deprecated") {
			t.Errorf("%q: warnings = %q", file, cfg.Warnings)
		}
	}

	if cfg := mustLoad(t, "permissions:\n", nil); len(cfg.Warnings) != 0 || !cfg.Yolo {
		t.Errorf("a null permissions key acted: %+v", cfg)
	}
}

func TestBuiltInDefaultsAndImplicitFile(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)

	cfg, err := Load("", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Path != "" || cfg.Dir != "" || cfg.MaxTurns != 10 {
		t.Errorf("without a file: Path %q Dir %q maxTurns %d", cfg.Path, cfg.Dir, cfg.MaxTurns)
	}
	_, err = Load("", env(map[string]string{"AGENT_YOLO": "maybe"}))
	if err == nil || err.Error() != `[config error: (built-in defaults): AGENT_YOLO="maybe": must be true or false]` {
		t.Errorf("error = %v", err)
	}
	cfg, err = Load("", env(map[string]string{"AGENT_MODEL": "x", "AGENT_YOLO": "0"}))
	if err != nil || cfg.Model != "x" || cfg.Yolo {
		t.Errorf("overrides without a file: %+v, %v", cfg, err)
	}

	if err := os.WriteFile("agent.yaml", []byte("maxTurns: 33\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err = Load("", env(nil))
	if err != nil {
		t.Fatal(err)
	}
	real, _ := filepath.EvalSymlinks(dir)
	gotDir, _ := filepath.EvalSymlinks(cfg.Dir)
	if cfg.MaxTurns != 33 || cfg.Path != "agent.yaml" || gotDir != real {
		t.Errorf("implicit file: maxTurns %d Path %q Dir %q (want %q)", cfg.MaxTurns, cfg.Path, cfg.Dir, real)
	}
	if err := os.WriteFile("agent.yaml", []byte("maxTurns: 0\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load("", env(nil)); err == nil || err.Error() != "[config error: agent.yaml: line 1: maxTurns must be > 0 (got 0)]" {
		t.Errorf("implicit file error = %v", err)
	}
}

func TestExplicitPath(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "conf")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(sub, "homer.yaml")
	if err := os.WriteFile(path, []byte("acp:\n  name: homer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cfg, err := Load(path, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Path != path || cfg.Dir != sub || cfg.ACP.Name != "homer" {
		t.Errorf("Path %q Dir %q name %q", cfg.Path, cfg.Dir, cfg.ACP.Name)
	}

	// A relative path is kept as given; Dir is absolute.
	t.Chdir(dir)
	cfg, err = Load("conf/homer.yaml", env(nil))
	if err != nil || cfg.Path != "conf/homer.yaml" || cfg.Dir != sub {
		t.Errorf("relative: %v, Path %q Dir %q", err, cfg.Path, cfg.Dir)
	}

	// A named file that cannot be read is an error, never the defaults.
	_, err = Load("missing.yaml", env(nil))
	if err == nil || err.Error() != "[config error: missing.yaml: cannot read the file: it does not exist]" {
		t.Errorf("missing file: %v", err)
	}
	_, err = Load("conf", env(nil))
	var ce *Error
	if !errors.As(err, &ce) || !strings.HasPrefix(err.Error(), "[config error: conf: cannot read the file: ") {
		t.Errorf("directory: %v", err)
	}
}

func TestErrorFormat(t *testing.T) {
	if got := (&Error{Path: "a.yaml", Line: 4, Msg: "m"}).Error(); got != "[config error: a.yaml: line 4: m]" {
		t.Error(got)
	}
	if got := (&Error{Path: "a.yaml", Msg: "m"}).Error(); got != "[config error: a.yaml: m]" {
		t.Error(got)
	}
}

func TestCompressionWarning(t *testing.T) {
	cases := []struct {
		enabled     bool
		maxMessages int
		known       bool
		warn        bool
	}{
		{true, 0, false, true},
		{true, 0, true, false},
		{true, 80, false, false},
		{false, 0, false, false},
	}
	for _, tc := range cases {
		c := Default()
		c.Context.Enabled, c.Context.MaxMessages = tc.enabled, tc.maxMessages
		got := c.CompressionWarning(tc.known)
		if (got != "") != tc.warn {
			t.Errorf("%+v: %q", tc, got)
		}
		if tc.warn && !strings.HasPrefix(got, "[warning: context.enabled is true, the window is unknown and context.maxMessages is 0") {
			t.Errorf("warning text: %q", got)
		}
	}
}

func TestAnchorsAndMerge(t *testing.T) {
	cfg := mustLoad(t, `
base: &base
  enabled: true
  threshold: 50
context:
  <<: *base
  threshold: 90
acp:
  name: &n homer
  title: *n
`, nil)
	if !cfg.Context.Enabled || cfg.Context.Threshold != 90 || cfg.ACP.Title != "homer" {
		t.Errorf("anchors or merge not followed: %+v %+v", cfg.Context, cfg.ACP)
	}
	// Exponential alias expansion is refused, not computed.
	var b strings.Builder
	b.WriteString("a0: &a0 {x: 1}\n")
	for i := 1; i < 30; i++ {
		b.WriteString("a" + strconv.Itoa(i) + ": &a" + strconv.Itoa(i) + " {<<: [")
		for j := 0; j < 9; j++ {
			if j > 0 {
				b.WriteString(", ")
			}
			b.WriteString("*a" + strconv.Itoa(i-1))
		}
		b.WriteString("]}\n")
	}
	b.WriteString("sampling:\n  extra: [*a29, *a29]\ncontext:\n  <<: *a29\n")
	_, err := loadText(t, b.String(), nil)
	var ce *Error
	if !errors.As(err, &ce) {
		t.Errorf("alias bomb: %v", err)
	}
}

func TestSandboxKeys(t *testing.T) {
	wantError(t, "sandbox:\n  mode: strict\n", nil, `[config error: agent.yaml: line 2: sandbox.mode must be off, workspace or read-only (got "strict")]`)
	wantError(t, "sandbox:\n  mode: workspace\n  writable:\n    - /a\n    - \"\"\n", nil, `[config error: agent.yaml: line 5: sandbox.writable[1] must not be empty]`)
	wantError(t, "sandbox:\n  network: maybe\n", nil, `[config error: agent.yaml: line 2: sandbox.network must be true or false, got "maybe"]`)
	wantError(t, "sandbox: workspace\n", nil, `[config error: agent.yaml: line 1: sandbox must be a mapping, got "workspace"]`)
	// mode: off is the word, not YAML 1.1's false.
	if c := mustLoad(t, "sandbox:\n  mode: off\n", nil); c.Sandbox.Mode != SandboxOff || !c.Sandbox.Network || c.Sandbox.Writable != nil {
		t.Errorf("sandbox = %+v", c.Sandbox)
	}
	// An empty list is no extra directory, not the default caches.
	if c := mustLoad(t, "sandbox:\n  mode: workspace\n  writable: []\n", nil); c.Sandbox.Writable == nil || len(c.Sandbox.Writable) != 0 {
		t.Errorf("writable = %#v", c.Sandbox.Writable)
	}
}
