package toolcall

import "testing"

// body_holds_call_markup: a body that is not JSON is the tool's one string
// argument unless it holds another format's call or argument markup; then
// the call is corrected, never run with the markup as its path or command.
func TestRuleBodyHoldsCallMarkup(t *testing.T) {
	deepseek := func(name, body string) string {
		return "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>" + name + "\n" + body + "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"
	}
	harmony := func(name, body string) string {
		return "<|start|>assistant<|channel|>commentary to=functions." + name + " <|constrain|>json<|message|>" + body + "<|call|>"
	}
	for _, body := range []string{
		`<arg_key>command</arg_key><arg_value>ls</arg_value>`,
		`<invoke name="bash"><parameter name="command">ls</parameter></invoke>`,
		`<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>`,
	} {
		checkRejected(t, "DeepSeek body "+body, recoverText(t, deepseek("bash", body)), false, "JSON object with command")
	}
	for _, body := range []string{
		`<arg_key>command</arg_key><arg_value>ls</arg_value>`,
		`<invoke name="bash"><parameter name="command">ls</parameter></invoke>`,
		`<steptml:invoke name="bash"><steptml:parameter name="command">ls</steptml:parameter></steptml:invoke>`,
		`<tool_call>{"name": "bash", "arguments": {"command": "ls"}}</tool_call>`,
		`<|tool_call_begin|>bash<|tool_call_argument_begin|>{"command": "ls"}`,
	} {
		checkRejected(t, "harmony body "+body, recoverText(t, harmony("bash", body)), false, "JSON object with command")
	}
	// (Inside DeepSeek's tokens, Step3's <steptml:invoke> and Kimi's
	// tokens are read by their own rules: rule_round11s.go, the token
	// reader.)
	// Near misses: a plain body, and shell redirections or HTML in a
	// command, are still the one argument.
	checkCalls(t, "a plain path", recoverText(t, deepseek("read_file", "src/main.go")), call{"read_file", `{"path":"src/main.go"}`})
	checkCalls(t, "a redirection", recoverText(t, harmony("bash", "sort < in.txt > out.txt")), call{"bash", `{"command":"sort < in.txt > out.txt"}`})
	checkCalls(t, "HTML in a command", recoverText(t, harmony("bash", `echo "<b>bold</b>" > a.html`)), call{"bash", `{"command":"echo \"<b>bold</b>\" > a.html"}`})
	checkCalls(t, "markup inside a JSON body is data",
		recoverText(t, deepseek("write_file", "```json\n"+`{"path": "doc.md", "content": "<arg_key>k</arg_key>"}`+"\n```")),
		call{"write_file", `{"path":"doc.md","content":"<arg_key>k</arg_key>"}`})
}
