// Package lsp runs the language servers behind mm's lsp tool: it starts
// each configured server on first use in the project root, keeps it for the
// session, shows it the files from disk before each request, and turns its
// answers into the short texts a small model reads. Every failure is text
// for the model, never a Go error.
package lsp

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"mm/internal/config"
)

// Options configure a Manager.
type Options struct {
	// Root is the project root: the servers run there, and paths in the
	// answers are relative to it ("" = the process's working directory).
	Root string
	// LookPath finds a command (nil = exec.LookPath).
	LookPath func(string) (string, error)
	// Env is the servers' environment (nil = os.Environ()). GOTOOLCHAIN=local
	// is added when it does not say otherwise: gopls must not try to
	// download a Go toolchain for a go.mod that names a newer one.
	Env []string
}

// Manager holds the language servers of one mm session.
type Manager struct {
	root     string
	realRoot string // root with symbolic links resolved: servers may answer with either
	servers  []*server
	byExt    map[string]*server

	closeOnce sync.Once
}

// ServerInfo is a server that was found on the PATH.
type ServerInfo struct {
	Name       string
	Command    string // as configured
	Path       string // found on the PATH
	Extensions []string
}

// New looks the configured servers up on the PATH. A server that is not
// found is skipped with the reference's warning; when none is left, a last
// warning says that the lsp tool is not declared. Nothing is started yet.
func New(servers []config.LSPServer, o Options) (*Manager, []string) {
	root := o.Root
	if root == "" {
		root, _ = os.Getwd()
	}
	if abs, err := filepath.Abs(root); err == nil {
		root = abs
	}
	m := &Manager{root: root, realRoot: root, byExt: map[string]*server{}}
	if real, err := filepath.EvalSymlinks(root); err == nil {
		m.realRoot = real
	}
	look := o.LookPath
	if look == nil {
		look = exec.LookPath
	}
	env := o.Env
	if env == nil {
		env = os.Environ()
	}
	env = withDefault(env, "GOTOOLCHAIN", "local")

	var warnings []string
	for _, c := range servers {
		path, err := look(c.Command)
		if err != nil {
			warnings = append(warnings, fmt.Sprintf("[warning: lsp server %s (%s) not found on the PATH — skipped]", c.Name, c.Command))
			continue
		}
		s := &server{Name: c.Name, Command: c.Command, Path: path, Args: c.Args, root: root, env: env}
		for _, ext := range c.Extensions {
			key := strings.ToLower(ext)
			if _, taken := m.byExt[key]; taken {
				continue // config validation refuses this; first one wins here
			}
			m.byExt[key] = s
			s.Extensions = append(s.Extensions, ext)
		}
		if len(s.Extensions) > 0 {
			m.servers = append(m.servers, s)
		}
	}
	if len(servers) > 0 && len(m.servers) == 0 {
		warnings = append(warnings, "[warning: no lsp server found on the PATH — the lsp tool is not declared]")
	}
	return m, warnings
}

// withDefault adds key=value to env unless env sets key already.
func withDefault(env []string, key, value string) []string {
	for _, kv := range env {
		if strings.HasPrefix(kv, key+"=") {
			return env
		}
	}
	return append(append([]string(nil), env...), key+"="+value)
}

// Servers are the servers found on the PATH, in configuration order.
func (m *Manager) Servers() []ServerInfo {
	if m == nil {
		return nil
	}
	var out []ServerInfo
	for _, s := range m.servers {
		out = append(out, ServerInfo{Name: s.Name, Command: s.Command, Path: s.Path, Extensions: s.Extensions})
	}
	return out
}

// Describe names the servers with their extensions, the way the tool's
// description and the failures list them: `gopls (.go), typescript (.ts, .tsx)`.
func (m *Manager) Describe() string {
	var parts []string
	for _, s := range m.servers {
		parts = append(parts, s.label())
	}
	return strings.Join(parts, ", ")
}

// Root is the project root.
func (m *Manager) Root() string { return m.root }

// serverFor is the server for path's extension, or nil.
func (m *Manager) serverFor(path string) *server {
	return m.byExt[strings.ToLower(filepath.Ext(path))]
}

// Changed tells the running servers that files changed on disk (written by
// write_file or edit_file, or by a rename): an open file gets its new
// content, and every one is announced as a watched-file change, so no
// server answers from a stale view. Servers not started yet will read the
// disk when they start.
func (m *Manager) Changed(absPaths ...string) {
	m.changed(nil, absPaths, nil)
}

// changed notifies every running server but skip (which already knows).
func (m *Manager) changed(skip *server, absPaths []string, created map[string]bool) {
	if m == nil || len(absPaths) == 0 {
		return
	}
	for _, s := range m.servers {
		if s == skip {
			continue
		}
		s.mu.Lock()
		if s.p != nil && s.p.alive() {
			s.p.filesChanged(absPaths, created)
		}
		s.mu.Unlock()
	}
}

// Close stops every running server, all at once: shutdown, exit, then
// SIGKILL to its process group. The Manager starts nothing afterwards.
func (m *Manager) Close() {
	if m == nil {
		return
	}
	m.closeOnce.Do(func() {
		var wg sync.WaitGroup
		for _, s := range m.servers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				s.mu.Lock()
				defer s.mu.Unlock()
				s.closed = true
				if s.p != nil {
					s.p.stop()
					s.p = nil
				}
			}()
		}
		wg.Wait()
	})
}

// Process is a running server process, for tests and benchmarks.
type Process struct {
	PID    int // also its process group
	Starts int // processes started so far for this server
}

// Process reports the server's current process (PID 0 when none runs).
func (m *Manager) Process(name string) Process {
	for _, s := range m.servers {
		if s.Name != name {
			continue
		}
		s.mu.Lock()
		defer s.mu.Unlock()
		p := Process{Starts: s.starts}
		if s.p != nil && s.p.alive() {
			p.PID = s.p.pgid
		}
		return p
	}
	return Process{}
}

// Start starts the server for path's extension now rather than on first
// use (a benchmark measures start → initialize with it).
func (m *Manager) Start(ctx context.Context, path string) error {
	s := m.serverFor(path)
	if s == nil {
		return fmt.Errorf("no server for %s", path)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	_, err := s.ready(ctx)
	return err
}

// display is the path the model reads: relative inside the project,
// absolute elsewhere.
func (m *Manager) display(abs string) string {
	for _, root := range []string{m.root, m.realRoot} {
		if rel, err := filepath.Rel(root, abs); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			return rel
		}
	}
	return abs
}

// inside reports whether abs is in the project.
func (m *Manager) inside(abs string) bool {
	return !filepath.IsAbs(m.display(abs))
}

// sortedKeys returns a map's keys in order.
func sortedKeys[V any](mp map[string]V) []string {
	keys := make([]string, 0, len(mp))
	for k := range mp {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Abs is path made absolute against the root, the way the lsp tool reads
// the path the model gives.
func (m *Manager) Abs(path string) string {
	if filepath.IsAbs(path) {
		return filepath.Clean(path)
	}
	return filepath.Join(m.root, path)
}
