package ui

import (
	"bytes"
	"strings"
	"testing"
)

// On a dumb terminal what the user types shows as plain lines: extended
// in place, restarted on a new line after other output or a Backspace,
// held back while the answer writes a line, never with a cursor move.
func TestInputEchoedOnADumbTerminal(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, &out, true, 20)
	p.echo = true // a dumb terminal
	steps := []struct {
		do   func()
		want string
	}{
		{func() { p.SetInput("sh") }, "› sh"},
		{func() { p.SetInput("show \x1b[2J") }, "ow ^[[2J"},
		{func() { p.Text("partial") }, "\npartial"},
		{func() { p.SetInput("show \x1b[2J!") }, ""}, // inside the answer's line
		{func() { p.Text(" more\n") }, " more\n› show ^[[2J!"},
		{func() { p.SetInput("show \x1b[2J") }, "\n› show ^[[2J"}, // Backspace
		{func() { p.Line("🛠️ bash: ls") }, "\n🛠️ bash: ls\n"},
		{func() { p.TypedSoFar() }, "   (typed so far: \"show ^[[2J\" — Ctrl-U clears it, Enter sends it)\n"},
		{func() { p.SetInput("show \x1b[2J?") }, "› show ^[[2J?"},
		{func() { p.SetInput("") }, "\n"}, // Ctrl-U: the line ends
		{func() { p.Finish() }, ""},
	}
	for i, s := range steps {
		out.Reset()
		s.do()
		if got := out.String(); got != s.want {
			t.Errorf("step %d: got %q, want %q", i, got, s.want)
		}
	}
	p.Close()
}

// TypedSoFar writes nothing where a status line shows the type-ahead, or
// when nothing is typed.
func TestTypedSoFarOnlyOnADumbTerminal(t *testing.T) {
	var out bytes.Buffer
	p := NewPrinter(&out, &out, true, 20)
	p.SetInput("x") // no terminal: no status line, no echo
	p.TypedSoFar()
	p.echo = true
	p.SetInput("")
	p.TypedSoFar()
	if strings.Contains(out.String(), "typed so far") {
		t.Errorf("wrote %q", out.String())
	}
	p.Close()
}
