package llm

import (
	"fmt"
	"time"
)

// EngineError is a failure of the model server or of the way to it: nothing
// answered, an HTTP error, a broken stream. The user sees its text as is;
// the command-line facades exit with code 3 on it.
type EngineError struct {
	Msg string
	// Status is the HTTP status when the server answered with an error, else 0.
	Status int
	// Overflow is true when the conversation did not fit the context
	// window (the server said so, or mm's own check before sending).
	Overflow bool

	// Set by httpError on a 503: the server is loading its model, or says
	// when to come back; wait is either (loading.go).
	loading, wait bool
	retryAfter    time.Duration
}

// Error is the message for the user. A password in a URL it quotes is
// masked (user:***@), wherever the text came from.
func (e *EngineError) Error() string { return "[engine error: " + Redact(e.Msg) + "]" }

func engineErrorf(format string, args ...any) *EngineError {
	return &EngineError{Msg: fmt.Sprintf(format, args...)}
}
