package main_test

import (
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"mm/internal/llmtest"
)

// Each content type server-everything offers, through the binary: text as
// is, an image as one line, resource links as their URI, structured
// content as compact JSON, an isError result as a failure. The tools are
// declared as <server>_<tool> after the built-in ones, with the server's
// schema text (property order kept).
func TestMCPEverythingContentTypes(t *testing.T) {
	ev := mcpServerBin(t, "mcp-server-everything")
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  promptBudget: 100000\n  servers:\n    - name: ev\n      command: "+mcpQuote(ev)+"\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{
			mcpCall("ev_echo", `{"message":"hello mcp"}`),
			mcpCall("ev_get-tiny-image", `{}`),
			mcpCall("ev_get-resource-links", `{"count":2}`),
			mcpCall("ev_get-structured-content", `{"location":"Chicago"}`),
			// A server-side failure: nothing listens on port 1.
			mcpCall("ev_gzip-file-as-resource", `{"name":"x.gz","data":"http://127.0.0.1:1/x"}`),
		}},
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "use them")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 2 {
		t.Fatalf("%d requests\n%s", len(reqs), r.stderr)
	}
	names := mcpDeclared(t, reqs[0])
	if !mcpContains(names, "ev_echo") || !mcpContains(names, "ev_get-sum") || names[0] != "bash" {
		t.Fatalf("declared: %v", names)
	}
	for i, n := range names {
		if strings.HasPrefix(n, "ev_") && i > 0 && !strings.HasPrefix(names[i-1], "ev_") && mcpContains(names[i:], "bash") {
			t.Errorf("an MCP tool before a built-in one: %v", names)
		}
	}
	// The server's own text: "a" before "b", "description" after "type".
	if !strings.Contains(mcpToolsJSON(t, reqs[0]), `"properties":{"a":{"type":"number","description":"First number"},"b":`) {
		t.Errorf("get-sum's schema is not the server's text:\n%s", mcpToolsJSON(t, reqs[0]))
	}
	if mcpToolsJSON(t, reqs[0]) != mcpToolsJSON(t, reqs[1]) {
		t.Error("the tools changed between the requests of a turn")
	}
	res := mcpResults(t, reqs[1])
	if len(res) != 5 {
		t.Fatalf("results: %q", res)
	}
	if res[0] != "Echo: hello mcp" {
		t.Errorf("text: %q", res[0])
	}
	if !strings.Contains(res[1], "\n[image: image/png, 4.0 KB]\n") {
		t.Errorf("image: %q", res[1])
	}
	if !strings.Contains(res[2], "\ndemo://resource/") {
		t.Errorf("resource links: %q", res[2])
	}
	if !strings.HasPrefix(res[3], "{") || strings.Contains(res[3], "\n") || !strings.Contains(res[3], `"temperature"`) {
		t.Errorf("structured: %q", res[3])
	}
	if !strings.HasPrefix(res[4], "[error: ev/gzip-file-as-resource failed] ") {
		t.Errorf("error: %q", res[4])
	}
	for _, want := range []string{"🔌 ev/echo: {\"message\":\"hello mcp\"}", "   Echo: hello mcp", "🔌 5 mcp call(s)"} {
		if !strings.Contains(r.stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, r.stderr)
		}
	}
}

// server-filesystem writes and reads a file of the project through mm.
func TestMCPFilesystemReadWrite(t *testing.T) {
	fsBin := mcpServerBin(t, "mcp-server-filesystem")
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  promptBudget: 100000\n  servers:\n    - name: fs\n      command: "+mcpQuote(fsBin)+"\n      args: [\""+dir+"\"]\n")
	target := filepath.Join(dir, "note.txt")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("fs_write_file", jsonArgs(t, map[string]any{"path": target, "content": "from mcp\n"}))}},
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("fs_read_text_file", jsonArgs(t, map[string]any{"path": target}))}},
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "write then read")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "from mcp\n" {
		t.Errorf("note.txt = %q, %v\n%s", b, err, r.stderr)
	}
	reqs := srv.ChatRequests()
	if len(reqs) != 3 {
		t.Fatalf("%d requests\n%s", len(reqs), r.stderr)
	}
	// The file's text as is, not its structured copy {"content": …}.
	if res := mcpResults(t, reqs[2]); len(res) != 2 || res[1] != "from mcp\n" {
		t.Errorf("read back: %q", res)
	}
}

// server-everything over streamable HTTP, with a configured header: its
// tools are declared with their schema text (read from the SSE or JSON
// answers), and a call works.
func TestMCPStreamableHTTP(t *testing.T) {
	ev := mcpServerBin(t, "mcp-server-everything")
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(ln.Addr().(*net.TCPAddr).Port)
	ln.Close()
	cmd := exec.Command(ev, "streamableHttp")
	cmd.Env = append(os.Environ(), "PORT="+port)
	var out lockedOutput
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	deadline := time.Now().Add(20 * time.Second)
	for !strings.Contains(out.String(), "listening on port") {
		if time.Now().After(deadline) {
			t.Fatalf("the HTTP server did not start:\n%s", out.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  promptBudget: 100000\n  servers:\n    - name: web\n      url: http://127.0.0.1:"+port+"/mcp\n      headers: {X-Test: \"${MM_TEST_TOKEN}\"}\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("web_get-sum", `{"a":2,"b":3}`)}},
		llmtest.Turn{Text: "done"},
	)
	r := mm(t, dir, srv, []string{"MM_TEST_TOKEN=t0k"}, "", "-c", cfg, "-p", "sum")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	if !strings.Contains(mcpToolsJSON(t, reqs[0]), `"properties":{"a":{"type":"number","description":"First number"},"b":`) {
		t.Errorf("get-sum's schema is not the server's text:\n%s", mcpToolsJSON(t, reqs[0]))
	}
	if got := mcpResults(t, reqs[1]); len(got) != 1 || got[0] != "The sum of 2 and 3 is 5." {
		t.Errorf("result: %q\n%s", got, r.stderr)
	}
}

// lockedOutput is a buffer two writers share.
type lockedOutput struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedOutput) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedOutput) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
