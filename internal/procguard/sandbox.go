package procguard

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
)

// The sandbox of the bash tool (sandbox.mode, docs/security.md): a shell
// command, and every process it starts, may write only under the project
// root, the temp directories and the configured writable directories
// (workspace), or only to the temp directories (read-only); with the
// network off, it may not connect or bind a TCP socket. It reads
// everywhere. mm itself is never confined: on Linux the Landlock rules
// are applied to the one OS thread that forks the shell, just before it
// does, and that thread dies with the shell; on macOS the shell is run by
// sandbox-exec with a Seatbelt profile.

// Sandbox modes, as sandbox.mode spells them.
const (
	SandboxOff       = "off"
	SandboxWorkspace = "workspace"
	SandboxReadOnly  = "read-only"
)

// NoSandboxVar, set to 1 in mm's environment, makes mm behave as on a
// system that cannot confine bash (a kernel without Landlock, a Mac
// without sandbox-exec): the test hook for that path. Like PortableVar it
// is read from mm's own environment when mm starts.
const NoSandboxVar = "MM_SANDBOX_SIMULATE_NO_LANDLOCK"

var simulateNoSandbox = os.Getenv(NoSandboxVar) == "1"

// Sandbox is what one session's bash commands are confined to.
type Sandbox struct {
	Mode    string // SandboxWorkspace or SandboxReadOnly; SandboxOff or "" confines nothing
	Network bool   // false: no TCP connect or bind
	// Writable are the absolute directories a command may write: the
	// project root, the temp directories and the configured ones in
	// workspace mode, the temp directories alone in read-only mode.
	Writable []string
}

// NewSandbox resolves the configuration of one session: root is the
// project root; writable is sandbox.writable, nil for the default (the
// user's build caches, DefaultWritable). A relative entry is the
// project root's, "~/…" the home directory's. It returns nil when mode
// confines nothing.
func NewSandbox(mode string, network bool, writable []string, root string) *Sandbox {
	if mode != SandboxWorkspace && mode != SandboxReadOnly {
		return nil
	}
	s := &Sandbox{Mode: mode, Network: network}
	s.Writable = append(s.Writable, TempDirs()...)
	if mode == SandboxWorkspace {
		if root != "" {
			s.Writable = append(s.Writable, root)
			s.Writable = append(s.Writable, gitDirs(root)...)
		}
		if writable == nil {
			writable = DefaultWritable()
		}
		home, _ := os.UserHomeDir()
		for _, w := range writable {
			switch {
			case w == "~" && home != "":
				w = home
			case strings.HasPrefix(w, "~/") && home != "":
				w = filepath.Join(home, w[2:])
			case !filepath.IsAbs(w) && root != "":
				w = filepath.Join(root, w)
			}
			if filepath.IsAbs(w) {
				s.Writable = append(s.Writable, filepath.Clean(w))
			}
		}
	}
	return s
}

// gitDirs are the repository directories of a project whose .git is a
// file (a linked worktree, a submodule): "gitdir: <dir>", and the
// common directory that dir's commondir names (the main repository's
// .git, where a worktree's commits go). They are the project's own:
// without them git commit fails in a worktree.
//
// A .git file is taken at its word only when the directory it names
// points back at this project, as git's own do: a linked worktree's
// <dir>/gitdir names this .git file, and <dir> is <common>/worktrees/NAME
// of a common directory named like a repository (.git, or *.git for a
// bare one); a submodule's <dir>/config has core.worktree naming this
// root. A project that was unpacked or copied rather than cloned (git
// never checks a .git out) could otherwise hold `gitdir: /`, or `gitdir:
// ../..`, and make the whole disk, or the user's home, writable.
func gitDirs(root string) []string {
	dotGit := filepath.Join(root, ".git")
	data, err := os.ReadFile(dotGit)
	if err != nil || len(data) > 4096 {
		return nil // a directory (inside root already), or none
	}
	dir, ok := strings.CutPrefix(strings.TrimSpace(string(data)), "gitdir:")
	if !ok {
		return nil
	}
	dir = filepath.Clean(absFrom(root, strings.TrimSpace(dir)))
	if back, err := os.ReadFile(filepath.Join(dir, "gitdir")); err == nil && len(back) <= 4096 {
		// A linked worktree.
		if !sameFile(absFrom(dir, strings.TrimSpace(string(back))), dotGit) {
			return nil
		}
		c, err := os.ReadFile(filepath.Join(dir, "commondir"))
		if err != nil || len(c) > 4096 {
			return nil
		}
		common := filepath.Clean(absFrom(dir, strings.TrimSpace(string(c))))
		if filepath.Dir(dir) != filepath.Join(common, "worktrees") || !strings.HasSuffix(filepath.Base(common), ".git") {
			return nil
		}
		return []string{dir, common}
	}
	if submoduleOf(dir, root) {
		return []string{dir}
	}
	return nil
}

// absFrom is p, a relative one taken from dir.
func absFrom(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// sameFile reports whether a and b name one existing file.
func sameFile(a, b string) bool {
	fa, err := os.Stat(a)
	if err != nil {
		return false
	}
	fb, err := os.Stat(b)
	return err == nil && os.SameFile(fa, fb)
}

// submoduleOf reports whether the git directory dir is the submodule
// checked out at root: its config's core.worktree names root.
func submoduleOf(dir, root string) bool {
	data, err := os.ReadFile(filepath.Join(dir, "config"))
	if err != nil || len(data) > 64<<10 {
		return false
	}
	for _, line := range strings.Split(string(data), "\n") {
		k, v, ok := strings.Cut(strings.TrimSpace(line), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "worktree") {
			return sameFile(absFrom(dir, strings.TrimSpace(v)), root)
		}
	}
	return false
}

// TempDirs are the temp directories a confined command may always write:
// os.TempDir() ($TMPDIR), /tmp and, on Linux, /dev/shm (POSIX shared
// memory and semaphores: Python's multiprocessing).
func TempDirs() []string {
	dirs := []string{filepath.Clean(os.TempDir())}
	for _, d := range platformTempDirs {
		if d != dirs[0] {
			dirs = append(dirs, d)
		}
	}
	return dirs
}

// UnderTempDir reports whether the absolute path p is in one of the temp
// directories, which every confined command may write.
func UnderTempDir(p string) bool {
	for _, d := range TempDirs() {
		if under(filepath.Clean(p), d) {
			return true
		}
		if r, err := filepath.EvalSymlinks(d); err == nil && under(filepath.Clean(p), r) {
			return true
		}
	}
	return false
}

// DefaultWritable is sandbox.writable's default: the user's build
// caches, so that go build, npm and cargo work in workspace mode.
// os.UserCacheDir() (Go's build cache, pip's, and most tools' own),
// $GOCACHE when set elsewhere, Go's module cache ($GOMODCACHE, else the
// first $GOPATH entry's pkg/mod, else ~/go/pkg/mod: no `go env` run),
// ~/.npm and ~/.cargo.
func DefaultWritable() []string {
	var out []string
	if d, err := os.UserCacheDir(); err == nil {
		out = append(out, d)
	}
	if d := os.Getenv("GOCACHE"); filepath.IsAbs(d) {
		out = append(out, d)
	}
	home, _ := os.UserHomeDir()
	switch gopath := os.Getenv("GOPATH"); {
	case filepath.IsAbs(os.Getenv("GOMODCACHE")):
		out = append(out, os.Getenv("GOMODCACHE"))
	case gopath != "":
		if first := filepath.SplitList(gopath)[0]; filepath.IsAbs(first) {
			out = append(out, filepath.Join(first, "pkg", "mod"))
		}
	case home != "":
		out = append(out, filepath.Join(home, "go", "pkg", "mod"))
	}
	if home != "" {
		out = append(out, filepath.Join(home, ".npm"), filepath.Join(home, ".cargo"))
	}
	return out
}

// writableDevices are the device files a confined command may open for
// writing: the sinks and sources a shell and its tools use. Not the
// terminal (/dev/tty, /dev/pts/*): a command writes to its output, not
// over mm's screen, and cannot type into it.
var writableDevices = []string{"/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom"}

// On tells whether s confines anything.
func (s *Sandbox) On() bool {
	return s != nil && (s.Mode == SandboxWorkspace || s.Mode == SandboxReadOnly)
}

// SandboxUnavailable says why this system cannot confine bash ("" when
// it can): a kernel without Landlock, a Mac without sandbox-exec,
// Windows, or NoSandboxVar.
func SandboxUnavailable() string {
	if simulateNoSandbox {
		return "no Landlock (simulated by " + NoSandboxVar + "=1)"
	}
	return sandboxUnavailable()
}

// Confine prepares cmd, the shell of one bash call, to run inside s. It
// is called after Tie, just before the command starts; enter, when not
// nil, must then be called on the OS thread that starts cmd, locked to
// its goroutine and never unlocked (the Linux rules apply to that thread
// and what it forks). A nil or off s, or a system that cannot confine,
// leaves cmd as it is (the start-up warning said so).
func Confine(cmd *exec.Cmd, s *Sandbox) (enter func() error, err error) {
	if !s.On() || SandboxUnavailable() != "" {
		return nil, nil
	}
	return confine(cmd, s)
}

// Refusal is the line the model reads after a command that failed on
// what the sandbox refused, "" when nothing says it did. The kernel does
// not tell why an open failed, so the output is read: a command that
// exited non-zero with a "Permission denied" or "Operation not
// permitted" line is taken as refused by the sandbox when that line
// names a path outside s.Writable (a relative one is dir's); with the
// network off, a line that also speaks of a connection or a socket is
// the network's. A denial on a path inside
// the writable directories (a script without its x bit) is the file's,
// and gets no line.
func (s *Sandbox) Refusal(output string, failed bool, dir string) string {
	if !s.On() || !failed {
		return ""
	}
	if dir == "" {
		dir, _ = os.Getwd()
	}
	fsRefused, netRefused := false, false
	for _, line := range strings.Split(output, "\n") {
		low := strings.ToLower(line)
		if !s.Network && failedConnect.MatchString(low) {
			// Some tools hide the errno behind their own words (curl:
			// "Failed to connect … Couldn't connect to server"); with the
			// network off every connection fails so, whatever the server.
			netRefused = true
			continue
		}
		if !strings.Contains(low, "permission denied") && !strings.Contains(low, "operation not permitted") {
			continue
		}
		if netWords.MatchString(low) {
			// A refused connection is the sandbox's only with the
			// network off; with it on, it is someone else's.
			netRefused = netRefused || !s.Network
			continue
		}
		// A line that names no path is not taken: "git@host: Permission
		// denied (publickey)" is ssh's, and the sandbox's refusals name
		// the file they are about (bash, coreutils, Python, Go, Node).
		for _, p := range linePaths(line) {
			if !filepath.IsAbs(p) {
				p = filepath.Join(dir, p)
			}
			if !s.writable(filepath.Clean(p)) {
				fsRefused = true
			}
		}
	}
	switch {
	case fsRefused && s.Mode == SandboxReadOnly:
		return "[sandbox: writing outside the temp directories is refused (sandbox.mode: read-only)]"
	case fsRefused:
		return "[sandbox: writing outside the project is refused (sandbox.mode: workspace)]"
	case netRefused:
		return "[sandbox: network connections are refused (sandbox.network: false)]"
	}
	return ""
}

// netWords are what a refused connect or bind says around its "Permission
// denied": bash's /dev/tcp, nc, curl, Python, Go, Node.
var netWords = regexp.MustCompile(`connect|bind|socket|network|tcp|dial|listen|port \d`)

// failedConnect is a failed connection in a tool's own words, lower-cased.
var failedConnect = regexp.MustCompile(`(couldn't|could not|failed to|unable to|cannot) connect|connection refused`)

// quoted and bare find the paths a denial line names: quoted as GNU
// tools and Python do ('…', ‘…’, "…"), or a bare word with a slash, as
// bash and Go do ("bash: /x: Permission denied", "open /x: permission
// denied").
var (
	quoted = regexp.MustCompile(`'([^']+)'|‘([^’]+)’|"([^"]+)"`)
	bare   = regexp.MustCompile(`(?:^|[\s:(])((?:~|\.{1,2})?/[^\s:'"’)]*|[^\s:'"‘/]+/[^\s:'"’)]*)`)
)

// linePaths are the paths a line names, quoted ones first.
func linePaths(line string) []string {
	var out []string
	// A shell names itself first, as it was run: "/usr/bin/bash: line 1:
	// x: Permission denied", "sh: 1: cannot create …". Its own path is not
	// what was refused.
	line = shellPrefix.ReplaceAllString(line, "")
	for _, m := range quoted.FindAllStringSubmatch(line, -1) {
		for _, g := range m[1:] {
			if g != "" && (strings.Contains(g, "/") || !strings.Contains(g, " ")) {
				out = append(out, g)
			}
		}
	}
	if len(out) > 0 {
		return out
	}
	for _, m := range bare.FindAllStringSubmatch(line, -1) {
		out = append(out, m[1])
	}
	// "bash: line 1: x.txt: Permission denied": the word before the
	// denial is the file, a relative one (not ssh's user@host).
	if m := named.FindStringSubmatch(line); len(out) == 0 && m != nil && !strings.Contains(m[1], "@") {
		out = append(out, m[1])
	}
	return out
}

var shellPrefix = regexp.MustCompile(`^\S+: (?:line )?\d+: `)

var named = regexp.MustCompile(`(?i)(?:^|: )([^\s:'"]+): (?:permission denied|operation not permitted)`)

// writable tells whether p is under one of s.Writable (or is one of the
// writable devices), comparing the paths as given and with their links
// resolved: /tmp is /private/tmp on macOS.
func (s *Sandbox) writable(p string) bool {
	candidates := []string{p}
	if r, err := filepath.EvalSymlinks(filepath.Dir(p)); err == nil {
		candidates = append(candidates, filepath.Join(r, filepath.Base(p)))
	}
	for _, c := range candidates {
		for _, d := range writableDevices {
			if c == d {
				return true
			}
		}
		for _, w := range s.Writable {
			if under(c, w) {
				return true
			}
			if r, err := filepath.EvalSymlinks(w); err == nil && under(c, r) {
				return true
			}
		}
	}
	return false
}

// under tells whether p is dir or below it.
func under(p, dir string) bool {
	if p == dir || dir == "/" {
		return true
	}
	return strings.HasPrefix(p, strings.TrimSuffix(dir, string(filepath.Separator))+string(filepath.Separator))
}

// SeatbeltProfile is the sandbox-exec profile (macOS) for s: everything
// allowed but writing outside the writable directories and devices
// (/dev/fd too: a shell's redirections to /dev/stdout go through it),
// and, with the network off, TCP and UDP over IP. The writes are denied
// then allowed again where they may go: in SBPL a later rule wins over
// an earlier one for the same operation (the form esy's and other
// tools' profiles use). The paths are given canonical (/private/tmp,
// not /tmp): Seatbelt matches the resolved path. The profile is
// portable text so that it is tested everywhere.
func SeatbeltProfile(s *Sandbox, writable []string) string {
	var b strings.Builder
	b.WriteString("(version 1)\n(allow default)\n(deny file-write*)\n(allow file-write*\n")
	for _, w := range writable {
		b.WriteString("  (subpath " + sbplString(w) + ")\n")
	}
	for _, d := range writableDevices {
		b.WriteString("  (literal " + sbplString(d) + ")\n")
	}
	// dyld opens /dev/dtracehelper for writing in every process it starts.
	b.WriteString("  (literal \"/dev/dtracehelper\")\n")
	b.WriteString("  (literal \"/dev/stdout\")\n  (literal \"/dev/stderr\")\n")
	b.WriteString("  (subpath \"/dev/fd\"))\n")
	if !s.Network {
		b.WriteString("(deny network-outbound (remote ip \"*:*\"))\n(deny network-bind (local ip \"*:*\"))\n")
	}
	return b.String()
}

// sbplString quotes s as an SBPL string literal.
func sbplString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
