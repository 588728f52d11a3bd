package ask

// An asked agent's questions (its ask_user, sent as an elicitation/create
// form because mm announces form elicitation to its children) go to the
// asking turn's facade, a tools.UserAsker, with the agent's name as the
// asker; the answers go back as the form's content.

import (
	"context"
	"errors"
	"sort"

	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/tools"
)

// UnstableCreateElicitation answers a child's form.
func (cl *client) UnstableCreateElicitation(ctx context.Context, p acpsdk.UnstableCreateElicitationRequest) (acpsdk.UnstableCreateElicitationResponse, error) {
	if p.Form == nil {
		return acpsdk.UnstableCreateElicitationResponse{}, acpsdk.NewInvalidParams(map[string]any{"error": "mm answers form elicitations only"})
	}
	sid, _ := p.Form.Meta[sessionMetaKey].(string)
	cl.c.order.wait(formKey(sid))
	c := cl.c.callOf(acpsdk.SessionId(sid))
	if c == nil {
		return acpsdk.NewUnstableCreateElicitationResponseCancel(), nil
	}
	asker, _ := c.facade.(tools.UserAsker)
	if asker == nil {
		// -p, mm --ask: nobody can be asked.
		return acpsdk.UnstableCreateElicitationResponse{}, cannotAsk()
	}
	keys, qs := formQuestions(p.Form.RequestedSchema)
	if len(qs) == 0 {
		return acpsdk.UnstableCreateElicitationResponse{}, cannotAsk()
	}
	ctx, cancel := joined(ctx, c.ctx)
	defer cancel()
	c.watch.pause()
	answers, err := asker.AskUser(ctx, c.name, qs)
	c.watch.resume()
	switch {
	case errors.Is(err, tools.ErrDeclined):
		return acpsdk.NewUnstableCreateElicitationResponseDecline(), nil
	case errors.Is(err, tools.ErrCannotAsk):
		return acpsdk.UnstableCreateElicitationResponse{}, cannotAsk()
	case err != nil || len(answers) != len(qs):
		return acpsdk.NewUnstableCreateElicitationResponseCancel(), nil
	}
	content := map[string]any{}
	for i, q := range qs {
		content[keys[i]] = formValue(q, answers[i])
	}
	resp := acpsdk.NewUnstableCreateElicitationResponseAccept()
	resp.Accept.Content = content
	return resp, nil
}

// cannotAsk is the error a child reads as "nobody can be asked".
func cannotAsk() error {
	return &acpsdk.RequestError{Code: -32603, Message: tools.ErrCannotAsk.Error()}
}

// formQuestions reads a form's fields back into questions, in the order
// of their names (ask_user names them q1…q4).
func formQuestions(s acpsdk.UnstableElicitationSchema) ([]string, []tools.Question) {
	var keys []string
	for k := range s.Properties {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var qs []tools.Question
	for _, k := range keys {
		p, _ := s.Properties[k].(map[string]any)
		q := tools.Question{Type: tools.QuestionText}
		q.Text, _ = p["title"].(string)
		if q.Text == "" {
			q.Text, _ = p["description"].(string)
		}
		if q.Text == "" {
			q.Text = k
		}
		strs := func(v any) []string {
			var out []string
			list, _ := v.([]any)
			for _, x := range list {
				if s, ok := x.(string); ok {
					out = append(out, s)
				}
			}
			return out
		}
		switch p["type"] {
		case "boolean":
			q.Type = tools.QuestionConfirm
			if d, ok := p["default"].(bool); ok {
				q.Default, q.HasDefault = "no", true
				if d {
					q.Default = "yes"
				}
			}
		case "array":
			items, _ := p["items"].(map[string]any)
			q.Type, q.Options = tools.QuestionMulti, strs(items["enum"])
		default:
			if opts := strs(p["enum"]); len(opts) > 0 {
				q.Type, q.Options = tools.QuestionChoice, opts
			}
			if d, ok := p["default"].(string); ok {
				q.Default, q.HasDefault = d, true
			}
		}
		qs = append(qs, q)
	}
	return keys, qs
}

// formValue is an answer as a form field's value.
func formValue(q tools.Question, a tools.Answer) any {
	switch q.Type {
	case tools.QuestionMulti:
		return append([]string{}, a.Values...)
	case tools.QuestionConfirm:
		return len(a.Values) > 0 && a.Values[0] == "yes"
	}
	if len(a.Values) == 0 {
		return ""
	}
	return a.Values[0]
}
