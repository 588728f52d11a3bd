package oneshot

import "mm/internal/hooks"

// hookEvent is a hook's decision in `mm -p --json` (docs/scripting.md):
// deny, replace, context or continue, with its text.
type hookEvent struct {
	Type     string `json:"type"`
	Event    string `json:"event"`
	Name     string `json:"name,omitempty"`
	Command  string `json:"command"`
	Decision string `json:"decision"`
	Text     string `json:"text"`
}

// HookDecided writes the hook event.
func (j *jsonUI) HookDecided(d hooks.Decision) {
	j.ev.emit(hookEvent{"hook", d.Event, d.Name, d.Command, d.Decision, d.Text})
}
