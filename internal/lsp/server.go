package lsp

// One language server: its process, the handshake, the documents it has
// been shown, and the diagnostics it published.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mm/internal/procguard"
	"mm/internal/version"
)

// Timeouts. A cold gopls loads the whole module before it answers its
// first request, which on a large project takes tens of seconds.
const (
	initTimeout     = 60 * time.Second
	requestTimeout  = 45 * time.Second
	shutdownTimeout = 2 * time.Second // gopls answers only once its background work is done
	exitGrace       = time.Second     // between `exit` and SIGKILL
)

// stderrKeep is how much of a server's stderr is kept to explain a crash.
const stderrKeep = 4 << 10

// server is a configured server that was found on the PATH. Its process is
// started on first use and again after it died.
type server struct {
	Name       string
	Command    string
	Path       string // the command, resolved on the PATH at start-up
	Args       []string
	Extensions []string

	root string
	env  []string

	// mu serialises the actions on this server and its start and stop:
	// the document versions and the diagnostics wait assume one action at
	// a time.
	mu     sync.Mutex
	p      *proc
	starts int  // processes started so far (a restart shows here)
	closed bool // Close ran: never start again
}

// proc is one running server process.
type proc struct {
	s       *server
	cmd     *exec.Cmd
	pgid    int
	conn    *conn
	stdin   *os.File
	exited  chan struct{} // closed once the process has been reaped
	waitMu  sync.Mutex
	waitErr error
	stderr  *procguard.Tail
	caps    map[string]json.RawMessage
	broken  atomic.Bool // a write or a read failed: the pipe is gone

	docs map[string]*document // by absolute path
	// changeSeq is pubSeq when mm last told the server that something
	// changed (an edit, a file gone, a watched-file event), and changedAt
	// when: a publication older than that may describe the project as it
	// was.
	changeSeq int64
	changedAt time.Time

	dmu     sync.Mutex
	diags   map[string]*published // by absolute path
	pubSeq  int64
	pubWake chan struct{} // closed and replaced on every publication
}

// document is a file as the server was last told it.
type document struct {
	uri     string
	version int
	text    string
	synced  time.Time // when it was last sent
	sentSeq int64     // pubSeq when it was last sent
}

// published is the last diagnostics publication for one file.
type published struct {
	seq     int64
	version *int
	diags   []diagnostic
}

func (s *server) label() string {
	return fmt.Sprintf("%s (%s)", s.Name, strings.Join(s.Extensions, ", "))
}

// alive reports whether the process is still there and talking.
func (p *proc) alive() bool {
	if p.broken.Load() {
		return false
	}
	select {
	case <-p.exited:
		return false
	case <-p.conn.Done():
		return false
	default:
		return true
	}
}

// ready returns the running process, starting one when there is none or
// the last one died. The caller holds s.mu.
func (s *server) ready(ctx context.Context) (*proc, error) {
	if s.closed {
		return nil, errors.New("mm is stopping")
	}
	if s.p != nil && s.p.alive() {
		return s.p, nil
	}
	if s.p != nil {
		s.p.kill()
		s.p = nil
	}
	p, err := s.start(ctx)
	if err != nil {
		return nil, err
	}
	s.p = p
	return p, nil
}

// start runs the server in the project root, in its own process group so
// that stopping it stops what it started (tsserver under
// typescript-language-server), and does the initialize handshake.
func (s *server) start(ctx context.Context) (*proc, error) {
	cmd := exec.Command(s.Path, s.Args...)
	cmd.Dir = s.root
	cmd.Env = s.env
	// Tied to mm: if mm itself is killed, the server dies too (Pdeathsig
	// on Linux, which fires when the thread that started the child exits,
	// hence StartTied's locked thread; the guardian elsewhere).
	procguard.Tie(cmd)
	// Our own pipe for stdin, not StdinPipe: its *os.File takes a write
	// deadline, so a server that stops reading cannot block mm forever.
	stdinR, stdin, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	cmd.Stdin = stdinR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		stdinR.Close()
		stdin.Close()
		return nil, err
	}
	p := &proc{s: s, cmd: cmd, stdin: stdin, exited: make(chan struct{}), stderr: &procguard.Tail{Max: stderrKeep},
		docs: map[string]*document{}, diags: map[string]*published{}, pubWake: make(chan struct{})}
	// os/exec drains stderr into the tail (a server blocked on a full
	// stderr pipe stops answering) and Wait returns once the copy is
	// done, so a crash's last line is there when exited closes; a child
	// of the server that keeps stderr open holds Wait for WaitDelay at
	// most.
	cmd.Stderr = p.stderr
	cmd.WaitDelay = time.Second
	err = procguard.StartTied(cmd, p.exited, func(err error) {
		p.waitMu.Lock()
		p.waitErr = err
		p.waitMu.Unlock()
	})
	stdinR.Close() // the child has its copy
	if err != nil {
		stdin.Close()
		return nil, err
	}
	p.pgid = cmd.Process.Pid
	s.starts++
	p.conn = newConn(stdout, deadlineWriter{stdin}, p.onRequest, p.onNotify)

	if err := p.initialize(ctx); err != nil {
		p.kill()
		return nil, err
	}
	return p, nil
}

// initialize does the handshake: initialize, then initialized.
func (p *proc) initialize(ctx context.Context) error {
	root := p.s.root
	params := map[string]any{
		"processId":  os.Getpid(),
		"clientInfo": map[string]string{"name": "mm", "version": version.String()},
		"rootUri":    pathToURI(root),
		"rootPath":   root,
		"workspaceFolders": []map[string]string{
			{"uri": pathToURI(root), "name": filepath.Base(root)},
		},
		"capabilities": clientCapabilities,
	}
	if opts := initOptions(p.s.Command); opts != nil {
		params["initializationOptions"] = opts
	}
	ctx, cancel := context.WithTimeout(ctx, initTimeout)
	defer cancel()
	var result struct {
		Capabilities map[string]json.RawMessage `json:"capabilities"`
	}
	if err := p.conn.Call(ctx, "initialize", params, &result); err != nil {
		return p.explain(err)
	}
	p.caps = result.Capabilities
	return p.conn.Notify("initialized", struct{}{})
}

// clientCapabilities is what mm tells a server it understands: plain
// Locations or LocationLinks, hierarchical symbols, Markdown hovers,
// versioned diagnostics, and workspace edits with file operations.
var clientCapabilities = map[string]any{
	"general": map[string]any{"positionEncodings": []string{"utf-16"}},
	"textDocument": map[string]any{
		"synchronization": map[string]any{"didSave": false, "willSave": false},
		"definition":      map[string]any{"linkSupport": true},
		"references":      map[string]any{},
		"hover":           map[string]any{"contentFormat": []string{"markdown", "plaintext"}},
		"documentSymbol": map[string]any{
			"hierarchicalDocumentSymbolSupport": true,
			"symbolKind":                        map[string]any{"valueSet": seq(1, 26)},
		},
		"publishDiagnostics": map[string]any{"versionSupport": true, "relatedInformation": false},
		"rename":             map[string]any{"prepareSupport": false},
	},
	"workspace": map[string]any{
		"applyEdit": false,
		"workspaceEdit": map[string]any{
			"documentChanges":    true,
			"resourceOperations": []string{"create", "rename", "delete"},
		},
		"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true},
		"workspaceFolders":      true,
		"configuration":         true,
	},
	"window": map[string]any{"workDoneProgress": false},
}

func seq(from, to int) []int {
	var out []int
	for i := from; i <= to; i++ {
		out = append(out, i)
	}
	return out
}

// settings are what mm asks of the servers it knows, by command name:
// gopls publishes diagnostics at once instead of after a pause; the
// TypeScript server runs its semantic server for every request (its syntax
// server answers null for definitions across files) and renames without
// adding `foo: bar` text around shorthand properties.
func settings(command string) map[string]any {
	switch strings.TrimSuffix(filepath.Base(command), ".exe") {
	case "gopls":
		return map[string]any{"diagnosticsDelay": "0s"}
	case "typescript-language-server":
		return map[string]any{
			"tsserver":    map[string]any{"useSyntaxServer": "never"},
			"preferences": map[string]any{"providePrefixAndSuffixTextForRename": false},
		}
	}
	return nil
}

func initOptions(command string) map[string]any { return settings(command) }

// onRequest answers the server's requests. Every request gets an answer:
// some servers wait for one before going on.
func (p *proc) onRequest(method string, params json.RawMessage) (any, *rpcError) {
	switch method {
	case "workspace/configuration":
		var req struct {
			Items []struct {
				Section string `json:"section"`
			} `json:"items"`
		}
		json.Unmarshal(params, &req)
		out := make([]any, len(req.Items))
		set := settings(p.s.Command)
		for i, it := range req.Items {
			if set == nil {
				continue
			}
			switch it.Section {
			case "", strings.TrimSuffix(filepath.Base(p.s.Command), ".exe"):
				out[i] = set
			default:
				if v, ok := set[it.Section]; ok {
					out[i] = v
				}
			}
		}
		return out, nil
	case "workspace/workspaceFolders":
		return []map[string]string{{"uri": pathToURI(p.s.root), "name": filepath.Base(p.s.root)}}, nil
	case "window/workDoneProgress/create", "client/registerCapability", "client/unregisterCapability",
		"window/showMessageRequest", "workspace/codeLens/refresh", "workspace/semanticTokens/refresh",
		"workspace/inlayHint/refresh", "workspace/diagnostic/refresh", "workspace/inlineValue/refresh":
		return nil, nil
	case "workspace/applyEdit":
		// mm applies the edits it asked for itself; a command's edits are
		// not wanted.
		return map[string]any{"applied": false, "failureReason": "mm does not apply edits it did not ask for"}, nil
	}
	return nil, &rpcError{Code: codeMethodNotFound, Message: "mm does not handle " + method}
}

// onNotify keeps the diagnostics; the rest (logs, progress) is not needed.
func (p *proc) onNotify(method string, params json.RawMessage) {
	if method != "textDocument/publishDiagnostics" {
		return
	}
	var pd publishDiagnosticsParams
	if json.Unmarshal(params, &pd) != nil {
		return
	}
	path, ok := uriToPath(pd.URI)
	if !ok {
		return
	}
	p.dmu.Lock()
	p.pubSeq++
	p.diags[path] = &published{seq: p.pubSeq, version: pd.Version, diags: pd.Diagnostics}
	close(p.pubWake)
	p.pubWake = make(chan struct{})
	p.dmu.Unlock()
}

// lastPublished is the last publication for path, and a channel closed on
// the next publication of any file.
func (p *proc) lastPublished(path string) (*published, int64, <-chan struct{}) {
	p.dmu.Lock()
	defer p.dmu.Unlock()
	return p.diags[path], p.pubSeq, p.pubWake
}

// call sends one request with the request timeout, and turns a dead
// connection into an error that says why.
func (p *proc) call(ctx context.Context, method string, params, result any) error {
	ctx, cancel := context.WithTimeout(ctx, requestTimeout)
	defer cancel()
	err := p.conn.Call(ctx, method, params, result)
	if err == nil {
		return nil
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("no answer within %s", requestTimeout)
	}
	return p.explain(err)
}

// explain turns a broken connection into what happened to the process:
// its exit status and the last line of its stderr.
func (p *proc) explain(err error) error {
	var rerr *rpcError
	if errors.As(err, &rerr) || errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	// Anything else broke the pipe itself (EOF, EPIPE): the server is
	// gone, or going. The process may be a moment behind its pipe in
	// dying.
	select {
	case <-p.exited:
	case <-time.After(500 * time.Millisecond):
	}
	msg := "the server exited"
	select {
	case <-p.exited:
		p.waitMu.Lock()
		if p.waitErr != nil {
			msg += " (" + p.waitErr.Error() + ")"
		}
		p.waitMu.Unlock()
	default:
		msg = "the server closed its output"
		if errors.Is(err, os.ErrDeadlineExceeded) {
			msg = fmt.Sprintf("the server read nothing for %s", writeTimeout)
		}
	}
	if last := p.stderr.LastLine(); last != "" {
		msg += ": " + last
	}
	p.broken.Store(true)
	return &deadError{msg}
}

// deadError is a request that failed because the server went away.
type deadError struct{ msg string }

func (e *deadError) Error() string { return e.msg }

// supports reports whether the server announced a capability (a provider
// that is present and not false).
func (p *proc) supports(name string) bool {
	v, ok := p.caps[name]
	return ok && string(v) != "false" && string(v) != "null"
}

// sync sends path's current content from disk: didOpen the first time,
// a full didChange when it moved, nothing when it is as last sent. It
// returns the document and whether something was sent.
func (p *proc) sync(abs string) (*document, bool, error) {
	data, err := os.ReadFile(abs)
	if err != nil {
		return nil, false, err
	}
	text := string(data)
	d := p.docs[abs]
	if d != nil && d.text == text {
		return d, false, nil
	}
	_, seq, _ := p.lastPublished(abs)
	if d == nil {
		d = &document{uri: pathToURI(abs), version: 1, text: text}
		err = p.conn.Notify("textDocument/didOpen", map[string]any{
			"textDocument": map[string]any{"uri": d.uri, "languageId": languageID(abs), "version": d.version, "text": text},
		})
		if err != nil {
			return nil, false, p.explain(err)
		}
		p.docs[abs] = d
	} else {
		p.noteChange()
		d.version++
		d.text = text
		err = p.conn.Notify("textDocument/didChange", map[string]any{
			"textDocument":   map[string]any{"uri": d.uri, "version": d.version},
			"contentChanges": []map[string]string{{"text": text}},
		})
		if err != nil {
			return nil, false, p.explain(err)
		}
	}
	d.synced, d.sentSeq = time.Now(), seq
	return d, true, nil
}

// noteChange records that the server is being told of a change.
func (p *proc) noteChange() {
	_, p.changeSeq, _ = p.lastPublished("")
	p.changedAt = time.Now()
}

// resync brings every open document up to date with the disk, so the
// server never answers from a stale copy of a file that bash or another
// tool changed. A document whose file is gone is closed.
func (p *proc) resync() []string {
	var gone []string
	for abs, d := range p.docs {
		data, err := os.ReadFile(abs)
		if err != nil {
			p.conn.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": d.uri}})
			delete(p.docs, abs)
			gone = append(gone, abs)
			p.noteChange()
			continue
		}
		if string(data) != d.text {
			p.sync(abs)
		}
	}
	return gone
}

// filesChanged tells the server that files changed on disk: open ones
// get their new content, and every one is announced with
// workspace/didChangeWatchedFiles, which is how a server hears of the
// files it has not opened.
func (p *proc) filesChanged(paths []string, created map[string]bool) {
	var events []map[string]any
	for _, abs := range paths {
		typ := 2 // Changed
		if _, err := os.Stat(abs); err != nil {
			typ = 3 // Deleted
			if d := p.docs[abs]; d != nil {
				p.conn.Notify("textDocument/didClose", map[string]any{"textDocument": map[string]string{"uri": d.uri}})
				delete(p.docs, abs)
			}
		} else {
			if created[abs] {
				typ = 1 // Created
			}
			if p.docs[abs] != nil {
				p.sync(abs)
			}
		}
		events = append(events, map[string]any{"uri": pathToURI(abs), "type": typ})
	}
	if len(events) > 0 {
		p.noteChange()
		p.conn.Notify("workspace/didChangeWatchedFiles", map[string]any{"changes": events})
	}
}

// stop ends the process politely: shutdown (bounded: gopls answers only
// after its background work), exit, then SIGKILL to the whole group
// whatever happened, so no child is left behind.
func (p *proc) stop() {
	if p.alive() {
		ctx, cancel := context.WithTimeout(context.Background(), shutdownTimeout)
		err := p.conn.Call(ctx, "shutdown", nil, nil)
		cancel()
		if err == nil {
			p.conn.Notify("exit", nil)
		}
		p.stdin.Close()
		select {
		case <-p.exited:
		case <-time.After(exitGrace):
		}
	}
	p.kill()
}

// kill SIGKILLs the process group and waits, boundedly, for the reaping.
func (p *proc) kill() {
	procguard.KillGroup(p.pgid)
	p.stdin.Close()
	select {
	case <-p.exited:
	case <-time.After(5 * time.Second):
	}
}

// writeTimeout bounds one write to a server's stdin: a server that reads
// nothing for that long is taken for dead. A variable for the tests.
var writeTimeout = 10 * time.Second

// deadlineWriter writes with writeTimeout.
type deadlineWriter struct{ f *os.File }

func (w deadlineWriter) Write(b []byte) (int, error) {
	w.f.SetWriteDeadline(time.Now().Add(writeTimeout))
	return w.f.Write(b)
}
