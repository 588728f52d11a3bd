package tools

import (
	"encoding/json"
	"strings"
	"testing"
)

func cmdArgs(c string) json.RawMessage {
	b, _ := json.Marshal(map[string]string{"command": c})
	return b
}

func TestBashPrefixOffered(t *testing.T) {
	for cmd, want := range map[string]string{
		"npm test":              "npm test",
		"npm test -- -run X":    "npm test",
		"  go   test ./...  ":   "go test",
		"ls -la":                "", // an option: rm -rf would allow too much
		"rm -rf build":          "",
		"cat ./x":               "", // a path
		"python manage.py test": "python manage.py",
		"cargo build --release": "cargo build",
		"make":                  "make",
		"npm test 2>&1":         "npm test",
		"npm test; rm -rf x":    "", // two commands
		"cd x && npm test":      "",
		"npm test | tail":       "",
		"sudo rm -rf /":         "", // a runner
		"/usr/bin/timeout 10 x": "", // a runner by its path
		"/bin/bash x.sh":        "",
		"ssh host ls":           "", // the command comes after the host
		"flock lock make":       "",
		"taskset 0x1 make":      "",
		"coproc timeout 9 x":    "", // coproc runs the rest as a command
		"bash -c 'rm -rf /'":    "",
		"env X=1 npm test":      "",
		"python -c 'print(1)'":  "", // code flag
		"node -e x":             "",
		"X=1 npm test":          "",
		"\"npm\" test":          "",
		"npm 'te st'":           "",
		"npm $(echo test)":      "",
		"npm test > out.txt":    "",
		"np* test":              "",
		"npm test\\\n; rm x":    "",
		"":                      "",
		"npm test\r":            "",
	} {
		if got := BashPrefix(cmdArgs(cmd)); got != want {
			t.Errorf("BashPrefix(%q) = %q, want %q", cmd, got, want)
		}
	}
}

func TestBashPrefixAllows(t *testing.T) {
	allowed := []string{"npm test", "go vet"}
	for cmd, want := range map[string]bool{
		"npm test":                   true,
		"npm test -- -run X":         true,
		"npm   test --watch=false":   true,
		"npm test && go vet ./...":   true,
		"npm test 2>&1; go vet":      true,
		"npm test &":                 true,
		"npm testx":                  false,
		"npm publish":                false,
		"npm":                        false,
		"npm test; rm -rf x":         false,
		"npm test && rm -rf x":       false,
		"npm test || rm -rf x":       false,
		"npm test | sh":              false,
		"npm test & rm -rf x":        false,
		"npm test\nrm -rf x":         false,
		"npm test $(rm -rf x)":       false,
		"npm test `rm -rf x`":        false,
		"npm test \"$(rm -rf x)\"":   false,
		"npm test ${x@P}":            false,
		"npm test > ~/.bashrc":       false,
		"npm test < /etc/passwd":     false,
		"npm test <(rm -rf x)":       false,
		"(rm -rf x); npm test":       false,
		"npm test; (rm -rf x)":       false,
		"{ rm -rf x; }; npm test":    false,
		"X=1 npm test":               false,
		"PATH=/tmp npm test":         false,
		"\"npm\" test":               false,
		"npm test \\; rm -rf x":      false,
		"npm test 'unclosed":         false,
		"npm test\r\nrm -rf x":       false,
		"if npm test; then rm x; fi": false,
		"npm test; eval rm":          false,
		"cd x && npm test":           false,
		";":                          false,
		"":                           false,
		"npm test # '\nrm -rf x\n'":  false, // a comment: its quote opens nothing
		"npm test #\"\nrm -rf x\n\"": false,
		"npm test;#'\nrm -rf x\n'":   false,
		"npm test $'\\' '\nrm x\n'":  false, // $'\'' does not end at \'
		"npm test 'a\\b'":            false,
		"npm test # rm -rf x":        true, // the comment runs nothing
		"npm test a#'b'":             true, // # inside a word is a letter
		"npm test 'a; rm -rf x'":     true, // quoted: one argument
		"npm test \"a && b\" c":      true,
	} {
		if got := BashPrefixAllows(allowed, cmdArgs(cmd)); got != want {
			t.Errorf("BashPrefixAllows(%q) = %v, want %v", cmd, got, want)
		}
	}
	if BashPrefixAllows(nil, cmdArgs("npm test")) {
		t.Error("allowed with no prefix")
	}
}

// A line of a million 2s is read in one pass: each 2 once compared the
// rest of the line (a copy of it), and the 🔐 prompt of such a command
// took minutes to come up (this test then times out).
func TestBashPrefixLongLine(t *testing.T) {
	c := "npm test " + strings.Repeat("2 ", 1<<19)
	if BashPrefix(cmdArgs(c)) != "npm test" || !BashPrefixAllows([]string{"npm test"}, cmdArgs(c)) {
		t.Error("a long line of plain words is not allowed")
	}
}
