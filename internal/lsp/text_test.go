package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
)

func TestUTF16Columns(t *testing.T) {
	line := "a😀é\tb"
	// Characters: a 😀 é \t b; UTF-16 units: 1 2 1 1 1.
	for col, want := range []int{0, 1, 3, 4, 5, 6} {
		if got := runesToUTF16(line, col); got != want {
			t.Errorf("runesToUTF16(%d) = %d, want %d", col, got, want)
		}
		if back := utf16ToRunes(line, want); back != col {
			t.Errorf("utf16ToRunes(%d) = %d, want %d", want, back, col)
		}
	}
	if n := utf16Len(line); n != len(utf16.Encode([]rune(line))) {
		t.Errorf("utf16Len = %d", n)
	}
	// Inside the surrogate pair: the emoji's own start.
	if b := utf16ToByte(line, 2); b != 1 {
		t.Errorf("utf16ToByte inside a pair = %d", b)
	}
	// Past the end: the end of the line.
	if b := utf16ToByte(line, 99); b != len(line) {
		t.Errorf("utf16ToByte past the end = %d", b)
	}
}

func TestLinesAndOffsets(t *testing.T) {
	l := splitLines("ab\r\n😀x\nlast")
	if l.count() != 3 || l.editorCount() != 3 || l.line(0) != "ab" || l.line(1) != "😀x" || l.line(2) != "last" {
		t.Errorf("lines: %d %d %q %q %q", l.count(), l.editorCount(), l.line(0), l.line(1), l.line(2))
	}
	if o := l.offset(position{Line: 1, Character: 2}); l.text[o:o+1] != "x" {
		t.Errorf("offset of x = %d", o)
	}
	if o := l.offset(position{Line: 9, Character: 0}); o != len(l.text) {
		t.Errorf("past the end: %d", o)
	}
	if e := splitLines("a\n"); e.count() != 2 || e.editorCount() != 1 {
		t.Errorf("trailing newline: %d %d", e.count(), e.editorCount())
	}
	if e := splitLines(""); e.editorCount() != 0 {
		t.Errorf("empty text: %d lines", e.editorCount())
	}
}

func TestCleanSymbol(t *testing.T) {
	for in, want := range map[string]string{
		"Greet": "Greet", "Greet', ": "Greet", "person.Greet": "Greet", `"fmt.Println"`: "Println",
		"greet()": "greet", "greet(name)": "greet", "*Person": "Person", "std::mem::swap": "swap",
		"List<T>": "List", "`héllo`": "héllo", "$el": "$el", "...": "", "  x  ": "x", "a.b.c;": "c",
	} {
		if got := cleanSymbol(in); got != want {
			t.Errorf("cleanSymbol(%q) = %q, want %q", in, got, want)
		}
	}
	if ids := identifiers("Greet 1 12 Hello"); strings.Join(ids, ",") != "Greet,Hello" {
		t.Errorf("identifiers = %q", ids)
	}
}

func TestRequestNormalize(t *testing.T) {
	r, hint := Request{Action: " Rename ", Path: "a.go", Symbol: "Greet 1 12 'Hello',"}.normalize()
	if r.Action != "rename" || r.Symbol != "Greet" || r.NewName != "Hello" || hint != 1 {
		t.Errorf("rename heuristic: %+v %d", r, hint)
	}
	// With a new_name the symbol is not split.
	if r, _ := (Request{Action: "rename", Symbol: "Greet Hello", NewName: "x"}).normalize(); r.NewName != "x" {
		t.Errorf("new_name given: %+v", r)
	}
	for req, want := range map[Request]string{
		{Action: "definition", Path: "main.go", Symbol: "p.greet"}:             "definition main.go greet",
		{Action: "definition", Path: "main.go", Line: 9, Column: 14}:           "definition main.go:9:14",
		{Action: "references", Path: "main.go", Symbol: "greet", Line: 9}:      "references main.go:9 greet",
		{Action: "rename", Path: "main.go", Symbol: "greet", NewName: "hello"}: "rename main.go greet → hello",
		{Action: "rename", Path: "main.go", Symbol: "greet 3 6 hello"}:         "rename main.go greet → hello",
		{Action: "symbols", Path: "main.go", Symbol: "ignored"}:                "symbols main.go",
		{Action: "diagnostics", Path: "src/app.ts"}:                            "diagnostics src/app.ts",
	} {
		if got := req.Summary(); got != want {
			t.Errorf("Summary(%+v) = %q, want %q", req, got, want)
		}
	}
	if !(Request{Action: "rename"}).Mutates() || (Request{Action: "definition"}).Mutates() {
		t.Error("only rename mutates")
	}
}

func TestOccurrencesOrder(t *testing.T) {
	text := splitLines("// greet here\nfunc greet() {}\n\tx := greet() // greet again\n# greet\nnotgreet greetx\n")
	var got []string
	for _, o := range findOccurrences(text, "greet", -1) {
		got = append(got, text.line(o.line)[o.byteCol:o.byteCol+5]+"@"+string(rune('1'+o.line)))
	}
	want := "greet@2 greet@3 greet@1 greet@3 greet@4"
	if strings.Join(got, " ") != want {
		t.Errorf("occurrences %q, want %q", strings.Join(got, " "), want)
	}
	if occ := findOccurrences(text, "greet", 2); len(occ) != 2 || occ[0].comment || !occ[1].comment {
		t.Errorf("on line 3: %+v", occ)
	}
}

func TestApplyTextEdits(t *testing.T) {
	text := "a😀b\nc\n"
	out, err := applyTextEdits(text, []textEdit{
		{Range: lspRange{Start: position{1, 0}, End: position{1, 1}}, NewText: "C"},
		{Range: lspRange{Start: position{0, 1}, End: position{0, 3}}, NewText: "é"},
		{Range: lspRange{Start: position{2, 0}, End: position{2, 0}}, NewText: "end\n"},
	})
	if err != nil || out != "aéb\nC\nend\n" {
		t.Errorf("got %q, %v", out, err)
	}
	if _, err := applyTextEdits(text, []textEdit{
		{Range: lspRange{Start: position{0, 0}, End: position{0, 3}}},
		{Range: lspRange{Start: position{0, 2}, End: position{0, 4}}},
	}); err == nil {
		t.Error("overlapping edits accepted")
	}
	if _, err := applyTextEdits(text, []textEdit{{Range: lspRange{Start: position{7, 0}, End: position{7, 0}}}}); err == nil {
		t.Error("an edit past the end accepted")
	}
}

func TestDecodeAnswers(t *testing.T) {
	for raw, n := range map[string]int{
		`null`: 0, `[]`: 0,
		`{"uri":"file:///a.go","range":{"start":{"line":1,"character":2},"end":{"line":1,"character":3}}}`:                           1,
		`[{"uri":"file:///a.go","range":{}},{"uri":"file:///b.go","range":{}}]`:                                                      2,
		`[{"targetUri":"file:///a.go","targetRange":{},"targetSelectionRange":{"start":{"line":4,"character":1},"end":{"line":4}}}]`: 1,
	} {
		if got := decodeLocations(json.RawMessage(raw)); len(got) != n {
			t.Errorf("%s: %d locations, want %d", raw, len(got), n)
		}
	}
	for raw, want := range map[string]string{
		`{"contents":{"kind":"markdown","value":"**x** int"}}`:       "**x** int",
		`{"contents":"plain"}`:                                       "plain",
		`{"contents":[{"language":"go","value":"var x int"},"doc"]}`: "```go\nvar x int\n```\n\ndoc",
		`null`: "",
	} {
		if got := hoverText(json.RawMessage(raw)); got != want {
			t.Errorf("hoverText(%s) = %q, want %q", raw, got, want)
		}
	}
	if p, ok := uriToPath(pathToURI("/tmp/a b/é.go")); !ok || p != "/tmp/a b/é.go" {
		t.Errorf("uri round trip: %q %v", p, ok)
	}
	if _, ok := uriToPath("untitled:Untitled-1"); ok {
		t.Error("a non-file URI read as a path")
	}
}

// The framing: requests out with Content-Length, responses matched by id,
// server requests answered (result null included), notifications handed
// over, a closed pipe failing the pending calls.
func TestConn(t *testing.T) {
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	notes := make(chan string, 4)
	c := newConn(clientIn, clientOut, func(method string, _ json.RawMessage) (any, *rpcError) {
		return nil, nil
	}, func(method string, _ json.RawMessage) { notes <- method })

	srv := bufio.NewReader(toServer)
	send := func(s string) { io.WriteString(fromServer, "Content-Length: "+strconv.Itoa(len(s))+"\r\n\r\n"+s) }
	done := make(chan error, 1)
	var result struct{ X int }
	go func() { done <- c.Call(context.Background(), "ping", map[string]int{"a": 1}, &result) }()
	body, err := readFrame(srv)
	if err != nil || !bytes.Contains(body, []byte(`"method":"ping"`)) || !bytes.Contains(body, []byte(`"id":1`)) {
		t.Fatalf("request %s, %v", body, err)
	}
	// A server request first, then a notification, then the answer.
	send(`{"jsonrpc":"2.0","id":"s1","method":"workspace/configuration","params":{}}`)
	reply, _ := readFrame(srv)
	if string(reply) != `{"jsonrpc":"2.0","id":"s1","result":null}` {
		t.Errorf("reply to the server's request: %s", reply)
	}
	send(`{"jsonrpc":"2.0","method":"window/logMessage","params":{}}`)
	send(`{"jsonrpc":"2.0","id":1,"result":{"X":7}}`)
	if err := <-done; err != nil || result.X != 7 {
		t.Errorf("call: %v %+v", err, result)
	}
	if m := <-notes; m != "window/logMessage" {
		t.Errorf("notification %q", m)
	}
	// An error answer, then the server goes away during a call.
	go func() { done <- c.Call(context.Background(), "boom", nil, nil) }()
	readFrame(srv)
	send(`{"jsonrpc":"2.0","id":2,"error":{"code":-32603,"message":"it broke"}}`)
	if err := <-done; err == nil || err.Error() != "it broke" {
		t.Errorf("error answer: %v", err)
	}
	go func() { done <- c.Call(context.Background(), "hang", nil, nil) }()
	readFrame(srv)
	fromServer.Close()
	select {
	case err := <-done:
		if err != errConnClosed {
			t.Errorf("closed: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a pending call outlived the connection")
	}
	// A cancelled call tells the server.
	toServer2, clientOut2 := io.Pipe()
	clientIn2, _ := io.Pipe()
	c2 := newConn(clientIn2, clientOut2, nil, nil)
	ctx, cancel := context.WithCancel(context.Background())
	go func() { done <- c2.Call(ctx, "slow", nil, nil) }()
	srv2 := bufio.NewReader(toServer2)
	readFrame(srv2)
	cancel()
	if body, _ := readFrame(srv2); !bytes.Contains(body, []byte(`"$/cancelRequest"`)) {
		t.Errorf("no cancel sent: %s", body)
	}
	if err := <-done; err != context.Canceled {
		t.Errorf("cancelled call: %v", err)
	}
}

// Places are sorted by path then position, each once; paths inside the
// project are relative, others absolute, and a virtual document keeps its
// URI.
func TestFormatLocations(t *testing.T) {
	m := &Manager{root: "/proj", realRoot: "/proj"}
	p := &proc{docs: map[string]*document{"/proj/b.go": {text: "x\n\tvar é, greet int\n"}}}
	c := &call{m: m, p: p}
	at := func(uri string, line, char int) location {
		return location{URI: uri, Range: lspRange{Start: position{line, char}}}
	}
	got := c.formatLocations([]location{
		at("file:///proj/b.go", 1, 8), at("jdt://contents/X.class", 4, 2), at("file:///proj/b.go", 1, 8), at("file:///proj/b.go", 0, 0),
	})
	if strings.Join(got, "\n") != "b.go:1:1 x\nb.go:2:9 var é, greet int\njdt://contents/X.class:5:3" {
		t.Errorf("got %q", got)
	}
}
