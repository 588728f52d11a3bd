package tools

// What the tools that talk to people and to other agents (ask_user,
// ask_agent) need from the facade running the turn. The agent puts the
// turn's UI in the context of every tool call (WithFacade); such a tool
// takes it back (FacadeFrom) and asks it for the interface it needs, so
// that the registry stays a list of data plus functions and no tool
// imports a facade.

import (
	"context"
	"errors"
)

type facadeKey struct{}

// WithFacade puts the facade running the turn (the agent's UI) in ctx.
func WithFacade(ctx context.Context, f any) context.Context {
	return context.WithValue(ctx, facadeKey{}, f)
}

// FacadeFrom is the facade of the turn ctx belongs to, nil when none.
func FacadeFrom(ctx context.Context) any {
	return ctx.Value(facadeKey{})
}

// The ask_user question types (the reference's, synonyms resolved).
const (
	QuestionChoice  = "choice"
	QuestionMulti   = "multi"
	QuestionText    = "text"
	QuestionConfirm = "confirm"
)

// Question is one ask_user question, cleaned up: type resolved, options
// trimmed and deduplicated, a default kept only when it makes sense.
type Question struct {
	Text    string
	Type    string // QuestionChoice, QuestionMulti, QuestionText, QuestionConfirm
	Options []string
	// Default is the answer an empty line takes ("" with HasDefault
	// false: none). For confirm it is "yes" or "no".
	Default    string
	HasDefault bool
}

// Answer is the user's answer to one question: one value for choice,
// text and confirm ("yes" or "no"), any number for multi.
type Answer struct {
	Values []string
}

// Errors of UserAsker.AskUser.
var (
	// ErrDeclined: the user declined to answer (/skip, Decline).
	ErrDeclined = errors.New("the user declined to answer")
	// ErrCannotAsk: nobody can be asked in this mode (-p, mm --ask, a
	// client that can show no such dialog).
	ErrCannotAsk = errors.New("the user cannot be asked in this mode")
)

// UserAsker is a facade that can put questions to its user (the line
// mode, ACP). asker is "" for this agent's own questions, or the name of
// an asked agent whose questions come up through this one (each question
// is then shown prefixed "<asker> asks: "). A cancelled ctx cancels the
// questions: the error is then ctx's.
type UserAsker interface {
	AskUser(ctx context.Context, asker string, questions []Question) ([]Answer, error)
}
