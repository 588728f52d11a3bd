package procguard

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNewSandbox(t *testing.T) {
	home, _ := os.UserHomeDir()
	if NewSandbox(SandboxOff, true, nil, "/p") != nil || NewSandbox("", true, nil, "/p").On() {
		t.Error("off confines something")
	}
	s := NewSandbox(SandboxWorkspace, false, []string{"~/.m2", "build", "/abs/"}, "/p")
	want := append(TempDirs(), "/p", filepath.Join(home, ".m2"), "/p/build", "/abs")
	if strings.Join(s.Writable, ",") != strings.Join(want, ",") || s.Network {
		t.Errorf("writable %q, want %q", s.Writable, want)
	}
	// The default is the build caches; read-only drops them and the
	// project.
	if s := NewSandbox(SandboxWorkspace, true, nil, "/p"); len(s.Writable) != len(TempDirs())+1+len(DefaultWritable()) {
		t.Errorf("default writable %q", s.Writable)
	}
	if s := NewSandbox(SandboxReadOnly, true, []string{"/x"}, "/p"); strings.Join(s.Writable, ",") != strings.Join(TempDirs(), ",") {
		t.Errorf("read-only writable %q", s.Writable)
	}
}

func TestDefaultWritable(t *testing.T) {
	t.Setenv("HOME", "/home/u")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("GOCACHE", "")
	t.Setenv("GOMODCACHE", "")
	t.Setenv("GOPATH", "/gp:/other")
	got := strings.Join(DefaultWritable(), ",")
	cache, _ := os.UserCacheDir()
	if want := cache + ",/gp/pkg/mod,/home/u/.npm,/home/u/.cargo"; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	t.Setenv("GOPATH", "")
	t.Setenv("GOMODCACHE", "/mc")
	if got := DefaultWritable(); got[1] != "/mc" {
		t.Errorf("GOMODCACHE: %q", got)
	}
	t.Setenv("GOMODCACHE", "")
	if got := DefaultWritable(); got[1] != "/home/u/go/pkg/mod" {
		t.Errorf("no GOPATH: %q", got)
	}
}

func TestRefusal(t *testing.T) {
	ws := &Sandbox{Mode: SandboxWorkspace, Network: true, Writable: []string{"/proj", "/tmp"}}
	ro := &Sandbox{Mode: SandboxReadOnly, Network: false, Writable: []string{"/tmp"}}
	const (
		wsLine  = "[sandbox: writing outside the project is refused (sandbox.mode: workspace)]"
		roLine  = "[sandbox: writing outside the temp directories is refused (sandbox.mode: read-only)]"
		netLine = "[sandbox: network connections are refused (sandbox.network: false)]"
	)
	for _, tc := range []struct {
		s      *Sandbox
		out    string
		failed bool
		want   string
	}{
		{ws, "bash: line 1: /home/u/.bashrc: Permission denied\n[exit code: exit status 1]", true, wsLine},
		{ws, "sh: 1: cannot create /etc/x: Permission denied", true, wsLine},
		{ws, "touch: cannot touch '/home/u/x': Permission denied", true, wsLine},
		{ws, "mkdir: cannot create directory ‘/opt/d’: Permission denied", true, wsLine},
		{ws, "PermissionError: [Errno 13] Permission denied: '/usr/x'", true, wsLine},
		{ws, "open /var/x: permission denied", true, wsLine},
		{ws, "rm: cannot remove '/usr/bin/ls': Operation not permitted", true, wsLine},
		// The file's own denial, inside the writable directories.
		{ws, "bash: line 1: ./x.sh: Permission denied", true, ""},
		{ws, "/usr/bin/bash: line 1: ./x.sh: Permission denied", true, ""},
		{ws, "/usr/bin/bash: line 1: /etc/x: Permission denied", true, wsLine},
		{ws, "/bin/sh: 1: cannot create /etc/x: Permission denied", true, wsLine},
		{ws, "touch: cannot touch '/proj/ro/x': Permission denied", true, ""},
		{ws, "bash: /tmp/x: Permission denied", true, ""},
		// Nothing failed, or the sandbox is off.
		{ws, "bash: /etc/x: Permission denied", false, ""},
		{nil, "bash: /etc/x: Permission denied", true, ""},
		{&Sandbox{Mode: SandboxOff}, "bash: /etc/x: Permission denied", true, ""},
		// With the network on, a refused connection is not the sandbox's.
		{ws, "bash: connect: Permission denied\nbash: line 1: /dev/tcp/1.2.3.4/80: Permission denied", true, ""},
		{ro, "bash: connect: Permission denied\nbash: line 1: /dev/tcp/127.0.0.1/80: Permission denied", true, netLine},
		{ro, "bash: line 1: x.txt: Permission denied", true, roLine},
		{ws, "bash: line 1: x.txt: Permission denied", true, ""},
		{ro, "bash: line 1: /tmp/x: Permission denied", true, ""},
		{ws, "make: *** [all] Error 2", true, ""},
		{ws, "git@github.com: Permission denied (publickey).\nfatal: Could not read from remote repository.", true, ""},
		{ro, "ssh: connect to host github.com port 22: Permission denied", true, netLine},
		{ws, "Error: EACCES: permission denied, open '/usr/lib/node_modules/x'", true, wsLine},
		// A tool's own words for the refused connection (curl).
		{ro, "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server", true, netLine},
		{ws, "curl: (7) Failed to connect to 127.0.0.1 port 8080 after 0 ms: Couldn't connect to server", true, ""},
		{ro, "psql: error: connection refused", true, netLine},
	} {
		if got := tc.s.Refusal(tc.out, tc.failed, "/proj"); got != tc.want {
			t.Errorf("%q: got %q, want %q", tc.out, got, tc.want)
		}
	}
}

// The Seatbelt profile cannot run here: its text is held to what
// sandbox-exec reads.
func TestSeatbeltProfile(t *testing.T) {
	s := &Sandbox{Mode: SandboxWorkspace, Network: true}
	got := SeatbeltProfile(s, []string{"/Users/u/proj", "/private/tmp", `/odd "dir\`})
	want := `(version 1)
(allow default)
(deny file-write*)
(allow file-write*
  (subpath "/Users/u/proj")
  (subpath "/private/tmp")
  (subpath "/odd \"dir\\")
  (literal "/dev/null")
  (literal "/dev/zero")
  (literal "/dev/full")
  (literal "/dev/random")
  (literal "/dev/urandom")
  (literal "/dev/dtracehelper")
  (literal "/dev/stdout")
  (literal "/dev/stderr")
  (subpath "/dev/fd"))
`
	if got != want {
		t.Errorf("profile:\n%s\nwant:\n%s", got, want)
	}
	s.Network = false
	if got := SeatbeltProfile(s, nil); !strings.HasSuffix(got, `(deny network-outbound (remote ip "*:*"))`+"\n"+`(deny network-bind (local ip "*:*"))`+"\n") {
		t.Errorf("network off:\n%s", got)
	}
	// Balanced parentheses: sandbox-exec refuses the profile otherwise.
	if strings.Count(got, "(") != strings.Count(got, ")") {
		t.Errorf("unbalanced:\n%s", got)
	}
}

// A linked worktree's repository directories are the project's.
func TestSandboxGitWorktree(t *testing.T) {
	base := t.TempDir()
	main, wt := filepath.Join(base, "main"), filepath.Join(base, "wt")
	gitdir := filepath.Join(main, ".git", "worktrees", "wt")
	os.MkdirAll(gitdir, 0o755)
	os.MkdirAll(wt, 0o755)
	os.WriteFile(filepath.Join(wt, ".git"), []byte("gitdir: "+gitdir+"\n"), 0o644)
	os.WriteFile(filepath.Join(gitdir, "commondir"), []byte("../..\n"), 0o644)
	os.WriteFile(filepath.Join(gitdir, "gitdir"), []byte(filepath.Join(wt, ".git")+"\n"), 0o644)
	s := NewSandbox(SandboxWorkspace, true, []string{}, wt)
	want := append(TempDirs(), wt, gitdir, filepath.Join(main, ".git"))
	if strings.Join(s.Writable, ",") != strings.Join(want, ",") {
		t.Errorf("writable %q, want %q", s.Writable, want)
	}
	// A plain repository: its .git is under the root already.
	os.MkdirAll(filepath.Join(main, ".git"), 0o755)
	if s := NewSandbox(SandboxWorkspace, true, []string{}, main); len(s.Writable) != len(TempDirs())+1 {
		t.Errorf("writable %q", s.Writable)
	}
}

// A .git file is the project's: what it names is taken only where git's
// own files there name the project back (a worktree's gitdir, a
// submodule's core.worktree), never "gitdir: .." or "gitdir: /".
func TestSandboxGitFileForged(t *testing.T) {
	base := t.TempDir()
	proj := filepath.Join(base, "proj")
	os.MkdirAll(proj, 0o755)
	only := func(what string) {
		t.Helper()
		s := NewSandbox(SandboxWorkspace, true, []string{}, proj)
		if want := append(TempDirs(), proj); strings.Join(s.Writable, ",") != strings.Join(want, ",") {
			t.Errorf("%s: writable %q", what, s.Writable)
		}
	}
	for _, target := range []string{"..", "/", base} {
		os.WriteFile(filepath.Join(proj, ".git"), []byte("gitdir: "+target+"\n"), 0o644)
		only("gitdir: " + target)
	}
	// A worktree's layout pointing elsewhere: its gitdir names another
	// worktree, or commondir a directory the layout does not.
	gitdir := filepath.Join(base, "main", ".git", "worktrees", "wt")
	os.MkdirAll(gitdir, 0o755)
	os.WriteFile(filepath.Join(proj, ".git"), []byte("gitdir: "+gitdir+"\n"), 0o644)
	os.WriteFile(filepath.Join(gitdir, "commondir"), []byte("../..\n"), 0o644)
	os.WriteFile(filepath.Join(gitdir, "gitdir"), []byte(filepath.Join(base, "other", ".git")+"\n"), 0o644)
	only("a worktree of another")
	os.WriteFile(filepath.Join(gitdir, "gitdir"), []byte(filepath.Join(proj, ".git")+"\n"), 0o644)
	os.WriteFile(filepath.Join(gitdir, "commondir"), []byte("../../../..\n"), 0o644)
	only("commondir out of the layout")
	// A submodule's: core.worktree names the project (relative), or not.
	mod := filepath.Join(base, "super", ".git", "modules", "sm")
	os.MkdirAll(mod, 0o755)
	os.WriteFile(filepath.Join(proj, ".git"), []byte("gitdir: "+mod+"\n"), 0o644)
	os.WriteFile(filepath.Join(mod, "config"), []byte("[core]\n\tworktree = ../../../elsewhere\n"), 0o644)
	only("a submodule of another")
	rel, _ := filepath.Rel(mod, proj)
	os.WriteFile(filepath.Join(mod, "config"), []byte("[core]\n\tbare = false\n\tworktree = "+rel+"\n"), 0o644)
	s := NewSandbox(SandboxWorkspace, true, []string{}, proj)
	if want := append(TempDirs(), proj, mod); strings.Join(s.Writable, ",") != strings.Join(want, ",") {
		t.Errorf("submodule: writable %q, want %q", s.Writable, want)
	}
}

// A submodule's git directory, whose config names the checkout back, is
// the project's; a .git file whose directory does not point back (an
// unpacked project's gitdir: / or ../..) adds nothing.
func TestSandboxGitDirPointsBack(t *testing.T) {
	base := t.TempDir()
	super, sub := filepath.Join(base, "super"), filepath.Join(base, "super", "sm")
	gitdir := filepath.Join(super, ".git", "modules", "sm")
	os.MkdirAll(gitdir, 0o755)
	os.MkdirAll(sub, 0o755)
	os.WriteFile(filepath.Join(sub, ".git"), []byte("gitdir: ../.git/modules/sm\n"), 0o644)
	os.WriteFile(filepath.Join(gitdir, "config"), []byte("[core]\n\tbare = false\n\tworktree = ../../../sm\n"), 0o644)
	s := NewSandbox(SandboxWorkspace, true, []string{}, sub)
	if want := append(TempDirs(), sub, gitdir); strings.Join(s.Writable, ",") != strings.Join(want, ",") {
		t.Errorf("submodule: writable %q, want %q", s.Writable, want)
	}

	proj := filepath.Join(base, "dl", "proj")
	os.MkdirAll(proj, 0o755)
	// A worktree-like directory of the project's own making, whose
	// commondir leads to the user's home.
	fake := filepath.Join(base, "dl", "worktrees", "x")
	os.MkdirAll(fake, 0o755)
	os.WriteFile(filepath.Join(fake, "gitdir"), []byte(filepath.Join(proj, ".git")+"\n"), 0o644)
	os.WriteFile(filepath.Join(fake, "commondir"), []byte("../..\n"), 0o644)
	for _, gd := range []string{"/", "..", "../..", gitdir, "../worktrees/x"} {
		os.WriteFile(filepath.Join(proj, ".git"), []byte("gitdir: "+gd+"\n"), 0o644)
		if s := NewSandbox(SandboxWorkspace, true, []string{}, proj); len(s.Writable) != len(TempDirs())+1 {
			t.Errorf("gitdir: %s: writable %q", gd, s.Writable)
		}
	}
}
