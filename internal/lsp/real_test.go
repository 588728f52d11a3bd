//go:build !windows

package lsp

// The actions on real servers: gopls and typescript-language-server, as
// .ci/run installs them. Under CI=true a missing server fails the test.

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"unicode/utf8"

	"mm/internal/config"
)

// GoProject is a small module with non-ASCII text before the identifiers
// on the lines that matter, so a UTF-16 slip shows.
var GoProject = map[string]string{
	"go.mod": "module example.com/demo\n\ngo 1.22\n",
	"greet/greet.go": `package greet

// Greeter greets people.
type Greeter struct {
	Prefix string
}

// Greet returns the greeting for name.
func (g *Greeter) Greet(name string) string {
	return g.Prefix + ", " + name + " — ünïcödé 😀"
}

// Hello is the package's default greeting.
func Hello(name string) string { s := "😀é"; return s + (&Greeter{Prefix: "hi"}).Greet(name) }
`,
	"main.go": `package main

import (
	"fmt"

	"example.com/demo/greet"
)

func main() {
	g := &greet.Greeter{Prefix: "Hello"}
	msg := "日本語 😀"; fmt.Println(msg, g.Greet("world"), greet.Hello("x"))
}
`,
}

// TSProject is the same in TypeScript.
var TSProject = map[string]string{
	"tsconfig.json": `{"compilerOptions": {"strict": true, "target": "es2020", "module": "commonjs", "noEmit": true}, "include": ["src"]}` + "\n",
	"src/greet.ts": `// Greeter greets people.
export class Greeter {
  constructor(public prefix: string) {}

  // greet returns the greeting for name.
  greet(name: string): string {
    return this.prefix + ", " + name + " — ünïcödé 😀";
  }
}

export function hello(name: string): string { const s = "😀é"; return s + new Greeter("hi").greet(name); }
`,
	"src/main.ts": `import { Greeter, hello } from "./greet";

const g = new Greeter("Hello");
const msg = "日本語 😀"; console.log(msg, g.greet("world"), hello("x"));
`,
}

// col is the 1-based column, in characters, of the n-th (1-based)
// occurrence of sub in line.
func col(t *testing.T, line, sub string, n int) int {
	t.Helper()
	at := 0
	for i := 0; i < n; i++ {
		j := strings.Index(line[at:], sub)
		if j < 0 {
			t.Fatalf("%q has no occurrence %d of %q", line, n, sub)
		}
		at += j
		if i < n-1 {
			at += len(sub)
		}
	}
	return utf8.RuneCountInString(line[:at]) + 1
}

func lineOf(t *testing.T, files map[string]string, file string, n int) string {
	t.Helper()
	return strings.Split(files[file], "\n")[n-1]
}

func realManager(t *testing.T, files map[string]string, servers ...config.LSPServer) (*Manager, string) {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	m, warnings := New(servers, Options{Root: dir})
	if len(warnings) > 0 {
		t.Fatal(warnings)
	}
	t.Cleanup(m.Close)
	return m, dir
}

var (
	goplsServer = config.LSPServer{Name: "gopls", Command: "gopls", Extensions: []string{".go"}}
	tsServer    = config.LSPServer{Name: "typescript", Command: "typescript-language-server", Args: []string{"--stdio"}, Extensions: []string{".ts", ".tsx", ".js", ".jsx"}}
)

// checkGroupGone fails when a process of the group survived Close.
func checkGroupGone(t *testing.T, pgid int) {
	t.Helper()
	if pgid == 0 {
		t.Fatal("no process was running")
	}
	if processAlive(pgid) {
		t.Errorf("server process %d survived Close", pgid)
	}
	if err := syscall.Kill(-pgid, 0); err == nil {
		// A member of the group may be a zombie a moment longer.
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil {
				continue
			}
			if g, _ := syscall.Getpgid(pid); g == pgid && processAlive(pid) {
				t.Errorf("process %d of the server's group survived Close", pid)
			}
		}
	}
}

func TestGopls(t *testing.T) {
	requireServer(t, "gopls", "go")
	m, dir := realManager(t, GoProject, goplsServer)
	mainLine := lineOf(t, GoProject, "main.go", 11)
	helloLine := lineOf(t, GoProject, "greet/greet.go", 14)

	// definition across files, from a symbol with a receiver prefix and
	// from an exact position on a line with non-ASCII text.
	expect(t, m, Request{Action: "definition", Path: "main.go", Symbol: "g.Greet"},
		"greet/greet.go:9:19 func (g *Greeter) Greet(name string) string {")
	expect(t, m, Request{Action: "definition", Path: "main.go", Line: 11, Column: col(t, mainLine, "Hello", 1) + 2},
		"greet/greet.go:14:6 "+helloLine)
	// Outside the project: an absolute path.
	if got := run(m, Request{Action: "definition", Path: "main.go", Symbol: "Println"}); !strings.HasPrefix(got, "/") || !strings.Contains(got, "/fmt/print.go:") {
		t.Errorf("definition of Println: %q", got)
	}

	expect(t, m, Request{Action: "references", Path: "greet/greet.go", Symbol: "Greet", Line: 9},
		"3 reference(s):\n"+
			"greet/greet.go:9:19 func (g *Greeter) Greet(name string) string {\n"+
			"greet/greet.go:14:"+strconv.Itoa(col(t, helloLine, "Greet", 2))+" "+helloLine+"\n"+
			"main.go:11:"+strconv.Itoa(col(t, mainLine, "Greet", 1))+" "+strings.TrimSpace(mainLine))

	if got := run(m, Request{Action: "hover", Path: "main.go", Symbol: "greet.Hello"}); !strings.Contains(got, "Hello(name string) string") || !strings.Contains(got, "Hello is the package's default greeting.") {
		t.Errorf("hover: %q", got)
	}

	expect(t, m, Request{Action: "symbols", Path: "greet/greet.go"},
		"struct Greeter [struct{...}] line 4\n"+
			"  field Prefix [string] line 5\n"+
			"method (*Greeter).Greet [func(name string) string] line 9\n"+
			"function Hello [func(name string) string] line 14")

	// Each diagnostics answer is waited for (see diagnosticsUntil);
	// whether it is "as last published" depends on when the server
	// published.
	const clean = "no diagnostics: main.go is clean"
	if got := diagnosticsUntil(t, m, "main.go", isAnswer); strings.TrimSuffix(got, asLast) != clean {
		t.Errorf("diagnostics: %q", got)
	}
	// A file mm has not opened: the server learns of it through Changed.
	writeFiles(t, dir, map[string]string{"main.go": strings.Replace(GoProject["main.go"], `greet.Hello("x"))`, `greet.Hello("x"), greet.Extra())`, 1)})
	got := diagnosticsUntil(t, m, "main.go", func(s string) bool { return strings.Contains(s, "greet.Extra") })
	fresh := strings.Replace(got, asLast, "", 1)
	if !strings.HasPrefix(fresh, "1 diagnostic(s) in main.go:\nerror main.go:11:") || !strings.HasSuffix(got, "undefined: greet.Extra [compiler]") {
		t.Errorf("diagnostics after the edit: %q", got)
	}
	if again := run(m, Request{Action: "diagnostics", Path: "main.go"}); again != strings.Replace(fresh, "main.go:\n", "main.go"+asLast+":\n", 1) {
		t.Errorf("diagnostics again: %q", again)
	}
	extra := filepath.Join(dir, "greet", "extra.go")
	writeFiles(t, dir, map[string]string{"greet/extra.go": "package greet\n\n// Extra is new.\nfunc Extra() string { return \"é\" }\n"})
	m.Changed(extra)
	if got := diagnosticsUntil(t, m, "main.go", func(s string) bool { return s == clean }); strings.TrimSuffix(got, asLast) != clean {
		t.Errorf("diagnostics once extra.go exists: %q", got)
	}
	expect(t, m, Request{Action: "definition", Path: "main.go", Symbol: "Extra"}, "greet/extra.go:4:6 func Extra() string { return \"é\" }")

	// rename across files, then the module still builds.
	expect(t, m, Request{Action: "rename", Path: "main.go", Symbol: "g.Greet", NewName: "Salute"},
		// gopls renames the doc comment's "Greet returns…" too.
		"renamed to Salute: 4 edit(s) in 2 file(s)\ngreet/greet.go: 3 edit(s)\nmain.go: 1 edit(s)")
	build := exec.Command("go", "build", "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), "GOTOOLCHAIN=local")
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("go build after the rename: %v\n%s", err, out)
	}
	if !strings.Contains(readFile(t, filepath.Join(dir, "main.go")), `g.Salute("world")`) {
		t.Error("main.go not renamed")
	}
	// The server saw the rename: the new name resolves at once.
	expect(t, m, Request{Action: "definition", Path: "main.go", Symbol: "Salute"}, "greet/greet.go:9:19 func (g *Greeter) Salute(name string) string {")

	// A server killed mid-session comes back on the next call.
	first := m.Process("gopls")
	syscall.Kill(-first.PID, syscall.SIGKILL)
	processAlive(first.PID)
	expect(t, m, Request{Action: "definition", Path: "main.go", Symbol: "Salute"}, "greet/greet.go:9:19 func (g *Greeter) Salute(name string) string {")
	second := m.Process("gopls")
	if second.Starts != 2 || second.PID == first.PID {
		t.Errorf("no restart: %+v then %+v", first, second)
	}
	m.Close()
	checkGroupGone(t, second.PID)
}

func TestTypeScriptServer(t *testing.T) {
	requireServer(t, "typescript-language-server", "tsc")
	m, dir := realManager(t, TSProject, goplsServer, tsServer)
	mainLine := lineOf(t, TSProject, "src/main.ts", 4)
	helloLine := lineOf(t, TSProject, "src/greet.ts", 11)

	expect(t, m, Request{Action: "definition", Path: "src/main.ts", Symbol: "g.greet"},
		"src/greet.ts:6:3 greet(name: string): string {")
	expect(t, m, Request{Action: "definition", Path: "src/main.ts", Line: 4, Column: col(t, mainLine, "hello", 1) + 1},
		"src/greet.ts:11:17 "+helloLine)

	expect(t, m, Request{Action: "references", Path: "src/main.ts", Symbol: "greet", Line: 4},
		"3 reference(s):\n"+
			"src/greet.ts:6:3 greet(name: string): string {\n"+
			"src/greet.ts:11:"+strconv.Itoa(col(t, helloLine, "greet", 1))+" "+helloLine+"\n"+
			"src/main.ts:4:"+strconv.Itoa(col(t, mainLine, "greet", 1))+" "+mainLine)

	if got := run(m, Request{Action: "hover", Path: "src/main.ts", Symbol: "hello"}); !strings.Contains(got, "function hello(name: string): string") {
		t.Errorf("hover: %q", got)
	}
	expect(t, m, Request{Action: "symbols", Path: "src/greet.ts"},
		"class Greeter line 2\n"+
			"  constructor constructor line 3\n"+
			"  property prefix line 3\n"+
			"  method greet line 6\n"+
			"function hello line 11\n"+
			"  constant s line 11")

	// Clean; "as last published" or not depends on whether the server
	// published for main.ts before this call.
	if got := diagnosticsUntil(t, m, "src/main.ts", isAnswer); strings.TrimSuffix(got, asLast) != "no diagnostics: src/main.ts is clean" {
		t.Errorf("diagnostics: %q", got)
	}
	writeFiles(t, dir, map[string]string{"src/main.ts": TSProject["src/main.ts"] + "export const n: number = \"😀\";\n"})
	const typeError = "1 diagnostic(s) in src/main.ts:\nerror src/main.ts:5:14 Type 'string' is not assignable to type 'number'. [typescript]"
	if got := diagnosticsUntil(t, m, "src/main.ts", func(s string) bool { return strings.Contains(s, "not assignable") }); strings.Replace(got, asLast, "", 1) != typeError {
		t.Errorf("diagnostics after the edit: %q", got)
	}
	expect(t, m, Request{Action: "diagnostics", Path: "src/main.ts"}, strings.Replace(typeError, "main.ts:\n", "main.ts"+asLast+":\n", 1))
	writeFiles(t, dir, map[string]string{"src/main.ts": TSProject["src/main.ts"]})

	expect(t, m, Request{Action: "rename", Path: "src/main.ts", Symbol: "g.greet", NewName: "salute"},
		"renamed to salute: 3 edit(s) in 2 file(s)\nsrc/greet.ts: 2 edit(s)\nsrc/main.ts: 1 edit(s)")
	tsc := exec.Command("tsc", "--noEmit", "-p", ".")
	tsc.Dir = dir
	if out, err := tsc.CombinedOutput(); err != nil {
		t.Errorf("tsc after the rename: %v\n%s", err, out)
	}
	expect(t, m, Request{Action: "definition", Path: "src/main.ts", Symbol: "salute"}, "src/greet.ts:6:3 salute(name: string): string {")

	first := m.Process("typescript")
	syscall.Kill(-first.PID, syscall.SIGKILL)
	processAlive(first.PID)
	expect(t, m, Request{Action: "definition", Path: "src/main.ts", Symbol: "salute"}, "src/greet.ts:6:3 salute(name: string): string {")
	second := m.Process("typescript")
	if second.Starts != 2 || second.PID == first.PID {
		t.Errorf("no restart: %+v then %+v", first, second)
	}
	if p := m.Process("gopls"); p.Starts != 0 {
		t.Errorf("gopls started for .ts files: %+v", p)
	}
	m.Close()
	checkGroupGone(t, second.PID)
}
