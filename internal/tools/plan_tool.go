package tools

import (
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"mm/internal/plan"
)

//go:embed plan_tool.md
var planDescription string

// PlanName is the plan tool's name.
const PlanName = "plan"

// PlanEmpty is what the model reads once the whole plan is deleted.
const PlanEmpty = "(the plan is empty)"

const planSchema = `{"type":"object","properties":{` +
	`"action":{"type":"string","enum":["create","update","next","delete"]},` +
	`"items":{"type":"array","items":{"type":"string"}},` +
	`"item":{"type":"integer"},` +
	`"status":{"type":"string","enum":["pending","in_progress","done"]},` +
	`"text":{"type":"string"}},` +
	`"required":["action"]}`

// PlanDescription is the plan tool's description as declared (its size
// is measured with the fixed prompt's).
func PlanDescription() string { return strings.TrimSpace(planDescription) }

// NewPlan returns the plan tool over p, the conversation's plan. Every
// action changes the plan, so every call asks under yolo: false (and is
// refused where nobody can answer, -p); a call that cannot be made
// (bad arguments) fails at once without asking anybody. The permission
// prompt shows the plan as the call would leave it, and what the model
// reads is the whole plan, one line per item.
func NewPlan(p *plan.Plan) *Tool {
	call := func(args json.RawMessage) Planned {
		c, err := decodePlanArgs(args)
		if err != nil {
			return Planned{Done: fmt.Sprintf("[error: plan: bad arguments: %v]", err), Failed: true}
		}
		items, err := p.Apply(c)
		if err != nil {
			return Planned{Done: fmt.Sprintf("[error: plan: %v]", err), Failed: true}
		}
		out := plan.Render(items)
		if out == "" {
			out = PlanEmpty
		}
		return Planned{Preview: out, Apply: func(context.Context) string {
			p.Commit(items)
			return out
		}}
	}
	return &Tool{
		Name:        PlanName,
		Description: PlanDescription(),
		Schema:      MustSchema(planSchema),
		SchemaText:  planSchema,
		Kind:        KindThink,
		Mutates:     func(json.RawMessage) bool { return true },
		Summary: func(args json.RawMessage) string {
			c, err := decodePlanArgs(args)
			if err != nil {
				return clipSummary(string(args), 200)
			}
			return planSummary(c)
		},
		Plan: call,
		// Plan stands in for Run; Run is there for a caller that runs
		// tools without the agent.
		Run: func(ctx context.Context, args json.RawMessage) string {
			return planned(call(args), ctx)
		},
	}
}

// planSummary is a call in a few words: `create 3 items`, `update 2:
// done`, `next`, `delete 2`, `delete the whole plan`. The model's free
// text is cut short (summaryText): the summary is the tool line, the
// permission prompt and the ACP title, and the plan the call makes is
// shown under it in full.
func planSummary(c plan.Change) string {
	switch c.Action {
	case "create":
		return fmt.Sprintf("create %d item(s)", len(c.Items))
	case "update":
		var what []string
		if c.Status != "" {
			what = append(what, clipSummary(c.Status, summaryText))
		}
		if c.Text != nil {
			what = append(what, fmt.Sprintf("%q", clipSummary(*c.Text, summaryText)))
		}
		item := "(no item)" // the call fails: update needs one
		if c.HasNum {
			item = fmt.Sprint(c.Item)
		}
		if len(what) == 0 {
			return "update " + item
		}
		return fmt.Sprintf("update %s: %s", item, strings.Join(what, ", "))
	case "delete":
		if !c.HasNum {
			return "delete the whole plan"
		}
		return fmt.Sprintf("delete %d", c.Item)
	}
	return clipSummary(c.Action, summaryText)
}

// summaryText is how much of a text the model sent a plan call's summary
// shows, in characters.
const summaryText = 60

// clipSummary is s cut to n characters, "…" marking the cut.
func clipSummary(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// decodePlanArgs reads a call. Small models send numbers quoted ("2"):
// the item's number is read either way. (A list sent as a string never
// gets here: the call is refused against the schema, with its correction
// text, before it runs.)
func decodePlanArgs(args json.RawMessage) (plan.Change, error) {
	var a struct {
		Action string          `json:"action"`
		Items  json.RawMessage `json:"items"`
		Item   *flexInt        `json:"item"`
		Status string          `json:"status"`
		Text   *string         `json:"text"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		return plan.Change{}, err
	}
	c := plan.Change{Action: strings.TrimSpace(a.Action), Status: strings.TrimSpace(a.Status), Text: a.Text}
	if a.Item != nil {
		c.Item, c.HasNum = int(*a.Item), true
	}
	if len(a.Items) > 0 && string(a.Items) != "null" {
		if err := json.Unmarshal(a.Items, &c.Items); err != nil {
			return plan.Change{}, fmt.Errorf(`items must be a list of strings, e.g. ["first step","second step"]`)
		}
	}
	return c, nil
}
