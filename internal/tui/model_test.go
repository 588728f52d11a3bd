package tui

import (
	"context"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"mm/internal/config"
	"mm/internal/engine"
	"mm/internal/llm"
)

func testModel(t *testing.T) *model {
	cfg := config.Default()
	cfg.Model = "m"
	eng := &engine.Engine{Config: cfg, Provider: llm.Provider{Name: "p"}}
	m := newModel(context.Background(), eng)
	m.send = func(tea.Msg) {}
	return m
}

func TestViewShowsBlocks(t *testing.T) {
	m := testModel(t)
	m.addBlock(blockDim, "banner line")
	m.addBlock(blockUser, "question")
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.stream(blockText, "streamed answer")
	v := m.View()
	if !strings.Contains(v.Content, "banner line") || !strings.Contains(v.Content, "streamed answer") {
		t.Fatalf("view:\n%s", v.Content)
	}
}
