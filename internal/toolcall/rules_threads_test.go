package toolcall

import (
	"testing"
)

// emptyServerCall: an entry with no name and no arguments beside an answer
// is nothing; alone, or with arguments, it still gets its correction.
func TestRuleEmptyServerCall(t *testing.T) {
	in := func(content string, rc RawCall) Input {
		return Input{Content: content, ToolCalls: []RawCall{rc}, FinishReason: "tool_calls", Tools: toolsFor(t)}
	}
	for _, args := range []string{"", "null", "{}"} {
		res := Recover(in("Done: the program prints Hello, World!", RawCall{Arguments: args}))
		if len(res.Calls) != 0 || len(res.Rejections) != 0 || res.Text == "" {
			t.Errorf("args %q: calls %v, rejections %v, text %q; want the answer alone", args, res.Calls, res.Rejections, res.Text)
		}
	}
	// Near misses: no text beside it, or arguments it carries.
	checkRejected(t, "empty entry alone", Recover(in("", RawCall{})), false, "no tool name")
	checkRejected(t, "arguments without a name", Recover(in("Running it.", RawCall{Arguments: `{"command": "pwd"}`})), false, "no tool name")
	checkCalls(t, "named entry beside text", Recover(in("Reading.", RawCall{ID: "a", Name: "read_file", Arguments: `{"path": "go.mod"}`})),
		call{"read_file", `{"path": "go.mod"}`})
}

// argsHoldCall: arguments that hold a call (JSON name + arguments, or
// Qwen3-Coder closers) are never one argument's raw value. (Arguments that
// are whole Qwen3-Coder parameters are read as such by the XML rule.)
func TestRuleArgsHoldCall(t *testing.T) {
	for _, args := range []string{
		"<malformed_json_arguments>{\"name\": \"bash\", \"arguments\": 1}\n</parameter>\n</function>",
		"</function>\nls",
		"call: {\"name\": \"bash\", \"parameters\": {\"command\": \"ls\"}}",
	} {
		checkRejected(t, args, recoverCall(t, "bash", args), false, "not valid JSON")
	}
	// Near misses: raw shell text with braces, quotes and a name key is
	// still the command.
	checkCalls(t, "raw body", recoverCall(t, "bash", `jq '.name' package.json`), call{"bash", `{"command": "jq '.name' package.json"}`})
	checkCalls(t, "raw body with JSON", recoverCall(t, "bash", `echo '"name": "x"' > f`), call{"bash", `{"command": "echo '\"name\": \"x\"' > f"}`})
}

// paramTags: <K>V</K> arguments, every K the tool's, are those arguments;
// anything else is not read this way.
func TestRuleArgsAsParamTags(t *testing.T) {
	checkCalls(t, "one tag", recoverCall(t, "bash", `<command>echo "hi"</command>`), call{"bash", `{"command": "echo \"hi\""}`})
	checkCalls(t, "two tags, newlines", recoverCall(t, "write_file", "<path>a.txt</path>\n<content>\nx\ny\n</content>"),
		call{"write_file", `{"path": "a.txt", "content": "x\ny"}`})
	// Near misses: a tag that is not an argument, text outside the tags,
	// a repeated tag. bash's single argument then takes the text whole
	// (the raw-body rule), write_file's two arguments cannot.
	checkCalls(t, "unknown tag", recoverCall(t, "bash", `<b>ls</b>`), call{"bash", `{"command": "<b>ls</b>"}`})
	checkCalls(t, "text after", recoverCall(t, "bash", `<command>ls</command> | wc -l`), call{"bash", `{"command": "<command>ls</command> | wc -l"}`})
	checkRejected(t, "repeated tag", recoverCall(t, "write_file", "<path>a</path><path>b</path>"), false, "must be a JSON object")
}

// pyEndsReply: an own-line pythonic call is a call when nothing but calls
// follows it; prose after it makes it an example.
func TestRulePythonicCallEndsReply(t *testing.T) {
	checkCalls(t, "call last", recoverText(t, "I'll read it.\nread_file(path=\"go.mod\")"), call{"read_file", `{"path": "go.mod"}`})
	checkCalls(t, "two calls", recoverText(t, "read_file(path=\"a\")\nread_file(path=\"b\")\n"),
		call{"read_file", `{"path": "a"}`}, call{"read_file", `{"path": "b"}`})
	for _, s := range []string{
		"You can also call it like:\nfetch_content(url=\"test\")\nin your own code.",
		"read_file(path=\"go.mod\")\nprint(x)",
	} {
		res := recoverText(t, s)
		if len(res.Calls) != 0 || len(res.Rejections) != 0 {
			t.Errorf("%q: calls %v, rejections %v; want text", s, res.Calls, res.Rejections)
		}
	}
	// Near miss: Gemma's tool_code block is a call attempt whatever follows.
	checkCalls(t, "tool_code", recoverText(t, "```tool_code\nread_file(path=\"go.mod\")\n```\nThat reads it."), call{"read_file", `{"path": "go.mod"}`})
}

// glmValueNoOpener: a GLM value whose <arg_value> is missing runs to its
// </arg_value>; with another tag before that closer it is not read so.
func TestRuleGLMValueWithoutOpener(t *testing.T) {
	checkCalls(t, "no opener", recoverText(t, "<tool_call>bash<arg_key>command</arg_key>ls -la</arg_value></tool_call>"), call{"bash", `{"command": "ls -la"}`})
	checkCalls(t, "second pair intact", recoverText(t, "<tool_call>read_file<arg_key>path</arg_key>a.go</arg_value><arg_key>start</arg_key><arg_value>3</arg_value></tool_call>"),
		call{"read_file", `{"path": "a.go", "start": 3}`})
	// Near misses: a key followed by another key, or by no value at all:
	// the argument is absent and corrected by name, never run empty.
	checkRejected(t, "key then key", recoverText(t, "<tool_call>bash<arg_key>command</arg_key><arg_key>x</arg_key><arg_value>1</arg_value></tool_call>"), false, "command")
	checkRejected(t, "key without value", recoverText(t, "<tool_call>bash<arg_key>command</arg_key></tool_call>"), false, "command")
	checkCalls(t, "empty value is a value", recoverText(t, "<tool_call>write_file<arg_key>path</arg_key><arg_value>a</arg_value><arg_key>content</arg_key><arg_value></arg_value></tool_call>"),
		call{"write_file", `{"path": "a", "content": ""}`})
}

// glmGluedKey: "NAMEkey</arg_key>" or "NAME key</arg_key>" for a declared
// NAME; an undeclared prefix is not guessed.
func TestRuleGLMKeyGluedToName(t *testing.T) {
	checkCalls(t, "glued", recoverText(t, "<tool_call>bashcommand</arg_key><arg_value>echo test</arg_value></tool_call>"), call{"bash", `{"command": "echo test"}`})
	checkCalls(t, "spaced", recoverText(t, "<tool_call>read_file path</arg_key><arg_value>go.mod</arg_value></tool_call>"), call{"read_file", `{"path": "go.mod"}`})
	for _, s := range []string{
		"<tool_call>grep_toolpattern</arg_key><arg_value>TODO</arg_value></tool_call>",
		"Use <arg_key>, as in bashcommand</arg_key>, to name it.",
	} {
		if res := recoverText(t, s); len(res.Calls) != 0 {
			t.Errorf("%q: ran %v", s, res.Calls)
		}
	}
}

// quotedObject: "{"k": v}" as a body is the object; a real JSON string, or
// quotes around something that is not an object, is not.
func TestRuleQuotedObjectBody(t *testing.T) {
	harmony := func(body string) string {
		return "<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>" + body + "<|call|>"
	}
	checkCalls(t, "quoted object", recoverText(t, harmony(`"{"path": "src/a.ts"}"`)), call{"read_file", `{"path": "src/a.ts"}`})
	// Near misses: quotes around a broken object are not repaired into a
	// path, and a server call's quoted object is not JSON either: corrected.
	if res := recoverText(t, harmony(`"{"path": "b.go"`)); len(res.Calls) != 0 {
		t.Errorf("broken quoted object ran %v", res.Calls)
	}
	checkRejected(t, "server call", recoverCall(t, "read_file", `"{"path": "b.go"}"`), false, "not a JSON object")
}

// emptyCallWrapper: a reply ending with an empty <tool_call></tool_call>
// on its own line gets the no-name correction; the tags in a sentence do
// not.
func TestRuleEmptyCallWrapper(t *testing.T) {
	checkRejected(t, "alone", recoverText(t, "<tool_call>\n</tool_call>"), false, "no tool name")
	checkRejected(t, "after prose", recoverText(t, "Let me check.\n<tool_call></tool_call>\n"), false, "no tool name")
	for _, s := range []string{
		"Wrap each call in <tool_call></tool_call>",
		"<tool_call></tool_call> is how calls are wrapped; I have nothing to call.",
	} {
		res := recoverText(t, s)
		if len(res.Calls) != 0 || len(res.Rejections) != 0 {
			t.Errorf("%q: calls %v, rejections %v; want text", s, res.Calls, res.Rejections)
		}
	}
}
