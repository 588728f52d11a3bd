package llmtest

import (
	"fmt"
	"strings"
)

// SummaryMarker is how the scripted server recognises mm's built-in
// summary request (agent.SummaryPrompt starts with it) in the last user
// message. llmtest cannot import the agent (the agent's tests import
// llmtest), so the two are kept equal by cmd/mm's compression tests.
const SummaryMarker = "Summarize the conversation so far."

// SummaryTextPrefix starts every answer SummaryTurn gives, so that a test
// can find the summary in a later request.
const SummaryTextPrefix = "LLMTEST SUMMARY"

// IsSummaryRequest reports whether a chat request is a summary request:
// its last message is a user message that starts with SummaryMarker.
func IsSummaryRequest(req *Request) bool {
	msgs, _ := req.JSON["messages"].([]any)
	if len(msgs) == 0 {
		return false
	}
	last, _ := msgs[len(msgs)-1].(map[string]any)
	content, _ := last["content"].(string)
	return last["role"] == "user" && strings.HasPrefix(content, SummaryMarker)
}

// SummaryTurn answers a summary request recognisably: SummaryTextPrefix,
// the number of messages summarized, and the user questions among them,
// one per line.
func SummaryTurn(req *Request) Turn {
	msgs, _ := req.JSON["messages"].([]any)
	var b strings.Builder
	fmt.Fprintf(&b, "%s of %d messages.\nTask:", SummaryTextPrefix, len(msgs)-1)
	for _, m := range msgs[:max(len(msgs)-1, 0)] {
		mm, _ := m.(map[string]any)
		if content, _ := mm["content"].(string); mm["role"] == "user" {
			fmt.Fprintf(&b, "\n- %s", firstLine(content))
		}
	}
	return Turn{Text: b.String()}
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > 120 {
		s = s[:120]
	}
	return s
}
