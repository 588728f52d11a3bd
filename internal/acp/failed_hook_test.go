package acp

import "testing"

// A call a hook denied is failed when a saved session is loaded, as it
// showed live; an output that only quotes the words is not.
func TestFailedOutputHookDenied(t *testing.T) {
	for out, want := range map[string]bool{
		"[bash denied by a hook: no pushes]":            true,
		"[ask denied by a hook: not today]":             true,
		"[git_status denied by a hook: line one]":       true,
		"the log says [bash denied by a hook: x]":       false,
		"[bash denied by a hook: x] and then it ran ok": false,
	} {
		if got := failedOutput(out); got != want {
			t.Errorf("failedOutput(%q) = %v, want %v", out, got, want)
		}
	}
}
