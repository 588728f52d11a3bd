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

// maxTrustLines is the most lines of what the file would do that the
// question shows.
const maxTrustLines = 20

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
	var what []string
	for _, g := range p.Gated {
		what = append(what, g.What...)
	}
	// A file with hundreds of servers would scroll its first lines, and
	// the heading, out of sight: what the question shows is what the
	// user saw.
	if len(what) > maxTrustLines {
		rest := len(what) - maxTrustLines + 1
		what = append(what[:maxTrustLines-1], fmt.Sprintf("… and %d more not shown: read %s before trusting it", rest, p.Path))
	}
	for _, w := range what {
		line("   " + config.ShownLine(w))
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
