package acp

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/tools"
)

// efsAgent is an agent that is never called: the tests drive the
// agent-side connection's client methods only.
type efsAgent struct{ acpsdk.Agent }

// efsClient is an editor: buffers keyed by absolute path, and the
// requests it received. A method a test does not use panics (the embedded
// nil Client).
type efsClient struct {
	acpsdk.Client
	mu      sync.Mutex
	buffers map[string]string
	reads   []acpsdk.ReadTextFileRequest
	writes  []acpsdk.WriteTextFileRequest
	refuse  *acpsdk.RequestError
}

func (c *efsClient) ReadTextFile(_ context.Context, p acpsdk.ReadTextFileRequest) (acpsdk.ReadTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads = append(c.reads, p)
	if c.refuse != nil {
		return acpsdk.ReadTextFileResponse{}, c.refuse
	}
	text, ok := c.buffers[p.Path]
	if !ok {
		return acpsdk.ReadTextFileResponse{}, &acpsdk.RequestError{Code: -32002, Message: "Resource not found", Data: map[string]any{"uri": p.Path}}
	}
	return acpsdk.ReadTextFileResponse{Content: text}, nil
}

func (c *efsClient) WriteTextFile(_ context.Context, p acpsdk.WriteTextFileRequest) (acpsdk.WriteTextFileResponse, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.writes = append(c.writes, p)
	if c.refuse != nil {
		return acpsdk.WriteTextFileResponse{}, c.refuse
	}
	c.buffers[p.Path] = p.Content
	return acpsdk.WriteTextFileResponse{}, nil
}

// efsConnect joins an agent-side connection to a client-side one over two
// pipes, the way stdio joins mm to an editor.
func efsConnect(t *testing.T, client acpsdk.Client) (*acpsdk.AgentSideConnection, *acpsdk.ClientSideConnection, func()) {
	t.Helper()
	toAgentR, toAgentW := io.Pipe()
	toClientR, toClientW := io.Pipe()
	agent := acpsdk.NewAgentSideConnection(efsAgent{}, toClientW, toAgentR)
	cs := acpsdk.NewClientSideConnection(client, toAgentW, toClientR)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	agent.SetLogger(quiet)
	cs.SetLogger(quiet)
	hangUp := func() {
		toAgentW.Close()
		toClientW.Close()
		toAgentR.Close()
		toClientR.Close()
	}
	t.Cleanup(hangUp)
	return agent, cs, hangUp
}

func TestEditorFilesReadsAndWritesThroughTheClient(t *testing.T) {
	client := &efsClient{buffers: map[string]string{"/p/a.go": "unsaved\n"}}
	conn, _, _ := efsConnect(t, client)
	ed := NewEditorFiles(conn, "sess-1")
	ctx := context.Background()
	text, err := ed.ReadTextFile(ctx, "/p/a.go")
	if err != nil || text != "unsaved\n" {
		t.Fatalf("read = %q, %v", text, err)
	}
	r := client.reads[0]
	if r.SessionId != "sess-1" || r.Path != "/p/a.go" || r.Line != nil || r.Limit != nil {
		t.Fatalf("request = %+v, want the whole file of sess-1", r)
	}
	if err := ed.WriteTextFile(ctx, "/p/a.go", "new\r\n"); err != nil {
		t.Fatal(err)
	}
	w := client.writes[0]
	if w.SessionId != "sess-1" || w.Path != "/p/a.go" || w.Content != "new\r\n" {
		t.Fatalf("write = %+v", w)
	}
}

func TestEditorFilesRefusalIsOneInertLine(t *testing.T) {
	client := &efsClient{buffers: map[string]string{}, refuse: &acpsdk.RequestError{
		Code: -32603, Message: "Internal error",
		Data: map[string]any{"details": "buffer \x1b]52;c;cHduZWQ=\x07locked\nby\tplugin " + strings.Repeat("x", 300)},
	}}
	conn, _, _ := efsConnect(t, client)
	ed := NewEditorFiles(conn, "s")
	_, err := ed.ReadTextFile(context.Background(), "/p/a.go")
	if err == nil {
		t.Fatal("no error")
	}
	got := err.Error()
	if !strings.HasPrefix(got, "the editor refused: Internal error: buffer ^[]52;c;cHduZWQ=^Glocked by plugin xxx") {
		t.Fatalf("error = %q", got)
	}
	if strings.ContainsAny(got, "\x1b\x07\n\t") || !strings.HasSuffix(got, "…") || len([]rune(got)) > 250 {
		t.Fatalf("error not one short inert line: %q", got)
	}
	client.refuse = &acpsdk.RequestError{Code: -32002, Message: "Resource not found"}
	if err := ed.WriteTextFile(context.Background(), "/p/a.go", "x"); err == nil || err.Error() != "the editor refused: Resource not found" {
		t.Fatalf("write error = %v", err)
	}
}

func TestEditorFilesClosedConnection(t *testing.T) {
	conn, _, hangUp := efsConnect(t, &efsClient{buffers: map[string]string{}})
	hangUp()
	<-conn.Done()
	_, err := NewEditorFiles(conn, "s").ReadTextFile(context.Background(), "/p/a.go")
	if err == nil || err.Error() != "the editor closed the connection" {
		t.Fatalf("error = %v", err)
	}
}

// The file tools over a real connection: edit_file edits the editor's
// buffer, the disk keeps its saved text, and a refusal reaches the model
// as the tool's text.
func TestEditorFilesDriveTheFileTools(t *testing.T) {
	dir := t.TempDir()
	abs := filepath.Join(dir, "main.go")
	if err := os.WriteFile(abs, []byte("package main\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	client := &efsClient{buffers: map[string]string{abs: "package main\n\nfunc unsaved() {}\n"}}
	conn, _, _ := efsConnect(t, client)
	o := tools.FileOptions{Dir: dir, Editor: NewEditorFiles(conn, "s")}
	args, _ := json.Marshal(map[string]any{"path": "main.go", "edits": []map[string]string{{"old": "unsaved", "new": "saved"}}})
	out := tools.NewEditFile(o).Run(context.Background(), args)
	if !strings.HasPrefix(out, "main.go: 1 edit applied") {
		t.Fatalf("edit_file = %q", out)
	}
	if got := client.buffers[abs]; got != "package main\n\nfunc saved() {}\n" {
		t.Fatalf("buffer = %q", got)
	}
	if b, _ := os.ReadFile(abs); string(b) != "package main\n" {
		t.Fatalf("disk = %q", b)
	}
	client.refuse = &acpsdk.RequestError{Code: -32000, Message: "permission denied"}
	args, _ = json.Marshal(map[string]any{"path": "main.go"})
	if got := tools.NewReadFile(o).Run(context.Background(), args); got != "cannot read main.go: the editor refused: permission denied" {
		t.Fatalf("read_file = %q", got)
	}
}
