package main_test

// The lsp tool end to end: the built mm, driven by the scripted model
// server, asking real language servers (gopls, typescript-language-server,
// as .ci/run installs them). Under CI=true a missing server fails.

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"mm/internal/llmtest"
	"mm/internal/testdeps"
)

// serverPath is the PATH with the directories .ci/run installs the servers
// into: the repository's .ci/lsp/node_modules/.bin and $(go env GOPATH)/bin.
func serverPath(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	path := os.Getenv("PATH")
	dirs := []string{filepath.Join(repo, ".ci", "lsp", "node_modules", ".bin")}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, d := range filepath.SplitList(strings.TrimSpace(string(out))) {
			dirs = append(dirs, filepath.Join(d, "bin"))
		}
	}
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() {
			path += string(os.PathListSeparator) + d
		}
	}
	return path
}

// lookIn finds command in the directories of path.
func lookIn(path, command string) string {
	for _, d := range filepath.SplitList(path) {
		if st, err := os.Stat(filepath.Join(d, command)); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return filepath.Join(d, command)
		}
	}
	return ""
}

// needServers returns the environment that finds the servers, failing
// under CI when one is missing and skipping elsewhere.
func needServers(t *testing.T, commands ...string) []string {
	t.Helper()
	path := serverPath(t)
	for _, c := range commands {
		if lookIn(path, c) == "" {
			testdeps.Missing(t, c+" is not on the PATH nor in .ci/lsp")
		}
	}
	return []string{"PATH=" + path, "GOTOOLCHAIN=local"}
}

func writeProject(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// runeCol is the 1-based column, in characters, of sub in line.
func runeCol(line, sub string) int {
	return utf8.RuneCountInString(line[:strings.Index(line, sub)]) + 1
}

// toolResults are the tool results mm sent back, in order.
func toolResults(srv *llmtest.Server) []string {
	var out []string
	for _, req := range srv.ChatRequests()[1:] {
		msgs := req.JSON["messages"].([]any)
		last := msgs[len(msgs)-1].(map[string]any)
		if last["role"] == "tool" {
			s, _ := last["content"].(string)
			out = append(out, s)
		}
	}
	return out
}

// lspCall is a turn that calls the lsp tool.
func lspCall(args string) llmtest.Turn {
	return llmtest.Turn{ToolCalls: []llmtest.ToolCall{{Name: "lsp", Arguments: args}}}
}

// serverOf finds the language server that the mm running in dir started:
// a child of that mm whose command line names the server.
func serverOf(t *testing.T, dir, name string) int {
	t.Helper()
	procs, _ := os.ReadDir("/proc")
	mmPID := 0
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		exe, _ := os.Readlink("/proc/" + p.Name() + "/exe")
		cwd, _ := os.Readlink("/proc/" + p.Name() + "/cwd")
		if exe == mmBin && cwd == dir {
			mmPID = pid
		}
	}
	if mmPID == 0 {
		t.Errorf("no mm running in %s", dir)
		return 0
	}
	for _, p := range procs {
		pid, err := strconv.Atoi(p.Name())
		if err != nil {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + p.Name() + "/stat")
		i := strings.LastIndexByte(string(stat), ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(string(stat[i+1:]))
		if len(fields) < 2 || fields[1] != strconv.Itoa(mmPID) {
			continue
		}
		cmdline, _ := os.ReadFile("/proc/" + p.Name() + "/cmdline")
		if strings.Contains(string(cmdline), name) {
			return pid
		}
	}
	t.Errorf("mm (pid %d) runs no %s", mmPID, name)
	return 0
}

// groupAlive reports whether a live (not zombie) process is left in the
// process group, waiting a little for the reaping.
func groupAlive(pgid int) []int {
	deadline := time.Now().Add(5 * time.Second)
	for {
		var alive []int
		procs, _ := os.ReadDir("/proc")
		for _, p := range procs {
			pid, err := strconv.Atoi(p.Name())
			if err != nil {
				continue
			}
			stat, _ := os.ReadFile("/proc/" + p.Name() + "/stat")
			i := strings.LastIndexByte(string(stat), ')')
			if i < 0 {
				continue
			}
			fields := strings.Fields(string(stat[i+1:]))
			if len(fields) > 3 && fields[3] == strconv.Itoa(pgid) && fields[0] != "Z" {
				alive = append(alive, pid)
			}
		}
		if len(alive) == 0 || time.Now().After(deadline) {
			return alive
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// killServer is a turn's Expect: before the turn is answered, it kills
// the server the running mm started (its whole group) and waits for it to
// be gone.
func killServer(t *testing.T, dir, name string, killed *int) func(*llmtest.Request) error {
	return func(*llmtest.Request) error {
		pid := serverOf(t, dir, name)
		if pid > 0 {
			killGroup(pid)
			groupAlive(pid)
			*killed = pid
		}
		return nil
	}
}

const goMain = `package main

import (
	"fmt"

	"example.com/demo/greet"
)

func main() {
	g := &greet.Greeter{Prefix: "Hello"}
	msg := "日本語 😀"; fmt.Println(msg, g.Greet("world"), greet.Hello("x"))
}
`

var goProject = map[string]string{
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
	"main.go": goMain,
}

// Every action on gopls through mm: the tool results the model reads, the
// terminal lines, the servers told of write_file and edit_file, a rename
// that still builds, a server killed mid-session that comes back, and no
// process left when mm exits.
func TestLSPGoplsThroughMM(t *testing.T) {
	env := needServers(t, "gopls", "go")
	dir := t.TempDir()
	writeProject(t, dir, goProject)
	// maxTurns leaves room for diagnostics calls made again (newSession).
	cfg := writeConfig(t, dir, "maxTurns: 5000\nlsp:\n  servers:\n    - name: gopls\n      command: gopls\n      extensions: [\".go\"]\n")
	mainLine := strings.Split(goMain, "\n")[10]
	helloLine := strings.Split(goProject["greet/greet.go"], "\n")[13]
	var killed, last int
	restart := lspCall(`{"action":"definition","path":"main.go","symbol":"Salute"}`)
	restart.Expect = killServer(t, dir, "gopls", &killed)
	done := llmtest.Turn{Text: "Renamed Greet to Salute."}
	done.Expect = func(*llmtest.Request) error { last = serverOf(t, dir, "gopls"); return nil }
	clean := func(s string) bool { return s == "no diagnostics: main.go is clean" }
	sess := newSession(t,
		plain(lspCall(`{"action":"definition","path":"main.go","symbol":"g.Greet"}`)),
		plain(lspCall(`{"action":"references","path":"greet/greet.go","symbol":"Greet","line":9}`)),
		plain(lspCall(`{"action":"hover","path":"main.go","line":11,"column":`+strconv.Itoa(runeCol(mainLine, "Hello"))+`}`)),
		plain(lspCall(`{"action":"symbols","path":"greet/greet.go"}`)),
		diagnostics("main.go", clean),
		plain(call("edit_file", `{"path":"main.go","edits":[{"old":"greet.Hello(\"x\"))","new":"greet.Hello(\"x\"), greet.Extra())"}]}`)),
		diagnostics("main.go", func(s string) bool { return strings.Contains(s, "greet.Extra") }),
		plain(call("write_file", `{"path":"greet/extra.go","content":"package greet\n\n// Extra is new.\nfunc Extra() string { return \"é\" }\n"}`)),
		diagnostics("main.go", clean),
		plain(lspCall(`{"action":"rename","path":"main.go","symbol":"g.Greet"}`)),
		plain(lspCall(`{"action":"rename","path":"main.go","symbol":"g.Greet","new_name":"Salute"}`)),
		plain(restart),
		plain(done),
	)
	srv := sess.srv
	r := mm(t, dir, srv, env, "", "-c", cfg, "-p", "rename Greet to Salute")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	// The tool is declared with its servers.
	if tools, _ := json.Marshal(srv.ChatRequests()[0].JSON["tools"]); !strings.Contains(string(tools), "Servers available: gopls (.go).") {
		t.Errorf("the lsp tool is not declared with gopls: %s", tools)
	}
	res := sess.Results(t)
	want := []string{
		"greet/greet.go:9:19 func (g *Greeter) Greet(name string) string {",
		"3 reference(s):\ngreet/greet.go:9:19 func (g *Greeter) Greet(name string) string {\n" +
			"greet/greet.go:14:" + strconv.Itoa(runeCol(helloLine, "Greet(name)")) + " " + helloLine + "\n" +
			"main.go:11:" + strconv.Itoa(runeCol(mainLine, "Greet")) + " " + strings.TrimSpace(mainLine),
	}
	for i, w := range want {
		if res[i] != w {
			t.Errorf("result %d:\n got %q\nwant %q", i, res[i], w)
		}
	}
	checks := []struct {
		i    int
		want string
	}{
		{2, "Hello(name string) string"},
		{3, "struct Greeter [struct{...}] line 4\n  field Prefix [string] line 5\nmethod (*Greeter).Greet [func(name string) string] line 9\nfunction Hello [func(name string) string] line 14"},
		{4, "no diagnostics: main.go is clean"},
		// edit_file told the server at once: by the time the model asks,
		// the server may have published already ("as last published").
		{6, "1 diagnostic(s) in main.go"},
		{6, ":\nerror main.go:11:"},
		{6, "undefined: greet.Extra [compiler]"},
		{8, "no diagnostics: main.go is clean"},
		{9, `[lsp: rename needs new_name — call lsp again with {"action": "rename", "path": "main.go", "symbol": "Greet", "new_name": "<the new identifier>"}; do not use edit_file for a rename]`},
		{10, "renamed to Salute: 4 edit(s) in 2 file(s)\ngreet/greet.go: 3 edit(s)\nmain.go: 1 edit(s)"},
		{11, "greet/greet.go:9:19 func (g *Greeter) Salute(name string) string {"},
	}
	for _, c := range checks {
		if !strings.Contains(res[c.i], c.want) {
			t.Errorf("result %d lacks %q:\n%s", c.i, c.want, res[c.i])
		}
	}
	for _, line := range []string{
		"🔎 lsp: definition main.go Greet", "🔎 lsp: references greet/greet.go:9 Greet", "🔎 lsp: hover main.go:11:" + strconv.Itoa(runeCol(mainLine, "Hello")),
		"🔎 lsp: symbols greet/greet.go", "🔎 lsp: diagnostics main.go", "🔎 lsp: rename main.go Greet → Salute", "🔎 " + strconv.Itoa(sess.lspCalls()) + " lsp call(s)",
	} {
		if !strings.Contains(r.stderr, line) {
			t.Errorf("the terminal lacks %q:\n%s", line, r.stderr)
		}
	}
	// The rename left a module that builds.
	build := exec.Command("go", "build", "./...")
	build.Dir = dir
	build.Env = append(os.Environ(), env...)
	if out, err := build.CombinedOutput(); err != nil {
		t.Errorf("go build after the rename: %v\n%s", err, out)
	}
	if killed == 0 || last == 0 || killed == last {
		t.Errorf("the server was not restarted: killed %d, then %d", killed, last)
	}
	if left := groupAlive(last); len(left) > 0 {
		t.Errorf("processes of the server's group left after mm exited: %v", left)
	}
}

var tsProject = map[string]string{
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

// The same on typescript-language-server, with the multi-word rename a
// small model writes, and tsc happy afterwards.
func TestLSPTypeScriptThroughMM(t *testing.T) {
	env := needServers(t, "typescript-language-server", "tsc")
	dir := t.TempDir()
	writeProject(t, dir, tsProject)
	cfg := writeConfig(t, dir, "maxTurns: 5000\nlsp:\n  servers:\n    - name: gopls\n      command: gopls\n      extensions: [\".go\"]\n"+
		"    - name: typescript\n      command: typescript-language-server\n      args: [\"--stdio\"]\n      extensions: [\".ts\", \".tsx\", \".js\", \".jsx\"]\n")
	mainLine := strings.Split(tsProject["src/main.ts"], "\n")[3]
	var killed, last int
	restart := lspCall(`{"action":"definition","path":"src/main.ts","symbol":"salute"}`)
	restart.Expect = killServer(t, dir, "typescript-language-server", &killed)
	done := llmtest.Turn{Text: "Renamed."}
	done.Expect = func(*llmtest.Request) error { last = serverOf(t, dir, "typescript-language-server"); return nil }
	sess := newSession(t,
		plain(lspCall(`{"action":"definition","path":"src/main.ts","symbol":"g.greet"}`)),
		plain(lspCall(`{"action":"references","path":"src/main.ts","symbol":"greet","line":"4"}`)),
		plain(lspCall(`{"action":"hover","path":"src/main.ts","symbol":"hello"}`)),
		plain(lspCall(`{"action":"symbols","path":"src/greet.ts"}`)),
		plain(call("edit_file", `{"path":"src/main.ts","edits":[{"old":"hello(\"x\"));","new":"hello(\"x\"));\nexport const n: number = \"😀\";"}]}`)),
		diagnostics("src/main.ts", func(s string) bool { return strings.Contains(s, "not assignable") }),
		plain(call("edit_file", `{"path":"src/main.ts","edits":[{"old":"\nexport const n: number = \"😀\";","new":""}]}`)),
		plain(lspCall(`{"action":"rename","path":"src/main.ts","symbol":"g.greet 4 35 salute"}`)),
		plain(restart),
		plain(lspCall(`{"action":"hover","path":"README.md","symbol":"x"}`)),
		plain(done),
	)
	srv := sess.srv
	r := mm(t, dir, srv, env, "", "-c", cfg, "-p", "rename greet to salute")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	if tools, _ := json.Marshal(srv.ChatRequests()[0].JSON["tools"]); !strings.Contains(string(tools), "Servers available: gopls (.go), typescript (.ts, .tsx, .js, .jsx).") {
		t.Errorf("the lsp tool does not name both servers: %s", tools)
	}
	res := sess.Results(t)
	helloLine := strings.Split(tsProject["src/greet.ts"], "\n")[10]
	res[5] = strings.Replace(res[5], " (as last published):", ":", 1) // see the gopls test
	for i, w := range map[int]string{
		0: "src/greet.ts:6:3 greet(name: string): string {",
		1: "3 reference(s):\nsrc/greet.ts:6:3 greet(name: string): string {\n" +
			"src/greet.ts:11:" + strconv.Itoa(runeCol(helloLine, "greet")) + " " + helloLine + "\n" +
			"src/main.ts:4:" + strconv.Itoa(runeCol(mainLine, "greet")) + " " + mainLine,
		3: "class Greeter line 2\n  constructor constructor line 3\n  property prefix line 3\n  method greet line 6\nfunction hello line 11\n  constant s line 11",
		5: "1 diagnostic(s) in src/main.ts:\nerror src/main.ts:5:14 Type 'string' is not assignable to type 'number'. [typescript]",
		7: "renamed to salute: 3 edit(s) in 2 file(s)\nsrc/greet.ts: 2 edit(s)\nsrc/main.ts: 1 edit(s)",
		8: "src/greet.ts:6:3 salute(name: string): string {",
		9: `[lsp: no language server for "README.md" — configured: gopls (.go), typescript (.ts, .tsx, .js, .jsx)]`,
	} {
		if res[i] != w {
			t.Errorf("result %d:\n got %q\nwant %q", i, res[i], w)
		}
	}
	if !strings.Contains(res[2], "function hello(name: string): string") {
		t.Errorf("hover: %q", res[2])
	}
	for _, line := range []string{"🔎 lsp: rename src/main.ts greet → salute", "🔎 lsp: references src/main.ts:4 greet", "🔎 " + strconv.Itoa(sess.lspCalls()) + " lsp call(s)"} {
		if !strings.Contains(r.stderr, line) {
			t.Errorf("the terminal lacks %q:\n%s", line, r.stderr)
		}
	}
	tsc := exec.Command(lookIn(serverPath(t), "tsc"), "--noEmit", "-p", ".")
	tsc.Dir = dir
	tsc.Env = append(os.Environ(), env...)
	if out, err := tsc.CombinedOutput(); err != nil {
		t.Errorf("tsc after the rename: %v\n%s", err, out)
	}
	if killed == 0 || last == 0 || killed == last {
		t.Errorf("the server was not restarted: killed %d, then %d", killed, last)
	}
	if left := groupAlive(last); len(left) > 0 {
		t.Errorf("processes of the server's group left after mm exited: %v", left)
	}
}

// A server that is not on the PATH: the reference's warning, and without
// any server no lsp tool.
func TestLSPServerMissing(t *testing.T) {
	dir := t.TempDir()
	cfg := writeConfig(t, dir, "lsp:\n  servers:\n    - name: ghost\n      command: mm-no-such-language-server\n      extensions: [\".go\"]\n")
	srv := llmtest.New(t, llmtest.Turn{Text: "ok"})
	r := mm(t, dir, srv, nil, "", "-c", cfg, "-p", "hi")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	for _, w := range []string{
		"[warning: lsp server ghost (mm-no-such-language-server) not found on the PATH — skipped]",
		"[warning: no lsp server found on the PATH — the lsp tool is not declared]",
	} {
		if !strings.Contains(r.stderr, w) {
			t.Errorf("stderr lacks %q:\n%s", w, r.stderr)
		}
	}
	if tools, _ := json.Marshal(srv.ChatRequests()[0].JSON["tools"]); strings.Contains(string(tools), `"lsp"`) {
		t.Errorf("the lsp tool is declared without a server: %s", tools)
	}
}

// In line mode: the banner lists the tool, the call shows its 🔎 line, and
// the servers stop when the user quits.
func TestLSPInREPL(t *testing.T) {
	env := needServers(t, "gopls", "go")
	dir := t.TempDir()
	writeProject(t, dir, goProject)
	cfg := writeConfig(t, dir, "lsp:\n  servers:\n    - name: gopls\n      command: gopls\n      extensions: [\".go\"]\n    - name: ghost\n      command: mm-no-such-language-server\n      extensions: [\".py\"]\n")
	var server int
	answer := llmtest.Turn{Text: "Greet is in greet/greet.go."}
	answer.Expect = func(*llmtest.Request) error { server = serverOf(t, dir, "gopls"); return nil }
	srv := llmtest.New(t, lspCall(`{"action":"definition","path":"main.go","symbol":"Greet"}`), answer)
	s := startREPL(t, dir, srv, env, "-c", cfg)
	s.ask("where is Greet?")
	s.expect("🔎 lsp: definition main.go Greet")
	s.expect("greet/greet.go:9:19 func (g *Greeter) Greet(name string) string {")
	s.expect("🔎 1 lsp call(s)")
	s.expect("› ")
	s.send("\x04")
	if err := s.exit(); err != nil {
		t.Errorf("exit: %v", err)
	}
	for _, want := range []string{"edit_file, lsp", "[warning: lsp server ghost (mm-no-such-language-server) not found on the PATH — skipped]"} {
		if !strings.Contains(s.text(), want) {
			t.Errorf("the screen lacks %q", want)
		}
	}
	if server == 0 {
		t.Fatal("no server seen")
	}
	if left := groupAlive(server); len(left) > 0 {
		t.Errorf("processes of the server's group left after mm exited: %v", left)
	}
}

// With yolo: false, navigation runs and a rename is refused in -p with the
// reference's text; nothing on disk changes.
func TestLSPRenameRefusedWithoutYolo(t *testing.T) {
	env := needServers(t, "gopls", "go")
	dir := t.TempDir()
	writeProject(t, dir, goProject)
	cfg := writeConfig(t, dir, "lsp:\n  servers:\n    - name: gopls\n      command: gopls\n      extensions: [\".go\"]\n")
	srv := llmtest.New(t,
		lspCall(`{"action":"definition","path":"main.go","symbol":"g.Greet"}`),
		lspCall(`{"action":"rename","path":"main.go","symbol":"g.Greet","new_name":"Salute"}`),
		llmtest.Turn{Text: "I could not rename it."},
	)
	r := mm(t, dir, srv, append(env, "AGENT_YOLO=false"), "", "-c", cfg, "-p", "rename Greet")
	if r.code != 0 {
		t.Fatalf("exit %d\n%s", r.code, r.stderr)
	}
	reqs := srv.ChatRequests()
	lastOf := func(i int) string {
		msgs := reqs[i].JSON["messages"].([]any)
		return msgs[len(msgs)-1].(map[string]any)["content"].(string)
	}
	if got := lastOf(1); !strings.HasPrefix(got, "greet/greet.go:9:") {
		t.Errorf("definition was refused or failed: %q", got)
	}
	if got := lastOf(2); got != "[rename rejected by the user]" {
		t.Errorf("the model read %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "greet", "greet.go")); string(b) != goProject["greet/greet.go"] {
		t.Error("the refused rename changed greet.go")
	}
}
