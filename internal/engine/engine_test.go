package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/config"
	"mm/internal/llmtest"
)

func TestBanner(t *testing.T) {
	srv := llmtest.NewWith(t, llmtest.Options{NCtx: 4096})
	cfg := config.Default()
	cfg.Provider, cfg.BaseURL, cfg.Model, cfg.ModelSet = "llamacpp", srv.URL(), "qwen3-8b", true
	cfg.Trace.Enabled = true
	dir := t.TempDir()
	e, err := Start(context.Background(), cfg, Options{Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	b := e.Banner(context.Background())
	for _, want := range []string{"qwen3-8b @ llamacpp (" + srv.URL() + ")", "context 4k", "tools: bash, read_file, write_file, edit_file"} {
		if !strings.Contains(b, want) {
			t.Errorf("banner %q lacks %q", b, want)
		}
	}
	// The shipped skills are found next to the launch directory.
	if e, err := Start(context.Background(), cfg, Options{Cwd: dir, SkillsBase: "../.."}); err != nil || !strings.Contains(e.Banner(context.Background()), "skills: explore-repo, fix-failing-test, git-commit, go-test, review-diff") {
		t.Errorf("skills not in the banner: %v", err)
	}
	if want := " | trace: " + filepath.Join(dir, ".mm/traces"); !strings.HasSuffix(b, want) {
		t.Errorf("banner %q does not end with %q", b, want)
	}
	// Unknown window, no trace.
	srv2 := llmtest.NewWith(t, llmtest.Options{NCtx: -1})
	cfg.BaseURL, cfg.Trace.Enabled, cfg.BashTool = srv2.URL(), false, false
	e, err = Start(context.Background(), cfg, Options{Cwd: dir})
	if err != nil {
		t.Fatal(err)
	}
	b = e.Banner(context.Background())
	if !strings.Contains(b, "context ?") || strings.Contains(b, "trace:") || strings.Contains(b, "bash") {
		t.Errorf("banner %q", b)
	}
	// A configured window wins without asking.
	cfg.ContextWindow = 32768
	if e, _ = Start(context.Background(), cfg, Options{Cwd: dir}); !strings.Contains(e.Banner(context.Background()), "context 32k") {
		t.Errorf("configured window not shown")
	}
}

func TestStartUnknownProvider(t *testing.T) {
	cfg := config.Default()
	cfg.Provider = "x"
	if _, err := Start(context.Background(), cfg, Options{}); err == nil || err.Error() != `[engine error: unknown provider "x" (known: dmr, llamacpp, llmman, ollama)]` {
		t.Fatalf("err = %v", err)
	}
}

// Without bash, the built-in prompt does not tell the model to use it; a
// configured prompt is left as written.
func TestBuiltInPromptFollowsTheTools(t *testing.T) {
	srv := llmtest.New(t)
	cfg := config.Default()
	cfg.Provider, cfg.BaseURL, cfg.BashTool = "llamacpp", srv.URL(), false
	e, err := Start(context.Background(), cfg, Options{Cwd: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if sys := e.Agent.History()[0].Text(); strings.Contains(sys, "bash") || !strings.Contains(sys, "Read a file before you change it.") {
		t.Errorf("system prompt without bash:\n%s", sys)
	}
	cfg.System = "Use bash, always."
	if e, _ = Start(context.Background(), cfg, Options{Cwd: t.TempDir()}); e.Agent.History()[0].Text() != "Use bash, always." {
		t.Error("a configured prompt was changed")
	}
}
