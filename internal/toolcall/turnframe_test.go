package toolcall

import (
	"strings"
	"testing"
)

// The turn tokens a server left in the content (turnframe.go), each beside
// a near miss where the same bytes are the model's own text.
func TestTurnFrame(t *testing.T) {
	// A leaked end-of-turn token after the call; the user does not see it.
	res := recoverText(t, hermesRF+"<|im_end|>")
	checkCalls(t, "end token", res, call{"read_file", `{"path":"main.go"}`})
	if strings.Contains(res.Text, "<|im_end|>") {
		t.Errorf("end token: text %q shows the token", res.Text)
	}
	checkCalls(t, "begin token and header", recoverText(t, "<|begin_of_text|><|start_header_id|>assistant<|end_header_id|>\n\n"+hermesRF+"<|eot_id|>"),
		call{"read_file", `{"path":"main.go"}`})
	// A begin token does not hide a lead-in that shows an example.
	wantText(t, "begin token before an example", recoverText(t, "<s>Then the model will emit:\n\n"+hermesRF+"\n\nand the server turns that into a tool_calls entry."))

	// An answer that ends with its own </s> keeps it.
	const strike = "Mark the old price with <s>$20</s>"
	if res := recoverText(t, strike); len(res.Calls)+len(res.Rejections) > 0 || res.Text != strike {
		t.Errorf("strikethrough: %+v", res)
	}

	// The model made up the tool's result and went on: only its own call
	// runs, and a call it made after the made-up result does not.
	madeUp := hermesRF + "<|im_end|>\n<|im_start|>user\n<tool_response>\npackage main\n</tool_response><|im_end|>\n<|im_start|>assistant\n" +
		"<tool_call>\n{\"name\": \"bash\", \"arguments\": {\"command\": \"rm -rf build\"}}\n</tool_call>"
	checkCalls(t, "made-up turn", recoverText(t, madeUp), call{"read_file", `{"path":"main.go"}`})
	// A value left open runs into the made-up turn: it ends at the token.
	open := "<function=write_file>\n<parameter=path>notes.txt\n<parameter=content>\nhello\n" +
		"<|eot_id|><|start_header_id|>ipython<|end_header_id|>\n\n{\"output\": \"ok\"}<|eot_id|>"
	checkCalls(t, "open value", recoverText(t, open), call{"write_file", `{"path":"notes.txt","content":"hello"}`})

	// Near miss: a file about ChatML written in full, its value closed after
	// the tokens: the whole document is written.
	doc := "# ChatML\n\n<|im_start|>user\nHi<|im_end|>\n<|im_start|>assistant\nHello<|im_end|>\n"
	write := "<tool_call>\n<function=write_file>\n<parameter=path>\ndocs/chatml.md\n</parameter>\n<parameter=content>\n" + doc + "</parameter>\n</function>\n</tool_call>"
	res = recoverText(t, write)
	if len(res.Calls) != 1 || !strings.Contains(string(res.Calls[0].Arguments), `Hello<|im_end|>`) {
		t.Errorf("chat-template document: %+v", res.Calls)
	}
	// Near miss: gpt-oss's messages of one reply (<|end|><|start|>assistant)
	// are one turn.
	harmony := "<|channel|>analysis<|message|>Read it first.<|end|><|start|>assistant<|channel|>commentary to=functions.read_file <|constrain|>json<|message|>{\"path\":\"main.go\"}<|call|>"
	checkCalls(t, "harmony messages", recoverText(t, harmony), call{"read_file", `{"path":"main.go"}`})
	// Near miss: a transcript shown as an example stays text, made-up turn
	// shape and all.
	wantText(t, "transcript example", recoverText(t, "Here is an example of what the model sends:\n\n"+hermesRF+"<|im_end|>\n<|im_start|>user\n<tool_response>\nok\n</tool_response>"))
}
