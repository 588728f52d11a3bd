package tools

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestParseQuestions(t *testing.T) {
	for _, tc := range []struct {
		name, args string
		want       []Question
		failure    string
	}{
		{"one choice, default kept as the option is written", `{"questions":[{"question":" Which? ","type":"choice","options":[" a ","B","b",""," c"],"default":"b"}]}`,
			[]Question{{Text: "Which?", Type: QuestionChoice, Options: []string{"a", "B", "c"}, Default: "B", HasDefault: true}}, ""},
		{"one question without the list", `{"question":"Go on?","type":"yesno","default":"oui"}`,
			[]Question{{Text: "Go on?", Type: QuestionConfirm, Default: "yes", HasDefault: true}}, ""},
		{"questions as one object", `{"questions":{"question":"Name?"}}`,
			[]Question{{Text: "Name?", Type: QuestionText}}, ""},
		{"no type: choice with options, else text", `{"questions":[{"question":"A?","options":["x","y"]},{"question":"B?","default":" bob "}]}`,
			[]Question{{Text: "A?", Type: QuestionChoice, Options: []string{"x", "y"}}, {Text: "B?", Type: QuestionText, Default: "bob", HasDefault: true}}, ""},
		{"a choice default that is no option is dropped", `{"questions":[{"question":"A?","type":"radio","options":["x","y"],"default":"z"}]}`,
			[]Question{{Text: "A?", Type: QuestionChoice, Options: []string{"x", "y"}}}, ""},
		{"multi has no default", `{"questions":[{"question":"M?","type":"checkboxes","options":["x","y"],"default":"x"}]}`,
			[]Question{{Text: "M?", Type: QuestionMulti, Options: []string{"x", "y"}}}, ""},
		{"confirm: options ignored, default false is no", `{"questions":[{"question":"C?","type":"boolean","options":["a","b"],"default":false}]}`,
			[]Question{{Text: "C?", Type: QuestionConfirm, Default: "no", HasDefault: true}}, ""},
		{"confirm: a default neither yes nor no is dropped", `{"questions":[{"question":"C?","type":"confirm","default":"maybe"}]}`,
			[]Question{{Text: "C?", Type: QuestionConfirm}}, ""},
		{"text: options ignored", `{"questions":[{"question":"T?","type":"freetext","options":["a","b"]}]}`,
			[]Question{{Text: "T?", Type: QuestionText}}, ""},
		{"numbers as options", `{"questions":[{"question":"N?","options":[1,2,2]}]}`,
			[]Question{{Text: "N?", Type: QuestionChoice, Options: []string{"1", "2"}}}, ""},
		{"no question", `{}`, nil, "[ask_user: no question — send questions: [{question, type, options}]]"},
		{"empty list", `{"questions":[]}`, nil, "[ask_user: no question — send questions: [{question, type, options}]]"},
		{"five", `{"questions":["a","b","c","d","e"]}`, nil, "[ask_user: 5 questions — ask at most 4 at a time]"},
		{"no text", `{"questions":[{"question":"ok?"},{"question":"  ","type":"text"}]}`, nil, "[ask_user: question 2 has no text]"},
		{"one option", `{"questions":[{"question":"A?","type":"choice","options":["x","X "]}]}`, nil, "[ask_user: question 1 is a choice question — give it at least two options]"},
		{"multi without options", `{"questions":[{"question":"A?","type":"many"}]}`, nil, "[ask_user: question 1 is a multi question — give it at least two options]"},
		{"unknown type", `{"questions":[{"question":"A?","type":"Slider"}]}`, nil, `[ask_user: question 1 has type "Slider" — use choice, multi, text or confirm]`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, failure := ParseQuestions(json.RawMessage(tc.args))
			if failure != tc.failure {
				t.Fatalf("failure %q, want %q", failure, tc.failure)
			}
			if tc.failure == "" && !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

// Every synonym of the reference resolves to its type.
func TestQuestionTypeSynonyms(t *testing.T) {
	for want, names := range map[string][]string{
		QuestionChoice:  {"choice", "single", "select", "radio", "enum", "one"},
		QuestionMulti:   {"multi", "multiple", "multiselect", "checkbox", "checkboxes", "many"},
		QuestionText:    {"text", "input", "string", "free", "freetext"},
		QuestionConfirm: {"confirm", "yesno", "yes_no", "boolean", "bool", "confirmation"},
	} {
		for _, n := range names {
			args, _ := json.Marshal(map[string]any{"question": "q", "type": strings.ToUpper(n), "options": []string{"a", "b"}})
			qs, failure := ParseQuestions(args)
			if failure != "" || qs[0].Type != want {
				t.Errorf("%s: %v %q, want %s", n, qs, failure, want)
			}
		}
	}
}

type fakeAsker struct {
	answers []Answer
	err     error
	asker   string
	got     []Question
}

func (f *fakeAsker) AskUser(_ context.Context, asker string, qs []Question) ([]Answer, error) {
	f.asker, f.got = asker, qs
	return f.answers, f.err
}

// The result texts, and which count as a failed call.
func TestAskUserResults(t *testing.T) {
	args := json.RawMessage(`{"questions":[{"question":"Which?","options":["a","b","c"],"type":"multi"},{"question":"Go?","type":"confirm"}]}`)
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		facade any
		want   string
		failed bool
	}{
		{"answered", context.Background(), &fakeAsker{answers: []Answer{{Values: []string{"a", "c"}}, {Values: []string{"yes"}}}},
			"The user answered:\n- Which? → a, c\n- Go? → yes", false},
		{"declined", context.Background(), &fakeAsker{err: ErrDeclined}, AskUserDeclined, true},
		{"cannot", context.Background(), &fakeAsker{err: ErrCannotAsk}, AskUserCannot, true},
		{"cancelled", cancelled, &fakeAsker{err: context.Canceled}, AskUserCancelled, true},
		{"another error", context.Background(), &fakeAsker{err: errors.New("pipe closed")}, AskUserCannot, true},
		{"no facade", context.Background(), nil, AskUserCannot, true},
		{"a facade that cannot ask", context.Background(), struct{}{}, AskUserCannot, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := tc.ctx
			if tc.facade != nil {
				ctx = WithFacade(ctx, tc.facade)
			}
			out, failed := NewAskUser().Checked(ctx, args)
			if out != tc.want || failed != tc.failed {
				t.Errorf("got %q failed=%v, want %q failed=%v", out, failed, tc.want, tc.failed)
			}
			if f, ok := tc.facade.(*fakeAsker); ok && f.asker != "" {
				t.Errorf("asker %q for the agent's own questions", f.asker)
			}
		})
	}
	if out, failed := NewAskUser().Checked(context.Background(), json.RawMessage(`{"questions":[]}`)); !failed || !strings.HasPrefix(out, "[ask_user: no question") {
		t.Errorf("an error is no failed call: %q %v", out, failed)
	}
}

func TestAskUserTool(t *testing.T) {
	tool := NewAskUser()
	if tool.NeedsPermission(json.RawMessage(`{"question":"x"}`)) {
		t.Error("asking needs no permission")
	}
	if s := tool.SummaryOf(json.RawMessage(`{"questions":["a","b"]}`)); s != "2 question(s)" {
		t.Errorf("summary %q", s)
	}
	// The schema names no field of a question: llama.cpp would impose
	// them in alphabetical order.
	if strings.Count(tool.SchemaText, `"properties"`) != 1 {
		t.Errorf("schema %s", tool.SchemaText)
	}
}
