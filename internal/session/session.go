// Package session keeps mm's conversations on disk (sessions.enabled): one
// <id>.json per conversation in sessions.dir, rewritten atomically after
// each turn and /new, so that /resume, mm -continue and a killed mm find
// the conversation whole. The format is versioned and documented in
// docs/sessions.md; a file of a newer version, or a broken one, is refused
// whole, never half-loaded.
package session

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/firebase/genkit/go/ai"

	"mm/internal/plan"
)

// Version is the format this mm writes, and the newest it reads.
const Version = 1

// Where values of an Error: what failed.
const (
	WhereGeneration  = "generation"  // a turn failed or was stopped by mm (loop detector, watchdog…)
	WhereCompression = "compression" // a compression failed
	WhereResume      = "resume"      // /resume or -continue failed
)

// Session is one conversation as its file holds it.
type Session struct {
	Version  int       `json:"version"`
	ID       string    `json:"id"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	Model    string    `json:"model"`
	Provider string    `json:"provider"`
	Cwd      string    `json:"cwd"`
	// Turns counts the questions asked (the history also holds the notes
	// mm adds as user messages, which are no questions).
	Turns int `json:"turns"`
	// ResumedFrom is the session this one was resumed from: a resumed
	// conversation goes on in a file of its own, so that two mm resuming
	// the same session never write the same file.
	ResumedFrom string `json:"resumedFrom,omitempty"`
	// Messages is the history after the system prompt (which is the
	// configuration's, not the session's).
	Messages []Message `json:"messages"`
	// Errors are the errors shown during the conversation, outside the
	// history.
	Errors []Error `json:"errors"`
	// Plan is the plan tool's checklist as it stood: state, not history
	// (a compression keeps it). Absent when there is none, so that a file
	// without it, older ones included, loads with no plan.
	Plan []plan.Item `json:"plan,omitempty"`
}

// Message is one message of the history.
type Message struct {
	Role  string `json:"role"` // user, model, tool
	Parts []Part `json:"parts"`
}

// Part is one piece of a message; Type says which fields it has.
type Part struct {
	Type string `json:"type"` // text, reasoning, toolRequest, toolResponse
	// Text is the text of a text or reasoning part.
	Text string `json:"text,omitempty"`
	// Name and Ref are the tool and the call id of a tool request or
	// response.
	Name string `json:"name,omitempty"`
	Ref  string `json:"ref,omitempty"`
	// Arguments is a tool request's arguments, the text sent to the
	// server byte for byte (a JSON string, not an object, so that the
	// next request's bytes stay those of the last one).
	Arguments string `json:"arguments,omitempty"`
	// Output is a tool response's output.
	Output string `json:"output,omitempty"`
}

// Error is one error shown during the conversation.
type Error struct {
	Where   string    `json:"where"`
	Message string    `json:"message"`
	Time    time.Time `json:"time"`
}

// New starts a session with a fresh id: the time to the second, then 6
// random hex digits, so ids sort by creation and two mm started in the
// same second do not pick the same one (the file is also created
// exclusively: see Store.Save).
func New(now time.Time, model, provider, cwd string) *Session {
	return &Session{Version: Version, ID: NewID(now), Created: now, Updated: now,
		Model: model, Provider: provider, Cwd: cwd, Messages: []Message{}, Errors: []Error{}}
}

// NewID is a new session id.
func NewID(now time.Time) string {
	var b [3]byte
	_, _ = rand.Read(b[:])
	return now.UTC().Format("20060102-150405") + "-" + hex.EncodeToString(b[:])
}

// validID is what an id may look like: it names a file in the directory.
func validID(id string) bool {
	if id == "" || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.') {
			return false
		}
	}
	return !strings.HasPrefix(id, ".")
}

// AddError records an error shown to the user.
func (s *Session) AddError(where, msg string, now time.Time) {
	s.Errors = append(s.Errors, Error{Where: where, Message: msg, Time: now})
}

// FirstQuestion is the text of the first user message, for /sessions.
func (s *Session) FirstQuestion() string {
	for _, m := range s.Messages {
		if m.Role == "user" {
			var b strings.Builder
			for _, p := range m.Parts {
				if p.Type == "text" {
					b.WriteString(p.Text)
				}
			}
			return b.String()
		}
	}
	return ""
}

// FromHistory turns an agent's history into the session's messages; the
// leading system prompt is left out (a resumed session gets the system
// prompt of the configuration it is resumed under).
func FromHistory(history []*ai.Message) ([]Message, error) {
	out := []Message{}
	for i, m := range history {
		if m.Role == ai.RoleSystem {
			if i == 0 {
				continue
			}
			return nil, fmt.Errorf("message %d: a system message after the first", i)
		}
		msg := Message{Role: string(m.Role), Parts: []Part{}}
		for _, p := range m.Content {
			part, err := fromPart(p)
			if err != nil {
				return nil, fmt.Errorf("message %d: %w", i, err)
			}
			msg.Parts = append(msg.Parts, part)
		}
		out = append(out, msg)
	}
	return out, nil
}

func fromPart(p *ai.Part) (Part, error) {
	switch {
	case p.IsReasoning():
		return Part{Type: "reasoning", Text: p.Text}, nil
	case p.IsText():
		return Part{Type: "text", Text: p.Text}, nil
	case p.IsToolRequest():
		args, err := argumentsText(p.ToolRequest.Input)
		if err != nil {
			return Part{}, err
		}
		return Part{Type: "toolRequest", Name: p.ToolRequest.Name, Ref: p.ToolRequest.Ref, Arguments: args}, nil
	case p.IsToolResponse():
		out, ok := p.ToolResponse.Output.(string)
		if !ok && p.ToolResponse.Output != nil {
			b, err := json.Marshal(p.ToolResponse.Output)
			if err != nil {
				return Part{}, err
			}
			out = string(b)
		}
		return Part{Type: "toolResponse", Name: p.ToolResponse.Name, Ref: p.ToolResponse.Ref, Output: out}, nil
	}
	return Part{}, fmt.Errorf("a part of kind %d, which sessions do not keep", p.Kind)
}

// argumentsText is a tool request's input as the text the server gets.
func argumentsText(in any) (string, error) {
	switch v := in.(type) {
	case nil:
		return "", nil
	case string:
		return v, nil
	case json.RawMessage:
		return string(v), nil
	}
	b, err := json.Marshal(in)
	return string(b), err
}

// History is the session's messages as the agent keeps them.
func (s *Session) History() []*ai.Message {
	var out []*ai.Message
	for _, m := range s.Messages {
		msg := &ai.Message{Role: ai.Role(m.Role)}
		for _, p := range m.Parts {
			switch p.Type {
			case "text":
				msg.Content = append(msg.Content, ai.NewTextPart(p.Text))
			case "reasoning":
				msg.Content = append(msg.Content, ai.NewReasoningPart(p.Text, nil))
			case "toolRequest":
				var in any
				if p.Arguments != "" {
					in = json.RawMessage(p.Arguments)
				}
				msg.Content = append(msg.Content, ai.NewToolRequestPart(&ai.ToolRequest{Name: p.Name, Ref: p.Ref, Input: in}))
			case "toolResponse":
				msg.Content = append(msg.Content, ai.NewToolResponsePart(&ai.ToolResponse{Name: p.Name, Ref: p.Ref, Output: p.Output}))
			}
		}
		out = append(out, msg)
	}
	return out
}

// check refuses what this mm cannot load whole: a newer version, and a
// history that is not one (unknown roles or parts, a tool response that
// answers no call before it).
func (s *Session) check() error {
	switch {
	case s.Version > Version:
		return fmt.Errorf("it was written by a newer mm (format version %d; this mm reads up to %d) — update mm to resume it", s.Version, Version)
	case s.Version < 1:
		return fmt.Errorf("it has no valid format version (%d)", s.Version)
	case !validID(s.ID):
		return fmt.Errorf("its id %q is not valid", s.ID)
	}
	calls := map[string]bool{}
	for i, m := range s.Messages {
		switch m.Role {
		case "user", "model", "tool":
		default:
			return fmt.Errorf("message %d has the role %q (want user, model or tool)", i+1, m.Role)
		}
		for _, p := range m.Parts {
			switch p.Type {
			case "text", "reasoning":
			case "toolRequest":
				if m.Role != "model" {
					return fmt.Errorf("message %d: a tool request in a %s message", i+1, m.Role)
				}
				calls[p.Ref] = true
			case "toolResponse":
				if m.Role != "tool" {
					return fmt.Errorf("message %d: a tool response in a %s message", i+1, m.Role)
				}
				if !calls[p.Ref] {
					return fmt.Errorf("message %d: a tool response to no call (ref %q)", i+1, p.Ref)
				}
			default:
				return fmt.Errorf("message %d has a part of type %q", i+1, p.Type)
			}
		}
	}
	return nil
}
