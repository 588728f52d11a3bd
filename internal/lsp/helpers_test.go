package lsp

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"mm/internal/testdeps"
)

// addServerDirs puts where .ci/run installs the servers on the PATH, so
// `go test` finds them without the script: the repository's
// .ci/lsp/node_modules/.bin and $(go env GOPATH)/bin.
func addServerDirs() {
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	dirs := []string{filepath.Join(repo, ".ci", "lsp", "node_modules", ".bin")}
	if out, err := exec.Command("go", "env", "GOPATH").Output(); err == nil {
		for _, d := range filepath.SplitList(strings.TrimSpace(string(out))) {
			dirs = append(dirs, filepath.Join(d, "bin"))
		}
	}
	path := os.Getenv("PATH")
	for _, d := range dirs {
		if st, err := os.Stat(d); err == nil && st.IsDir() && !strings.Contains(path, d) {
			path += string(os.PathListSeparator) + d
		}
	}
	os.Setenv("PATH", path)
}

// requireServer fails the test under CI when a real server is missing
// (.ci/run installs them: a missing one is a broken install, not a reason
// to skip), and skips it with a clear message elsewhere.
func requireServer(t testing.TB, commands ...string) {
	t.Helper()
	for _, c := range commands {
		if _, err := exec.LookPath(c); err != nil {
			testdeps.Missing(t, c+" is not on the PATH nor in .ci/lsp")
		}
	}
}

// writeFiles writes name → content under dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func readFile(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
