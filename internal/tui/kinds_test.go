package tui

import (
	"strings"
	"testing"
	"time"

	"mm/internal/agent"
	"mm/internal/tools"
)

// Each kind's line carries the line mode's summary, and under it what the
// kind shows: an lsp answer and an MCP tool's output folded as a
// command's, a fetch saved to a file its one line.
func TestToolLinesByKind(t *testing.T) {
	for _, c := range []struct {
		call agent.Call
		want string
	}{
		{agent.Call{Name: "lsp", Kind: tools.KindRead, Summary: "definition main.go greet", Output: "main.go:9:6 func greet() {"},
			"‣ lsp definition main.go greet · done · 0.2s\n   main.go:9:6 func greet() {"},
		{agent.Call{Name: "lsp", Kind: tools.KindEdit, Summary: "rename main.go greet → hello", Output: "renamed to hello: 2 edit(s) in 1 file(s)\nmain.go: 2 edit(s)"},
			"‣ lsp rename main.go greet → hello · done · 0.2s\n   renamed to hello: 2 edit(s) in 1 file(s)\n   main.go: 2 edit(s)"},
		{agent.Call{Name: "fetch_content", Kind: tools.KindFetch, Summary: "https://x.org/ → page.md", Output: "[fetch_content: saved 3 lines of Markdown (40 bytes) from https://x.org/ to page.md — the content is not shown]"},
			"‣ fetch_content https://x.org/ → page.md · done · 0.2s\n   [fetch_content: saved 3 lines of Markdown (40 bytes) from https://x.org/ to page.md — the content is not shown]"},
		{agent.Call{Name: "mcp__files__list", MCP: "files/list", Kind: tools.KindOther, Summary: `{"dir":"."}`, Output: "a.txt\nb.txt"},
			"‣ files/list {\"dir\":\".\"} · done · 0.2s\n   a.txt\n   b.txt"},
		{agent.Call{Name: "read_skill", Kind: tools.KindRead, Summary: "go-test", Output: "# Go tests\nrun them\n"},
			"‣ read_skill go-test · done · 0.2s\n   (2 line(s) read, for the model)"},
	} {
		c.call.Duration = 200 * time.Millisecond
		got := toolText(view(&c.call, true, 5), false)
		if got != c.want {
			t.Errorf("%s:\n%q\nwant\n%q", c.call.Name, got, c.want)
		}
	}
	// An lsp rename (kind edit) is coloured as a change only where its
	// output is a diff: its report stays plain.
	v := view(&agent.Call{Name: "lsp", Kind: tools.KindEdit, Summary: "rename a b", Output: "renamed to b: 1 edit(s) in 1 file(s)"}, true, 5)
	if rows := strings.Join(wrap(&block{kind: blockTool, tool: v}, 80, false), "\n"); strings.Contains(rows, "\x1b") {
		t.Errorf("a rename's report coloured: %q", rows)
	}
}
