// Package plan is the state behind the plan tool: the model's checklist
// for the task at hand, a list of items each pending, in progress or
// done. It is state, not history: a session saves it, a resumed one gets
// it back, and a compression keeps it (the agent re-adds its text after
// the summary), so the model never loses track of it.
package plan

import (
	"fmt"
	"strings"
	"sync"
)

// Status is where an item stands; the names are the tool's and ACP's
// ("done" is ACP's "completed").
type Status string

// The statuses of an item.
const (
	Pending    Status = "pending"
	InProgress Status = "in_progress"
	Done       Status = "done"
)

// Item is one step of the plan.
type Item struct {
	Text   string `json:"text"`
	Status Status `json:"status"`
}

// The bounds of a plan: it is read whole after every change, so a long
// one would cost the model's context at each step.
const (
	MaxItems    = 50
	MaxItemText = 300 // characters
)

// Plan is one conversation's checklist. The zero value is an empty plan;
// its methods are safe for concurrent use (a facade reads it while a
// turn changes it). A nil *Plan is the plan of a conversation without
// the tool: it is empty and ignores Set.
type Plan struct {
	mu    sync.Mutex
	items []Item
}

// New returns an empty plan.
func New() *Plan { return &Plan{} }

// Items is a copy of the items (nil when the plan is empty).
func (p *Plan) Items() []Item {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.items) == 0 {
		return nil
	}
	return append([]Item(nil), p.items...)
}

// Set replaces the items (a resumed session's plan); items that are not
// valid (an unknown status, an empty text) are left out, so that a file
// edited by hand never gives the model a plan it cannot act on.
func (p *Plan) Set(items []Item) {
	if p == nil {
		return
	}
	var kept []Item
	for _, it := range items {
		text := clean(it.Text)
		if text == "" || !it.Status.valid() || len(kept) == MaxItems {
			continue
		}
		kept = append(kept, Item{Text: cutText(text), Status: it.Status})
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.items = kept
}

// Clear empties the plan (/new).
func (p *Plan) Clear() { p.Set(nil) }

// Text is the plan as the model reads it: one line per item, `N. [ ] text`
// pending, `N. [~] text` in progress, `N. [x] text` done; "" when empty.
func (p *Plan) Text() string { return Render(p.Items()) }

// Render is items as Text writes them.
func Render(items []Item) string {
	var b strings.Builder
	for i, it := range items {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%d. [%s] %s", i+1, it.Status.mark(), it.Text)
	}
	return b.String()
}

func (s Status) mark() string {
	switch s {
	case InProgress:
		return "~"
	case Done:
		return "x"
	}
	return " "
}

func (s Status) valid() bool { return s == Pending || s == InProgress || s == Done }

// Change is one call of the plan tool, decoded.
type Change struct {
	Action string
	Items  []string
	Item   int  // 1-based; 0 when not given
	HasNum bool // item was given
	Status string
	Text   *string
}

// Apply works c out against the plan as it stands and returns the plan
// it would leave, without changing anything (the permission prompt shows
// it; Commit makes it the plan). A call that cannot be made gets an
// error the model can act on: what is wrong and what to send instead.
func (p *Plan) Apply(c Change) ([]Item, error) {
	cur := p.Items()
	switch c.Action {
	case "create":
		return create(c)
	case "update":
		return update(cur, c)
	case "next":
		return next(cur)
	case "delete":
		return remove(cur, c)
	case "":
		return nil, fmt.Errorf("action is needed: create, update, next or delete")
	}
	return nil, fmt.Errorf("unknown action %q; the actions are create, update, next and delete", c.Action)
}

// Commit makes items the plan.
func (p *Plan) Commit(items []Item) {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.items = append([]Item(nil), items...)
}

func create(c Change) ([]Item, error) {
	if len(c.Items) == 0 {
		return nil, fmt.Errorf(`create needs items: the steps as a list of strings, e.g. {"action":"create","items":["first step","second step"]}`)
	}
	if len(c.Items) > MaxItems {
		return nil, fmt.Errorf("a plan has at most %d items (got %d): group the steps", MaxItems, len(c.Items))
	}
	out := make([]Item, 0, len(c.Items))
	for i, t := range c.Items {
		t = clean(t)
		if t == "" {
			return nil, fmt.Errorf("item %d is empty: every item needs a text", i+1)
		}
		st := Pending
		if i == 0 {
			// The first step is the one being worked on: the model
			// need not make a second call to say so.
			st = InProgress
		}
		out = append(out, Item{Text: cutText(t), Status: st})
	}
	return out, nil
}

func update(cur []Item, c Change) ([]Item, error) {
	i, err := index(cur, c, "update")
	if err != nil {
		return nil, err
	}
	if c.Status == "" && c.Text == nil {
		return nil, fmt.Errorf("update needs status (pending, in_progress or done) or text for item %d", c.Item)
	}
	out := append([]Item(nil), cur...)
	if c.Status != "" {
		st := Status(c.Status)
		if !st.valid() {
			return nil, fmt.Errorf("unknown status %q; the statuses are pending, in_progress and done", c.Status)
		}
		out[i].Status = st
	}
	if c.Text != nil {
		t := clean(*c.Text)
		if t == "" {
			return nil, fmt.Errorf("text is empty: send the item's new text, or delete item %d", c.Item)
		}
		out[i].Text = cutText(t)
	}
	return out, nil
}

func next(cur []Item) ([]Item, error) {
	if len(cur) == 0 {
		return nil, errNoPlan
	}
	out := append([]Item(nil), cur...)
	moved := false
	for i := range out {
		if out[i].Status == InProgress {
			out[i].Status = Done
			moved = true
		}
	}
	for i := range out {
		if out[i].Status == Pending {
			out[i].Status = InProgress
			return out, nil
		}
	}
	if !moved {
		return nil, fmt.Errorf("nothing to move on from: every item is done; create a new plan, or update an item")
	}
	return out, nil
}

func remove(cur []Item, c Change) ([]Item, error) {
	if len(cur) == 0 {
		return nil, errNoPlan
	}
	if !c.HasNum {
		return nil, nil // the whole plan
	}
	i, err := index(cur, c, "delete")
	if err != nil {
		return nil, err
	}
	return append(append([]Item(nil), cur[:i]...), cur[i+1:]...), nil
}

var errNoPlan = fmt.Errorf(`there is no plan yet: create one first, e.g. {"action":"create","items":["first step","second step"]}`)

// index is the 0-based index of c.Item in cur, or the error that says
// which numbers there are.
func index(cur []Item, c Change, action string) (int, error) {
	if len(cur) == 0 {
		return 0, errNoPlan
	}
	if !c.HasNum {
		return 0, fmt.Errorf("%s needs item: the number of the item, 1 to %d", action, len(cur))
	}
	if c.Item < 1 || c.Item > len(cur) {
		return 0, fmt.Errorf("there is no item %d: the items are numbered 1 to %d", c.Item, len(cur))
	}
	return c.Item - 1, nil
}

// clean makes an item's text one line: the plan is read one line per
// item.
func clean(s string) string { return strings.Join(strings.Fields(s), " ") }

func cutText(s string) string {
	r := []rune(s)
	if len(r) <= MaxItemText {
		return s
	}
	return string(r[:MaxItemText-1]) + "…"
}
