// Package undo keeps what /undo needs: before the first change of a turn,
// a snapshot of the project's files as a commit in a shadow git
// repository that lives in the user's state directory (never in the
// project), and the restore that puts the files a turn changed back.
//
// The shadow repository is driven with GIT_DIR, GIT_WORK_TREE and an index
// file of its own, in an environment of its own: the user's .git, index,
// stash, refs, hooks and configuration are never read or written, and no
// command a project's files name (hooks, filters, fsmonitor) ever runs.
// The index is kept from one snapshot to the next: git's stat cache then
// makes a snapshot of a large project where one file changed cost a few
// git processes and a walk of the directories.
package undo

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// MaxFileSize is the size from which a file is left out of the snapshots:
// a dataset or a build artefact would make every snapshot slow and the
// shadow repository huge.
const MaxFileSize = 10 << 20

// Limits of one snapshot's new content: a project of more files (a home
// directory, a tree whose build outputs are not ignored) is not
// snapshotted rather than copied whole into the state directory.
const (
	maxNewFiles = 100_000
	maxNewBytes = 1 << 30
)

// Repo is the shadow repository of one project root.
type Repo struct {
	root  string // the project root, absolute
	dir   string // <state>/undo/<hash of root>
	git   string // the git binary
	env   []string
	flags []string

	mu       sync.Mutex // one snapshot or restore at a time in this process
	last     string     // the last commit this process made (the next one's parent)
	lastTree string
}

var (
	reposMu sync.Mutex
	repos   = map[string]*Repo{}
)

// Open returns the shadow repository of root under stateDir (created when
// missing). Sessions of one process on one root share it. gitPath is the
// git binary (exec.LookPath's).
func Open(stateDir, root, gitPath string) (*Repo, error) {
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(root))
	dir := filepath.Join(stateDir, "undo", hex.EncodeToString(sum[:8]))
	reposMu.Lock()
	defer reposMu.Unlock()
	if r := repos[dir]; r != nil {
		return r, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	r := &Repo{root: root, dir: dir, git: gitPath}
	r.env = []string{
		"GIT_DIR=" + filepath.Join(dir, "git"),
		"GIT_WORK_TREE=" + root,
		"GIT_INDEX_FILE=" + filepath.Join(dir, "index"),
		// No system or global configuration: the user's aliases,
		// excludes, hooks and filters are not the shadow's.
		"GIT_CONFIG_NOSYSTEM=1",
		"GIT_CONFIG_GLOBAL=" + os.DevNull,
		// A home that does not exist: no ~/.gitconfig, no
		// ~/.config/git/{config,ignore,attributes}.
		"HOME=" + filepath.Join(dir, "nohome"),
		"XDG_CONFIG_HOME=" + filepath.Join(dir, "nohome"),
		"GIT_TERMINAL_PROMPT=0",
		"GIT_AUTHOR_NAME=mm", "GIT_AUTHOR_EMAIL=mm@localhost",
		"GIT_COMMITTER_NAME=mm", "GIT_COMMITTER_EMAIL=mm@localhost",
		"LC_ALL=C",
	}
	for _, k := range []string{"PATH", "SYSTEMROOT", "TMPDIR", "TEMP", "TMP"} {
		if v, ok := os.LookupEnv(k); ok {
			r.env = append(r.env, k+"="+v)
		}
	}
	excludes := os.DevNull
	if fi, err := os.Lstat(filepath.Join(root, ".git", "info", "exclude")); err == nil && fi.Mode().IsRegular() {
		// The project's own ignore rules: its .gitignore files, which git
		// reads in the work tree, and its repository's info/exclude.
		excludes = filepath.Join(root, ".git", "info", "exclude")
	}
	r.flags = []string{
		"-c", "core.hooksPath=" + os.DevNull,
		"-c", "core.fsmonitor=false",
		"-c", "core.autocrlf=false",
		"-c", "core.safecrlf=false",
		"-c", "core.symlinks=true",
		"-c", "core.filemode=true",
		"-c", "core.quotepath=false",
		"-c", "core.excludesFile=" + excludes,
		"-c", "core.attributesFile=" + os.DevNull,
		"-c", "gc.auto=0",
		"-c", "maintenance.auto=false",
	}
	if err := r.init(stateDir); err != nil {
		return nil, err
	}
	repos[dir] = r
	return r, nil
}

// init makes the bare shadow repository when missing, and writes its
// attributes and excludes.
func (r *Repo) init(stateDir string) error {
	gitDir := filepath.Join(r.dir, "git")
	if _, err := os.Stat(filepath.Join(gitDir, "HEAD")); err != nil {
		cmd := exec.Command(r.git, "init", "--bare", "-q", gitDir)
		cmd.Env = r.env[3:] // no GIT_DIR, GIT_WORK_TREE, GIT_INDEX_FILE
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("git init: %v: %s", err, bytes.TrimSpace(out))
		}
	}
	// Whatever a project's .gitattributes says, files are kept byte for
	// byte: no end-of-line conversion, no filter (whose command would
	// run), no ident or encoding. info/attributes wins over the tree's.
	info := filepath.Join(gitDir, "info")
	if err := os.MkdirAll(info, 0o700); err != nil {
		return err
	}
	attrs := "* -text -filter -ident -working-tree-encoding -diff -merge\n"
	if err := os.WriteFile(filepath.Join(info, "attributes"), []byte(attrs), 0o600); err != nil {
		return err
	}
	// The state directory itself, when inside the project (mm run in the
	// home directory), is never snapshotted.
	exclude := ""
	if rel, err := filepath.Rel(r.root, stateDir); err == nil && filepath.IsLocal(rel) {
		exclude = "/" + globEscape(filepath.ToSlash(rel)) + "/\n"
	}
	os.WriteFile(filepath.Join(r.dir, "root"), []byte(r.root+"\n"), 0o600)
	return os.WriteFile(filepath.Join(info, "exclude"), []byte(exclude), 0o600)
}

// globEscape escapes what a gitignore pattern would read as a glob.
func globEscape(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`*?[]\!# `, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// run runs one git command in the project root, stdin given, and returns
// its standard output.
func (r *Repo) run(stdin []byte, args ...string) ([]byte, error) {
	cmd := exec.Command(r.git, append(append([]string(nil), r.flags...), args...)...)
	cmd.Dir = r.root
	cmd.Env = r.env
	if stdin != nil {
		cmd.Stdin = bytes.NewReader(stdin)
	}
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if i := strings.IndexByte(msg, '\n'); i >= 0 {
			msg = msg[:i]
		}
		return nil, fmt.Errorf("git %s: %v: %s", args[0], err, msg)
	}
	return out.Bytes(), nil
}

// notLeftOut drops from targets the removals of paths that the snapshot
// to left out rather than lacked: over MaxFileSize or in a nested
// repository then, or ignored by the project's rules as they are now
// (the caller put the ignore files back first).
func (r *Repo) notLeftOut(targets []Target, to Snap) ([]Target, error) {
	left := func(p string) bool {
		return slices.Contains(to.Big, p) || slices.ContainsFunc(to.Nested, func(d string) bool { return strings.HasPrefix(p, d+"/") })
	}
	root, err := os.OpenRoot(r.root)
	if err != nil {
		return nil, err
	}
	defer root.Close()
	var ask bytes.Buffer
	for _, t := range targets {
		// A path under a link is not asked about (git would stop on it):
		// the restore leaves it alone anyway.
		if t.Want.Mode == "" && !left(t.Path) && parentsOK(root, t.Path, false) == "" {
			ask.WriteString(t.Path)
			ask.WriteByte(0)
		}
	}
	ignored := map[string]bool{}
	if ask.Len() > 0 {
		if ignored, err = r.checkIgnore(ask.Bytes()); err != nil {
			return nil, err
		}
	}
	var out []Target
	for _, t := range targets {
		if t.Want.Mode != "" || !left(t.Path) && !ignored[t.Path] {
			out = append(out, t)
		}
	}
	return out, nil
}

// checkIgnore is the set of the NUL-separated paths that the project's
// rules ignore.
func (r *Repo) checkIgnore(paths []byte) (map[string]bool, error) {
	// --no-index: the shadow index still holds the paths, and git
	// checks no rule for a path it tracks.
	cmd := exec.Command(r.git, append(append([]string(nil), r.flags...), "check-ignore", "--no-index", "-z", "--stdin")...)
	cmd.Dir, cmd.Env, cmd.Stdin = r.root, r.env, bytes.NewReader(paths)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		// Exit status 1: none of them is ignored.
		if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
			return nil, fmt.Errorf("git check-ignore: %v: %s", err, strings.TrimSpace(stderr.String()))
		}
	}
	ignored := map[string]bool{}
	for _, p := range bytes.Split(stdout.Bytes(), []byte{0}) {
		ignored[string(p)] = true
	}
	return ignored, nil
}

// Snap is one snapshot: its commit and what it left out.
type Snap struct {
	Commit, Tree string
	// Big are the files left out for their size, Nested the directories
	// left out as repositories of their own.
	Big, Nested []string
}

// Snapshot records the project's files as they are now: a commit whose
// parent is this process's previous snapshot. Files the project ignores,
// files over MaxFileSize and nested repositories are left out.
func (r *Repo) Snapshot(message string) (Snap, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.snapshot(message)
}

// staleLock is the age from which the index's lock file is the remains
// of an mm killed in the middle of a snapshot (one takes milliseconds):
// it is removed, or no snapshot could ever be taken again.
const staleLock = time.Minute

func (r *Repo) snapshot(message string) (Snap, error) {
	s, err := r.snapshotOnce(message)
	if err != nil && strings.Contains(err.Error(), "index.lock") {
		lock := filepath.Join(r.dir, "index.lock")
		if fi, e := os.Lstat(lock); e == nil && time.Since(fi.ModTime()) > staleLock {
			os.Remove(lock)
			s, err = r.snapshotOnce(message)
		}
	}
	return s, err
}

func (r *Repo) snapshotOnce(message string) (Snap, error) {
	var s Snap
	// Only what changed since the index was last written: tracked files
	// modified or deleted (C, R), files not tracked yet (?).
	out, err := r.run(nil, "ls-files", "-z", "-t", "-m", "-o", "-d", "--exclude-standard")
	if err != nil {
		return s, err
	}
	// Two batches: what leaves the index first (a file gone, grown past
	// the limit, or now under a link the turn made of its directory),
	// then what comes in, so that a path can change from a directory to
	// a file or a link and back.
	var add, drop bytes.Buffer
	newFiles, newBytes := 0, int64(0)
	linked := map[string]bool{} // directories found to be links (or gone)
	for _, rec := range bytes.Split(out, []byte{0}) {
		if len(rec) < 3 {
			continue
		}
		tag, p := rec[0], string(rec[2:])
		if strings.HasSuffix(p, "/") {
			s.Nested = append(s.Nested, strings.TrimSuffix(p, "/"))
			continue
		}
		if !safePath(p) {
			continue
		}
		gone := r.underLink(p, linked)
		var fi os.FileInfo
		if !gone {
			var err error
			fi, err = os.Lstat(filepath.Join(r.root, filepath.FromSlash(p)))
			gone = err != nil
		}
		switch {
		case gone:
			if tag != '?' {
				drop.WriteString(p)
				drop.WriteByte(0)
			}
			continue
		case fi.Mode().IsRegular() && fi.Size() > MaxFileSize:
			s.Big = append(s.Big, p)
			if tag != '?' {
				drop.WriteString(p)
				drop.WriteByte(0)
			}
			continue
		case !fi.Mode().IsRegular() && fi.Mode()&os.ModeSymlink == 0:
			// A directory now (its files are listed on their own), or
			// a FIFO, a socket: no file to keep.
			if tag != '?' {
				drop.WriteString(p)
				drop.WriteByte(0)
			}
			continue
		}
		newFiles++
		newBytes += fi.Size()
		add.WriteString(p)
		add.WriteByte(0)
	}
	if newFiles > maxNewFiles || newBytes > maxNewBytes {
		return s, fmt.Errorf("the project has %d files (%d MB) to take in: more than a snapshot takes (%d files, %d MB) — /undo is off for this turn", newFiles, newBytes>>20, maxNewFiles, maxNewBytes>>20)
	}
	if drop.Len() > 0 {
		if _, err := r.run(drop.Bytes(), "update-index", "-z", "--force-remove", "--stdin"); err != nil {
			return s, err
		}
	}
	if add.Len() > 0 {
		if _, err := r.run(add.Bytes(), "update-index", "-z", "--add", "--remove", "--stdin"); err != nil {
			return s, err
		}
	}
	tree, err := r.run(nil, "write-tree")
	if err != nil {
		return s, err
	}
	t := strings.TrimSpace(string(tree))
	s.Tree = t
	if t == r.lastTree && r.last != "" {
		s.Commit = r.last
		return s, nil
	}
	args := []string{"commit-tree", t, "-m", message}
	if r.last != "" {
		args = append(args, "-p", r.last)
	}
	c, err := r.run(nil, args...)
	if err != nil {
		return s, err
	}
	s.Commit = strings.TrimSpace(string(c))
	// A ref keeps the snapshots reachable (and readable with git log):
	// written as a loose ref, which is one process less than update-ref.
	ref := filepath.Join(r.dir, "git", "refs", "heads", "snapshots")
	if err := os.WriteFile(ref, []byte(s.Commit+"\n"), 0o600); err != nil {
		return s, err
	}
	r.last, r.lastTree = s.Commit, t
	return s, nil
}

// underLink reports whether a directory above p is a link or not a
// directory (the turn made it so): p is then gone from the project, even
// where a lookup through the link finds a file. linked caches the
// answers by directory.
func (r *Repo) underLink(p string, linked map[string]bool) bool {
	i := strings.LastIndexByte(p, '/')
	if i < 0 {
		return false
	}
	dir := p[:i]
	if v, ok := linked[dir]; ok {
		return v
	}
	v := r.underLink(dir, linked)
	if !v {
		fi, err := os.Lstat(filepath.Join(r.root, filepath.FromSlash(dir)))
		v = err != nil || !fi.IsDir()
	}
	linked[dir] = v
	return v
}

// Entry is one path of a tree: its mode ("100644", "100755", "120000")
// and blob; Mode "" is no file.
type Entry struct {
	Mode, OID string
}

// Change is one path that differs between two snapshots.
type Change struct {
	Path     string
	From, To Entry
}

// Diff lists the paths that differ between two snapshots (files only:
// directories are where files are).
func (r *Repo) Diff(from, to string) ([]Change, error) {
	out, err := r.run(nil, "diff-tree", "-r", "-z", "--no-renames", "--no-commit-id", from, to)
	if err != nil {
		return nil, err
	}
	var list []Change
	recs := bytes.Split(out, []byte{0})
	for i := 0; i+1 < len(recs); i += 2 {
		// :100644 100644 <oid> <oid> M, then the path.
		f := strings.Fields(strings.TrimPrefix(string(recs[i]), ":"))
		if len(f) < 5 {
			return nil, fmt.Errorf("git diff-tree: unexpected %q", recs[i])
		}
		c := Change{Path: string(recs[i+1]), From: entry(f[0], f[2]), To: entry(f[1], f[3])}
		if safePath(c.Path) {
			list = append(list, c)
		}
	}
	return list, nil
}

func entry(mode, oid string) Entry {
	if strings.Trim(mode, "0") == "" {
		return Entry{}
	}
	return Entry{Mode: mode, OID: oid}
}

// blobs reads the contents of oids.
func (r *Repo) blobs(oids []string) (map[string][]byte, error) {
	got := map[string][]byte{}
	if len(oids) == 0 {
		return got, nil
	}
	var in bytes.Buffer
	for _, o := range oids {
		in.WriteString(o + "\n")
	}
	out, err := r.run(in.Bytes(), "cat-file", "--batch")
	if err != nil {
		return nil, err
	}
	for range oids {
		head, rest, ok := bytes.Cut(out, []byte{'\n'})
		if !ok {
			return nil, errors.New("git cat-file: short output")
		}
		var oid, typ string
		var size int
		if n, _ := fmt.Sscanf(string(head), "%s %s %d", &oid, &typ, &size); n != 3 || size > len(rest) {
			return nil, fmt.Errorf("git cat-file: %q", head)
		}
		got[oid] = rest[:size]
		out = rest[size:]
		if len(out) > 0 && out[0] == '\n' {
			out = out[1:]
		}
	}
	return got, nil
}

// safePath is a path the snapshots may hold and a restore may write:
// relative, inside the root, never in a .git directory.
func safePath(p string) bool {
	if p == "" || !filepath.IsLocal(filepath.FromSlash(p)) || strings.Contains(p, "\\") && filepath.Separator == '\\' {
		return false
	}
	for _, part := range strings.Split(p, "/") {
		if strings.EqualFold(part, ".git") {
			return false
		}
	}
	return true
}
