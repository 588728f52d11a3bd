// Command testsum is `make test`'s runner: it runs `go test -json` with
// its arguments, prints what plain `go test` prints (each package's ok or
// FAIL line, the output of the tests that failed, build errors) and ends
// with one line that counts the tests:
//
//	test: 1234 passed, 0 failed, 12 skipped (9 of them need what `make test-deps` installs)
//
// Its exit code is go test's. A test that skipped for want of what `make
// test-deps` installs says so in its message (internal/testdeps.Hint); so
// does a passing test that left a check out (testdeps.Unchecked): the
// closing line counts both, so a clone without them says what it did not
// test.
//
//	go run ./internal/testsum [-go GO] [go test flags] [packages]
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
)

// hint is what the messages of internal/testdeps carry (testdeps.Hint;
// not imported: testsum builds without the testing package).
const hint = "`make test-deps`"

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run runs go test and returns its exit code (2 when it did not run).
func run(args []string, stdout, stderr io.Writer) int {
	goCmd := "go"
	if len(args) >= 2 && args[0] == "-go" {
		goCmd, args = args[1], args[2:]
	}
	cmd := exec.Command(goCmd, append([]string{"test", "-json"}, args...)...)
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err == nil {
		err = cmd.Start()
	}
	if err != nil {
		fmt.Fprintln(stderr, "testsum:", err)
		return 2
	}
	w := bufio.NewWriter(stdout)
	s := newSummary(w)
	s.read(out)
	err = cmd.Wait()
	fmt.Fprintln(w, s.line())
	w.Flush()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode()
	case err != nil:
		fmt.Fprintln(stderr, "testsum:", err)
		return 2
	}
	return 0
}

// event is one line of `go test -json` (cmd/test2json).
type event struct {
	Action     string
	Package    string
	Test       string
	Output     string
	ImportPath string // of build output
}

// node is one test or subtest: its own lines, in order, and its
// subtests.
type node struct {
	name     string
	lines    []string
	children []*node
	action   string // pass, fail, skip; "" while it runs
	top      bool   // a top-level test: no running test is its parent
}

type summary struct {
	w                       *bufio.Writer
	passed, failed, skipped int
	skippedDeps, passedDeps int                // of those, the ones whose output names hint
	tests                   map[string]*node   // running or not yet printed, by package and name
	top                     map[string][]*node // the top-level tests not over yet, by package
	failedIn                map[string]bool    // the packages where a test failed
	// out holds each package's lines until it ends: go test -json
	// streams the packages together, plain go test prints each whole.
	out map[string]*strings.Builder
}

func newSummary(w *bufio.Writer) *summary {
	return &summary{w: w, tests: map[string]*node{}, top: map[string][]*node{}, failedIn: map[string]bool{}, out: map[string]*strings.Builder{}}
}

// buf is where pkg's lines wait for its end.
func (s *summary) buf(pkg string) *strings.Builder {
	b := s.out[pkg]
	if b == nil {
		b = &strings.Builder{}
		s.out[pkg] = b
	}
	return b
}

func (s *summary) read(r io.Reader) {
	br := bufio.NewReaderSize(r, 1<<16)
	for {
		line, err := br.ReadString('\n')
		if line != "" {
			var e event
			if json.Unmarshal([]byte(line), &e) != nil || e.Action == "" {
				// Not test2json's: go test's own words, as they came.
				s.w.WriteString(line)
			} else {
				s.event(e)
			}
		}
		if err != nil {
			// Packages that never ended (go test killed): what they had.
			for pkg, b := range s.out {
				for _, n := range s.top[pkg] {
					printRaw(b, n)
				}
				s.w.WriteString(b.String())
			}
			return
		}
	}
}

func (s *summary) event(e event) {
	key := e.Package + " " + e.Test
	switch {
	case e.Action == "build-output":
		s.w.WriteString(e.Output)
	case e.Test == "":
		s.packageEvent(e)
	case e.Action == "run":
		n := &node{name: e.Test}
		s.tests[key] = n
		// A subtest's own name may hold a slash (t.Run("session/new")):
		// its parent is the longest prefix that is a running test.
		for i := strings.LastIndexByte(e.Test, '/'); i >= 0; i = strings.LastIndexByte(e.Test[:i], '/') {
			if p := s.tests[e.Package+" "+e.Test[:i]]; p != nil {
				p.children = append(p.children, n)
				return
			}
		}
		n.top = true
		s.top[e.Package] = append(s.top[e.Package], n)
	case e.Action == "output":
		if n := s.tests[key]; n != nil {
			n.lines = append(n.lines, e.Output)
		}
	case e.Action == "pass" || e.Action == "fail" || e.Action == "skip":
		n := s.tests[key]
		if n == nil {
			return
		}
		n.action = e.Action
		deps := strings.Contains(strings.Join(n.lines, ""), hint)
		switch e.Action {
		case "pass":
			s.passed++
			if deps {
				s.passedDeps++
			}
		case "skip":
			s.skipped++
			if deps {
				s.skippedDeps++
			}
		case "fail":
			s.failed++
			s.failedIn[e.Package] = true
		}
		if n.top {
			// A top-level test is over: its failures are printed as
			// plain go test prints them, the rest is dropped.
			if n.action == "fail" {
				s.print(s.buf(e.Package), n, 0)
			}
			s.drop(e.Package, n)
		}
	}
}

// packageEvent prints a package's own lines: ok, FAIL, a panic outside
// any test; not the bare PASS that plain go test leaves out.
func (s *summary) packageEvent(e event) {
	b := s.buf(e.Package)
	switch e.Action {
	case "output":
		if e.Output != "PASS\n" {
			b.WriteString(e.Output)
		}
		return
	case "fail":
		// What still runs when the package fails (a timeout, a crash)
		// is printed whole: it is where the failure was.
		for _, n := range s.top[e.Package] {
			printRaw(b, n)
		}
		if !s.failedIn[e.Package] {
			// No test failed, the package did (its build, TestMain, a
			// timeout): the count says so.
			s.failed++
		}
	case "pass", "skip":
	default:
		return
	}
	// The package is over.
	delete(s.top, e.Package)
	delete(s.out, e.Package)
	s.w.WriteString(b.String())
	s.w.Flush()
}

// print writes a failed test as plain go test does: its --- FAIL line,
// its own output, then its failed subtests, indented by depth.
func (s *summary) print(b *strings.Builder, n *node, depth int) {
	indent := strings.Repeat("    ", depth)
	var header string
	var own []string
	for _, l := range n.lines {
		t := strings.TrimLeft(l, " ")
		switch {
		case strings.HasPrefix(t, "=== RUN ") || strings.HasPrefix(t, "=== PAUSE ") || strings.HasPrefix(t, "=== CONT ") || strings.HasPrefix(t, "=== NAME "):
		case header == "" && strings.HasPrefix(t, "--- FAIL: "+n.name+" "):
			header = t
		default:
			own = append(own, l)
		}
	}
	if header == "" {
		header = "--- FAIL: " + n.name + "\n"
	}
	b.WriteString(indent + header)
	for _, l := range own {
		b.WriteString(indent + l)
	}
	for _, c := range n.children {
		if c.action == "fail" || c.action == "" {
			s.print(b, c, depth+1)
		}
	}
}

// printRaw writes everything a test that never ended wrote.
func printRaw(b *strings.Builder, n *node) {
	for _, l := range n.lines {
		b.WriteString(l)
	}
	for _, c := range n.children {
		printRaw(b, c)
	}
}

func (s *summary) drop(pkg string, n *node) {
	var forget func(n *node)
	forget = func(n *node) {
		delete(s.tests, pkg+" "+n.name)
		for _, c := range n.children {
			forget(c)
		}
	}
	forget(n)
	top := s.top[pkg]
	for i, t := range top {
		if t == n {
			s.top[pkg] = append(top[:i:i], top[i+1:]...)
			break
		}
	}
}

// line is the closing line.
func (s *summary) line() string {
	out := fmt.Sprintf("test: %d passed, %d failed, %d skipped", s.passed, s.failed, s.skipped)
	tail := " what " + hint + " installs)"
	checks := fmt.Sprintf("a check in %d passing %s", s.passedDeps, plural(s.passedDeps, "test", "tests"))
	switch {
	case s.skippedDeps > 0 && s.passedDeps > 0:
		out += fmt.Sprintf(" (%d of them, and %s, need", s.skippedDeps, checks) + tail
	case s.skippedDeps > 0:
		out += fmt.Sprintf(" (%d of them %s", s.skippedDeps, plural(s.skippedDeps, "needs", "need")) + tail
	case s.passedDeps > 0:
		out += " (" + checks + " needs" + tail
	}
	return out
}

func plural(n int, one, more string) string {
	if n == 1 {
		return one
	}
	return more
}
