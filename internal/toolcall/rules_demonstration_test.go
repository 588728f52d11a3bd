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
		// a_call_like_this: any call of the kind, whatever the gerund.
		"Writing a tool call like this:",
		"Sending a request as follows:",
		"Making a function call looks like this:",
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
		"I'll read the file first:",     // no demonstration at all
		"Let me make a call like this:", // the first person makes it the model's
		"Reading the file this way:",    // the call, not any call
	}
	for _, b := range runs {
		checkCalls(t, b, recoverText(t, around(b)), call{"read_file", `{"path":"main.go"}`})
	}
}
