package toolcall

import (
	"strings"
	"testing"
	"time"
)

// A model that loops repeats one marker until the token limit; such a
// reply must be read in about linear time, and a looping output block must
// end. Each input is ~200 KB; a linear scan takes milliseconds.
func TestDegenerateRepliesStayFast(t *testing.T) {
	const n = 200_000
	rep := func(s string) string { return strings.Repeat(s, n/len(s)+1)[:n] }
	inputs := map[string]string{
		"wrapper tokens":           rep("<|tool_call|>"),
		"mistral markers":          rep("[TOOL_CALLS]"),
		"hermes openers":           rep("<tool_call>"),
		"nested objects":           rep(`{"a": `),
		"nested lists":             rep("[{"),
		"open strings":             rep(`{"k": "`),
		"function tags":            rep("<function=bash>"),
		"parameters without close": rep("<parameter=command>x"),
		"deepseek begins":          rep("<｜tool▁call▁begin｜>"),
		"output then outputs":      "<｜tool▁output▁begin｜>x<｜tool▁output▁end｜>" + rep("outputs <｜tool▁output▁end｜>"),
		"harmony messages":         rep("<|channel|>analysis<|message|>x"),
		"think closers":            rep("a</think>"),
		"parens":                   rep("read_file("),
		"gemma calls":              rep("<|tool_call>call:bash{"),
		"arg keys":                 rep("<arg_key>k</arg_key><arg_value>"),
		"quotes":                   `{"name": "bash", "arguments": {"command": "` + rep(`"x" `) + `"}}`,
		// Turn tokens (turnframe.go): ends of turn with no turn after them,
		// and a reply framed by begin and end tokens.
		"strikethrough ends": rep("<s>x</s> "),
		"end tokens":         rep("<|im_end|>x<|eot_id|>y<|end|>"),
		"framed":             rep("<s>") + "x" + rep("</s>"),
		// The formats of rounds 7-9 and other clients'.
		"continue blocks":    rep("```tool\nTOOL_NAME: bash\nBEGIN_ARG: command\n"),
		"cherry tool_use":    rep("<tool_use><name>bash</name><arguments>{"),
		"calling tool":       rep("[Calling tool: bash({"),
		"calling tool lines": rep("[Calling tool: bash({\"command\": \"ls\"})]\n"),
		"whole langchain":    rep(`{"action": "bash", "action_input": "ls"} `),
		"whole smolagents":   rep(`{"tool_name": "bash", "tool_arguments": {"command": "ls"}} `),
		"whole headers":      "analysis" + rep(`x.assistantcommentary to=functions.bash json{"command": "ls"} `),
		"user turns":         rep("User: hi Assistant: ok "),
		"stripped headers":   rep("assistantcommentary to=functions.bash json{"),
		"langchain actions":  rep(`{"action": "bash", "action_input": `),
		"minicpm params":     rep(`<function name="bash"><param name="command">`),
		"transcript turns":   rep("User: hi\nAssistant: <tool_call>"),
		// Round 10's formats and lead-in rules.
		"action smolagents":  rep("Action:\n{\"tool_name\": \"bash\", \"tool_arguments\": {\"command\": \"ls\"}}\n"),
		"olmo3 lines":        "<function_calls>" + rep("bash(command=\"ls\")\n"),
		"olmo3 blocks":       rep("<function_calls>bash(command=\"ls\")\n"),
		"python lines":       rep("bash(command=\"ls\")\n"),
		"tool_code lines":    "```tool_code\n" + rep("bash(command=\"ls\")\n"),
		"python then prose":  rep("bash(command=\"ls\")\nprose\n"),
		"functionary lines":  rep(">>>bash\n{\"command\": \"ls\"}\n"),
		"fenced functionary": rep("```\n>>>bash\n{\"command\": \"ls\"}\n```\n"),
		"logged headers":     rep("Log:\nassistantcommentary to=functions.bash json{\"command\": \"ls\"}\n"),
		"after final":        "assistantfinal" + rep(" to=functions.bash json{} "),
		// Round 11's formats.
		"steptml invokes":       rep("<｜tool▁call▁begin｜>function<｜tool▁sep｜><steptml:invoke name=\"bash\"><steptml:parameter name=\"command\">"),
		"functiongemma repeats": "<start_function_call>call:bash{command:<escape>ls<escape>}<end_function_call>" + rep("call:bash{command:<escape>ls<escape>}<end_function_call>"),
		"cut pythonic values":   rep("bash(command="),
		"retry lead-ins":        rep("The previous <tool_call> block was cut off, so again:\n"),
		"quoting lead-ins":      rep("The subagent then did this:\n<tool_call>\n"),
		"wrong right pairs":     rep("Wrong:\nx\nRight:\n<tool_call>{"),
		"answer labels":         rep("Answer:\n{\"name\": \"bash\", \"arguments\": "),
		"quoted markup":         rep(`"<tool_call>" `),
		"string arguments":      rep(`<tool_call>{"name": "bash", "arguments": "ls"}</tool_call>`),
	}
	// Inputs made of whole calls, which may rightly run one.
	wholeCalls := map[string]bool{"quotes": true, "calling tool lines": true, "whole langchain": true, "whole smolagents": true, "whole headers": true, "action smolagents": true, "olmo3 lines": true, "olmo3 blocks": true, "python lines": true, "tool_code lines": true, "functionary lines": true, "functiongemma repeats": true}
	tools := toolsFor(t)
	for name, in := range inputs {
		start := time.Now()
		done := make(chan Result, 1)
		go func() { done <- Recover(Input{Content: in, FinishReason: "stop", Tools: tools}) }()
		select {
		case res := <-done:
			d := time.Since(start)
			if d > time.Second {
				t.Errorf("%s: %v for %d bytes", name, d, len(in))
			}
			t.Logf("%-26s %v", name, d)
			if len(res.Calls) > 0 && !wholeCalls[name] {
				t.Errorf("%s: ran %d calls from garbage", name, len(res.Calls))
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("%s: no result after 20s (a loop that never ends?)", name)
		}
	}
}
