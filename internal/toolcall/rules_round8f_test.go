package toolcall

import "testing"

// reported_return: a third-person report of what a server or model
// returned is quoted output; the same call after the model's own lead-in,
// or with I as the subject, still runs.
func TestRuleReportedReturn(t *testing.T) {
	fenced := "\n\n```json\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"README.md\"}}\n```"
	want := []call{{"read_file", `{"path":"README.md"}`}}
	runTemplateCases(t, []templateCase{
		{label: "a server's output reported", answer: true,
			content: "Ollama sometimes returned this instead of the plain parameters:" + fenced},
		{label: "the following, present tense", answer: true,
			content: "The server sends the following when the bug hits:" + fenced},
		{label: "something like this", answer: true,
			content: "It returned something like this:" + fenced},
		// Near misses: the model acting, and I as the subject.
		{label: "near miss: the model reads it", content: "Let me read the README first:" + fenced, want: want},
		{label: "near miss: I returned to the file", content: "I returned to the README; reading it now:" + fenced, want: want},
	})
}
