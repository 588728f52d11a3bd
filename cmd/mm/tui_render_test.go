package main_test

// The window's rendering (internal/tui markdown.go, diff.go, kinds.go)
// through the binary in a pty: Markdown answers, coloured diffs, what
// shows under each kind of tool, and the screen docs/window-mode.md
// shows, written by TestTUIScreenshot.

import (
	"fmt"
	"image/color"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/creack/pty"

	"mm/internal/llmtest"
)

// styleAt is the style of the first cell of want on the screen.
func (s *tuiSession) styleAt(want string) (uv.Style, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for y := 0; y < s.emu.Height(); y++ {
		var b strings.Builder
		var col []int // the column of each byte of the row's text
		for x := 0; x < s.emu.Width(); x++ {
			c := s.emu.CellAt(x, y)
			if c == nil || c.Content == "" {
				continue
			}
			for range len(c.Content) {
				col = append(col, x)
			}
			b.WriteString(c.Content)
		}
		if i := strings.Index(b.String(), want); i >= 0 {
			return s.emu.CellAt(col[i], y).Style, true
		}
	}
	return uv.Style{}, false
}

func sameColor(a, b color.Color) bool {
	if a == nil || b == nil {
		return a == b
	}
	r1, g1, b1, a1 := a.RGBA()
	r2, g2, b2, a2 := b.RGBA()
	return r1 == r2 && g1 == g2 && b1 == b2 && a1 == a2
}

// coloured reports whether any cell of the screen has a colour.
func (s *tuiSession) coloured() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	for y := 0; y < s.emu.Height(); y++ {
		for x := 0; x < s.emu.Width(); x++ {
			if c := s.emu.CellAt(x, y); c != nil && (c.Style.Fg != nil || c.Style.Bg != nil) {
				return true
			}
		}
	}
	return false
}

const mdAnswer = "## Adding the flag\n\nTwo steps, **both small**:\n\n" +
	"1. declare it in `main.go` with a description long enough to wrap on the window's width here\n" +
	"2. read it where the *config* is built\n\n" +
	"```go\nvar verbose = flag.Bool(\"v\", false, \"say more\")\n```\n\n" +
	"> See [the flag package](https://pkg.go.dev/flag).\n"

// An answer in Markdown: the heading bold and without its #, the list
// numbered with its wrapped text hanging under it, the code block set
// apart with its language, the code and the emphasis styled, the link as
// text (url). With NO_COLOR: no style at all, the marks kept.
func TestTUIMarkdownAnswer(t *testing.T) {
	s := startTUI(t, t.TempDir(), llmtest.New(t, llmtest.Turn{Text: mdAnswer}), nil)
	s.wait("Ctrl-D quits")
	s.send("how?\r")
	s.wait("the flag package (https://pkg.go.dev/flag)")
	scr := s.screen()
	for _, want := range []string{
		"\nAdding the flag",
		"Two steps, both small:",
		"1. declare it in main.go with a description long enough to wrap on the window's\n   width here",
		"2. read it where the config is built",
		"┌─ go\n│ var verbose = flag.Bool(\"v\", false, \"say more\")\n└─",
		"▎ See the flag package (https://pkg.go.dev/flag).",
	} {
		if !strings.Contains(scr, want) {
			t.Errorf("no %q on the screen:\n%s", want, scr)
		}
	}
	if st, _ := s.styleAt("Adding the flag"); st.Attrs&uv.AttrBold == 0 {
		t.Errorf("the heading is not bold: %+v", st)
	}
	if st, _ := s.styleAt("both small"); st.Attrs&uv.AttrBold == 0 {
		t.Errorf("**both small** is not bold: %+v", st)
	}
	if st, _ := s.styleAt("config is"); st.Attrs&uv.AttrItalic == 0 {
		t.Errorf("*config* is not italic: %+v", st)
	}
	if st, _ := s.styleAt("main.go with"); !sameColor(st.Fg, xansi.Cyan) {
		t.Errorf("`main.go` is not in the code colour: %+v", st)
	}
	if st, _ := s.styleAt("┌─"); st.Attrs&uv.AttrFaint == 0 {
		t.Errorf("the code block's rule is not dim: %+v", st)
	}

	s = startTUI(t, t.TempDir(), llmtest.New(t, llmtest.Turn{Text: mdAnswer}), []string{"NO_COLOR=1"})
	s.wait("Ctrl-D quits")
	s.send("how?\r")
	s.wait("the flag package (https://pkg.go.dev/flag)")
	scr = s.screen()
	for _, want := range []string{"## Adding the flag", "**both small**", "`main.go`", "*config*", "┌─ go", "│ var verbose"} {
		if !strings.Contains(scr, want) {
			t.Errorf("no %q under NO_COLOR:\n%s", want, scr)
		}
	}
	if s.coloured() {
		t.Errorf("a cell is coloured under NO_COLOR:\n%s", scr)
	}
	for _, plain := range []string{"## Adding", "**both", "`main.go`", "*config*"} {
		if st, _ := s.styleAt(plain); st.Attrs&(uv.AttrBold|uv.AttrItalic) != 0 {
			t.Errorf("%q styled under NO_COLOR: %+v", plain, st)
		}
	}
}

// Markdown cannot be a way in: an escape inside a code span, a heading
// or a code block from the model stays inert, and the rows keep their
// place.
func TestTUIMarkdownHostile(t *testing.T) {
	text := "# \x1b[2Jtitle\n`\x1b]0;pwned\x07`\n```\n\x1b[?1049l\u202eend\n```\nafter\n"
	s := startTUI(t, t.TempDir(), llmtest.New(t, llmtest.Turn{Text: text}), nil)
	s.wait("Ctrl-D quits")
	s.send("hi\r")
	s.wait("after")
	s.wait("^[[2Jtitle")
	s.wait("^[]0;pwned^G")
	s.wait("│ ^[[?1049l<U+202E>end")
	s.mu.Lock()
	raw := s.raw.String()
	s.mu.Unlock()
	for _, bad := range []string{"\x1b[2Jtitle", "\x1b]0;pwned", "\x1b[?1049l", "\u202e"} {
		if strings.Contains(raw, bad) {
			t.Errorf("%q reached the terminal raw", bad)
		}
	}
	if got := s.row(0); !strings.HasPrefix(got, "mm · ") {
		t.Errorf("the header moved: %q", got)
	}
}

// A change's diff is coloured in the permission zone (added green,
// removed red, its header cyan) and under the edit's line; NO_COLOR
// leaves it plain.
func TestTUIDiffColours(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nvar count = 1\n"), 0o644)
	srv := llmtest.New(t,
		call("edit_file", `{"path":"main.go","edits":[{"old":"var count = 1","new":"var count = 2"}]}`), llmtest.Turn{Text: "edited"},
	)
	s := startTUI(t, dir, srv, []string{"AGENT_YOLO=false"})
	s.wait("Ctrl-D quits")
	s.send("edit\r")
	s.wait("🔐 edit_file main.go (1 edit)")
	s.wait("+│ var count = 2")
	if st, _ := s.styleAt("+│ var count = 2"); !sameColor(st.Fg, xansi.Green) {
		t.Errorf("the added line is not green: %+v", st)
	}
	if st, _ := s.styleAt("-│ var count = 1"); !sameColor(st.Fg, xansi.Red) {
		t.Errorf("the removed line is not red: %+v", st)
	}
	if st, _ := s.styleAt("main.go: 1 edit"); !sameColor(st.Fg, xansi.Cyan) {
		t.Errorf("the diff's header is not cyan: %+v", st)
	}
	if st, _ := s.styleAt("🔐 edit_file"); st.Fg != nil {
		t.Errorf("the zone's head is coloured: %+v", st)
	}
	s.answer("a")
	s.wait("edited")
	if b, _ := os.ReadFile(filepath.Join(dir, "main.go")); !strings.Contains(string(b), "count = 2") {
		t.Errorf("the allowed edit was not written: %q", b)
	}

	// Under yolo, the diff shows under the call's line, coloured.
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nvar count = 1\n"), 0o644)
	srv = llmtest.New(t,
		call("edit_file", `{"path":"main.go","edits":[{"old":"var count = 1","new":"var count = 3"}]}`), llmtest.Turn{Text: "edited again"},
	)
	s = startTUI(t, dir, srv, nil)
	s.wait("Ctrl-D quits")
	s.send("edit\r")
	s.wait("edited again")
	s.wait("‣ edit_file main.go (1 edit) · done")
	if st, _ := s.styleAt("+│ var count = 3"); !sameColor(st.Fg, xansi.Green) {
		t.Errorf("the added line under the call is not green: %+v\n%s", st, s.screen())
	}

	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nvar count = 1\n"), 0o644)
	srv = llmtest.New(t,
		call("edit_file", `{"path":"main.go","edits":[{"old":"var count = 1","new":"var count = 4"}]}`), llmtest.Turn{Text: "edited plain"},
	)
	s = startTUI(t, dir, srv, []string{"AGENT_YOLO=false", "NO_COLOR=1"})
	s.wait("Ctrl-D quits")
	s.send("edit\r")
	s.wait("+│ var count = 4")
	if s.coloured() {
		t.Errorf("a cell is coloured under NO_COLOR:\n%s", s.screen())
	}
}

// Under each kind's line, what the reference's "ACP / fenêtre" gives: a
// read's content stays for the model (its lines counted, a failed read's
// text shown); a fetch shows its URL and the page folded, and asks only
// with output, naming the file.
func TestTUIToolKinds(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("one\ntwo\nthree\nfour\n"), 0o644)
	page := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/robots.txt" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		fmt.Fprint(w, "<html><body><main><h1>Fetched page</h1><p>kind-fetch-body</p></main></body></html>")
	}))
	defer page.Close()
	srv := llmtest.New(t,
		call("read_file", `{"path":"notes.txt","start":2,"end":3}`),
		call("read_file", `{"path":"missing.txt"}`),
		call("fetch_content", `{"url":"`+page.URL+`/doc"}`),
		call("fetch_content", `{"url":"`+page.URL+`/doc","output":"saved.md"}`),
		llmtest.Turn{Text: "all read"},
	)
	cfg := writeConfig(t, t.TempDir(), "fetchContentTool: true\n")
	s := startTUI(t, dir, srv, []string{"AGENT_YOLO=false"}, "-c", cfg)
	s.wait("Ctrl-D quits")
	s.send("read\r")
	s.wait("‣ read_file notes.txt lines 2-3 · done")
	s.wait("(2 line(s) read, for the model)")
	s.wait("‣ read_file missing.txt · failed")
	s.wait("missing.txt does not exist. Create it with write_file")
	s.wait("‣ fetch_content " + page.URL + "/doc · done")
	s.wait("kind-fetch-body")
	// Saving the page asks, as write_file does.
	s.wait("🔐 fetch_content " + page.URL + "/doc → saved.md")
	s.answer("a")
	s.wait("all read")
	s.wait("to saved.md — the content is not shown]")
	if _, err := os.Stat(filepath.Join(dir, "saved.md")); err != nil {
		t.Errorf("the page was not saved: %v", err)
	}
	// The reads and the first fetch went on with no key pressed: they did
	// not ask.
}

// screenFile is the window's screen as docs/window-mode.md shows it.
const (
	screenFile = "../../docs/window-mode-screen.txt"
	screenPage = "../../docs/window-mode.md"
)

// The screen of a short session at 100x30, as text: a question, a
// Markdown answer with a list and a code block, a bash call and its
// folded output, then the permission zone of the next call. It is
// written to docs/window-mode-screen.txt with MM_UPDATE_SCREEN=1, and
// compared with it otherwise, so the page shows what mm draws.
func TestTUIScreenshot(t *testing.T) {
	dir := t.TempDir()
	answer := "Here is the plan:\n\n" +
		"- add a `-v` flag in **main.go**\n" +
		"- print each step when it is set\n\n" +
		"```go\nvar verbose = flag.Bool(\"v\", false, \"say more\")\n```\n"
	srv := llmtest.New(t,
		llmtest.Turn{Text: answer, ToolCalls: []llmtest.ToolCall{{Name: "bash", Arguments: `{"command":"seq 1 12 | sed 's/^/step /'"}`}}},
		call("bash", `{"command":"go test ./..."}`),
		llmtest.Turn{Text: "never reached"},
	)
	cfg := writeConfig(t, t.TempDir(), "model: qwen3-coder\npreviewLines: 4\nacp:\n  title: Homer (coder)\n")
	s := startTUI(t, dir, srv, []string{"AGENT_YOLO=false"}, "-c", cfg)
	// Resized once the window is up: a SIGWINCH before its handler is in
	// place (the first milliseconds) would find nobody to tell.
	s.wait("Ctrl-D quits")
	s.mu.Lock()
	s.emu.Resize(100, 30)
	s.mu.Unlock()
	if err := pty.Setsize(s.tty, &pty.Winsize{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	s.waitFor("the window laid out at 100 columns", func(string) bool { return strings.HasPrefix(s.row(29), "›") })
	s.send("add a verbose flag\r")
	s.wait("🔐 bash seq 1 12")
	s.answer("a")
	s.wait("🔐 bash go test ./...")
	s.wait("(Ctrl-O unfolds)")
	// The zone shows at once, the call's line at the next frame: both.
	s.wait("‣ bash go test ./... · running")
	s.waitFor("the screen at 100 columns", func(string) bool { return s.row(29) == "· [n] never" })

	var rows []string
	for y := 0; y < 30; y++ {
		rows = append(rows, s.row(y))
	}
	// What changes from run to run: durations.
	got := regexp.MustCompile(`· \d+(\.\d+)?s\b`).ReplaceAllString(strings.Join(rows, "\n")+"\n", "· 0.0s")
	page, err := os.ReadFile(screenPage)
	if err != nil {
		t.Fatal(err)
	}
	// The page shows the screen in the first text block of its
	// Rendering section.
	head, _, _ := strings.Cut(string(page), "## Rendering\n")
	start := len(head) + strings.Index(string(page[len(head):]), "```text\n") + len("```text\n")
	end := start + strings.Index(string(page[start:]), "```\n")
	if start < len(head)+len("```text\n") || end < start {
		t.Fatalf("no text block in the Rendering section of %s", screenPage)
	}
	if os.Getenv("MM_UPDATE_SCREEN") != "" {
		if err := os.WriteFile(screenFile, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(screenPage, []byte(string(page[:start])+got+string(page[end:])), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(screenFile)
	if err != nil {
		t.Fatalf("%v (MM_UPDATE_SCREEN=1 writes it)", err)
	}
	if got != string(want) {
		t.Errorf("the screen differs from %s (MM_UPDATE_SCREEN=1 writes it again):\n%s", screenFile, got)
	}
	if string(page[start:end]) != got {
		t.Errorf("%s does not show the screen (MM_UPDATE_SCREEN=1 writes it again)", screenPage)
	}
	// The README shows a part of it: each of its rows is one of the
	// screen's.
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, block, _ := strings.Cut(string(readme), "**Window mode**")
	_, block, _ = strings.Cut(block, "```text\n")
	block, _, _ = strings.Cut(block, "```\n")
	if block == "" {
		t.Fatal("no screen in README.md's window mode paragraph")
	}
	for _, l := range strings.Split(strings.TrimSuffix(block, "\n"), "\n") {
		if !strings.Contains("\n"+got, "\n"+l+"\n") {
			t.Errorf("README.md's screen shows a row the window does not draw: %q", l)
		}
	}
}
