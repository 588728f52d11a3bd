package plan

import (
	"strings"
	"testing"
)

func TestActions(t *testing.T) {
	p := New()
	step := func(c Change, want string) {
		t.Helper()
		items, err := p.Apply(c)
		if err != nil {
			t.Fatalf("%+v: %v", c, err)
		}
		if before := p.Text(); Render(items) != want {
			t.Fatalf("%+v:\n%s\nwant\n%s", c, Render(items), want)
		} else if p.Text() != before {
			t.Fatal("Apply changed the plan")
		}
		p.Commit(items)
	}
	text := "  two\n lines  "
	step(Change{Action: "create", Items: []string{"a", "b", "c"}}, "1. [~] a\n2. [ ] b\n3. [ ] c")
	step(Change{Action: "update", Item: 2, HasNum: true, Text: &text}, "1. [~] a\n2. [ ] two lines\n3. [ ] c")
	step(Change{Action: "next"}, "1. [x] a\n2. [~] two lines\n3. [ ] c")
	step(Change{Action: "update", Item: 1, HasNum: true, Status: "pending"}, "1. [ ] a\n2. [~] two lines\n3. [ ] c")
	step(Change{Action: "next"}, "1. [~] a\n2. [x] two lines\n3. [ ] c")
	step(Change{Action: "delete", Item: 1, HasNum: true}, "1. [x] two lines\n2. [ ] c")
	step(Change{Action: "next"}, "1. [x] two lines\n2. [~] c")
	step(Change{Action: "delete"}, "")
	if p.Items() != nil {
		t.Errorf("deleted plan: %v", p.Items())
	}
}

func TestLimits(t *testing.T) {
	p := New()
	many := make([]string, MaxItems+1)
	for i := range many {
		many[i] = "x"
	}
	if _, err := p.Apply(Change{Action: "create", Items: many}); err == nil || !strings.Contains(err.Error(), "at most 50 items") {
		t.Errorf("51 items: %v", err)
	}
	items, err := p.Apply(Change{Action: "create", Items: []string{strings.Repeat("é", 400)}})
	if err != nil {
		t.Fatal(err)
	}
	if n := len([]rune(items[0].Text)); n != MaxItemText {
		t.Errorf("a long item kept %d characters", n)
	}
}

// Set keeps only items an action could have made (a hand-edited file).
func TestSet(t *testing.T) {
	p := New()
	p.Set([]Item{{Text: "ok", Status: Done}, {Text: " ", Status: Pending}, {Text: "bad", Status: "started"}, {Text: "a\nb", Status: InProgress}})
	if got := p.Text(); got != "1. [x] ok\n2. [~] a b" {
		t.Errorf("Set: %q", got)
	}
	var none *Plan
	none.Set([]Item{{Text: "x", Status: Done}})
	if none.Items() != nil || none.Text() != "" {
		t.Error("a nil plan holds items")
	}
	p.Clear()
	if p.Items() != nil {
		t.Error("Clear left items")
	}
}
