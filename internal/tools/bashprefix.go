package tools

import (
	"encoding/json"
	"path"
	"strings"
)

// A 🔐 answer can allow a command prefix for the session: `npm test`
// allowed, `npm test -- -run X` runs without asking, `npm publish` still
// asks. What runs is decided by bash, so the prefix is only trusted where
// mm reads the command exactly as bash will: a command line is split into
// its simple commands (at ;, &, &&, |, ||, newline), and a call is
// allowed only when every one of them starts with an allowed prefix,
// word for word. Anything mm does not read the way bash would — command
// or process substitution, ${…}, a backslash, a redirection other than
// 2>&1, parentheses, a control character — makes the call ask, whatever
// was allowed.

// maxPrefix bounds the prefix offered: it is shown in the key help.
const maxPrefix = 60

// runners are commands whose next word is another command or code to
// run: allowing `sudo rm` or `bash -c` would allow anything, so no prefix
// is offered for them.
var runners = map[string]bool{
	"sh": true, "bash": true, "zsh": true, "dash": true, "ksh": true, "fish": true, "csh": true, "tcsh": true,
	"eval": true, "exec": true, "source": true, ".": true, "sudo": true, "doas": true, "su": true,
	"env": true, "xargs": true, "command": true, "builtin": true, "nohup": true, "time": true,
	"timeout": true, "nice": true, "ionice": true, "watch": true, "strace": true, "chroot": true,
	"setsid": true, "stdbuf": true, "unbuffer": true, "script": true, "parallel": true, "busybox": true,
	// Their second word is a host, a lock file, a date, a CPU mask…, the
	// command comes after it: `ssh host` or `flock lock` would allow any.
	"ssh": true, "flock": true, "faketime": true, "taskset": true, "chrt": true, "setarch": true,
	"sg": true, "runuser": true, "pkexec": true, "unshare": true, "nsenter": true, "systemd-run": true,
	"fakeroot": true, "firejail": true, "bwrap": true, "proxychains": true, "proxychains4": true,
	"torsocks": true, "valgrind": true, "dbus-run-session": true, "numactl": true, "cpulimit": true,
	"mpirun": true,
	// A keyword whose next word is a command that runs on its own line.
	"coproc": true,
}

// subcommand is a second word that names what the command does (`test`
// in `npm test`, `manage.py` in `python manage.py`): not an option, whose
// prefix would allow too much (`rm -rf`, `python -c`), nor a path.
func subcommand(w string) bool {
	if !plainWord(w) || strings.Contains(w, "/") {
		return false
	}
	c := w[0]
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// BashPrefix is the prefix a permission answer can allow for the session
// for this bash call: its first two words (`npm test`), or its only word
// (`make`); "" when none is offered: a command of several parts, shell
// syntax mm does not read, a word that is not plain (quotes, globs, an
// assignment), a command runner (sudo, env, sh…), or a second word that
// is an option or a path (`rm -rf x`, `python -c …`, `cat ./x`).
func BashPrefix(args json.RawMessage) string {
	var a struct {
		Command string `json:"command"`
	}
	if json.Unmarshal(args, &a) != nil {
		return ""
	}
	cmds, ok := simpleCommands(a.Command)
	if !ok || len(cmds) != 1 {
		return ""
	}
	words := cmds[0]
	// A runner named by its path (/usr/bin/timeout) is one too.
	if words[0].quoted || !plainWord(words[0].text) || runners[path.Base(words[0].text)] {
		return ""
	}
	prefix := words[0].text
	if len(words) > 1 {
		if words[1].quoted || !subcommand(words[1].text) {
			return ""
		}
		prefix += " " + words[1].text
	}
	if len(prefix) > maxPrefix {
		return ""
	}
	return prefix
}

// BashPrefixAllows reports whether the prefixes allowed for the session
// cover this bash call: every simple command of it starts with one of
// them, word for word, and mm reads all of it as bash would.
func BashPrefixAllows(prefixes []string, args json.RawMessage) bool {
	var a struct {
		Command string `json:"command"`
	}
	if len(prefixes) == 0 || json.Unmarshal(args, &a) != nil {
		return false
	}
	cmds, ok := simpleCommands(a.Command)
	if !ok || len(cmds) == 0 {
		return false
	}
	for _, words := range cmds {
		if !startsWithAny(words, prefixes) {
			return false
		}
	}
	return true
}

func startsWithAny(words []word, prefixes []string) bool {
	for _, p := range prefixes {
		want := strings.Fields(p)
		if len(want) == 0 || len(want) > len(words) {
			continue
		}
		ok := true
		for i, w := range want {
			// The prefix's words are plain: only an unquoted word is
			// taken as one of them (mm need not know how bash reads
			// quotes in a command name).
			if words[i].quoted || words[i].text != w {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// plainWord is a word bash takes literally: no quote, glob, expansion,
// assignment or other special character.
func plainWord(w string) bool {
	if w == "" {
		return false
	}
	for _, c := range w {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		case strings.ContainsRune("-_./:+,@%", c):
		default:
			return false
		}
	}
	return true
}

// word is one word of a simple command, its quotes removed; quoted says
// some of it was quoted.
type word struct {
	text   string
	quoted bool
}

// simpleCommands splits a command line into its simple commands, each a
// list of words, or says it cannot be read safely (ok false): command or
// process substitution, ${…}, a backslash (even quoted), parentheses, a
// redirection other than 2>&1, a here-document, an unclosed quote, a
// control character. Comments are skipped; empty commands (`a;;`, a
// trailing &) are left out.
func simpleCommands(s string) (cmds [][]word, ok bool) {
	// A backslash is refused even between single quotes: in $'…' bash
	// reads \' as a quote that does not end the string, so a scanner
	// that ends it there would take what bash runs for a quoted argument.
	if strings.Contains(s, "$(") || strings.Contains(s, "${") || strings.ContainsAny(s, "`\\") {
		return nil, false
	}
	var cur []word
	var w strings.Builder
	inWord, quoted := false, false
	endWord := func() {
		if inWord {
			cur = append(cur, word{w.String(), quoted})
		}
		w.Reset()
		inWord, quoted = false, false
	}
	endCommand := func() {
		endWord()
		if len(cur) > 0 {
			cmds = append(cmds, cur)
		}
		cur = nil
	}
	rs := []rune(s)
	for i := 0; i < len(rs); i++ {
		c := rs[i]
		switch {
		case c == '\'':
			j := i + 1
			for j < len(rs) && rs[j] != '\'' {
				j++
			}
			if j == len(rs) {
				return nil, false
			}
			w.WriteString(string(rs[i+1 : j]))
			inWord, quoted = true, true
			i = j
		case c == '"':
			j := i + 1
			for j < len(rs) && rs[j] != '"' {
				if rs[j] == '\\' {
					return nil, false
				}
				j++
			}
			if j == len(rs) {
				return nil, false
			}
			w.WriteString(string(rs[i+1 : j]))
			inWord, quoted = true, true
			i = j
		case c == ' ' || c == '\t':
			endWord()
		case c == '#' && !inWord:
			// A word that starts with # starts a comment, to the end of
			// the line, as bash reads it: a quote in it opens nothing,
			// and the next line is a command of its own.
			for i+1 < len(rs) && rs[i+1] != '\n' {
				i++
			}
		case c == '\n' || c == ';' || c == '&' || c == '|':
			endCommand()
		case c == '2' && !inWord && i+3 < len(rs) && string(rs[i:i+4]) == "2>&1" && (i+4 == len(rs) || strings.ContainsRune(" \t\n;&|", rs[i+4])):
			// 2>&1 sends stderr where stdout goes: it writes no file.
			// (rs[i:i+4], not the rest of the line: a long line of 2s
			// would copy it at each one.)
			i += 3
		case c == '\\' || c == '(' || c == ')' || c == '<' || c == '>':
			return nil, false
		case c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0):
			return nil, false
		default:
			w.WriteRune(c)
			inWord = true
		}
	}
	endCommand()
	return cmds, true
}
