package tools

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/llm"
	"mm/internal/testdeps"
)

// The prompt bytes of the reference servers' tools, declared one by one
// and through the `mcp` tool (docs/benchmarks.md, "MCP"). The servers are
// the npm packages .ci/run installs into .ci/mcp; the tools are read with a
// bare JSON-RPC client on the server's stdio, which keeps each schema's
// text as the server sent it.

// mcpBin is a reference server's executable in .ci/mcp; the test skips
// without it, and fails under CI=true (.ci/run installs it).
func mcpBin(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "..", ".ci", "mcp", "node_modules", ".bin", name))
	if err == nil {
		if _, err = os.Stat(p); err == nil {
			if _, err = exec.LookPath("node"); err == nil {
				return p
			}
		}
	}
	testdeps.Missing(t, fmt.Sprintf("%s is not installed in .ci/mcp (%v)", name, err))
	return ""
}

// listMCPTools starts a stdio server, initializes it and reads its whole
// tools/list.
func listMCPTools(t testing.TB, server string, argv ...string) []MCPTool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Stderr = nil
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		in.Close()
		cmd.Process.Kill()
		cmd.Wait()
	}()
	out := bufio.NewScanner(outPipe)
	out.Buffer(make([]byte, 1<<20), 16<<20)
	send := func(msg string) {
		if _, err := fmt.Fprintln(in, msg); err != nil {
			t.Fatalf("%s: %v", server, err)
		}
	}
	// The response to request id, skipping notifications and requests.
	await := func(id int) json.RawMessage {
		for out.Scan() {
			var m struct {
				ID     *int            `json:"id"`
				Method string          `json:"method"`
				Result json.RawMessage `json:"result"`
				Error  json.RawMessage `json:"error"`
			}
			if json.Unmarshal(out.Bytes(), &m) != nil || m.Method != "" || m.ID == nil || *m.ID != id {
				continue
			}
			if m.Error != nil {
				t.Fatalf("%s: request %d: %s", server, id, m.Error)
			}
			return m.Result
		}
		t.Fatalf("%s: no answer to request %d: %v", server, id, out.Err())
		return nil
	}
	// The roots capability, as the go-sdk client declares by default:
	// server-everything then also offers get-roots-list.
	send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{"roots":{"listChanged":true}},"clientInfo":{"name":"mm-bench","version":"0"}}}`)
	await(1)
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	var tools []MCPTool
	cursor := ""
	for id := 2; ; id++ {
		params := `{}`
		if cursor != "" {
			c, _ := json.Marshal(cursor)
			params = `{"cursor":` + string(c) + `}`
		}
		send(fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list","params":%s}`, id, params))
		var page struct {
			Tools []struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
				Annotations struct {
					ReadOnlyHint bool `json:"readOnlyHint"`
				} `json:"annotations"`
			} `json:"tools"`
			NextCursor string `json:"nextCursor"`
		}
		if err := json.Unmarshal(await(id), &page); err != nil {
			t.Fatalf("%s: tools/list: %v", server, err)
		}
		for _, x := range page.Tools {
			tools = append(tools, MCPTool{Server: server, Name: x.Name, Description: x.Description, InputSchema: string(x.InputSchema), ReadOnly: x.Annotations.ReadOnlyHint})
		}
		if cursor = page.NextCursor; cursor == "" {
			return tools
		}
	}
}

// definitionBytes is what one tool takes in a request after another one.
func definitionBytes(def *ai.ToolDefinition) int {
	first := &ai.ToolDefinition{Name: "x"}
	a, _ := llm.BuildRequest(&ai.ModelRequest{Tools: []*ai.ToolDefinition{first}}, llm.RequestOptions{})
	b, _ := llm.BuildRequest(&ai.ModelRequest{Tools: []*ai.ToolDefinition{first, def}}, llm.RequestOptions{})
	return len(b) - len(a)
}

func TestMCPPromptBytes(t *testing.T) {
	ev := listMCPTools(t, "ev", mcpBin(t, "mcp-server-everything"))
	fs := listMCPTools(t, "fs", mcpBin(t, "mcp-server-filesystem"), t.TempDir())
	all := append(append([]MCPTool{}, ev...), fs...)
	direct := MCPDeclaredSize(all)
	meta := NewMCPMeta(&fakeMCP{tools: all}, 20000)
	metaBytes := definitionBytes(meta.Definition())

	t.Logf("direct: server-everything %d tools %d B, server-filesystem %d tools %d B, both %d tools %d B",
		len(ev), MCPDeclaredSize(ev), len(fs), MCPDeclaredSize(fs), len(all), direct)
	t.Logf("mcp tool: %d B (description %d B, schema %d B)", metaBytes, len(meta.Description), len(meta.SchemaText))
	ctx := context.Background()
	for _, srv := range []string{"ev", "fs"} {
		out := meta.Run(ctx, json.RawMessage(`{"action":"list","server":"`+srv+`"}`))
		t.Logf("list %s: %d B", srv, len(out))
	}
	minS, maxS, sum := 1<<30, 0, 0
	for _, tool := range all {
		out := meta.Run(ctx, json.RawMessage(`{"action":"schema","server":"`+tool.Server+`","tool":"`+tool.Name+`"}`))
		minS, maxS, sum = min(minS, len(out)), max(maxS, len(out)), sum+len(out)
	}
	t.Logf("schema answers: %d–%d B, mean %d B", minS, maxS, sum/len(all))
	for _, tool := range all {
		one := MCPDeclaredSize([]MCPTool{tool})
		t.Logf("  %s/%s: %d B declared", tool.Server, tool.Name, one)
	}

	// These two servers are what the budget is for: past the default
	// 4096 bytes declared directly, and the `mcp` tool a small part of it.
	if direct <= 4096 {
		t.Errorf("the two servers declare %d B directly: no longer past the default budget", direct)
	}
	if metaBytes*10 > direct {
		t.Errorf("the mcp tool takes %d B, more than a tenth of the %d B it replaces", metaBytes, direct)
	}
}
