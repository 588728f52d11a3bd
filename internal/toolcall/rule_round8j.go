package toolcall

import "strings"

// Round 8j rules (widened-threads-round8j.jsonl), each from the parser of
// its format.

// harmonyNamespacedRecipient (rule "harmony recipient in a nested
// namespace"): a harmony recipient written in a namespace of more than one
// segment (to=api.fs.read_file, to=tools.shell.bash) names the tool its last
// segment names. SGLang router's GptOssParser keeps the last dotted part of
// the recipient ("Should extract last part", sgl-project/sglang
// sgl-router/tests/tool_parser_gpt_oss.rs, test_gpt_oss_with_namespace).
// Only a declared tool's exact name counts as that last part, every
// segment before it is a plain identifier, and a recipient the other rules
// resolve (functions.NAME, one namespace) is theirs: to=browser.open or
// to=container.exec name no tool and stay unresolved.
func harmonyNamespacedRecipient(ts *toolset, r string) string {
	if ts == nil || strings.Count(r, ".") < 2 || ts.resolve(r) != "" {
		return ""
	}
	segs := strings.Split(r, ".")
	for _, seg := range segs {
		if !isIdentWord(seg) {
			return ""
		}
	}
	last := segs[len(segs)-1]
	if _, ok := ts.raw[last]; ok {
		return last
	}
	return ""
}

// devstralSpacedArgs (rule "Devstral name between spaces"): Devstral's
// [TOOL_CALLS]NAME[ARGS]{…} with spaces (never a line break) between the
// name and [ARGS] or [CALL_ID] — "[TOOL_CALLS] example_tool [ARGS]{…}", which
// OpenVINO Model Server's devstral parser reads as example_tool
// (openvinotoolkit/model_server src/test/llm/output_parsers/devstral_output_parser_test.cpp,
// ParseToolCallOutputWithSingleToolCall_MissingEndTag; its streaming test
// sends " get", "_", "weather", " [ARGS]"). It returns where the marker
// starts, or q when something else follows the name.
func devstralSpacedArgs(s string, q int) int {
	p := q
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	if p > q && (strings.HasPrefix(s[p:], "[ARGS]") || strings.HasPrefix(s[p:], "[CALL_ID]")) {
		return p
	}
	return q
}

// devstralEmptyArgs (rule "Devstral [ARGS] closed by the end of sequence"):
// a Devstral call whose [ARGS] is followed at once by the end-of-sequence
// token </s> was ended by the model with no arguments: OpenVINO Model
// Server's devstral parser gives it the arguments {} (devstral_output_parser_test.cpp,
// ParseToolCallOutputWithSingleToolCall_EmptyArguments, "[TOOL_CALLS]example_tool[ARGS]</s>").
// It is not a call cut by the token limit (nothing would follow [ARGS]
// then), so the correction names the arguments it lacks instead of asking
// for a shorter call. Only the reply's last [ARGS], right before its final
// </s>, is read so.
func devstralEmptyArgs(content string) string {
	if !strings.Contains(content, "[ARGS]") || !strings.Contains(content, "</s>") {
		return content
	}
	body := strings.TrimRight(content, " \t\r\n")
	if !strings.HasSuffix(body, "</s>") {
		return content
	}
	head := strings.TrimRight(strings.TrimSuffix(body, "</s>"), " \t")
	if !strings.HasSuffix(head, "[ARGS]") {
		return content
	}
	return head + "{}</s>" + content[len(body):]
}
