package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	iofs "io/fs"
	"os"
	"path/filepath"

	"mm/internal/config"
	"mm/internal/oneshot"
	"mm/internal/repl"
	"mm/internal/termsafe"
)

// errInterrupted is Ctrl-C at the trust question: mm ends (130).
var errInterrupted = errors.New("interrupted")

// resolve applies the project's gated keys when its file is trusted;
// otherwise, on a terminal, asks once (y: trust it, remembered; o: only
// this time; n or Enter: no), and elsewhere leaves them out with one
// warning that names them and mm trust.
func resolve(l *config.Layers, interactive bool, stdin, stdout *os.File) (*config.Config, error) {
	p := l.Project
	if p == nil || p.Trusted || len(p.Gated) == 0 {
		return l.Resolve(true, false)
	}
	if !interactive {
		return l.Resolve(false, true)
	}
	switch repl.AskTrust(stdin, stdout, p) {
	case repl.TrustAlways:
		if err := config.Trust(nil, p); err != nil {
			fmt.Fprintln(stdout, termsafe.Text("[warning: the trust could not be remembered: "+err.Error()+" — trusted this time only]"))
		}
		return l.Resolve(true, false)
	case repl.TrustOnce:
		return l.Resolve(true, false)
	case repl.TrustInterrupted:
		return nil, errInterrupted
	}
	return l.Resolve(false, false)
}

const trustUsage = `Usage:
  mm trust [DIR]           trust DIR's agent.yaml (default: the current directory) as it is now
  mm trust -revoke [DIR]   forget that trust
  mm trust -list           list the trusted files
A project's agent.yaml (one mm finds by itself where it starts) applies its commands (mcp.servers,
lsp.servers, mmConfigs), model server and key (baseUrl, fallback, apiKeyEnv), and paths outside the
project only once trusted; a changed file needs trusting again (docs/security.md).
`

// trustCommand is mm trust.
func trustCommand(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mm trust", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	revoke := fs.Bool("revoke", false, "forget the trust of DIR's agent.yaml")
	list := fs.Bool("list", false, "list the trusted files")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, trustUsage)
			return oneshot.ExitOK
		}
		fmt.Fprintf(stderr, "mm trust: %s (mm trust -h)\n", termsafe.Text(err.Error()))
		return oneshot.ExitUsage
	}
	if fs.NArg() > 1 || (*list && (fs.NArg() > 0 || *revoke)) {
		fmt.Fprintln(stderr, "mm trust: one directory at most, and -list alone (mm trust -h)")
		return oneshot.ExitUsage
	}
	if *list {
		recs, err := config.TrustList(nil)
		if err != nil {
			fmt.Fprintln(stderr, termsafe.Text("mm trust: "+err.Error()))
			return oneshot.ExitConfig
		}
		if len(recs) == 0 {
			fmt.Fprintln(stdout, "no trusted configuration")
		}
		for _, r := range recs {
			state := "trusted"
			if sum, err := fileSum(r.Path); err != nil {
				state = "missing"
			} else if sum != r.SHA256 {
				state = "changed since: not trusted"
			}
			fmt.Fprintln(stdout, termsafe.Text(fmt.Sprintf("%s  %s  %s", r.Path, r.Trusted.Format("2006-01-02 15:04"), state)))
		}
		return oneshot.ExitOK
	}
	dir := "."
	if fs.NArg() == 1 {
		dir = fs.Arg(0)
	}
	file := filepath.Join(dir, config.ImplicitPath)
	// A project removed since is forgotten all the same: -list shows it
	// missing, and this is how its record goes.
	if *revoke {
		had, err := config.Revoke(nil, file)
		switch {
		case err != nil:
			fmt.Fprintln(stderr, termsafe.Text("mm trust: "+err.Error()))
			return oneshot.ExitConfig
		case !had:
			fmt.Fprintln(stderr, termsafe.Text("mm trust: "+file+" was not trusted"))
			return oneshot.ExitUsage
		}
		fmt.Fprintln(stdout, termsafe.Text(file+": no longer trusted"))
		return oneshot.ExitOK
	}
	shown := termsafe.Text(dir)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, iofs.ErrNotExist):
		fmt.Fprintf(stderr, "mm trust: %s: the directory does not exist\n", shown)
		return oneshot.ExitUsage
	case err != nil:
		fmt.Fprintln(stderr, termsafe.Text("mm trust: "+err.Error()))
		return oneshot.ExitUsage
	case !fi.IsDir():
		fmt.Fprintf(stderr, "mm trust: %s: not a directory (mm trust takes the directory of an agent.yaml)\n", shown)
		return oneshot.ExitUsage
	}
	if _, err := os.Lstat(file); errors.Is(err, iofs.ErrNotExist) {
		fmt.Fprintf(stderr, "mm trust: %s: no agent.yaml there\n", shown)
		return oneshot.ExitUsage
	}
	l, err := config.Read(config.Options{Dir: dir})
	if err != nil {
		// A broken file is not trusted: fix it first.
		fmt.Fprintln(stderr, termsafe.Text(err.Error()))
		return oneshot.ExitConfig
	}
	p := l.Project
	if p == nil {
		fmt.Fprintln(stderr, termsafe.Text("mm trust: "+file+" is your own configuration file: it is always applied"))
		return oneshot.ExitUsage
	}
	if err := config.Trust(nil, p); err != nil {
		fmt.Fprintln(stderr, termsafe.Text("mm trust: "+err.Error()))
		return oneshot.ExitConfig
	}
	fmt.Fprintln(stdout, termsafe.Text(fmt.Sprintf("trusted %s (sha256 %s)", p.Abs, p.Sum[:12])))
	if len(p.Gated) == 0 {
		fmt.Fprintln(stdout, "it sets nothing that needs trust")
	} else {
		fmt.Fprintln(stdout, "it may now:")
		for _, g := range p.Gated {
			for _, w := range g.What {
				fmt.Fprintln(stdout, termsafe.Text("  "+config.ShownLine(w)))
			}
		}
	}
	fmt.Fprintln(stdout, "a change to the file needs mm trust again")
	return oneshot.ExitOK
}

// fileSum is the SHA-256 of the file at path, as config records it.
func fileSum(path string) (string, error) {
	return config.FileSum(path)
}
