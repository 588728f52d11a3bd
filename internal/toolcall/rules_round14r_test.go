package toolcall

import "testing"

// Round 14r's rules (rule_round14r.go and the narrowings of round 13's
// phrase rules), each with the near miss on the other side of it.

func TestRuleLeadSavesElsewhere(t *testing.T) {
	hermes := func(lead, name, args string) string {
		return lead + "\n<tool_call>\n{\"name\": \"" + name + "\", \"arguments\": " + args + "}\n</tool_call>"
	}
	checkCalls(t, "the imperative names the file the call writes",
		recoverText(t, hermes("Save it as notes.md then:", "write_file", `{"path": "notes.md", "content": "x"}`)),
		call{"write_file", `{"content":"x","path":"notes.md"}`})
	checkCalls(t, "an imperative naming no file is the model's step",
		recoverText(t, hermes("Copy the file into place:", "bash", `{"command": "cp a b"}`)),
		call{"bash", `{"command":"cp a b"}`})
	checkCalls(t, "Makefile named and edited",
		recoverText(t, hermes("Put this in the Makefile:", "edit_file", `{"path": "Makefile", "edits": [{"old": "a", "new": "b"}]}`)),
		call{"edit_file", `{"edits":[{"new":"b","old":"a"}],"path":"Makefile"}`})
	wantText(t, "near miss: the named file is not the call's",
		recoverText(t, hermes("Save this as testdata/call.txt for the parser test:", "write_file", `{"path": "out.txt", "content": "hi"}`)))
	wantText(t, "near miss: told to the user",
		recoverText(t, hermes("Put this in your ~/.bashrc, then open a new shell:", "bash", `{"command": "export PATH=$HOME/bin:$PATH"}`)))
}

func TestRuleLeadDescribesBlockNarrowed(t *testing.T) {
	hermes := func(lead string) string {
		return lead + "\n<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"make\"}}\n</tool_call>"
	}
	for _, lead := range []string{
		"Restoring the original config verbatim from the backup:",
		"Running your command word for word:",
		"Patch copied from upstream commit 4f2a1c, applying it now:",
		"Wrap the call in a timeout:",
		"Examples: none needed, running the suite directly:",
	} {
		checkCalls(t, lead, recoverText(t, hermes(lead)), call{"bash", `{"command":"make"}`})
	}
	for _, lead := range []string{
		"This is the reply verbatim from the server log:",
		"The example copied from the Hermes docs:",
		"Showing the agent's last turn verbatim:",
		"Wrap the call in function_calls tags:",
		"Examples:",
	} {
		wantText(t, "near miss: "+lead, recoverText(t, hermes(lead)))
	}
}

func TestRuleParsedToNarrowed(t *testing.T) {
	call1 := "<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"make\"}}\n</tool_call>"
	checkCalls(t, "maps to: about what the command does",
		recoverText(t, call1+"\nIt maps to port 8080 on your machine."), call{"bash", `{"command":"make"}`})
	checkCalls(t, "translates to: about what the command does",
		recoverText(t, call1+"\nThis translates to a full rebuild."), call{"bash", `{"command":"make"}`})
	wantText(t, "near miss: parses to the object shown after it",
		recoverText(t, call1+"\nparses to {\"name\": \"bash\", \"arguments\": {\"command\": \"make\"}} in the harness."))
}

func TestRuleNextStepLead(t *testing.T) {
	st := func(lead string) string {
		return lead + "\n<steptml:invoke name=\"read_file\">\n<steptml:parameter name=\"path\">config.toml</steptml:parameter>\n</steptml:invoke>"
	}
	for _, lead := range []string{"Next, the config file.", "I'd better look at the config first.", "Time to read the config."} {
		checkCalls(t, lead, recoverText(t, st(lead)), call{"read_file", `{"path":"config.toml"}`})
	}
	wantText(t, "near miss: a transcript's line", recoverText(t, st("Assistant: Next, the config file.")))
	wantText(t, "near miss: a description of the format", recoverText(t, st("Step3 wraps each call in steptml tags:")))
}

func TestRuleClineStepsBetween(t *testing.T) {
	two := func(between string) string {
		return "I'll read both files.\n\n<read_file>\n<path>a.go</path>\n</read_file>\n\n" + between + "\n\n<read_file>\n<path>b.go</path>\n</read_file>"
	}
	for _, b := range []string{"And the second one:", "Now let me check the `<Header>` component too.", "Then the other file."} {
		checkCalls(t, b, recoverText(t, two(b)), call{"read_file", `{"path":"a.go"}`}, call{"read_file", `{"path":"b.go"}`})
	}
	wantText(t, "near miss: words on how the block looks",
		recoverText(t, "Roo reads a file like this:\n\n<read_file>\n<path>a.go</path>\n</read_file>\n\nThat is how the read tool looks.\n\n<read_file>\n<path>b.go</path>\n</read_file>"))
}

func TestRuleGenericCallAttrs(t *testing.T) {
	checkCalls(t, "an id attribute on the call tag",
		recoverText(t, "<invoke name=\"bash\" callId=\"1\">\n<parameter name=\"command\">ls</parameter>\n</invoke>"), call{"bash", `{"command":"ls"}`})
	wantText(t, "near miss: BPEL's invoke",
		recoverText(t, "<invoke name=\"bash\" partnerLink=\"shell\" operation=\"run\">\n<parameter name=\"command\">ls</parameter>\n</invoke>"))
}

func TestRuleCutTypedCallObject(t *testing.T) {
	r := Recover(Input{Content: `{"type": "function", "function": {"name": "write_file", "arguments": {"path": "a.md", "content": "# A\n\nlong`, FinishReason: "length", Tools: toolsFor(t, "write_file")})
	if len(r.Calls) != 0 || len(r.Rejections) != 1 || !r.Rejections[0].Truncated {
		t.Errorf("a cut {type: function} call: calls %v rejections %v, want the cut correction", r.Calls, r.Rejections)
	}
	r = Recover(Input{Content: `{"type": "record", "fields": [{"name": "a", "doc": "long`, FinishReason: "length", Tools: toolsFor(t, "write_file")})
	if len(r.Calls) != 0 || len(r.Rejections) != 0 {
		t.Errorf("near miss: cut data with a type key: calls %v rejections %v", r.Calls, r.Rejections)
	}
}
