// Package version holds mm's version: what `mm --version` prints, what ACP
// reports as agentInfo.version, and what fetch_content sends in its
// User-Agent.
package version

import (
	"runtime/debug"
	"strings"
)

// Version is set at build time by the Makefile:
// -ldflags "-X mm/internal/version.Version=v0.1.0".
var Version = ""

// String returns the version: the one set at build time, else what Go
// recorded in the binary (a plain `go build` in a git checkout records the
// module version and the commit): `v0.0.0-20261201103037-cabae40e8da0+dirty
// (rev cabae40, 2026-12-01, modified)`, else "dev" (no VCS information:
// `-buildvcs=false`, or a linked git worktree, which Go does not stamp).
func String() string {
	if Version != "" {
		return Version
	}
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "dev"
	}
	return fromBuildInfo(bi.Main.Version, bi.Settings)
}

// Module is the first word of String: the version alone, for a
// User-Agent product token.
func Module() string {
	s := String()
	if i := strings.IndexByte(s, ' '); i >= 0 {
		return s[:i]
	}
	return s
}

// fromBuildInfo tells the module version and the VCS settings Go recorded.
func fromBuildInfo(module string, settings []debug.BuildSetting) string {
	if module == "(devel)" {
		module = ""
	}
	var rev, date string
	modified := false
	for _, s := range settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			date = s.Value
		case "vcs.modified":
			modified = s.Value == "true"
		}
	}
	if rev == "" {
		if module == "" {
			return "dev"
		}
		return module // `go install mm@v0.1.0`: the tag says it all
	}
	if module == "" {
		module = "devel"
	}
	// The pseudo-version holds the commit and its time too, but not in a
	// form people read at a glance.
	details := []string{"rev " + short(rev, 7)}
	if date != "" {
		details = append(details, short(date, len("2006-01-02")))
	}
	if modified {
		details = append(details, "modified")
	}
	return module + " (" + strings.Join(details, ", ") + ")"
}

func short(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}
