package repl

import (
	"fmt"
	"os"
	"strings"

	"mm/internal/config"
	"mm/internal/termsafe"
)

// TrustAnswer is the answer to the start-up question about the project's
// configuration.
type TrustAnswer int

const (
	TrustNo          TrustAnswer = iota // n or Enter: its gated keys are left out
	TrustOnce                           // o: applied this time
	TrustAlways                         // y: applied, and remembered
	TrustInterrupted                    // Ctrl-C: mm ends
)

// AskTrust is the line mode's one question at start, before anything the
// file names runs: what the project's agent.yaml would run and where it
// would send what, every line sanitised (it is the repository's text), then
// one key, read like the 🔐 prompt's: y, o, n or Enter. Keys typed before
// the question was shown do not answer it.
func AskTrust(in, out *os.File, p *config.Project) TrustAnswer {
	fd := int(in.Fd())
	restore, err := keysMode(fd)
	if err != nil {
		return TrustNo
	}
	defer restore()
	flushInput(fd)
	// "\n" only: the keys mode keeps the output processing (a newline
	// returns the carriage).
	line := func(s string) { fmt.Fprint(out, termsafe.Text(s)+"\n") }
	line(fmt.Sprintf("🔐 %s comes with this directory and is not trusted yet. Trusted, it would:", p.Path))
	for _, g := range p.Gated {
		for _, w := range g.What {
			line("   " + config.ShownLine(w))
		}
	}
	line("   Its other keys (model, sampling, system, …) apply either way.")
	fmt.Fprint(out, "   [y] trust it (remembered) · [o] only this time · [n] no, run without them (Enter) ")
	var b [1]byte
	for {
		n, err := in.Read(b[:])
		if err != nil || n == 0 {
			line("")
			line("   → not trusted (end of input)")
			return TrustNo
		}
		switch b[0] {
		case 'y', 'Y':
			line("y")
			line("   → trusted (remembered: mm trust -revoke forgets it)")
			return TrustAlways
		case 'o', 'O':
			line("o")
			line("   → trusted this time")
			return TrustOnce
		case 'n', 'N', '\r', '\n', 4: // 4: Ctrl-D
			line("n")
			line("   → not trusted: " + strings.Join(p.Keys(), ", ") + " not applied (mm trust applies them)")
			return TrustNo
		case 3: // Ctrl-C
			line("^C")
			return TrustInterrupted
		}
	}
}
