package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

//go:embed ask_user.md
var askUserDescription string

// askUserSchema describes a question's fields in words: with
// `properties`, llama.cpp's grammar would make the model write them in
// alphabetical order (default, options, question, type), the question
// after its answers.
const askUserSchema = `{"type":"object","properties":{` +
	`"questions":{"type":"array","description":"1 to 4 questions, each {question, type, options, default}. type: choice (one option), multi (several), text or confirm (yes/no); choice and multi need 2+ options.","items":{"type":"object"}}},` +
	`"required":["questions"]}`

// MaxQuestions is how many questions one ask_user call may ask.
const MaxQuestions = 4

// The results of an ask_user call that got no answer (the reference's
// texts, to the byte).
const (
	AskUserDeclined  = "[the user declined to answer: do not ask the same thing again; go on without it or stop]"
	AskUserCancelled = "[the question was cancelled before the user answered]"
	AskUserCannot    = "[the user cannot be asked in this mode: make a reasonable assumption, say which, and go on]"
)

// NewAskUser returns the ask_user tool. It asks the facade of the turn
// (tools.FacadeFrom) when that facade is a UserAsker; anywhere else (-p,
// mm --ask) nobody can be asked. Asking changes nothing: it never needs
// permission. Anything but an answer is a failed call.
func NewAskUser() *Tool {
	return &Tool{
		Name:        "ask_user",
		Description: strings.TrimSpace(askUserDescription),
		Schema:      MustSchema(askUserSchema),
		SchemaText:  askUserSchema,
		Kind:        KindOther,
		Summary: func(args json.RawMessage) string {
			qs, failure := ParseQuestions(args)
			if failure != "" {
				return string(args)
			}
			return fmt.Sprintf("%d question(s)", len(qs))
		},
		Run: func(ctx context.Context, args json.RawMessage) string {
			out, _ := AskUser(ctx, args)
			return out
		},
		Checked: AskUser,
	}
}

// AskUser runs one ask_user call: the questions parsed and checked, put
// to the turn's facade, and the answers as the model reads them. failed
// is true for anything but an answer.
func AskUser(ctx context.Context, args json.RawMessage) (output string, failed bool) {
	qs, failure := ParseQuestions(args)
	if failure != "" {
		return failure, true
	}
	asker, ok := FacadeFrom(ctx).(UserAsker)
	if !ok {
		return AskUserCannot, true
	}
	answers, err := asker.AskUser(ctx, "", qs)
	switch {
	case err == nil && len(answers) == len(qs):
		return AnswersText(qs, answers), false
	case errors.Is(err, ErrDeclined):
		return AskUserDeclined, true
	case errors.Is(err, context.Canceled), errors.Is(err, context.DeadlineExceeded), ctx.Err() != nil:
		return AskUserCancelled, true
	}
	// ErrCannotAsk, or a facade that could not ask for another reason.
	return AskUserCannot, true
}

// AnswersText is the model's view of the answers: `The user answered:`,
// then `- <question> → <answer>` per question, several options joined by
// ", ".
func AnswersText(qs []Question, answers []Answer) string {
	var b strings.Builder
	b.WriteString("The user answered:")
	for i, q := range qs {
		fmt.Fprintf(&b, "\n- %s → %s", q.Text, strings.Join(answers[i].Values, ", "))
	}
	return b.String()
}

// The type synonyms the reference accepts.
var questionTypes = map[string]string{
	"choice": QuestionChoice, "single": QuestionChoice, "select": QuestionChoice, "radio": QuestionChoice, "enum": QuestionChoice, "one": QuestionChoice,
	"multi": QuestionMulti, "multiple": QuestionMulti, "multiselect": QuestionMulti, "checkbox": QuestionMulti, "checkboxes": QuestionMulti, "many": QuestionMulti,
	"text": QuestionText, "input": QuestionText, "string": QuestionText, "free": QuestionText, "freetext": QuestionText,
	"confirm": QuestionConfirm, "yesno": QuestionConfirm, "yes_no": QuestionConfirm, "boolean": QuestionConfirm, "bool": QuestionConfirm, "confirmation": QuestionConfirm,
}

// ParseQuestions reads an ask_user call's arguments: `questions`, or one
// question sent without the list (its fields at the top level). It
// returns the questions cleaned up, or one of the reference's error
// texts.
func ParseQuestions(args json.RawMessage) ([]Question, string) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(args, &top); err != nil {
		return nil, noQuestion
	}
	var items []json.RawMessage
	if raw, ok := top["questions"]; ok {
		if err := json.Unmarshal(raw, &items); err != nil {
			// One question object instead of a list of one.
			var one map[string]json.RawMessage
			if json.Unmarshal(raw, &one) != nil {
				return nil, noQuestion
			}
			items = []json.RawMessage{raw}
		}
	} else if _, ok := top["question"]; ok {
		items = []json.RawMessage{args}
	}
	switch {
	case len(items) == 0:
		return nil, noQuestion
	case len(items) > MaxQuestions:
		return nil, fmt.Sprintf("[ask_user: %d questions — ask at most %d at a time]", len(items), MaxQuestions)
	}
	qs := make([]Question, 0, len(items))
	for i, raw := range items {
		q, failure := parseQuestion(i+1, raw)
		if failure != "" {
			return nil, failure
		}
		qs = append(qs, q)
	}
	return qs, ""
}

const noQuestion = "[ask_user: no question — send questions: [{question, type, options}]]"

// rawQuestion is a question as a model may write it.
type rawQuestion struct {
	Question json.RawMessage `json:"question"`
	Type     json.RawMessage `json:"type"`
	Options  json.RawMessage `json:"options"`
	Default  json.RawMessage `json:"default"`
}

func parseQuestion(n int, raw json.RawMessage) (Question, string) {
	var rq rawQuestion
	if err := json.Unmarshal(raw, &rq); err != nil {
		// A bare string is a question to answer in words.
		var s string
		if json.Unmarshal(raw, &s) != nil {
			return Question{}, fmt.Sprintf("[ask_user: question %d has no text]", n)
		}
		rq.Question = raw
	}
	q := Question{Text: strings.TrimSpace(scalar(rq.Question))}
	if q.Text == "" {
		return q, fmt.Sprintf("[ask_user: question %d has no text]", n)
	}
	options := cleanOptions(rq.Options)
	given := strings.TrimSpace(scalar(rq.Type))
	switch t, ok := questionTypes[strings.ToLower(given)]; {
	case given == "":
		q.Type = QuestionText
		if len(rawList(rq.Options)) > 0 {
			q.Type = QuestionChoice
		}
	case ok:
		q.Type = t
	default:
		return q, fmt.Sprintf(`[ask_user: question %d has type "%s" — use choice, multi, text or confirm]`, n, given)
	}
	def := strings.TrimSpace(scalar(rq.Default))
	switch q.Type {
	case QuestionChoice, QuestionMulti:
		if len(options) < 2 {
			return q, fmt.Sprintf("[ask_user: question %d is a %s question — give it at least two options]", n, q.Type)
		}
		q.Options = options
		if q.Type == QuestionChoice && def != "" {
			for _, o := range options {
				if strings.EqualFold(o, def) {
					q.Default, q.HasDefault = o, true
					break
				}
			}
		}
	case QuestionConfirm:
		if v, ok := ConfirmWord(def); ok {
			q.Default, q.HasDefault = v, true
		}
	case QuestionText:
		if def != "" {
			q.Default, q.HasDefault = def, true
		}
	}
	return q, ""
}

// ConfirmWord reads a yes or a no, in English or French: "yes" or "no",
// ok false for anything else.
func ConfirmWord(s string) (string, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "y", "yes", "o", "oui", "true", "1":
		return "yes", true
	case "n", "no", "non", "false", "0":
		return "no", true
	}
	return "", false
}

// cleanOptions is the options trimmed, the empty ones and the duplicates
// (ignoring case) dropped, in their order.
func cleanOptions(raw json.RawMessage) []string {
	var out []string
	seen := map[string]bool{}
	for _, item := range rawList(raw) {
		o := strings.TrimSpace(scalar(item))
		if o == "" || seen[strings.ToLower(o)] {
			continue
		}
		seen[strings.ToLower(o)] = true
		out = append(out, o)
	}
	return out
}

// rawList is a JSON array's items; a lone value is a list of one.
func rawList(raw json.RawMessage) []json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) == nil {
		return list
	}
	return []json.RawMessage{raw}
}

// scalar is a JSON string, number or boolean as text ("" for anything
// else): a model writes an option 3 or a default true as often as "3".
// An option written as an object gives its label (or value).
func scalar(raw json.RawMessage) string {
	var v any
	if len(raw) == 0 || json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch x := v.(type) {
	case string:
		return x
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64)
	case bool:
		return strconv.FormatBool(x)
	case map[string]any:
		for _, k := range []string{"label", "value", "text"} {
			if s, ok := x[k].(string); ok {
				return s
			}
		}
	}
	return ""
}
