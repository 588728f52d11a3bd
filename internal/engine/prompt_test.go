package engine

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/config"
	"mm/internal/llm"
)

// fixedPrompt is what a model reads on every request before the
// conversation: the system prompt and the tool schemas, as sent.
func fixedPrompt(t testing.TB, cfg *config.Config) (system, tools int) {
	reg, _, _ := Tools(cfg, t.TempDir(), "../..")
	body, err := llm.BuildRequest(&ai.ModelRequest{
		Messages: []*ai.Message{ai.NewSystemTextMessage(cfg.System)},
		Tools:    reg.Definitions(),
	}, llm.RequestOptions{Model: cfg.Model})
	if err != nil {
		t.Fatal(err)
	}
	var req struct {
		Messages []struct {
			Content string `json:"content"`
		} `json:"messages"`
		Tools json.RawMessage `json:"tools"`
	}
	if err := json.Unmarshal(body, &req); err != nil {
		t.Fatal(err)
	}
	var compact bytes.Buffer
	json.Compact(&compact, req.Tools)
	return len(req.Messages[0].Content), compact.Len()
}

// The fixed prompt budget (issue #2: under 6 KB) for the built-in defaults
// and the shipped configurations.
func TestFixedPromptBudget(t *testing.T) {
	const budget = 6 << 10
	for _, path := range []string{"", "../../agent.yaml", "../../agent.llamacpp.yaml", "../../agent.lsp.yaml"} {
		cfg := config.Default()
		if path != "" {
			var err error
			if cfg, err = config.Load(path, func(string) string { return "" }); err != nil {
				t.Fatal(err)
			}
		}
		sys, tools := fixedPrompt(t, cfg)
		t.Logf("%-28s system %5d B + tools %5d B = %5d B", path+":", sys, tools, sys+tools)
		if sys+tools > budget {
			t.Errorf("%s: fixed prompt %d bytes, budget %d", path, sys+tools, budget)
		}
	}
}

func BenchmarkFixedPrompt(b *testing.B) {
	cfg, err := config.Load("../../agent.yaml", func(string) string { return "" })
	if err != nil {
		b.Fatal(err)
	}
	var sys, tools int
	for b.Loop() {
		sys, tools = fixedPrompt(b, cfg)
	}
	b.ReportMetric(float64(sys), "system-bytes")
	b.ReportMetric(float64(tools), "tool-schema-bytes")
}

// The tool schemas go out with their properties in the order they are
// written: llama.cpp's grammar makes a model write them in that order.
func TestSchemaPropertyOrderOnTheWire(t *testing.T) {
	cfg := config.Default()
	cfg.FetchContentTool = true
	reg, _, _ := Tools(cfg, t.TempDir(), "../..")
	body, err := llm.BuildRequest(&ai.ModelRequest{Tools: reg.Definitions()}, llm.RequestOptions{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	s := string(body)
	for _, order := range [][]string{
		{`"name":"read_file"`, `"path":`, `"start":`, `"end":`, `"numbered":`},
		{`"name":"write_file"`, `"path":`, `"content":`},
		{`"name":"edit_file"`, `"path":`, `"edits":`, `"old":`, `"new":`, `"dry_run":`},
		{`"name":"fetch_content"`, `"url":`, `"output":`},
	} {
		at := 0
		for _, key := range order {
			i := strings.Index(s[at:], key)
			if i < 0 {
				t.Errorf("%s: %s missing or out of order", order[0], key)
				break
			}
			at += i + len(key)
		}
	}
}
