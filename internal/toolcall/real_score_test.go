package toolcall

// How well a real model used mm's tools on the fixed prompt set: for each
// prompt, whether the first call that would run is one a person would
// accept as the right tool with the right arguments. TestRealLive logs the
// score, so that two versions of the fixed prompt (system prompt, tool
// descriptions) can be compared on the same model and server
// (docs/benchmarks.md, "Prompt size").

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
)

// realArgs is a call's arguments, decoded loosely for the checks below.
type realArgs struct {
	Command  string `json:"command"`
	Path     string `json:"path"`
	Content  string `json:"content"`
	Start    int    `json:"start"`
	End      int    `json:"end"`
	Numbered bool   `json:"numbered"`
	Edits    []struct {
		Old string `json:"old"`
		New string `json:"new"`
	} `json:"edits"`
}

// realExpect is, per prompt of realPrompts, the calls that do what it asks
// or its sensible first step: reading a file before changing it is what
// the system prompt tells the model to do.
var realExpect = map[string]func(name string, a realArgs) bool{
	"list the files":                                  bashMatches(`\bls\b|\bfind\b|\btree\b`),
	"show main.go":                                    either(reads("main.go"), bashMatches(`\b(cat|less|head)\b.*main\.go`)),
	"read the first 10 lines of main.go":              either(readsLines("main.go", 10), bashMatches(`\bhead\b.*main\.go`)),
	"create hello.txt containing hi":                  either(writes("hello.txt", "hi"), bashMatches(`\bhi\b.*>\s*hello\.txt`)),
	"write a file notes.md with the text TODO: tests": either(writes("notes.md", "TODO: tests"), bashMatches(`TODO: tests.*>\s*notes\.md`)),
	"replace foo by bar in x.go":                      either(edits("x.go", "foo", "bar"), reads("x.go"), bashMatches(`sed.*foo.*bar.*x\.go`)),
	"in main.go change the greeting to Hello, world":  either(edits("main.go", "", "Hello, world"), reads("main.go")),
	"run the tests":                                   bashMatches(`\btest\b`),
	"build the project":                               bashMatches(`\bbuild\b|\bmake\b`),
	"what is in the current directory?":               bashMatches(`\bls\b|\bfind\b|\btree\b`),
	"print the git log":                               bashMatches(`\bgit\s+log\b`),
	"count the lines of x.go":                         either(bashMatches(`\bwc\b.*x\.go`), reads("x.go")),
	"delete the file tmp.log":                         bashMatches(`\brm\b.*tmp\.log`),
	"find every TODO in the project":                  bashMatches(`\b(grep|rg|git grep)\b.*TODO`),
	"show the go version":                             bashMatches(`\bgo\s+version\b`),
	"add a function Add(a, b int) int to x.go":        either(edits("x.go", "", "func Add"), reads("x.go")),
	"cat README.md":                                   either(reads("README.md"), bashMatches(`\bcat\b.*README\.md`)),
	"make a directory named build":                    bashMatches(`\bmkdir\b.*\bbuild\b`),
	"rename foo to bar in every .go file":             either(bashMatches(`foo.*bar`), edits("x.go", "foo", "bar")),
	"check whether main.go compiles":                  bashMatches(`\bgo\s+(build|vet|run)\b`),
}

func either(fs ...func(string, realArgs) bool) func(string, realArgs) bool {
	return func(name string, a realArgs) bool {
		for _, f := range fs {
			if f(name, a) {
				return true
			}
		}
		return false
	}
}

func bashMatches(expr string) func(string, realArgs) bool {
	re := regexp.MustCompile(expr)
	return func(name string, a realArgs) bool { return name == "bash" && re.MatchString(a.Command) }
}

func samePath(got, want string) bool {
	return strings.TrimPrefix(got, "./") == want
}

func reads(path string) func(string, realArgs) bool {
	return func(name string, a realArgs) bool { return name == "read_file" && samePath(a.Path, path) }
}

func readsLines(path string, n int) func(string, realArgs) bool {
	return func(name string, a realArgs) bool {
		return name == "read_file" && samePath(a.Path, path) && a.Start <= 1 && a.End == n
	}
}

func writes(path, text string) func(string, realArgs) bool {
	return func(name string, a realArgs) bool {
		return name == "write_file" && samePath(a.Path, path) && strings.Contains(a.Content, text)
	}
}

func edits(path, old, new string) func(string, realArgs) bool {
	return func(name string, a realArgs) bool {
		if name != "edit_file" || !samePath(a.Path, path) {
			return false
		}
		for _, e := range a.Edits {
			if strings.Contains(e.Old, old) && strings.Contains(e.New, new) {
				return true
			}
		}
		return false
	}
}

// realRight says whether the first call that would run for prompt is a
// right one.
func realRight(prompt string, res Result) bool {
	want := realExpect[prompt]
	if want == nil || len(res.Calls) == 0 {
		return false
	}
	var a realArgs
	if json.Unmarshal(res.Calls[0].Arguments, &a) != nil {
		return false
	}
	return want(res.Calls[0].Name, a)
}

// Every prompt of the set has its expectation, and the expectations accept
// and refuse what they should.
func TestRealExpectations(t *testing.T) {
	for _, p := range realPrompts {
		if realExpect[p] == nil {
			t.Errorf("no expectation for %q", p)
		}
	}
	if len(realExpect) != len(realPrompts) {
		t.Errorf("%d expectations for %d prompts", len(realExpect), len(realPrompts))
	}
	call := func(name, args string) Result {
		return Result{Calls: []Call{{Name: name, Arguments: json.RawMessage(args)}}}
	}
	for _, c := range []struct {
		prompt string
		res    Result
		right  bool
	}{
		{"list the files", call("bash", `{"command":"ls -la"}`), true},
		{"list the files", call("bash", `{"command":"echo files"}`), false},
		{"list the files", call("read_file", `{"path":"."}`), false},
		{"show main.go", call("read_file", `{"path":"./main.go"}`), true},
		{"show main.go", call("read_file", `{"path":"x.go"}`), false},
		{"read the first 10 lines of main.go", call("read_file", `{"path":"main.go","start":1,"end":10}`), true},
		{"read the first 10 lines of main.go", call("read_file", `{"path":"main.go"}`), false},
		{"create hello.txt containing hi", call("write_file", `{"path":"hello.txt","content":"hi\n"}`), true},
		{"create hello.txt containing hi", call("write_file", `{"path":"hi.txt","content":"hi"}`), false},
		{"replace foo by bar in x.go", call("edit_file", `{"path":"x.go","edits":[{"old":"func foo()","new":"func bar()"}]}`), true},
		{"replace foo by bar in x.go", call("edit_file", `{"path":"x.go","edits":[{"old":"bar","new":"foo"}]}`), false},
		{"in main.go change the greeting to Hello, world", call("read_file", `{"path":"main.go"}`), true},
		{"run the tests", call("bash", `{"command":"go test ./..."}`), true},
		{"run the tests", call("ask_user", `{"questions":[{"question":"Which tests?"}]}`), false},
		{"run the tests", Result{}, false},
	} {
		if got := realRight(c.prompt, c.res); got != c.right {
			t.Errorf("%q with %s: right %v, want %v", c.prompt, c.res.Calls, got, c.right)
		}
	}
	if !realShown("make a directory named build", "Use:\n```bash\n$ mkdir -p build\n```") {
		t.Error("realShown: a command in a code block is not seen")
	}
	if realShown("show the go version", "The go version of the tool is:\n```\n# Tools\n```") {
		t.Error("realShown: prose counted as a command")
	}
}

// callsText is the calls as name(arguments), for the log.
func callsText(calls []Call) string {
	var parts []string
	for _, c := range calls {
		parts = append(parts, c.Name+string(c.Arguments))
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// realShown says whether the reply's text writes a right command without
// calling it: a line of a fenced code block that, run as bash, would be a
// right call. A model that writes `ls` in a code block has understood the
// request but not the tools; prose that happens to say "the go version"
// is not counted.
func realShown(prompt, text string) bool {
	want := realExpect[prompt]
	if want == nil {
		return false
	}
	fenced := false
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "```") {
			fenced = !fenced
			continue
		}
		if fenced && want("bash", realArgs{Command: strings.TrimPrefix(line, "$ ")}) {
			return true
		}
	}
	return false
}
