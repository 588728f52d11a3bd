package toolcall

import "testing"

// dsml_named_call: a DSML tag named after a declared tool holding only
// DSML fields, closed by </｜DSML｜invoke> or its own name (pi-free#381).
func TestRuleDSMLNamedCall(t *testing.T) {
	checkCalls(t, "the pi-free payload", recoverText(t, "<｜DSML｜read_file>\n <｜DSML｜path>src/a.ts</｜DSML｜path>\n</｜DSML｜invoke>"),
		call{"read_file", `{"path":"src/a.ts"}`})
	checkCalls(t, "closed by its own name, two fields",
		recoverText(t, "<｜DSML｜write_file>\n<｜DSML｜path>a.txt</｜DSML｜path>\n<｜DSML｜content>hi</｜DSML｜content>\n</｜DSML｜write_file>"),
		call{"write_file", `{"path":"a.txt","content":"hi"}`})
	// Near misses.
	wantText(t, "near miss: an undeclared tool", recoverText(t, "<｜DSML｜web_search>\n<｜DSML｜query>go</｜DSML｜query>\n</｜DSML｜invoke>"))
	checkCalls(t, "near miss: a cut block", recoverText(t, "<｜DSML｜read_file>\n <｜DSML｜path>src/a.ts"))
	checkCalls(t, "near miss: prose in the body", recoverText(t, "<｜DSML｜read_file>\nI want <｜DSML｜path>src/a.ts</｜DSML｜path>\n</｜DSML｜invoke>"))
	checkCalls(t, "near miss: a field closed by another name", recoverText(t, "<｜DSML｜read_file>\n<｜DSML｜path>src/a.ts</｜DSML｜file>\n</｜DSML｜invoke>"))
	checkCalls(t, "near miss: fenced as an example",
		recoverText(t, "Providers sometimes emit it like this:\n\n```\n<｜DSML｜read_file>\n <｜DSML｜path>src/a.ts</｜DSML｜path>\n</｜DSML｜invoke>\n```\n\nThe bridge converts it."))
	f := "<｜DSML｜read_file>\n <｜DSML｜path>src/a.ts</｜DSML｜path>\n</｜DSML｜invoke>\n"
	checkCalls(t, "near miss: a file whose content holds it",
		recoverCall(t, "write_file", `{"path": "fixture.txt", "content": "`+jsonEsc(f)+`"}`),
		call{"write_file", `{"path":"fixture.txt","content":"` + jsonEsc(f) + `"}`})
}

// hy3_sentinel_call: <tool_call:opensource>NAME<tool_sep:opensource>{…}
// <arg_value:opensource> is the call; the name alone is a call missing its
// arguments (mlx-lm#1211).
func TestRuleHy3SentinelCall(t *testing.T) {
	checkCalls(t, "the template's form", recoverText(t, `<tool_call:opensource>read_file<tool_sep:opensource>{"path": "README.md"}<arg_value:opensource>`),
		call{"read_file", `{"path":"README.md"}`})
	checkRejected(t, "the name alone, drifted closer", recoverText(t, "<tool_call:opensource>read_file</arg_value:opensource>"), false, "path")
	// Near misses.
	wantText(t, "near miss: an undeclared tool", recoverText(t, "<tool_call:opensource>calculate_circle_area</arg_value:opensource>"))
	checkCalls(t, "near miss: a cut JSON body", recoverText(t, `<tool_call:opensource>read_file<tool_sep:opensource>{"path": "READ`))
	checkCalls(t, "near miss: prose after the name", recoverText(t, "<tool_call:opensource>read_file is the tool I would use</arg_value:opensource>"))
	checkCalls(t, "near miss: quoted in prose",
		recoverText(t, "The raw stream showed `<tool_call:opensource>read_file<tool_sep:opensource>{\"path\": \"a\"}<arg_value:opensource>` as an example of the format."))
	checkCalls(t, "near miss: a JSON list as the body", recoverText(t, `<tool_call:opensource>read_file<tool_sep:opensource>["README.md"]<arg_value:opensource>`))
}

// own_name_closer: a parameter closed by </KEY> instead of </parameter>,
// with parameters after it, does not run (claude-code#83088).
func TestRuleOwnNameCloser(t *testing.T) {
	checkRejected(t, "content closed by </content>, path after it",
		recoverText(t, "<invoke name=\"write_file\">\n<parameter name=\"content\">notes</content>\n<parameter name=\"path\">NOTES.md</parameter>\n</invoke>"), false, "path")
	checkRejected(t, "Qwen form, content closed by </content>",
		recoverText(t, "<tool_call>\n<function=write_file>\n<parameter=content>\nhello\n</content>\n<parameter=path>\na.txt\n</parameter>\n</function>\n</tool_call>"), false, "content")
	// Near misses.
	checkCalls(t, "near miss: </content> inside a value closed by </parameter>",
		recoverText(t, "<invoke name=\"write_file\">\n<parameter name=\"content\"><content>x</content></parameter>\n<parameter name=\"path\">a.xml</parameter>\n</invoke>"),
		call{"write_file", `{"content":"<content>x</content>","path":"a.xml"}`})
	checkCalls(t, "near miss: a well-formed call",
		recoverText(t, "<invoke name=\"write_file\">\n<parameter name=\"content\">notes</parameter>\n<parameter name=\"path\">NOTES.md</parameter>\n</invoke>"),
		call{"write_file", `{"content":"notes","path":"NOTES.md"}`})
	wantText(t, "near miss: fenced as an example of the fault",
		recoverText(t, "The drift looks like this:\n\n```\n<invoke name=\"write_file\">\n<parameter name=\"content\">notes</content>\n<parameter name=\"path\">NOTES.md</parameter>\n</invoke>\n```\n\nThe harness swallows the path."))
}

// stray_word_line: a lone lower-case word right before a call is not the
// lead-in's last word, so a demonstration stays one (claude-code#68719).
func TestRuleStrayWordLine(t *testing.T) {
	block := "<invoke name=\"bash\">\n<parameter name=\"command\">git status</parameter>\n</invoke>"
	wantText(t, "a fenced demonstration with the stray word",
		recoverText(t, "The block loses its namespace, like this:\n\n```\ncourt\n"+block+"\n```\n\nThe harness rejects it."))
	wantText(t, "unfenced demonstration with the stray word",
		recoverText(t, "It shows up as follows:\ncard\n"+block))
	// Near misses: the word does not cancel a real call.
	checkCalls(t, "near miss: the stray word alone", recoverText(t, "court\n"+block), call{"bash", `{"command":"git status"}`})
	checkCalls(t, "near miss: an announced step then the word",
		recoverText(t, "Let me check the working tree.\n\ncourt\n"+block), call{"bash", `{"command":"git status"}`})
	checkCalls(t, "near miss: a word that is not alone on its line",
		recoverText(t, "I'll check it now with git\n"+block), call{"bash", `{"command":"git status"}`})
}

// lead_in_names_markup: a lead-in about the markup's own tag introduces an
// example (vmlx#199, zeroclaw#284).
func TestRuleLeadInNamesMarkup(t *testing.T) {
	hermes := "<tool_call>\n{\"name\": \"read_file\", \"arguments\": {\"path\": \"README.md\"}}\n</tool_call>"
	wantText(t, "the format explained, fenced",
		recoverText(t, "A `<tool_call>` block wraps one JSON object with the name and arguments:\n\n```\n"+hermes+"\n```\n\nThe client runs it."))
	wantText(t, "tool_call tags, like",
		recoverText(t, "To use a tool I wrap a JSON object in tool_call tags, like\n"+hermes+"\nand the agent runs it."))
	wantText(t, "the invoke element described",
		recoverText(t, "The `<invoke>` element carries the tool name:\n<invoke name=\"bash\">\n<parameter name=\"command\">ls</parameter>\n</invoke>\nThat is all it needs."))
	// Near misses: a model that acts while naming the markup.
	checkCalls(t, "near miss: announces its step", recoverText(t, "I'll read the README with a tool_call block:\n"+hermes),
		call{"read_file", `{"path":"README.md"}`})
	checkCalls(t, "near miss: here is the block", recoverText(t, "Here is the tool_call block:\n"+hermes),
		call{"read_file", `{"path":"README.md"}`})
	checkCalls(t, "near miss: no markup named", recoverText(t, "Reading the README first:\n"+hermes),
		call{"read_file", `{"path":"README.md"}`})
}

// inline_function_mention: <function=NAME> inside a sentence, with nothing
// of a call after it, is a mention (Rapid-MLX#1513).
func TestRuleInlineFunctionMention(t *testing.T) {
	wantText(t, "the issue's input", recoverText(t, "Docs mention </tool_call> and <function=name> together."))
	wantText(t, "a declared name mentioned", recoverText(t, "The parser keys on <function=read_file> and nothing else."))
	// Near misses: calls in the same format.
	checkCalls(t, "near miss: a call after prose on its line",
		recoverText(t, "Reading it: <function=read_file><parameter=path>a.go</parameter></function>"), call{"read_file", `{"path":"a.go"}`})
	checkCalls(t, "near miss: parameters on the next lines",
		recoverText(t, "Now <function=read_file> follows.\n<parameter=path>\na.go\n</parameter>\n</function>"), call{"read_file", `{"path":"a.go"}`})
	checkCalls(t, "near miss: the tag on its own line",
		recoverText(t, "<function=read_file>\n<parameter=path>\na.go\n</parameter>\n</function>"), call{"read_file", `{"path":"a.go"}`})
}

func jsonEsc(s string) string {
	b := []byte{}
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\n':
			b = append(b, '\\', 'n')
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		default:
			b = append(b, s[i])
		}
	}
	return string(b)
}
