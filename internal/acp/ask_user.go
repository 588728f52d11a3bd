package acp

// ask_user over ACP. A client that announced
// clientCapabilities.elicitation.form gets one elicitation/create form
// per call (with the sessionId the SDK cannot send yet: SendElicitation
// and ElicitationOutput). Any other client can still be asked a choice
// or a yes/no: one session/request_permission per question, its buttons
// the options (Yes/No for a confirm) and Decline. A text or multi
// question it cannot show: nobody can be asked.

import (
	"context"
	"fmt"
	"strings"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/agent"
	"mm/internal/termsafe"
	"mm/internal/textcut"
	"mm/internal/tools"
)

var _ tools.UserAsker = (*turnUI)(nil)

// The option ids of a question asked with session/request_permission.
const (
	optAnswerYes = "yes"
	optAnswerNo  = "no"
	optDecline   = "decline"
)

// AskUser asks the editor's user. asker, when not "", is the asked agent
// whose questions these are.
func (u *turnUI) AskUser(ctx context.Context, asker string, qs []tools.Question) ([]tools.Answer, error) {
	l := u.l
	prefix := ""
	if asker != "" {
		prefix = asker + " asks: "
	}
	call := l.askingCall(asker)
	if l.srv.formElicitation() {
		return u.elicit(ctx, prefix, call, qs)
	}
	for _, q := range qs {
		if q.Type != tools.QuestionChoice && q.Type != tools.QuestionConfirm {
			return nil, tools.ErrCannotAsk
		}
	}
	var id acpsdk.ToolCallId
	if call != nil {
		id = l.toolCallID(call)
	} else {
		id = l.toolCallID(&agent.Call{ID: "ask_user"})
	}
	answers := make([]tools.Answer, 0, len(qs))
	for _, q := range qs {
		a, err := u.askButtons(ctx, prefix, id, q)
		if err != nil {
			return nil, err
		}
		answers = append(answers, a)
	}
	return answers, nil
}

// askingCall is the call of this turn that is running now: the ask_user
// call (or, for an asked agent's question, the ask_agent call), so that
// the editor shows the question in it. nil when there is none.
func (l *live) askingCall(asker string) *agent.Call {
	want := "ask_user"
	if asker != "" {
		want = "ask_agent"
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	var running *agent.Call
	for c := range l.callIDs {
		// The calls of a reply run one at a time: the one started and
		// not ended has no duration yet.
		if c.Duration == 0 && c.Output == "" {
			if c.Name == want {
				return c
			}
			running = c
		}
	}
	return running
}

// formElicitation reports whether the client announced form elicitation.
func (s *server) formElicitation() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.elicitForm
}

// fieldName is question i's property in the form: q1…q4 sort in order.
func fieldName(i int) string { return fmt.Sprintf("q%d", i+1) }

// elicit asks every question in one form.
func (u *turnUI) elicit(ctx context.Context, prefix string, call *agent.Call, qs []tools.Question) ([]tools.Answer, error) {
	l := u.l
	props := map[string]any{}
	var required []string
	for i, q := range qs {
		p := map[string]any{"title": termsafe.Text(prefix + q.Text)}
		switch q.Type {
		case tools.QuestionChoice:
			p["type"], p["enum"] = "string", safeList(q.Options)
			if q.HasDefault {
				p["default"] = termsafe.Text(q.Default)
			}
		case tools.QuestionMulti:
			p["type"], p["minItems"] = "array", 1
			p["items"] = map[string]any{"type": "string", "enum": safeList(q.Options)}
		case tools.QuestionConfirm:
			p["type"] = "boolean"
			if q.HasDefault {
				p["default"] = q.Default == "yes"
			}
		default:
			p["type"] = "string"
			if q.HasDefault {
				p["default"] = termsafe.Text(q.Default)
			}
		}
		props[fieldName(i)] = p
		required = append(required, fieldName(i))
	}
	msg := prefix + qs[0].Text
	if len(qs) > 1 {
		msg = fmt.Sprintf("%s%d questions", prefix, len(qs))
	}
	req := ElicitationRequest{
		SessionId: l.id,
		Message:   termsafe.Text(msg),
		RequestedSchema: acpsdk.UnstableElicitationSchema{
			Type:       acpsdk.UnstableElicitationSchemaTypeObject,
			Properties: props,
			Required:   required,
		},
	}
	if call != nil {
		id := l.toolCallID(call)
		req.ToolCallId = &id
	}
	resp, err := SendElicitation(ctx, l.srv.conn, req)
	switch {
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case err != nil:
		l.srv.log.line(fmt.Sprintf("session %s: the elicitation/create request failed (nobody can be asked): %v", l.id, err))
		return nil, tools.ErrCannotAsk
	case resp.Decline != nil:
		return nil, tools.ErrDeclined
	case resp.Accept == nil:
		// The client cancelled the form (or answered an action mm does
		// not know).
		return nil, context.Canceled
	}
	answers := make([]tools.Answer, len(qs))
	for i, q := range qs {
		answers[i] = formAnswer(q, resp.Accept.Content[fieldName(i)])
	}
	return answers, nil
}

// formAnswer is one field of an accepted form as the answer to q: an
// option as the model wrote it, "yes" or "no", the text typed. A field
// left out takes the default.
func formAnswer(q tools.Question, v any) tools.Answer {
	one := func(s string) tools.Answer { return tools.Answer{Values: []string{s}} }
	switch x := v.(type) {
	case bool:
		if x {
			return one("yes")
		}
		return one("no")
	case string:
		if q.Type == tools.QuestionConfirm {
			if w, ok := tools.ConfirmWord(x); ok {
				return one(w)
			}
		}
		if s := strings.TrimSpace(x); s != "" {
			return one(optionOf(q, s))
		}
	case []any:
		var values []string
		for _, item := range x {
			if s, ok := item.(string); ok && strings.TrimSpace(s) != "" {
				values = append(values, optionOf(q, strings.TrimSpace(s)))
			}
		}
		if len(values) > 0 {
			return tools.Answer{Values: values}
		}
		return one("(none)")
	}
	if q.HasDefault {
		return one(q.Default)
	}
	return one("(no answer)")
}

// optionOf maps a value the client sent back (a sanitised option) to the
// option as the model wrote it; any other text is itself.
func optionOf(q tools.Question, s string) string {
	for _, o := range q.Options {
		if termsafe.Text(o) == s || strings.EqualFold(o, s) {
			return o
		}
	}
	return s
}

func safeList(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = termsafe.Text(s)
	}
	return out
}

// askButtons asks one choice or confirm question as a permission dialog
// on the asking call: the question is its title and content, the
// options its buttons, then Decline.
func (u *turnUI) askButtons(ctx context.Context, prefix string, id acpsdk.ToolCallId, q tools.Question) (tools.Answer, error) {
	l := u.l
	var options []acpsdk.PermissionOption
	if q.Type == tools.QuestionConfirm {
		options = []acpsdk.PermissionOption{
			{OptionId: optAnswerYes, Kind: acpsdk.PermissionOptionKindAllowOnce, Name: "Yes"},
			{OptionId: optAnswerNo, Kind: acpsdk.PermissionOptionKindRejectOnce, Name: "No"},
		}
	} else {
		for i, o := range q.Options {
			opt := acpsdk.PermissionOption{OptionId: acpsdk.PermissionOptionId(fmt.Sprintf("option-%d", i+1)), Kind: acpsdk.PermissionOptionKindAllowOnce, Name: oneLine(o)}
			if q.HasDefault && o == q.Default {
				// The default first, and named so: a client's "allow"
				// key takes the first option.
				opt.Name += " (default)"
				options = append([]acpsdk.PermissionOption{opt}, options...)
				continue
			}
			options = append(options, opt)
		}
	}
	options = append(options, acpsdk.PermissionOption{OptionId: optDecline, Kind: acpsdk.PermissionOptionKindRejectOnce, Name: "Decline"})
	t := oneLine(prefix + q.Text)
	if cut := textcut.FirstRunes(t, maxTitle); cut != t {
		t = cut + "…"
	}
	k := acpsdk.ToolKindOther
	resp, err := l.srv.conn.RequestPermission(ctx, acpsdk.RequestPermissionRequest{
		SessionId: l.id,
		ToolCall: acpsdk.ToolCallUpdate{
			ToolCallId: id,
			Title:      &t,
			Kind:       &k,
			Content:    []acpsdk.ToolCallContent{textContent(prefix + q.Text)},
		},
		Options: options,
	})
	switch {
	case ctx.Err() != nil:
		return tools.Answer{}, ctx.Err()
	case err != nil:
		l.srv.log.line(fmt.Sprintf("session %s: the question could not be asked (session/request_permission failed): %v", l.id, err))
		return tools.Answer{}, tools.ErrCannotAsk
	case resp.Outcome.Selected == nil:
		return tools.Answer{}, context.Canceled
	}
	sel := string(resp.Outcome.Selected.OptionId)
	switch sel {
	case optDecline:
		return tools.Answer{}, tools.ErrDeclined
	case optAnswerYes, optAnswerNo:
		if q.Type == tools.QuestionConfirm {
			return tools.Answer{Values: []string{sel}}, nil
		}
	}
	var n int
	if _, err := fmt.Sscanf(sel, "option-%d", &n); err == nil && n >= 1 && n <= len(q.Options) && q.Type == tools.QuestionChoice {
		return tools.Answer{Values: []string{q.Options[n-1]}}, nil
	}
	l.srv.log.line(fmt.Sprintf("session %s: the client answered the question with an unknown option %q (taken as declined)", l.id, sel))
	return tools.Answer{}, tools.ErrDeclined
}
