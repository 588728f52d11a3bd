package main_test

import (
	"context"
	"net"
	"net/http"
	"strings"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"mm/internal/llmtest"
)

// A streamable-HTTP server's result over 16 MiB, in JSON or in an SSE
// event, is held to the limit of a stdio server's messages: mm does not
// keep it (the SDK read any size into memory), the model reads that it
// was over the limit, and the session goes on.
func TestMCPStreamableHTTPHugeResult(t *testing.T) {
	t.Parallel() // it mostly waits on a timeout: beside the others
	for _, json := range []bool{true, false} {
		t.Run(map[bool]string{true: "json", false: "sse"}[json], func(t *testing.T) { httpHugeResult(t, json) })
	}
}

func httpHugeResult(t *testing.T, json bool) {
	s := sdk.NewServer(&sdk.Implementation{Name: "web", Version: "1"}, nil)
	sdk.AddTool(s, &sdk.Tool{Name: "big", Description: "Answers 20 MiB."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: strings.Repeat("x", 20<<20)}}}, nil, nil
	})
	sdk.AddTool(s, &sdk.Tool{Name: "ping", Description: "Answers pong."}, func(context.Context, *sdk.CallToolRequest, struct{}) (*sdk.CallToolResult, any, error) {
		return &sdk.CallToolResult{Content: []sdk.Content{&sdk.TextContent{Text: "pong"}}}, nil, nil
	})
	h := sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, &sdk.StreamableHTTPOptions{JSONResponse: json})
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srvHTTP := &http.Server{Handler: h}
	go srvHTTP.Serve(ln)
	t.Cleanup(func() { srvHTTP.Close() })

	dir := t.TempDir()
	cfg := writeConfig(t, dir, "mcp:\n  servers:\n    - name: web\n      url: http://"+ln.Addr().String()+"/mcp\n")
	srv := llmtest.New(t,
		llmtest.Turn{ToolCalls: []llmtest.ToolCall{mcpCall("web_big", `{}`), mcpCall("web_ping", `{}`)}},
		llmtest.Turn{Text: "ok"},
	)
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "go")
	if r.code != 0 {
		t.Fatalf("exit %d\n%.2000s", r.code, r.stderr)
	}
	res := mcpResults(t, srv.ChatRequests()[1])
	if len(res) != 2 || !strings.HasPrefix(res[0], "[error: the result of web/big is over the limit of 16 MiB for one MCP message (it is 20.0 MiB") || res[1] != "pong" {
		t.Errorf("results: %.300q", res)
	}
}
