package config

import (
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// loadShipped loads a configuration file of the repository root with no
// environment overrides.
func loadShipped(t *testing.T, name string) *Config {
	t.Helper()
	cfg, err := Load(filepath.Join("..", "..", name), env(nil))
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("%s: warnings %q", name, cfg.Warnings)
	}
	return cfg
}

// checkBobPrompt holds the shipped prompt to what a small model can use:
// short, naming the tools it has and no other.
func checkBobPrompt(t *testing.T, name, prompt string) {
	t.Helper()
	if !strings.HasPrefix(prompt, "You are Bob") {
		t.Errorf("%s: the prompt does not introduce Bob: %.60q", name, prompt)
	}
	if len(prompt) >= 1500 {
		t.Errorf("%s: prompt is %d bytes, want under 1500", name, len(prompt))
	}
	for _, tool := range []string{"bash", "read_file", "write_file", "edit_file", "read_skill"} {
		if !strings.Contains(prompt, tool) {
			t.Errorf("%s: the prompt does not mention %s", name, tool)
		}
	}
	// Tools that exist only when configured (or not at all) must not be
	// announced to a model that may not have them.
	for _, tool := range []string{"lsp", "fetch_content", "ask_agent", "ask_user", "plan", "apply_patch", "str_replace"} {
		if regexp.MustCompile(`\b` + tool + `\b`).MatchString(prompt) {
			t.Errorf("%s: the prompt mentions %s", name, tool)
		}
	}
}

func TestShippedAgentYAML(t *testing.T) {
	cfg := loadShipped(t, "agent.yaml")
	if cfg.Provider != "dmr" || cfg.Model != DefaultModel {
		t.Errorf("provider %q model %q", cfg.Provider, cfg.Model)
	}
	if cfg.MaxTurns != 40 || !cfg.DisplayCommands || cfg.Context.Enabled {
		t.Errorf("maxTurns %d displayCommands %v context.enabled %v", cfg.MaxTurns, cfg.DisplayCommands, cfg.Context.Enabled)
	}
	if cfg.BaseURL != "" || cfg.Fallback != nil {
		t.Errorf("dmr must use the provider's endpoints: baseUrl %q fallback %v", cfg.BaseURL, cfg.Fallback)
	}
	wantSampling := map[string]any{"temperature": 0.0, "top_p": 0.9, "max_tokens": 4096, "parallel_tool_calls": false}
	if len(cfg.Sampling) != len(wantSampling) {
		t.Errorf("sampling = %v, want %v", cfg.Sampling, wantSampling)
	}
	for k, v := range wantSampling {
		if cfg.Sampling[k] != v {
			t.Errorf("sampling.%s = %#v, want %#v", k, cfg.Sampling[k], v)
		}
	}
	if !cfg.Yolo {
		t.Error("yolo must keep its default, true")
	}
	checkBobPrompt(t, "agent.yaml", cfg.System)
	checkShippedSandbox(t, "agent.yaml", cfg)
}

// checkShippedSandbox: the shipped files confine bash to the project,
// with the network and the build caches left as they are.
func checkShippedSandbox(t *testing.T, name string, cfg *Config) {
	t.Helper()
	if s := cfg.Sandbox; s.Mode != SandboxWorkspace || !s.Network || s.Writable != nil || s.Required {
		t.Errorf("%s: sandbox = %+v, want mode workspace and the defaults", name, s)
	}
}

func TestShippedLlamaCppYAML(t *testing.T) {
	cfg := loadShipped(t, "agent.llamacpp.yaml")
	if cfg.Provider != "llamacpp" || cfg.BaseURL != "http://127.0.0.1:8080/v1" {
		t.Errorf("provider %q baseUrl %q", cfg.Provider, cfg.BaseURL)
	}
	if cfg.Fallback == nil || *cfg.Fallback != "" {
		t.Errorf("fallback = %v, want a pointer to \"\"", cfg.Fallback)
	}
	if !cfg.Context.Enabled || cfg.MaxTurns != 40 {
		t.Errorf("context.enabled %v maxTurns %d", cfg.Context.Enabled, cfg.MaxTurns)
	}
	if cfg.Sampling["parallel_tool_calls"] != false {
		t.Errorf("parallel_tool_calls = %#v", cfg.Sampling["parallel_tool_calls"])
	}
	// With context enabled, the default maxMessages keeps compression
	// possible even when the server does not tell its window.
	if w := cfg.CompressionWarning(false); w != "" {
		t.Errorf("compression warning: %s", w)
	}
	checkBobPrompt(t, "agent.llamacpp.yaml", cfg.System)
	checkShippedSandbox(t, "agent.llamacpp.yaml", cfg)
	if dmr := loadShipped(t, "agent.yaml"); dmr.System != cfg.System {
		t.Error("the two shipped files have different prompts")
	}
}

// agent.lsp.yaml is agent.yaml with the lsp block active (gopls) and a
// prompt that says when to use the tool.
func TestShippedLSPYAML(t *testing.T) {
	cfg := loadShipped(t, "agent.lsp.yaml")
	dmr := loadShipped(t, "agent.yaml")
	if cfg.Provider != dmr.Provider || cfg.Model != dmr.Model || cfg.MaxTurns != dmr.MaxTurns || cfg.Context.Enabled != dmr.Context.Enabled {
		t.Errorf("not agent.yaml's settings: %+v", cfg)
	}
	if len(cfg.LSP.Servers) != 1 || cfg.LSP.Servers[0].Name != "gopls" || cfg.LSP.Servers[0].Command != "gopls" ||
		len(cfg.LSP.Servers[0].Extensions) != 1 || cfg.LSP.Servers[0].Extensions[0] != ".go" {
		t.Errorf("lsp.servers = %+v, want gopls alone active", cfg.LSP.Servers)
	}
	if !regexp.MustCompile(`\blsp\b`).MatchString(cfg.System) {
		t.Error("the prompt does not say when to use the lsp tool")
	}
	if len(cfg.System) > 1500 {
		t.Errorf("prompt of %d bytes", len(cfg.System))
	}
	checkShippedSandbox(t, "agent.lsp.yaml", cfg)
}

func FuzzLoad(f *testing.F) {
	for _, name := range []string{"agent.yaml", "agent.llamacpp.yaml"} {
		if data, err := os.ReadFile(filepath.Join("..", "..", name)); err == nil {
			f.Add(data)
		}
	}
	for _, s := range []string{
		"", "maxTurns: abc", "a: &x [*x]\nsampling:\n  k: *x\n", "context:\n  <<: {enabled: true}\n",
		"lsp:\n  servers:\n    - {name: a, command: b, extensions: [.go]}\n", "mmConfigs:\n  x: {path: y, yolo: on}\n",
		"sampling: {stop: [a], logit_bias: {1: 2}}", "permissions: ask\nyolo: true", "- 1\n- 2", "[", "\t",
	} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	path := filepath.Join(dir, "agent.yaml")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		// The fuzzer does not notice an input that hangs (an alias or merge
		// expanding forever), so a slow Load fails the input here.
		var cfg *Config
		var err error
		done := make(chan struct{})
		go func() { cfg, err = Load(path, env(nil)); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("hang on %q", data)
		}
		if err != nil {
			var ce *Error
			if !errors.As(err, &ce) {
				t.Fatalf("error %T is not a *config.Error: %v", err, err)
			}
			if cfg != nil || ce.Msg == "" || ce.Path != path {
				t.Fatalf("bad error %+v with config %v", ce, cfg)
			}
			return
		}
		if cfg == nil || cfg.Path != path || cfg.Sampling == nil {
			t.Fatalf("config %+v", cfg)
		}
	})
}
