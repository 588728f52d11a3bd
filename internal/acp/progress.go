package acp

// _mm/progress: the signs of life an asked mm -acp gives the mm that asks
// it (internal/ask). Its session updates show its text, thoughts and
// calls; they do not show its model reading a long prompt (llama.cpp's
// prompt_progress), loading, reasoning unseen (showThinking off) or
// composing a tool call, nor an agent it asks in turn doing those. The
// asking mm's watch would take that silence for a dead child. So a
// client that announces clientCapabilities._meta["mm/progress"]: true
// gets, for each, an ACP extension notification (a method starting with
// `_`, which other clients never receive). It shows nothing: it only
// restarts the asking mm's wait.

import (
	"context"
	"time"
)

const (
	// ProgressMethod is the notification: {"sessionId": "…"}.
	ProgressMethod = "_mm/progress"
	// ProgressCapability is the clientCapabilities._meta key that asks
	// for it.
	ProgressCapability = "mm/progress"
)

// ProgressParams are the notification's params.
type ProgressParams struct {
	SessionID string `json:"sessionId"`
}

// progressEvery spaces the notifications: a reasoning model streams tens
// of tokens a second, and one sign of life now and then is all the
// asking mm needs (its watchdogTimeout is seconds).
const progressEvery = 500 * time.Millisecond

// wantsProgress reports whether the client asked for _mm/progress.
func wantsProgress(meta map[string]any) bool {
	v, _ := meta[ProgressCapability].(bool)
	return v
}

// progress sends the session's client a sign of life, when it asked for
// them and none went in the last progressEvery.
func (l *live) progress() {
	s := l.srv
	s.mu.Lock()
	want := s.progress
	s.mu.Unlock()
	if !want {
		return
	}
	l.mu.Lock()
	now := time.Now()
	if now.Sub(l.lastProgress) < progressEvery {
		l.mu.Unlock()
		return
	}
	l.lastProgress = now
	l.mu.Unlock()
	if err := s.conn.NotifyExtension(context.Background(), ProgressMethod, ProgressParams{SessionID: string(l.id)}); err != nil {
		s.log.line("session " + string(l.id) + ": cannot send a progress report: " + err.Error())
	}
}
