package toolcall

import "strings"

// Round 8f's rules (widened-threads-round8f.jsonl).

// reportedReturnRe is rule "reported_return": the quoting lead-in of
// quotes_emitted_output (rule_round4b.go) with the verb before its object —
// "Ollama sometimes returned this instead of the plain parameters:", "the
// server sends the following:" (ollama/ollama#11805 reports a nested
// arguments object that way). A third-person subject (the model, the
// server, the proxy, the API, it, they or a proper name, never I or we),
// a verb of giving output back, then this / the following / something like
// this, and the lead-in ends with a colon: what follows is that output
// quoted, not a call.
var reportedReturnRe = lazyRegexp(`(?:^|[.!?]\s+|\n)(?:(?i:the model|the server|the proxy|the api|the endpoint|it|they)|(?i:(?:the|your|their|this|that|a|an|one|my|our)\s+(?:[\w.-]+\s+){0,2}(?:model|server|proxy|api|endpoint|backend|client|llm|gateway|router))|[A-HJ-Z][\w.-]*|I[\w.-]+)\s+(?:(?i:sometimes|often|occasionally|then|instead|still|always|also)\s+)?(?i:returned|returns|emitted|emits|sent|sends|produced|produces|generated|generates|gave back|gives back|streamed|streams)\s+(?i:this|the following|something like this|output like this|a reply like this)\b[^.:：!?\n]{0,60}[:：]\s*$`)

func notIntendedRound8f(before string) bool {
	if !strings.HasSuffix(strings.TrimRight(before, " \t\r\n"), ":") && !strings.HasSuffix(strings.TrimRight(before, " \t\r\n"), "：") {
		return false
	}
	// ownStepAfterReport: rule_redteam9.go.
	return reportedReturnRe().MatchString(strings.TrimRight(before, " \t\r\n")) && !ownStepAfterReport(before)
}
