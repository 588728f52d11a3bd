package acp

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/tools"
)

// contentRead is the facade's reader in these tests: a few files, and
// the refusal the file tools give a binary one.
func contentRead(files map[string]string) func(context.Context, string) (string, error) {
	return func(_ context.Context, abs string) (string, error) {
		if abs == "/home/user/document.pdf" {
			return "", errors.New("is a binary file (it contains NUL bytes)")
		}
		if text, ok := files[abs]; ok {
			return text, nil
		}
		return "", errors.New("does not exist")
	}
}

func TestPromptText(t *testing.T) {
	long := strings.Repeat("0123456789\n", 20)
	files := map[string]string{
		"/p/main.go":      "package main\n",
		"/p/my file.go":   "package x",
		"/p/raw.bin":      "PK\x00\x03",
		"/p/fenced.md":    "run:\n```sh\nmake\n```\n",
		"/p/long.txt":     long,
		"/home/user/a.py": "print(1)\n",
	}
	for _, c := range []struct {
		name, blocks, want string
	}{
		{"text (the spec's example)", `[{"type":"text","text":"What's the weather like today?"}]`,
			"What's the weather like today?"},
		{"text and an embedded file (the prompt-turn example)",
			`[{"type":"text","text":"Can you analyze this code for potential issues?"},
			  {"type":"resource","resource":{"uri":"file:///home/user/project/main.py","mimeType":"text/x-python","text":"def process_data(items):\n    for item in items:\n        print(item)"}}]`,
			"Can you analyze this code for potential issues? /home/user/project/main.py\n\n/home/user/project/main.py:\n```\ndef process_data(items):\n    for item in items:\n        print(item)\n```"},
		{"a mention inside the text (an editor splits it there)",
			`[{"type":"text","text":"fix "},{"type":"resource_link","uri":"file:///p/main.go","name":"main.go"},{"type":"text","text":" please"}]`,
			"fix /p/main.go please\n\n/p/main.go:\n```\npackage main\n```"},
		{"two mentions, punctuation kept in place",
			`[{"type":"text","text":"compare"},{"type":"resource_link","uri":"file:///p/main.go","name":"main.go"},{"type":"text","text":", then"},{"type":"resource_link","uri":"file:///p/my%20file.go","name":"my file.go"}]`,
			"compare /p/main.go, then /p/my file.go\n\n/p/main.go:\n```\npackage main\n```\n\n/p/my file.go:\n```\npackage x\n```"},
		{"a link to a binary file (the spec's resource_link example)",
			`[{"type":"text","text":"summarize"},{"type":"resource_link","uri":"file:///home/user/document.pdf","name":"document.pdf","mimeType":"application/pdf","size":1024000}]`,
			"summarize /home/user/document.pdf\n\n/home/user/document.pdf: not included (is a binary file (it contains NUL bytes))"},
		{"a reader that returns bytes with NUL",
			`[{"type":"resource_link","uri":"file:///p/raw.bin","name":"raw.bin"}]`,
			"/p/raw.bin\n\n/p/raw.bin: not included (a binary file)"},
		{"a missing file",
			`[{"type":"resource_link","uri":"file:///p/gone.go","name":"gone.go"}]`,
			"/p/gone.go\n\n/p/gone.go: not included (does not exist)"},
		{"a link that is not a file",
			`[{"type":"text","text":"read"},{"type":"resource_link","uri":"https://example.com/spec.html","name":"spec","mimeType":"text/html"}]`,
			"read spec\n\nspec: a link to https://example.com/spec.html (text/html), not opened"},
		{"a blob resource",
			`[{"type":"resource","resource":{"uri":"file:///p/logo.png","mimeType":"image/png","blob":"iVBORw0KGgo="}}]`,
			"/p/logo.png\n\n/p/logo.png: binary content (image/png, about 8 bytes), not shown"},
		{"a selection keeps its fragment; a non-file resource is named by its URI",
			`[{"type":"text","text":"why"},{"type":"resource","resource":{"uri":"file:///p/main.go#L3:5","text":"x := 1\n"}},{"type":"resource","resource":{"uri":"zed:///agent/rules","text":"be brief"}}]`,
			"why /p/main.go#L3:5 zed:///agent/rules\n\n/p/main.go#L3:5:\n```\nx := 1\n```\n\nzed:///agent/rules:\n```\nbe brief\n```"},
		{"backticks in the text lengthen the fence",
			`[{"type":"resource_link","uri":"file:///p/fenced.md","name":"fenced.md"}]`,
			"/p/fenced.md\n\n/p/fenced.md:\n````\nrun:\n```sh\nmake\n```\n````"},
		{"the same file twice is shown once",
			`[{"type":"resource_link","uri":"file:///home/user/a.py","name":"a.py"},{"type":"text","text":"and"},{"type":"resource","resource":{"uri":"file:///home/user/a.py","text":"print(1)\n"}}]`,
			"/home/user/a.py and /home/user/a.py\n\n/home/user/a.py:\n```\nprint(1)\n```"},
		{"a long file is cut to maxOutput the way tools cut",
			`[{"type":"resource_link","uri":"file:///p/long.txt","name":"long.txt"}]`,
			"/p/long.txt\n\n/p/long.txt:\n```\n" + tools.Truncate(long, 100) + "```"},
		{"a client's name is one inert line",
			`[{"type":"resource_link","uri":"mcp://x","name":"evil\u001b[2J\nname"}]`,
			"evil^[[2J name\n\nevil^[[2J name: a link to mcp://x (type not given), not opened"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var blocks []acpsdk.ContentBlock
			if err := json.Unmarshal([]byte(c.blocks), &blocks); err != nil {
				t.Fatal(err)
			}
			got, err := PromptText(context.Background(), blocks, 100, contentRead(files))
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Fatalf("got:\n%s\nwant:\n%s", got, c.want)
			}
		})
	}
}

func TestPromptTextRefusesImageAndAudio(t *testing.T) {
	for _, raw := range []string{
		`[{"type":"text","text":"what is this?"},{"type":"image","mimeType":"image/png","data":"iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB"}]`,
		`[{"type":"audio","mimeType":"audio/wav","data":"UklGRiQAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQAAAAA="}]`,
	} {
		var blocks []acpsdk.ContentBlock
		if err := json.Unmarshal([]byte(raw), &blocks); err != nil {
			t.Fatal(err)
		}
		_, err := PromptText(context.Background(), blocks, 100, contentRead(nil))
		if !errors.Is(err, ErrUnsupportedContent) {
			t.Fatalf("error = %v, want ErrUnsupportedContent", err)
		}
	}
}

// The facade's disk reader is the file tools' loader: a binary file is
// refused with the file tools' words, not pasted into the prompt.
func TestPromptTextWithTheFileToolsReader(t *testing.T) {
	dir := t.TempDir()
	o := tools.FileOptions{Dir: dir}
	if err := os.WriteFile(filepath.Join(dir, "a.bin"), []byte("\x7fELF\x00\x01"), 0o644); err != nil {
		t.Fatal(err)
	}
	blocks := []acpsdk.ContentBlock{
		acpsdk.ResourceLinkBlock("x", "file://"+dir+"/missing.txt"),
		acpsdk.ResourceLinkBlock("a.bin", "file://"+dir+"/a.bin"),
	}
	got, err := PromptText(context.Background(), blocks, 100, o.ReadText)
	if err != nil {
		t.Fatal(err)
	}
	if want := dir + "/missing.txt " + dir + "/a.bin\n\n" + dir + "/missing.txt: not included (does not exist)\n\n" +
		dir + "/a.bin: not included (is a binary file (it contains NUL bytes))"; got != want {
		t.Fatalf("got %q, want %q", got, want)
	}
}
