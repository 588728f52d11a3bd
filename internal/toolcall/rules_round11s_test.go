package toolcall

import (
	"strings"
	"testing"
)

// One table per rule of rule_round11s.go: what the format's parser reads,
// then the near misses that must not run.

// r11sNotRun: nothing runs (a correction may be given).
func r11sNotRun(t *testing.T, label string, res Result) {
	t.Helper()
	if len(res.Calls) != 0 {
		t.Errorf("%s: ran %v, want nothing", label, res.Calls)
	}
}

const (
	s3Sec    = "<｜tool_calls_begin｜><｜tool_call_begin｜>"
	s3End    = "<｜tool_call_end｜><｜tool_calls_end｜>"
	s3Bash   = `<steptml:invoke name="bash"><steptml:parameter name="command">ls -la</steptml:parameter></steptml:invoke>`
	s3BashLn = "<｜tool_calls_begin｜>\n<｜tool_call_begin｜>function<｜tool_sep｜><steptml:invoke name=\"bash\">\n<steptml:parameter name=\"command\">go test ./...</steptml:parameter>\n</steptml:invoke><｜tool_call_end｜>\n<｜tool_calls_end｜>"
)

// step3_steptml: Step3's steptml invoke inside DeepSeek's tokens is read as
// an <invoke> call, its values as written.
func TestRuleStep3Steptml(t *testing.T) {
	ls := call{"bash", `{"command":"ls -la"}`}
	checkCalls(t, "one call", recoverText(t, s3Sec+s3Bash+s3End), ls)
	checkCalls(t, "the gateway's layout, header without a name", recoverText(t, s3BashLn), call{"bash", `{"command":"go test ./..."}`})
	checkCalls(t, "header with the invoke's name", recoverText(t, s3Sec+"function<｜tool_sep｜>bash\n"+s3Bash+s3End), ls)
	checkCalls(t, "prose around", recoverText(t, "Let me list it.\n\n"+s3Sec+s3Bash+s3End+"\n\nDone soon."), ls)
	checkCalls(t, "after reasoning", recoverText(t, "<think>list the dir</think>"+s3Sec+s3Bash+s3End), ls)
	checkCalls(t, "two calls, tool_sep between",
		recoverText(t, s3Sec+`<steptml:invoke name="read_file"><steptml:parameter name="path">go.mod</steptml:parameter></steptml:invoke><｜tool_call_end｜><｜tool_sep｜><｜tool_call_begin｜>`+s3Bash+s3End),
		call{"read_file", `{"path":"go.mod"}`}, ls)
	checkCalls(t, "whitespace of a value kept",
		recoverText(t, s3Sec+`<steptml:invoke name="write_file"><steptml:parameter name="path">a.py</steptml:parameter><steptml:parameter name="content">    if x:
        return 1
</steptml:parameter></steptml:invoke>`+s3End),
		call{"write_file", `{"path":"a.py","content":"    if x:\n        return 1\n"}`})
	checkCalls(t, "raw < > && in a value",
		recoverText(t, s3Sec+`<steptml:invoke name="bash"><steptml:parameter name="command">[ 1 -lt 2 ] && echo ok > out.txt</steptml:parameter></steptml:invoke>`+s3End),
		call{"bash", `{"command":"[ 1 -lt 2 ] && echo ok > out.txt"}`})
	checkRejected(t, "an empty invoke is corrected", recoverText(t, s3Sec+`<steptml:invoke name="bash"></steptml:invoke>`+s3End), false, "command")
	checkRejected(t, "a block cut after the invoke tag is corrected", recoverText(t, s3Sec+`<steptml:invoke name="bash">`), false, "command")
	// Near misses.
	r11sNotRun(t, "near miss: a value cut", recoverText(t, s3Sec+`<steptml:invoke name="bash"><steptml:parameter name="command">rm -rf buil`))
	r11sNotRun(t, "near miss: a second call's value cut", recoverText(t, s3Sec+s3Bash+`<｜tool_call_end｜><｜tool_call_begin｜><steptml:invoke name="bash"><steptml:parameter name="command">rm -rf buil`))
	r11sNotRun(t, "near miss: an invoke without a name", recoverText(t, s3Sec+`<steptml:invoke name=""><steptml:parameter name="command">ls</steptml:parameter></steptml:invoke>`+s3End))
	r11sNotRun(t, "near miss: an undeclared tool", recoverText(t, s3Sec+`<steptml:invoke name="get_weather"><steptml:parameter name="city">Tokyo</steptml:parameter></steptml:invoke>`+s3End))
	r11sNotRun(t, "near miss: the header names another tool", recoverText(t, s3Sec+"function<｜tool_sep｜>read_file\n"+s3Bash+s3End))
	wantText(t, "near miss: prose quoting the form", recoverText(t, "Step3 writes `"+s3Sec+s3Bash+s3End+"` for a call."))
	wantText(t, "near miss: a fenced example", recoverText(t, "Step3's calls look like this:\n\n```\n"+s3BashLn+"\n```\n"))
	wantText(t, "near miss: the invoke without the call token", recoverText(t, "The element is "+s3Bash+" in Step3's format."))
	file := "step3 format: " + s3Sec + s3Bash + s3End
	checkCalls(t, "near miss: a file being written that holds the markup",
		recoverCall(t, "write_file", `{"path": "fmt.md", "content": "`+strings.ReplaceAll(file, `"`, `\"`)+`"}`),
		call{"write_file", `{"path":"fmt.md","content":"` + strings.ReplaceAll(file, `"`, `\"`) + `"}`})
	// Unit: the rewrite leaves any other reply byte for byte.
	for _, s := range []string{
		"plain text",
		"<b>bold</b> then " + s3Sec + s3Bash + s3End, // a tag before the markup
		`{"note": "` + s3Bash + `"}`,
		"<invoke name=\"bash\"><parameter name=\"command\">ls</parameter></invoke>",
	} {
		if got := step3Steptml(s); got != s {
			t.Errorf("step3Steptml(%q) = %q, want it unchanged", s, got)
		}
	}
}

// pythonic_cut_before_value: a pythonic call cut right after KEY= is a cut
// call, corrected with the argument's name; nothing runs.
func TestRulePythonicCutBeforeValue(t *testing.T) {
	checkRejected(t, "in a list, after prose", recoverText(t, "Let me check the weather: [bash(command="), true, "command")
	checkRejected(t, "list at the start, trailing space", recoverText(t, "[read_file(path=  \n"), true, "path")
	checkRejected(t, "second argument", recoverText(t, "[write_file(path='a.txt', content="), true, "content")
	// Near misses.
	checkCalls(t, "near miss: a whole call runs as before", recoverText(t, "[bash(command='ls')]"), call{"bash", `{"command":"ls"}`})
	wantText(t, "near miss: prose quoting the form", recoverText(t, "A call starts like `[bash(command=` and goes on."))
	wantText(t, "near miss: a fenced example", recoverText(t, "Like this:\n\n```\n[bash(command=\n```\n"))
	r11sNotRun(t, "near miss: mid-sentence (the old correction)", recoverText(t, "Write [bash(command= then the command and close it."))
	r11sNotRun(t, "near miss: an undeclared tool", recoverText(t, "Let me look: [get_weather(location="))
	checkCalls(t, "near miss: a file being written that holds it",
		recoverCall(t, "write_file", `{"path": "notes.md", "content": "cut: [bash(command="}`),
		call{"write_file", `{"path":"notes.md","content":"cut: [bash(command="}`})
	r11sNotRun(t, "near miss: a cut value is the old correction", recoverText(t, "[bash(command='ls"))
}

// cut_before_arguments: a JSON call cut with its arguments object still
// empty is rejected naming the arguments the tool needs.
func TestRuleCutBeforeArguments(t *testing.T) {
	checkRejected(t, "granite-20b-fc", recoverText(t, `<function_call> {"name": "bash", "arguments": {`), true, "command")
	checkRejected(t, "internlm2 plugin", recoverText(t, `<|action_start|><|plugin|>{"name": "read_file", "parameters": {`), true, "path")
	checkRejected(t, "hermes", recoverText(t, "<tool_call>\n{\"name\": \"write_file\", \"arguments\": {  "), true, "content")
	// Near misses.
	res := recoverText(t, `<tool_call>{"name": "bash", "arguments": {"command": "ls`)
	r11sNotRun(t, "near miss: cut inside a value", res)
	if len(res.Rejections) == 0 || strings.Contains(res.Rejections[0].Reason, "it needs") {
		t.Errorf("near miss: cut inside a value: %v, want the plain cut correction", res.Rejections)
	}
	r11sNotRun(t, "near miss: an undeclared tool", recoverText(t, `<function_call> {"name": "get_weather", "arguments": {`))
	wantText(t, "near miss: prose quoting the cut form", recoverText(t, "A cut call reads `{\"name\": \"bash\", \"arguments\": {` and nothing more."))
	checkCalls(t, "near miss: a whole call runs", recoverText(t, `<function_call> {"name": "bash", "arguments": {"command": "ls"}}`), call{"bash", `{"command":"ls"}`})
}
