package acp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"time"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/config"
	"mm/internal/engine"
	"mm/internal/session"
	"mm/internal/termsafe"
	"mm/internal/version"
)

// protocolVersion is the ACP version mm speaks.
const protocolVersion = acpsdk.ProtocolVersion(1)

// server is mm's side of one connection: the sessions it holds.
type server struct {
	eng  *engine.Engine
	cfg  *config.Config
	opts Options
	conn *acpsdk.AgentSideConnection
	out  *lineWriter
	log  *logger

	// ctx is the connection's: every turn runs under a context derived
	// from it, cancelled by session/cancel or when the connection ends.
	ctx    context.Context
	cancel context.CancelFunc

	mu       sync.Mutex
	sessions map[acpsdk.SessionId]*live
	clientFS bool // the client reads and writes files (fs/*)
	closing  bool
	turns    sync.WaitGroup

	// elicitForm (under mu): the client shows elicitation/create forms
	// (ask_user.go).
	elicitForm bool
	// progress (under mu): the client takes _mm/progress (progress.go).
	progress bool
}

func newServer(eng *engine.Engine, opts Options) *server {
	ctx, cancel := context.WithCancel(context.Background())
	return &server{eng: eng, cfg: eng.Config, opts: opts, log: &logger{w: opts.Log},
		ctx: ctx, cancel: cancel, sessions: map[acpsdk.SessionId]*live{}}
}

var _ acpsdk.Agent = (*server)(nil)
var _ acpsdk.AgentLoader = (*server)(nil)

// invalidParams is a -32602 error whose message says what is wrong.
func invalidParams(format string, args ...any) *acpsdk.RequestError {
	msg := termsafe.Text(fmt.Sprintf(format, args...))
	return &acpsdk.RequestError{Code: -32602, Message: msg}
}

// Initialize answers version 1 whatever the client asks: the agent
// answers the latest version it supports when it does not support the
// client's, and the client decides.
func (s *server) Initialize(_ context.Context, p acpsdk.InitializeRequest) (acpsdk.InitializeResponse, error) {
	fs := p.ClientCapabilities.Fs
	s.mu.Lock()
	s.clientFS = fs.ReadTextFile && fs.WriteTextFile
	s.elicitForm = p.ClientCapabilities.Elicitation != nil && p.ClientCapabilities.Elicitation.Form != nil
	s.progress = wantsProgress(p.ClientCapabilities.Meta)
	s.mu.Unlock()
	info := &acpsdk.Implementation{Name: s.cfg.ACP.Name, Version: version.String()}
	if s.cfg.ACP.Title != "" {
		info.Title = &s.cfg.ACP.Title
	}
	caps := acpsdk.AgentCapabilities{
		LoadSession:        s.cfg.Sessions.Enabled,
		PromptCapabilities: acpsdk.PromptCapabilities{EmbeddedContext: true},
		SessionCapabilities: acpsdk.SessionCapabilities{
			Close: &acpsdk.SessionCloseCapabilities{},
		},
		// MCP servers over streamable HTTP too (stdio every agent takes).
		McpCapabilities: acpsdk.McpCapabilities{Http: true},
	}
	if s.cfg.Sessions.Enabled {
		caps.SessionCapabilities.List = &acpsdk.SessionListCapabilities{}
	}
	return acpsdk.InitializeResponse{ProtocolVersion: protocolVersion, AgentInfo: info,
		AgentCapabilities: caps, AuthMethods: []acpsdk.AuthMethod{}}, nil
}

// Authenticate: mm asks for no authentication.
func (s *server) Authenticate(context.Context, acpsdk.AuthenticateRequest) (acpsdk.AuthenticateResponse, error) {
	return acpsdk.AuthenticateResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodAuthenticate)
}

// checkCwd refuses a cwd that is not an absolute path to a directory.
func checkCwd(cwd string) error {
	if !filepath.IsAbs(cwd) {
		return invalidParams("cwd must be an absolute path: %q", cwd)
	}
	fi, err := os.Stat(cwd)
	switch {
	case err != nil:
		return invalidParams("cwd %s: %v", cwd, errors.Unwrap(err))
	case !fi.IsDir():
		return invalidParams("cwd %s is not a directory", cwd)
	}
	return nil
}

// NewSession starts a conversation in the client's cwd. Its id is a
// session id (session.NewID): with sessions on, the same id names the
// stored session.
func (s *server) NewSession(_ context.Context, p acpsdk.NewSessionRequest) (acpsdk.NewSessionResponse, error) {
	if err := checkCwd(p.Cwd); err != nil {
		return acpsdk.NewSessionResponse{}, err
	}
	cwd := filepath.Clean(p.Cwd)
	stored := session.New(time.Now(), s.cfg.Model, s.cfg.Provider, cwd)
	l, err := s.open(acpsdk.SessionId(stored.ID), cwd, stored, p.McpServers)
	if err != nil {
		return acpsdk.NewSessionResponse{}, err
	}
	// With sessions on, the file exists from the start: loadSession is
	// advertised, and a session never prompted is loadable too.
	var saveErr error
	if l.store != nil {
		l.lock, _ = l.store.Lock(stored.ID)
		saveErr = l.write(stored, l.es.Agent.History())
	}
	// The client learns the id from this answer: an update sent before it
	// is one the client cannot place (Zed drops it).
	quoted, _ := json.Marshal(l.id)
	s.out.afterResponse(append([]byte(`"sessionId":`), quoted...), func() {
		l.saveFailure(saveErr)
		l.commands()
	})
	return acpsdk.NewSessionResponse{SessionId: l.id}, nil
}

// open makes the live session id and logs its banner.
func (s *server) open(id acpsdk.SessionId, cwd string, stored *session.Session, offered []acpsdk.McpServer) (*live, error) {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return nil, &acpsdk.RequestError{Code: -32603, Message: "mm is shutting down"}
	}
	fs := s.clientFS
	s.mu.Unlock()
	l := &live{id: id, srv: s, stored: stored}
	servers, skipped := mcpServers(offered, s.cfg.MCP.Servers)
	opts := engine.SessionOptions{Cwd: cwd, SkillsBase: s.opts.SkillsBase, MCPServers: servers}
	if fs {
		opts.Files = NewEditorFiles(s.conn, id)
		l.files = opts.Files
	}
	l.es = s.eng.NewSession(opts)
	l.es.Agent.Hooks().SetSession(func() string { return string(id) })
	if s.cfg.Sessions.Enabled {
		l.store = &session.Store{Base: cwd, Dir: s.cfg.Sessions.Dir}
		l.es.Agent.OnCompactionFailed(func(err error) {
			l.recordError(session.WhereCompression, trimBrackets(err.Error()))
		})
		l.es.Agent.OnCheckpoint(l.checkpoint)
	}
	s.mu.Lock()
	if old := s.sessions[id]; old != nil {
		if old.running() {
			s.mu.Unlock()
			l.es.Close()
			return nil, invalidParams("session %s is running a prompt", id)
		}
		old.es.Close()
		// The session stays this mm's: the new live one holds it.
		l.lock, old.lock = old.lock, nil
	}
	s.sessions[id] = l
	s.mu.Unlock()
	s.log.line(fmt.Sprintf("session %s in %s: %s", id, cwd, s.eng.SessionBanner(s.ctx, l.es)))
	for _, w := range l.es.Warnings {
		s.log.line(w)
	}
	for _, w := range l.es.SkillWarnings {
		s.log.line(w)
	}
	for _, w := range skipped {
		s.log.line(fmt.Sprintf("session %s: %s", id, w))
	}
	return l, nil
}

// lookup is the live session id, or the error that names it.
func (s *server) lookup(id acpsdk.SessionId) (*live, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if l := s.sessions[id]; l != nil {
		return l, nil
	}
	return nil, invalidParams("there is no session %q in this connection (session/new or session/load first)", id)
}

// Prompt runs one turn.
func (s *server) Prompt(_ context.Context, p acpsdk.PromptRequest) (acpsdk.PromptResponse, error) {
	l, err := s.lookup(p.SessionId)
	if err != nil {
		return acpsdk.PromptResponse{}, err
	}
	return l.prompt(p.Prompt)
}

// Cancel stops the session's running turn, if any.
func (s *server) Cancel(_ context.Context, p acpsdk.CancelNotification) error {
	s.mu.Lock()
	l := s.sessions[p.SessionId]
	s.mu.Unlock()
	if l != nil {
		l.stop()
	}
	return nil
}

// CloseSession stops the session's turn and frees what it holds (its
// language servers).
func (s *server) CloseSession(_ context.Context, p acpsdk.CloseSessionRequest) (acpsdk.CloseSessionResponse, error) {
	s.mu.Lock()
	l := s.sessions[p.SessionId]
	delete(s.sessions, p.SessionId)
	s.mu.Unlock()
	if l == nil {
		return acpsdk.CloseSessionResponse{}, invalidParams("there is no session %q in this connection", p.SessionId)
	}
	l.stop()
	l.waitIdle(stopWait)
	l.es.Close()
	l.lock.Release()
	return acpsdk.CloseSessionResponse{}, nil
}

// ResumeSession is not offered (session/load is).
func (s *server) ResumeSession(context.Context, acpsdk.ResumeSessionRequest) (acpsdk.ResumeSessionResponse, error) {
	return acpsdk.ResumeSessionResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionResume)
}

// SetSessionMode: mm has no modes.
func (s *server) SetSessionMode(context.Context, acpsdk.SetSessionModeRequest) (acpsdk.SetSessionModeResponse, error) {
	return acpsdk.SetSessionModeResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionSetMode)
}

// SetSessionConfigOption: mm offers no options.
func (s *server) SetSessionConfigOption(context.Context, acpsdk.SetSessionConfigOptionRequest) (acpsdk.SetSessionConfigOptionResponse, error) {
	return acpsdk.SetSessionConfigOptionResponse{}, acpsdk.NewMethodNotFound(acpsdk.AgentMethodSessionSetConfigOption)
}

// shutdown ends the connection: every turn is cancelled (its command
// killed) and waited for, then every session is closed.
func (s *server) shutdown(open *inflight) {
	s.mu.Lock()
	s.closing = true
	s.mu.Unlock()
	s.cancel()
	done := make(chan struct{})
	go func() {
		s.turns.Wait()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(stopWait):
		s.log.line("mm: some turns did not stop in time")
	}
	// What the client asked before its input ended is answered (a
	// session/new that was starting, the cancelled prompts).
	if !open.wait(stopWait) {
		s.log.line("mm: some requests were not answered in time")
	}
	s.mu.Lock()
	all := s.sessions
	s.sessions = map[acpsdk.SessionId]*live{}
	s.mu.Unlock()
	for _, l := range all {
		l.es.Close()
		l.lock.Release()
	}
}
