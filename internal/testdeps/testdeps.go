// Package testdeps is what a test does when it needs something `make
// test-deps` installs (.ci/deps: the language servers, the Node ACP SDK,
// the reference MCP servers, the real llama.cpp server) and it is missing:
// under CI=true that is a failure (.ci/run installed it, so the install
// broke); elsewhere the test skips, saying which command installs it. The
// closing line of `make test` (internal/testsum) counts those skips by the
// Hint their message carries.
//
// It also finds the ACP schemas the tests validate against: they ship
// with the Go SDK in the module cache and with the npm SDK in .ci/node,
// never beside the repository.
package testdeps

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
)

// Hint is in every message of a skip (or of a check left out) for want of
// what `make test-deps` installs; internal/testsum looks for it.
const Hint = "`make test-deps`"

// withHint is what followed by the command that installs it, unless what
// already names the command.
func withHint(what string) string {
	if strings.Contains(what, Hint) {
		return what
	}
	return what + ": " + Hint + " installs it"
}

// CI says whether the tests run under CI=true, where nothing may be
// missing.
func CI() bool { return os.Getenv("CI") == "true" }

// Missing ends the test for want of what (a sentence naming it): a
// failure under CI=true, a skip that says how to install it elsewhere.
func Missing(t testing.TB, what string) {
	t.Helper()
	if CI() {
		t.Fatalf("%s (CI=true: a missing dependency is a failure)", withHint(what))
	}
	t.Skip(withHint(what))
}

// Unchecked reports a check that a test which otherwise ran could not
// make: an error under CI=true, a log line elsewhere (the closing line of
// `make test` counts those tests).
func Unchecked(t testing.TB, what string) {
	t.Helper()
	if CI() {
		t.Errorf("%s (CI=true: a missing dependency is a failure)", withHint("not checked: "+what))
		return
	}
	t.Log(withHint("not checked: " + what))
}

// Root is the repository's root directory.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Clean(filepath.Join(filepath.Dir(file), "..", ".."))
}

// Schema is an ACP JSON schema file and the package version it comes
// with.
type Schema struct {
	Path    string // absolute and clean
	Package string // "github.com/coder/acp-go-sdk v0.13.0", "@agentclientprotocol/sdk 2.4.0"
}

// ACPNodeDir is the directory whose node_modules holds the npm ACP SDK:
// $MM_ACP_NODE_DIR, else the repository's .ci/node, where .ci/deps
// installs the version cmd/mm/testdata/acp/package-lock.json pins.
func ACPNodeDir() string {
	if d := os.Getenv("MM_ACP_NODE_DIR"); d != "" {
		abs, _ := filepath.Abs(d)
		return abs
	}
	return filepath.Join(Root(), ".ci", "node")
}

// ACPNodeSchema is schema/v1/<name> (schema.json, schema.unstable.json)
// of the npm @agentclientprotocol/sdk in ACPNodeDir: the protocol as the
// official TypeScript client speaks it. Missing until `make test-deps`.
func ACPNodeSchema(name string) (Schema, error) {
	pkg := filepath.Join(ACPNodeDir(), "node_modules", "@agentclientprotocol", "sdk")
	var meta struct{ Version string }
	b, err := os.ReadFile(filepath.Join(pkg, "package.json"))
	if err == nil {
		err = json.Unmarshal(b, &meta)
	}
	if err != nil {
		return Schema{}, fmt.Errorf("the npm @agentclientprotocol/sdk is not installed in %s", ACPNodeDir())
	}
	p := filepath.Join(pkg, "schema", "v1", name)
	if _, err := os.Stat(p); err != nil {
		return Schema{}, fmt.Errorf("@agentclientprotocol/sdk %s has no schema/v1/%s", meta.Version, name)
	}
	return Schema{Path: p, Package: "@agentclientprotocol/sdk " + meta.Version}, nil
}

var goSDK struct {
	once     sync.Once
	dir, ver string
	err      error
}

// ACPGoSchema is schema/<name> (schema.json, schema.unstable.json) of
// the github.com/coder/acp-go-sdk module mm builds with, in the module
// cache: always there once mm builds.
func ACPGoSchema(name string) (Schema, error) {
	goSDK.once.Do(func() {
		cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}} {{.Version}}", "github.com/coder/acp-go-sdk")
		cmd.Dir = Root()
		out, err := cmd.Output()
		f := strings.Fields(string(out))
		switch {
		case err != nil:
			goSDK.err = fmt.Errorf("go list -m github.com/coder/acp-go-sdk: %v", err)
		case len(f) != 2:
			goSDK.err = fmt.Errorf("go list -m github.com/coder/acp-go-sdk: the module is not downloaded (%q)", out)
		default:
			goSDK.dir, goSDK.ver = f[0], f[1]
		}
	})
	if goSDK.err != nil {
		return Schema{}, goSDK.err
	}
	p := filepath.Join(goSDK.dir, "schema", name)
	if _, err := os.Stat(p); err != nil {
		return Schema{}, err
	}
	return Schema{Path: p, Package: "github.com/coder/acp-go-sdk " + goSDK.ver}, nil
}
