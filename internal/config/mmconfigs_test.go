package config

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestMMConfigsForms(t *testing.T) {
	dir := t.TempDir()
	confDir := filepath.Join(dir, "conf")
	for _, p := range []string{confDir, filepath.Join(dir, "agents")} {
		if err := os.MkdirAll(p, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{filepath.Join(confDir, "homer.yaml"), filepath.Join(dir, "agents", "marge.yaml"), filepath.Join(dir, "abs.yaml")} {
		if err := os.WriteFile(f, []byte("acp:\n  name: x\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	main := filepath.Join(confDir, "agent.yaml")
	text := `
mmConfigs:
  homer: homer.yaml
  marge:
    path: ../agents/marge.yaml
    description: reviews the code
    yolo: false
  bart-2:
    path: ` + filepath.Join(dir, "abs.yaml") + `
    yolo: true
  lisa:
    path: homer.yaml
`
	if err := os.WriteFile(main, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	// Load from another directory: relative paths follow the file that
	// declares them, not the current directory.
	t.Chdir(dir)
	cfg, err := Load(main, env(nil))
	if err != nil {
		t.Fatal(err)
	}
	no, yes := false, true
	want := map[string]MMConfig{
		"homer":  {Path: filepath.Join(confDir, "homer.yaml")},
		"marge":  {Path: filepath.Join(dir, "agents", "marge.yaml"), Description: "reviews the code", Yolo: &no},
		"bart-2": {Path: filepath.Join(dir, "abs.yaml"), Yolo: &yes},
		"lisa":   {Path: filepath.Join(confDir, "homer.yaml")},
	}
	if !reflect.DeepEqual(cfg.MMConfigs, want) {
		t.Errorf("mmConfigs =\n%+v\nwant\n%+v", cfg.MMConfigs, want)
	}
	if cfg.MMConfigs["lisa"].Yolo != nil {
		t.Error("yolo set without the key")
	}
	if len(cfg.Warnings) != 0 {
		t.Errorf("warnings for files that exist: %q", cfg.Warnings)
	}
}

func TestMMConfigsMissingFileWarns(t *testing.T) {
	cfg := mustLoad(t, "mmConfigs:\n  helper: nowhere/helper.yaml\n  other: agent.yaml\n", nil)
	abs := filepath.Join(cfg.Dir, "nowhere", "helper.yaml")
	want := "[warning: mmConfigs.helper: " + abs + " does not exist — asking helper will fail until it does]"
	if len(cfg.Warnings) != 1 || cfg.Warnings[0] != want {
		t.Errorf("warnings = %q, want [%q]", cfg.Warnings, want)
	}
	if cfg.MMConfigs["helper"].Path != abs {
		t.Errorf("path = %q, want %q", cfg.MMConfigs["helper"].Path, abs)
	}
}

func TestMMConfigsNames(t *testing.T) {
	for _, name := range []string{"a", "9", "bob", "code-review", "x1-2", "context-with", "withcontext"} {
		if msg := checkMMConfigName(name); msg != "" {
			t.Errorf("%q refused: %s", name, msg)
		}
	}
	for _, name := range []string{"", "Bob", "-a", "a b", "a_b", "a.b", "é", "with-context", "with-context-x", "with-contextual"} {
		msg := checkMMConfigName(name)
		if !strings.HasPrefix(msg, "mmConfigs: ") || !strings.Contains(msg, " is not a valid name (") {
			t.Errorf("%q accepted or badly worded: %q", name, msg)
		}
	}
}

func TestLSPServers(t *testing.T) {
	cfg := mustLoad(t, `
lsp:
  servers:
    - name: gopls
      command: gopls
      extensions: [".go"]
    - name: typescript
      command: typescript-language-server
      args: ["--stdio"]
      extensions: [".ts", ".tsx", ".js", ".jsx", ".TSX"]
    - name: py
      command: pylsp
      args: --check
      extensions: .py
`, nil)
	want := []LSPServer{
		{Name: "gopls", Command: "gopls", Extensions: []string{".go"}},
		{Name: "typescript", Command: "typescript-language-server", Args: []string{"--stdio"}, Extensions: []string{".ts", ".tsx", ".js", ".jsx", ".TSX"}},
		{Name: "py", Command: "pylsp", Args: []string{"--check"}, Extensions: []string{".py"}},
	}
	if !reflect.DeepEqual(cfg.LSP.Servers, want) {
		t.Errorf("servers =\n%+v\nwant\n%+v", cfg.LSP.Servers, want)
	}
}
