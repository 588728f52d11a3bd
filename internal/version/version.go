// Package version holds mm's version: what `mm --version` prints, what ACP
// reports as agentInfo.version, and what fetch_content sends in its
// User-Agent.
package version

import "runtime/debug"

// Version is set at build time by the Makefile:
// -ldflags "-X mm/internal/version.Version=v0.1.0".
var Version = ""

// String returns the version: the one set at build time, else the module
// version Go recorded (for `go install …@v0.1.0`), else "dev".
func String() string {
	if Version != "" {
		return Version
	}
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		return bi.Main.Version
	}
	return "dev"
}
