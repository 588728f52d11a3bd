package lsp

// A fake language server for the edge cases real servers do not show on
// demand: a server that answers null at some places, fails, crashes,
// never answers shutdown, spawns children, floods its stderr, or answers
// a rename with documentChanges and file operations. The test binary is
// the server: TestMain runs fakeServer when MM_FAKE_LSP is set.
//
// Its positions are worked out independently of the package's own
// conversions (utf16.Encode), so a conversion bug shows as a wrong answer.

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/textproto"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"
)

func TestMain(m *testing.M) {
	if os.Getenv("MM_FAKE_LSP") != "" {
		fakeServer()
		os.Exit(0)
	}
	addServerDirs()
	os.Exit(m.Run())
}

type fake struct {
	mu   sync.Mutex
	out  io.Writer
	docs map[string]string // uri → text
	log  *os.File
	mode map[string]bool
}

func fakeServer() {
	f := &fake{out: os.Stdout, docs: map[string]string{}, mode: map[string]bool{}}
	for _, m := range strings.Split(os.Getenv("MM_FAKE_LSP"), ",") {
		f.mode[m] = true
	}
	if p := os.Getenv("MM_FAKE_LOG"); p != "" {
		f.log, _ = os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	}
	if f.mode["child"] {
		// A child in the server's process group, as tsserver is under
		// typescript-language-server: stopping the server must stop it.
		child := exec.Command("sleep", "300")
		child.Start()
		f.logf("child %d", child.Process.Pid)
	}
	if f.mode["stderr"] {
		// More than a pipe holds: a server whose stderr is not drained
		// blocks here and never answers.
		fmt.Fprint(os.Stderr, strings.Repeat("noise on stderr\n", 20000))
	}
	r := bufio.NewReader(os.Stdin)
	for n := 0; ; n++ {
		if f.mode["deaf"] && n == 2 {
			// After initialize and initialized, it reads no more.
			select {}
		}
		body, err := readFakeFrame(r)
		if err != nil {
			return
		}
		var m struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
			Params json.RawMessage `json:"params"`
		}
		json.Unmarshal(body, &m)
		f.logf("%s", m.Method)
		if m.Method == "" {
			continue // a response to one of our requests
		}
		if m.Method == "exit" {
			return
		}
		result, rerr := f.handle(m.Method, m.Params)
		if len(m.ID) == 0 {
			continue
		}
		if m.Method == "shutdown" && f.mode["hang-shutdown"] {
			continue
		}
		resp := map[string]any{"jsonrpc": "2.0", "id": m.ID}
		if rerr != "" {
			resp["error"] = map[string]any{"code": -32603, "message": rerr}
		} else {
			resp["result"] = result
		}
		f.send(resp)
	}
}

func readFakeFrame(r *bufio.Reader) ([]byte, error) {
	tp := textproto.NewReader(r)
	h, err := tp.ReadMIMEHeader()
	if err != nil {
		return nil, err
	}
	n, _ := strconv.Atoi(h.Get("Content-Length"))
	body := make([]byte, n)
	_, err = io.ReadFull(r, body)
	return body, err
}

func (f *fake) send(v any) {
	b, _ := json.Marshal(v)
	f.mu.Lock()
	defer f.mu.Unlock()
	fmt.Fprintf(f.out, "Content-Length: %d\r\n\r\n%s", len(b), b)
}

func (f *fake) logf(format string, args ...any) {
	if f.log != nil {
		fmt.Fprintf(f.log, format+"\n", args...)
	}
}

// fakePos is the params of a positional request.
type fakePos struct {
	TextDocument struct {
		URI string `json:"uri"`
	} `json:"textDocument"`
	Position struct {
		Line      int `json:"line"`
		Character int `json:"character"`
	} `json:"position"`
	NewName string `json:"newName"`
}

// wordAt is the identifier under a UTF-16 position, and its start.
func wordAt(text string, line, char int) (string, int) {
	lines := strings.Split(text, "\n")
	if line >= len(lines) {
		return "", 0
	}
	u := utf16.Encode([]rune(lines[line]))
	if char > len(u) {
		return "", 0
	}
	isWord := func(c uint16) bool {
		return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	start, end := char, char
	for start > 0 && isWord(u[start-1]) {
		start--
	}
	for end < len(u) && isWord(u[end]) {
		end++
	}
	return string(utf16.Decode(u[start:end])), start
}

// occurrencesOf are the whole-word places of word in text, as UTF-16
// ranges.
func occurrencesOf(text, word string) [][3]int {
	var out [][3]int
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(word) + `\b`)
	for i, line := range strings.Split(text, "\n") {
		for _, m := range re.FindAllStringIndex(line, -1) {
			from := len(utf16.Encode([]rune(line[:m[0]])))
			out = append(out, [3]int{i, from, from + len(utf16.Encode([]rune(word)))})
		}
	}
	return out
}

func rng(line, from, to int) map[string]any {
	return map[string]any{"start": map[string]int{"line": line, "character": from}, "end": map[string]int{"line": line, "character": to}}
}

func (f *fake) handle(method string, params json.RawMessage) (any, string) {
	switch method {
	case "initialize":
		caps := map[string]any{"textDocumentSync": 1, "definitionProvider": true, "referencesProvider": true,
			"hoverProvider": true, "documentSymbolProvider": true, "renameProvider": true}
		if f.mode["no-rename"] {
			delete(caps, "renameProvider")
		}
		return map[string]any{"capabilities": caps}, ""
	case "shutdown":
		return nil, ""
	case "textDocument/didOpen":
		var p struct {
			TextDocument struct{ URI, Text string } `json:"textDocument"`
		}
		json.Unmarshal(params, &p)
		f.docs[p.TextDocument.URI] = p.TextDocument.Text
		f.logf("open %s", filepath.Base(p.TextDocument.URI))
		f.publish(p.TextDocument.URI)
	case "textDocument/didChange":
		var p struct {
			TextDocument   struct{ URI string }    `json:"textDocument"`
			ContentChanges []struct{ Text string } `json:"contentChanges"`
		}
		json.Unmarshal(params, &p)
		f.docs[p.TextDocument.URI] = p.ContentChanges[0].Text
		f.logf("change %s", filepath.Base(p.TextDocument.URI))
		f.publish(p.TextDocument.URI)
	case "workspace/didChangeWatchedFiles":
		var p struct {
			Changes []struct {
				URI  string `json:"uri"`
				Type int    `json:"type"`
			} `json:"changes"`
		}
		json.Unmarshal(params, &p)
		for _, c := range p.Changes {
			f.logf("watched %s %d", filepath.Base(c.URI), c.Type)
		}
	case "textDocument/definition", "textDocument/hover", "textDocument/references", "textDocument/rename":
		var p fakePos
		json.Unmarshal(params, &p)
		text := f.docs[p.TextDocument.URI]
		word, start := wordAt(text, p.Position.Line, p.Position.Character)
		line := ""
		if all := strings.Split(text, "\n"); p.Position.Line < len(all) {
			line = all[p.Position.Line]
		}
		f.logf("%s %d:%d %q", method, p.Position.Line, p.Position.Character, word)
		switch {
		case word == "":
			return nil, "no identifier found"
		case word == "crash":
			fmt.Fprintln(os.Stderr, "fake: crashing on purpose")
			os.Exit(3)
		case word == "failing":
			return nil, "internal error: " + word
		case strings.Contains(line, "NULL"):
			return nil, "" // the server has nothing at this place
		}
		switch method {
		case "textDocument/definition":
			for _, o := range occurrencesOf(text, word) {
				if l := strings.Split(text, "\n")[o[0]]; strings.HasSuffix(string(utf16.Decode(utf16.Encode([]rune(l))[:o[1]])), "def ") {
					// A LocationLink, as servers told linkSupport answer.
					return []map[string]any{{"targetUri": p.TextDocument.URI, "targetRange": rng(o[0], 0, o[2]), "targetSelectionRange": rng(o[0], o[1], o[2])}}, ""
				}
			}
			return nil, ""
		case "textDocument/hover":
			return map[string]any{"contents": map[string]string{"kind": "markdown", "value": fmt.Sprintf("**%s** at %d:%d", word, p.Position.Line, start)}}, ""
		case "textDocument/references":
			var locs []map[string]any
			for uri, t := range f.docs {
				for _, o := range occurrencesOf(t, word) {
					locs = append(locs, map[string]any{"uri": uri, "range": rng(o[0], o[1], o[2])})
					locs = append(locs, map[string]any{"uri": uri, "range": rng(o[0], o[1], o[2])}) // duplicates are dropped
				}
			}
			return locs, ""
		default:
			return f.rename(word, p.NewName)
		}
	case "textDocument/documentSymbol":
		var p fakePos
		json.Unmarshal(params, &p)
		var syms []map[string]any
		for i, line := range strings.Split(f.docs[p.TextDocument.URI], "\n") {
			if name, ok := strings.CutPrefix(line, "def "); ok {
				syms = append(syms, map[string]any{"name": name, "kind": 12, "detail": "func()", "range": rng(i, 0, len(line)), "selectionRange": rng(i, 4, len(line)), "children": []any{}})
			} else if name, ok := strings.CutPrefix(line, "  field "); ok && len(syms) > 0 {
				last := syms[len(syms)-1]
				last["children"] = append(last["children"].([]any), map[string]any{"name": name, "kind": 8, "range": rng(i, 0, len(line)), "selectionRange": rng(i, 8, len(line))})
			}
		}
		return syms, ""
	}
	return nil, ""
}

// publish sends a diagnostic per line holding ERROR, unless the mode says
// the server never publishes.
func (f *fake) publish(uri string) {
	if f.mode["silent"] {
		return
	}
	diags := []map[string]any{}
	for i, line := range strings.Split(f.docs[uri], "\n") {
		if j := strings.Index(line, "ERROR"); j >= 0 {
			from := len(utf16.Encode([]rune(line[:j])))
			diags = append(diags, map[string]any{"range": rng(i, from, from+5), "severity": 1, "source": "fake", "message": "bad thing\nsecond line"})
		}
	}
	f.send(map[string]any{"jsonrpc": "2.0", "method": "textDocument/publishDiagnostics", "params": map[string]any{"uri": uri, "diagnostics": diags}})
}

// rename replaces word everywhere in the open documents; in the
// documentChanges mode it also renames a file, as some servers do when a
// type and its file share a name.
func (f *fake) rename(word, newName string) (any, string) {
	changes := map[string][]map[string]any{}
	for uri, t := range f.docs {
		for _, o := range occurrencesOf(t, word) {
			changes[uri] = append(changes[uri], map[string]any{"range": rng(o[0], o[1], o[2]), "newText": newName})
		}
	}
	if !f.mode["document-changes"] {
		return map[string]any{"changes": changes}, ""
	}
	var dc []any
	for uri, edits := range changes {
		dc = append(dc, map[string]any{"textDocument": map[string]any{"uri": uri, "version": nil}, "edits": edits})
	}
	for uri := range f.docs {
		if strings.HasSuffix(uri, "/"+word+".fk") {
			dc = append(dc, map[string]any{"kind": "rename", "oldUri": uri, "newUri": strings.TrimSuffix(uri, word+".fk") + newName + ".fk"})
		}
	}
	if f.mode["outside"] {
		dc = append(dc, map[string]any{"textDocument": map[string]any{"uri": "file:///etc/hostname"}, "edits": []any{map[string]any{"range": rng(0, 0, 0), "newText": "x"}}})
	}
	return map[string]any{"documentChanges": dc}, ""
}
