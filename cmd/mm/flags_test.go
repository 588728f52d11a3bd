package main_test

// The command line's own answers: the help, once, on stdout; a flag
// mistake, one line on stderr that says where the help is.

import (
	"bytes"
	"io"
	"os/exec"
	"strings"
	"testing"

	"github.com/creack/pty"
)

// On a terminal, stdout and stderr are the same screen: the help printed
// to both showed twice.
func TestHelpOnceOnATerminal(t *testing.T) {
	for _, flag := range []string{"-h", "--help", "-help"} {
		cmd := exec.Command(mmBin, flag)
		cmd.Dir = t.TempDir()
		cmd.Env = append(cleanEnv(), "TERM=xterm-256color")
		tty, err := pty.Start(cmd)
		if err != nil {
			t.Fatal(err)
		}
		// Everything mm writes, to its end: the read ends (EIO) once mm
		// has exited and closed the terminal.
		var out bytes.Buffer
		io.Copy(&out, tty)
		err = cmd.Wait()
		tty.Close()
		if err != nil {
			t.Errorf("mm %s: %v", flag, err)
		}
		if n := strings.Count(out.String(), "Usage:"); n != 1 {
			t.Errorf("mm %s on a terminal: the help shows %d times:\n%s", flag, n, out.String())
		}
	}
}

// Without a terminal: the help on stdout alone, exit 0.
func TestHelpOnStdoutOnly(t *testing.T) {
	for _, flag := range []string{"-h", "--help", "-help"} {
		r := mm(t, t.TempDir(), nil, nil, "", flag)
		if r.code != 0 || r.stderr != "" || strings.Count(r.stdout, "Usage:") != 1 || !strings.HasPrefix(r.stdout, "mm — ") {
			t.Errorf("mm %s: exit %d\nstdout %q\nstderr %q", flag, r.code, r.stdout, r.stderr)
		}
	}
}

// A flag mistake is one line on stderr, exit 2: what is wrong, and where
// the help is; not the whole help.
func TestFlagErrorIsOneLine(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"--bogus"}, "mm: flag provided but not defined: -bogus (run mm -h for the flags)\n"},
		{[]string{"-p"}, "mm: flag needs an argument: -p (run mm -h for the flags)\n"},
		// What the flag says is the user's, shown as text, on one line.
		{[]string{"--x\x1b[2J\ny"}, "mm: flag provided but not defined: -x^[[2J^Jy (run mm -h for the flags)\n"},
		{[]string{"-json=maybe", "-p", "x"}, "mm: invalid boolean value \"maybe\" for -json: parse error (run mm -h for the flags)\n"},
	} {
		r := mm(t, t.TempDir(), nil, nil, "", c.args...)
		if r.code != 2 || r.stdout != "" || r.stderr != c.want {
			t.Errorf("mm %q: exit %d\nstdout %q\nstderr %q\nwant   %q", c.args, r.code, r.stdout, r.stderr, c.want)
		}
	}
}
