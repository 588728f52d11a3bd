package toolcall

import "testing"

// The rules written for the corpus's last misses (kimi_k2-z009, gemma-p020,
// minimax_m2-y001), each beside a near miss that must not run.
func TestRuleLeftovers(t *testing.T) {
	// Kimi's id functions.NAME:INDEX with '.' and ':' sanitised to '_'.
	kimi := "<|tool_calls_section_begin|><|tool_call_begin|>functions_Bash_2<|tool_call_argument_begin|>{\"command\": \"gh pr checks 2\"}<|tool_call_end|><|tool_calls_section_end|>"
	checkCalls(t, "sanitised kimi id", recoverText(t, kimi), call{"bash", `{"command":"gh pr checks 2"}`})
	if res := recoverCall(t, "functions_bash", `{"command":"ls"}`); len(res.Calls) != 0 {
		t.Errorf("functions_bash without an index ran %+v", res.Calls)
	}

	// Gemma 4 with JSON inside the envelope's braces.
	checkCalls(t, "gemma json inside", recoverText(t, `<|tool_call>call:bash{{"command":"ls -la /testbed"}}<tool_call|>`), call{"bash", `{"command":"ls -la /testbed"}`})
	checkCalls(t, "gemma json inside, tokens stripped", recoverText(t, `call:bash{{"command":"ls -la /testbed"}}`), call{"bash", `{"command":"ls -la /testbed"}`})
	wantText(t, "gemma json inside, in a sentence", recoverText(t, `The harness writes a call as call:bash{{"command":"ls"}} between the tokens.`))
	if res := recoverText(t, `<|tool_call>call:bash{{"command":"ls"}<tool_call|>`); len(res.Calls) != 0 {
		t.Errorf("gemma envelope left open ran %+v", res.Calls)
	}

	// MiniMax markup with its angle brackets lost.
	lost := "invoke name=\"fetch_content\">\nparameter name=\"url\">https://example.com/parameter>\ninvoke>"
	checkCalls(t, "minimax angles lost", recoverText(t, lost), call{"fetch_content", `{"url":"https://example.com/"}`})
	wantText(t, "minimax angles lost, quoted in prose", recoverText(t, "The log showed this broken output:\n\n"+lost))
	wantText(t, "minimax angles lost, unknown tool", recoverText(t, "invoke name=\"get_weather\">\nparameter name=\"city\">Parisparameter>\ninvoke>"))
}
