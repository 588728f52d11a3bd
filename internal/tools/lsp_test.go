package tools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mm/internal/config"
	"mm/internal/lsp"
)

// lspTool builds the lsp tool over servers "found" by a fake LookPath
// (nothing is started unless a call needs a server).
func lspTool(t *testing.T, found map[string]bool, servers ...config.LSPServer) *Tool {
	t.Helper()
	m, _ := lsp.New(servers, lsp.Options{Root: t.TempDir(), LookPath: func(c string) (string, error) {
		if found[c] {
			return "/usr/bin/" + c, nil
		}
		return "", errors.New("not found")
	}})
	t.Cleanup(m.Close)
	return NewLSP(m)
}

var (
	goplsConf = config.LSPServer{Name: "gopls", Command: "gopls", Extensions: []string{".go"}}
	tsConf    = config.LSPServer{Name: "typescript", Command: "typescript-language-server", Args: []string{"--stdio"}, Extensions: []string{".ts", ".tsx"}}
)

func TestLSPDeclaredOnlyWithAServer(t *testing.T) {
	if tool := lspTool(t, nil, goplsConf); tool != nil {
		t.Error("declared with no server on the PATH")
	}
	if tool := NewLSP(nil); tool != nil {
		t.Error("declared without a manager")
	}
	tool := lspTool(t, map[string]bool{"gopls": true, "typescript-language-server": true}, goplsConf, tsConf)
	if tool == nil || tool.Name != "lsp" || tool.Kind != KindRead {
		t.Fatalf("tool %+v", tool)
	}
	if !strings.Contains(tool.Description, "Servers available: gopls (.go), typescript (.ts, .tsx).") {
		t.Errorf("description does not name the servers:\n%s", tool.Description)
	}
	for _, action := range lsp.Actions {
		if !strings.Contains(tool.Description, "- "+action+": ") {
			t.Errorf("description does not explain %s", action)
		}
	}
	// The schema the model reads lists the six actions and requires
	// action and path.
	schema, _ := json.Marshal(tool.Schema)
	if !strings.Contains(string(schema), `"enum":["definition","references","hover","symbols","diagnostics","rename"]`) ||
		!strings.Contains(string(schema), `"required":["action","path"]`) {
		t.Errorf("schema %s", schema)
	}
	if n := len(tool.Description) + len(schema); n > 1300 {
		t.Errorf("description and schema are %d bytes: a small model reads them on every request", n)
	}
}

func TestLSPSummaryAndPermission(t *testing.T) {
	tool := lspTool(t, map[string]bool{"gopls": true}, goplsConf)
	for args, want := range map[string]string{
		`{"action":"definition","path":"main.go","symbol":"greet"}`:                "definition main.go greet",
		`{"action":"definition","path":"main.go","line":9,"column":14}`:            "definition main.go:9:14",
		`{"action":"definition","path":"main.go","line":"9","column":"14"}`:        "definition main.go:9:14",
		`{"action":"rename","path":"main.go","symbol":"greet","new_name":"hello"}`: "rename main.go greet → hello",
		`{"action":"symbols","path":"main.go"}`:                                    "symbols main.go",
		`{"path":"main.go"}`:                                                       `{"path":"main.go"}`,
	} {
		if got := tool.SummaryOf(json.RawMessage(args)); got != want {
			t.Errorf("summary of %s = %q, want %q", args, got, want)
		}
	}
	for args, want := range map[string]bool{
		`{"action":"rename","path":"main.go","symbol":"a","new_name":"b"}`: true,
		`{"action":"Rename","path":"main.go"}`:                             true,
		`{"action":"definition","path":"main.go","symbol":"a"}`:            false,
		`{"action":"diagnostics","path":"main.go"}`:                        false,
	} {
		if got := tool.NeedsPermission(json.RawMessage(args)); got != want {
			t.Errorf("NeedsPermission(%s) = %v", args, got)
		}
	}
}

// Failures are text for the model, never a Go error; these need no
// server to run.
func TestLSPRunTexts(t *testing.T) {
	tool := lspTool(t, map[string]bool{"gopls": true}, goplsConf)
	for args, want := range map[string]string{
		`{"action":"hover","path":"README.md","symbol":"x"}`: `[lsp: no language server for "README.md" — configured: gopls (.go)]`,
		`{"action":"hover","path":"nope.go","symbol":"x"}`:   `[lsp: nope.go does not exist]`,
		`{"action":"hover","path":"a.go","line":"x"}`:        `[error: lsp: bad arguments: "x" is not a number]`,
		`{"action":"explain","path":"a.go"}`:                 `[lsp: unknown action "explain" — use one of definition, references, hover, symbols, diagnostics, rename]`,
	} {
		if got := tool.Run(context.Background(), json.RawMessage(args)); got != want {
			t.Errorf("%s:\n got %q\nwant %q", args, got, want)
		}
	}
}

// write_file and edit_file tell FileOptions.Changed what they wrote, and
// only when they wrote it.
func TestFileToolsCallChanged(t *testing.T) {
	o := fileDir(t, map[string]string{"a.go": "package a\n"})
	var got []string
	o.Changed = func(paths ...string) { got = append(got, paths...) }
	NewWriteFile(o).Run(context.Background(), json.RawMessage(`{"path":"b.go","content":"package a\n"}`))
	NewWriteFile(o).Run(context.Background(), json.RawMessage(`{"path":"b.go","content":"package a\n"}`)) // identical: nothing written
	NewEditFile(o).Run(context.Background(), json.RawMessage(`{"path":"a.go","edits":[{"old":"package a","new":"package b"}]}`))
	NewEditFile(o).Run(context.Background(), json.RawMessage(`{"path":"a.go","edits":[{"old":"nope","new":"x"}]}`))                     // refused
	NewEditFile(o).Run(context.Background(), json.RawMessage(`{"path":"a.go","edits":[{"old":"package b","new":"x"}],"dry_run":true}`)) // dry run
	want := []string{filepath.Join(o.Dir, "b.go"), filepath.Join(o.Dir, "a.go")}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("Changed got %q, want %q", got, want)
	}
	if b, _ := os.ReadFile(filepath.Join(o.Dir, "a.go")); string(b) != "package b\n" {
		t.Errorf("a.go = %q", b)
	}
}
