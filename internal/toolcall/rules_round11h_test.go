package toolcall

import "testing"

// functiongemma_unstopped_repeat: bare call:…<end_function_call> pieces glued
// after a whole FunctionGemma call, to the end of the reply, were written
// because the engine did not stop at <end_function_call>: the call runs once.
func TestRuleFunctionGemmaUnstopped(t *testing.T) {
	one := "<start_function_call>call:bash{command:<escape>date<escape>}<end_function_call>"
	copy := "call:bash{command:<escape>date<escape>}<end_function_call>"
	date := call{"bash", `{"command":"date"}`}
	text := func(content, finish string) Result {
		return Recover(Input{Content: content, FinishReason: finish, Tools: toolsFor(t)})
	}
	checkCalls(t, "copies cut by the token limit", text(one+copy+copy+"call:bash{comm", "length"), date)
	checkCalls(t, "only a cut copy", text(one+"call:bash{comm", "length"), date)
	checkCalls(t, "whole copies, then a stop", text(one+copy+copy, "stop"), date)
	checkCalls(t, "after a lead-in sentence", text("Let me check the time.\n"+one+copy+"call:ba", "length"), date)

	// Near misses.
	checkCalls(t, "a different piece after the stop point", text(one+"call:bash{command:<escape>rm -rf /tmp/x<escape>}<end_function_call>call:bash{co", "length"), date)
	checkCalls(t, "near miss: a bare call after the end marker, then prose, is not read",
		text(one+"call:bash{command:<escape>rm -rf /tmp/x<escape>}<end_function_call> and that is the loop.", "stop"), date)
	checkRejected(t, "near miss: a line break before the piece, cut", text(one+"\ncall:bash{command:<escape>da", "length"), true, "cut off")
	checkRejected(t, "near miss: the call itself is cut", text("<start_function_call>call:bash{command:<escape>da", "length"), true, "cut off")
	checkCalls(t, "near miss: an undeclared tool repeated", text("<start_function_call>call:get_time{}<end_function_call>call:get_time{}<end_function_call>call:get_ti", "length"))
	checkCalls(t, "near miss: prose naming the repeating markup", text("The model wrote "+one+copy+copy, "stop"))
	checkCalls(t, "near miss: a fenced example", text("Without a stop token the model loops, like this:\n```\n"+one+copy+copy+"\n```\nThat is why the engine must stop at the end marker.", "stop"))
	checkCalls(t, "near miss: a file whose content shows the loop",
		recoverCall(t, "write_file", `{"path": "notes/loop.md", "content": "`+jsonEsc9l(one+copy+copy)+`"}`),
		call{"write_file", `{"path":"notes/loop.md","content":"` + jsonEsc9l(one+copy+copy) + `"}`})
	checkCalls(t, "near miss: Gemma 4 call, then a bare call glued to its end token",
		text("<|tool_call>call:bash{command:<|\"|>ls<|\"|>}<tool_call|>call:bash{command:<|\"|>rm -rf build<|\"|>} next.", "stop"),
		call{"bash", `{"command":"ls"}`})
	checkCalls(t, "near miss: Gemma 4 calls on their own lines are still read",
		text("<|tool_call>call:bash{command:<|\"|>ls<|\"|>}<tool_call|>\n<|tool_call>call:bash{command:<|\"|>pwd<|\"|>}<tool_call|>", "stop"),
		call{"bash", `{"command":"ls"}`}, call{"bash", `{"command":"pwd"}`})
	if got := functionGemmaUnstopped(one + copy + "\nDone."); got != one+copy+"\nDone." {
		t.Errorf("text after the copies: changed to %q", got)
	}
}
