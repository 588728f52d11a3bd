package toolcall

import "testing"

// A lead-in that demonstrates (rule_demonstration.go): shown unless the
// model announces its own step in it.
func TestRuleDemonstrationLead(t *testing.T) {
	around := func(before string) string { return before + "\n\n" + hermesRF }
	shown := []string{
		"The agent's prompt asks for a blob like this:",
		"The template expects the call in this format:",
		"A request to the tool is written as follows:",
		"Run it yourself like so:",
		"Qwen writes something like:",
		"The parser accepts calls of the form:",
		"I'll show you how to call it like this:",
		`The model said "let me read it" and wrote it like this:`,
	}
	for _, b := range shown {
		wantText(t, b, recoverText(t, around(b)))
	}
	runs := []string{
		"Let me read it like this:",
		"I'll use the read_file tool like this:",
		"Let me do it this way:",
		"Reading it as follows:",
		"I'm going to open it like so:",
		"I'll read the file first:", // no demonstration at all
	}
	for _, b := range runs {
		checkCalls(t, b, recoverText(t, around(b)), call{"read_file", `{"path":"main.go"}`})
	}
}
