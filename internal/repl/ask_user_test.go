package repl

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"mm/internal/tools"
	"mm/internal/ui"
)

func TestParseAnswer(t *testing.T) {
	choice := tools.Question{Text: "c", Type: tools.QuestionChoice, Options: []string{"Apple", "Apricot", "Banana"}}
	multi := tools.Question{Text: "m", Type: tools.QuestionMulti, Options: []string{"a", "b", "c"}}
	multiFiles := tools.Question{Text: "m", Type: tools.QuestionMulti, Options: []string{"a.go", "b.go", "c.go", "blue sky"}}
	confirm := tools.Question{Text: "y", Type: tools.QuestionConfirm}
	text := tools.Question{Text: "t", Type: tools.QuestionText}
	for _, tc := range []struct {
		q    tools.Question
		line string
		want []string // nil: does not answer
	}{
		{choice, "2", []string{"Apricot"}},
		{choice, " banana ", []string{"Banana"}},
		{choice, "ban", []string{"Banana"}},
		{choice, "ap", []string{"ap"}}, // the start of two options: taken as it is
		{choice, "cherry", []string{"cherry"}},
		{choice, "4", nil},
		{choice, "0", nil},
		{multi, "1, 3", []string{"a", "c"}},
		{multi, "3;1 1", []string{"c", "a"}},
		{multi, "1,,2", []string{"a", "b"}},
		{multi, "1, 4", nil},
		{multi, "a", []string{"a"}},
		{multiFiles, "a.go c.go", []string{"a.go", "c.go"}},
		{multiFiles, "C.GO; 1, a.go", []string{"c.go", "a.go"}},
		{multiFiles, "bl 3", []string{"blue sky", "c.go"}},
		{multiFiles, "b", nil}, // the start of two options
		{multiFiles, "blue sky, 2", []string{"blue sky", "b.go"}},
		{multiFiles, "a.go d.go", nil},
		{multiFiles, "1 9", nil},
		{confirm, "Y", []string{"yes"}},
		{confirm, "oui", []string{"yes"}},
		{confirm, "o", []string{"yes"}},
		{confirm, "true", []string{"yes"}},
		{confirm, "1", []string{"yes"}},
		{confirm, "non", []string{"no"}},
		{confirm, "false", []string{"no"}},
		{confirm, "0", []string{"no"}},
		{confirm, "maybe", nil},
		{text, "  some words ", []string{"some words"}},
	} {
		a, ok := parseAnswer(tc.q, tc.line)
		if tc.want == nil {
			if ok {
				t.Errorf("%s %q answered %v", tc.q.Type, tc.line, a.Values)
			}
			continue
		}
		if !ok || !reflect.DeepEqual(a.Values, tc.want) {
			t.Errorf("%s %q: %v %v, want %v", tc.q.Type, tc.line, a.Values, ok, tc.want)
		}
	}
}

// An asked agent's questions come up prefixed with its name; the
// answers are read as lines without a terminal.
func TestAskUserAskerPrefix(t *testing.T) {
	out, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	var shown bytes.Buffer
	lines := []string{"2", "", "/skip"}
	r := &REPL{p: ui.NewPrinter(&shown, &shown, false, 20), opts: Options{Out: out}}
	r.readLine = func() (string, bool) {
		if len(lines) == 0 {
			return "", false
		}
		s := lines[0]
		lines = lines[1:]
		return s, true
	}
	u := &replUI{r: r}
	qs := []tools.Question{
		{Text: "Which?", Type: tools.QuestionChoice, Options: []string{"a", "b"}},
		{Text: "Sure?", Type: tools.QuestionConfirm, Default: "yes", HasDefault: true},
	}
	answers, err := u.AskUser(context.Background(), "reviewer", qs)
	if err != nil || len(answers) != 2 || answers[0].Values[0] != "b" || answers[1].Values[0] != "yes" {
		t.Fatalf("answers %v, %v", answers, err)
	}
	for _, want := range []string{"❓ reviewer asks: Which?\n 1. a\n 2. b\n", "❓ reviewer asks: Sure?\n", "Enter: yes"} {
		if !strings.Contains(shown.String(), want) {
			t.Errorf("shown lacks %q:\n%s", want, shown.String())
		}
	}
	if _, err := u.AskUser(context.Background(), "", qs[:1]); err != tools.ErrDeclined {
		t.Errorf("/skip: %v", err)
	}
	if _, err := u.AskUser(context.Background(), "", qs[:1]); err != tools.ErrCannotAsk {
		t.Errorf("the end of the input: %v", err)
	}
}

// A number there is no option for is named.
func TestOutOfRange(t *testing.T) {
	multi := tools.Question{Type: tools.QuestionMulti, Options: []string{"a", "b", "c"}}
	choice := tools.Question{Type: tools.QuestionChoice, Options: []string{"a", "b", "8080"}}
	for _, tc := range []struct {
		q          tools.Question
		line, want string
	}{
		{multi, "1, 4", "   4 is out of range: the options are numbered 1 to 3"},
		{multi, "0 2", "   0 is out of range: the options are numbered 1 to 3"},
		{multi, "a, x", ""},
		{choice, "5", "   5 is out of range: the options are numbered 1 to 3"},
		{choice, "8080", ""},
	} {
		if got := outOfRange(tc.q, tc.line); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.line, got, tc.want)
		}
	}
}
