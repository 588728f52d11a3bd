package toolcall

import (
	"strings"
	"unicode/utf8"
)

// Rules of round 7c (widened-threads-round7c.jsonl), each from the parser
// of its format.

// qwenThinkCallIsReply is rule "think_call_is_reply": Qwen3.5 and Qwen3.6
// write their <tool_call> inside the <think> the template opened, in two
// shapes the round-5c rule (tool_call_ends_think) does not take:
//
//   - glued to the reasoning's last sentence on the same line, the think
//     never closed (Ollama's Qwen35Parser, model/parsers/qwen35_boundary_test.go
//     qwen35CallInsideThinking: "…should read `}});`.<tool_call><function=editor>…",
//     which the parser must return as the call, the reasoning kept);
//   - on its own lines, then </think> and nothing after it: the reply is
//     only the think block and the call is its last act
//     (cubist38/mlx-openai-server#284, the Qwen3.5 reasoning parser must
//     yield the <tool_call> block to the tool parser; ggml-org/llama.cpp#23678
//     reads tool calls "in either mode" of Qwen3.5's reasoning tags).
//
// Either way no call comes before the think block, the block holds exactly
// one <tool_call>, the call ends the block (nothing after its </tool_call>
// but the </think> that closes the reply), and the
// reasoning's sentence before it does not refuse, report or show it. The
// reasoning then ends where the call begins. A call rehearsed in reasoning
// that goes on, a closed think followed by an answer, a call named in the
// middle of a sentence or after a colon (an example) stay reasoning.
func qwenThinkCallIsReply(s string, regs []region) []region {
	const open, close = "<tool_call>", "</tool_call>"
	first := strings.Index(s, open)
	if first < 0 {
		return regs
	}
	for k := range regs {
		r := regs[k]
		// The first call of the reply is inside this block.
		if first < r.start || first >= r.end {
			continue
		}
		loc := thinkOpen().FindStringIndex(s[r.start:r.end])
		if loc == nil || loc[0] != 0 {
			continue
		}
		block := s[r.start:r.end]
		if strings.Count(block, open) != 1 {
			continue
		}
		at := r.start + strings.Index(block, open)
		rest := s[at+len(open) : r.end]
		closed := false
		if c := thinkClose().FindAllStringIndex(block, -1); len(c) > 0 {
			// Closed: the close tag ends both the block and the reply,
			// and is the only one.
			last := c[len(c)-1]
			if len(c) != 1 || r.start+last[1] != r.end || strings.TrimSpace(s[r.end:]) != "" {
				continue
			}
			rest = s[at+len(open) : r.start+last[0]]
			closed = true
		} else if r.end != len(s) {
			continue
		}
		if c := strings.Index(rest, close); c >= 0 {
			if strings.TrimSpace(rest[c+len(close):]) != "" {
				continue
			}
		} else if closed {
			continue
		}
		pre := s[r.start+loc[1] : at]
		line := strings.TrimSpace(pre[strings.LastIndexByte(pre, '\n')+1:])
		switch {
		case line == "":
			// On its own line: round 5c's rule takes an open block.
			if !closed {
				continue
			}
		default:
			// Glued to the reasoning: after a finished sentence only,
			// never after a colon (a shown example) or a word.
			last, _ := utf8.DecodeLastRuneInString(line)
			if !strings.ContainsRune(".!?。！？", last) {
				continue
			}
		}
		if notIntended(sentenceBefore(s, r.start, at), "") {
			continue
		}
		regs[k].end = at
	}
	return regs
}

// xmlNullValue is rule "xml_param_null": in Qwen3-Coder's
// <parameter=K>null</parameter> and MiniMax-M2's
// <parameter name="K">null</parameter> the word null is the JSON null,
// not the text "null": vLLM's qwen3coder and minimax_m2 parsers and
// SGLang's minimax_m2 detector convert a value equal to "null" to None
// (test_minimax_m2_detector.py, test_anyof_with_null_should_allow_explicit_null).
// An argument given as null is not given: a required one gets the
// correction naming it, as {"command": null} does in JSON. DSML values
// carry their own type (string="true" keeps "null" as text) and are not
// affected; neither is a value that only contains the word.
func xmlNullValue(dsml bool, val string) bool {
	return !dsml && strings.TrimSpace(val) == "null"
}
