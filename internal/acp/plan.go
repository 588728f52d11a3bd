package acp

import (
	acpsdk "github.com/coder/acp-go-sdk"

	"mm/internal/agent"
	"mm/internal/plan"
	"mm/internal/termsafe"
	"mm/internal/tools"
)

// planUpdate is the plan as an ACP `plan` session update: every entry,
// each with its status (the client replaces its plan with this one, so
// an empty list clears it). The plan tool has no priorities: every entry
// is medium.
func planUpdate(items []plan.Item) acpsdk.SessionUpdate {
	entries := make([]acpsdk.PlanEntry, 0, len(items))
	for _, it := range items {
		st := acpsdk.PlanEntryStatusPending
		switch it.Status {
		case plan.InProgress:
			st = acpsdk.PlanEntryStatusInProgress
		case plan.Done:
			st = acpsdk.PlanEntryStatusCompleted
		}
		entries = append(entries, acpsdk.PlanEntry{Content: termsafe.Text(it.Text), Priority: acpsdk.PlanEntryPriorityMedium, Status: st})
	}
	return acpsdk.SessionUpdate{Plan: &acpsdk.SessionUpdatePlan{SessionUpdate: "plan", Entries: entries}}
}

// planChanged sends the plan after a plan call that changed it. Whether
// it did is the plan's to say, not the call's status: a call refused or
// failed changed nothing, but one whose output a postTool hook denied
// ran all the same.
func (l *live) planChanged(c *agent.Call) {
	if c.Name == tools.PlanName {
		l.sendPlan(l.es.Agent.Plan().Items(), false)
	}
}

// replayPlan sends a loaded session's plan, when it has one.
func (l *live) replayPlan() {
	if items := l.es.Agent.Plan().Items(); len(items) > 0 {
		l.sendPlan(items, true)
	}
}

// sendPlan sends items as the plan when they are not what the client
// was sent last (always, with force).
func (l *live) sendPlan(items []plan.Item, force bool) {
	text := plan.Render(items)
	if text == l.sentPlan && !force {
		return
	}
	l.sentPlan = text
	l.update(planUpdate(items))
}
