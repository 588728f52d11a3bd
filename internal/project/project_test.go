package project

import (
	"os"
	"path/filepath"
	"testing"
)

func TestRootIsTheRepositoryRoot(t *testing.T) {
	repo := t.TempDir()
	if err := os.Mkdir(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(repo, "a", "b")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if got := Root(sub); got != repo {
		t.Errorf("Root(%s) = %s, want the repository root %s", sub, got, repo)
	}
	if got := Root(repo); got != repo {
		t.Errorf("Root(repo) = %s", got)
	}
}

func TestRootOfAWorktreeIsWhereItsGitFileIs(t *testing.T) {
	wt := t.TempDir()
	if err := os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: /elsewhere\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(wt, "pkg")
	os.Mkdir(sub, 0o755)
	if got := Root(sub); got != wt {
		t.Errorf("Root = %s, want %s", got, wt)
	}
}

func TestRootOutsideARepositoryIsTheDirectory(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "x")
	os.Mkdir(sub, 0o755)
	// t.TempDir is not inside a repository on a normal machine; if it is,
	// the test means nothing.
	if r := Root(dir); r != dir {
		t.Skipf("the temporary directory is inside a repository (%s)", r)
	}
	if got := Root(sub); got != sub {
		t.Errorf("Root = %s, want the directory itself", got)
	}
	rel, _ := os.Getwd()
	if got := Root("."); !filepath.IsAbs(got) {
		t.Errorf("Root(.) = %s from %s, want an absolute path", got, rel)
	}
}
