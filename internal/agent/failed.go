package agent

import (
	"strings"

	"mm/internal/tools"
)

// FailedOutput reports whether a call's output says it did not complete:
// an error, not run, a kill (a cancel, a timeout, an output cap), a
// refusal, a declined or cancelled question. Every facade shows such a
// call failed (ACP's status, the window's `· failed`), also for a tool
// that does not set Failed itself (bash) and for a replayed call, which
// has nothing but its output.
func FailedOutput(out string) bool {
	first, _, _ := strings.Cut(out, "\n")
	// bash says a kill (a cancel, its timeout, its output cap) on the
	// last line, after what the command printed.
	last := out[strings.LastIndexByte(out, '\n')+1:]
	// A saved session's call that a kill cut off ("[cut off: mm ended
	// while this call ran …]", OnCheckpoint) did not complete.
	return strings.HasPrefix(out, "[error") || strings.HasPrefix(out, "[not run") || strings.HasPrefix(out, "[cut off: mm ended ") ||
		strings.HasPrefix(out, "[engine error") || strings.HasPrefix(out, "[fetch_content: error ") ||
		(strings.HasPrefix(last, "[error: ") && strings.HasSuffix(last, "]")) ||
		(strings.HasPrefix(first, "[") && strings.HasSuffix(first, " rejected by the user]")) ||
		// A hook's refusal ("[bash denied by a hook: …]", "[ask denied by
		// a hook: …]"): the call did not run, as it showed live.
		(strings.HasPrefix(first, "[") && strings.Contains(first, " denied by a hook: ") && strings.HasSuffix(out, "]")) ||
		// ask_user and ask_agent: an error, or anything but an answer.
		strings.HasPrefix(out, "[ask_user: ") || strings.HasPrefix(last, "[ask_agent: ") ||
		out == tools.AskUserDeclined || out == tools.AskUserCancelled || out == tools.AskUserCannot
}
