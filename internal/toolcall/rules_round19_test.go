package toolcall

import "testing"

// Round 19's rules (rule_round19.go), each with the near misses that must
// stay as they were.
func TestRuleRound19(t *testing.T) {
	const ds = "<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>"
	const dsEnd = "<｜tool▁call▁end｜><｜tool▁calls▁end｜>"

	// args_closed_by_call_end: DeepSeek's object missing its last closer
	// before the call's end token runs; cut inside a string, or with no
	// end token, or in Kimi's format, it does not.
	checkCalls(t, "DeepSeek V3.1, brace missing", recoverText(t, ds+"read_file<｜tool▁sep｜>{\"path\": \"a.go\", \"start\": 3"+dsEnd),
		call{"read_file", `{"path":"a.go","start":3}`})
	checkRejected(t, "near miss: cut in a string", recoverText(t, ds+"read_file<｜tool▁sep｜>{\"path\": \"a.g"+dsEnd), true, "cut off")
	checkRejected(t, "near miss: no end token", recoverText(t, ds+"read_file<｜tool▁sep｜>{\"path\": \"a.go\""), true, "cut off")
	wantNoCall(t, "near miss: Kimi's object cut before its end", recoverText(t, "<|tool_calls_section_begin|><|tool_call_begin|>functions.read_file:0<|tool_call_argument_begin|>{\"path\": \"a.go\"<|tool_call_end|><|tool_calls_section_end|>"))

	// body_opens_json and url_body_is_a_url: such a body is told, not run.
	checkRejected(t, "a body opening an object", recoverText(t, ds+"bash<｜tool▁sep｜>invalid json{"+dsEnd), false, "not valid JSON")
	checkRejected(t, "words as a url", recoverText(t, ds+"fetch_content<｜tool▁sep｜>invalid json{"+dsEnd), false, "not valid JSON")
	checkRejected(t, "a sentence as a url", recoverCall(t, "fetch_content", "the docs page"), false, "not valid JSON")
	checkCalls(t, "near miss: a url body", recoverCall(t, "fetch_content", "https://go.dev/doc"), call{"fetch_content", `{"url":"https://go.dev/doc"}`})
	checkCalls(t, "near miss: a command with braces", recoverCall(t, "bash", "echo {a,b}"), call{"bash", `{"command":"echo {a,b}"}`})

	// call_object_brace_elided: the brace put back, up to the closer.
	checkCalls(t, "brace elided, whole", recoverText(t, "<tool_call>\"name\": \"read_file\", \"arguments\": {\"path\": \"a.go\"}}</tool_call>"),
		call{"read_file", `{"path":"a.go"}`})
	checkRejected(t, "brace elided, arguments broken", recoverText(t, "<tool_call>\"name\": \"fetch_content\", \"arguments\": {</tool_call>"), false, "url")
	wantText(t, "near miss: a quoted word in the wrapper", recoverText(t, "<tool_call>\"hello\"</tool_call>"))
}
