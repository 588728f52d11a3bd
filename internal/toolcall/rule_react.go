package toolcall

import "strings"

// reactAction is rule "react_action": the ReAct agent format (LangChain's
// ReAct prompt, hwchase17/react, and CrewAI's parser) has the model write
//
//	Action: the action to take, should be one of [tool names]
//	Action Input: the input to the action
//
// and the client stops generation at "\nObservation:" to run the action and
// write the observation itself. A reply that ends with such a block (an
// "Action:" line, the next line "Action Input:" with a value, then nothing,
// or only an empty "Observation:") is a call attempt in a format mm does not
// speak (crewAI#674: phi3 names a tool that does not exist). It is answered
// with a correction, never run: mm's prompt does not ask for ReAct, and
// whether the text is the model's call or an example of the format is not
// something the format itself says. A block followed by more text (the model
// writing the observation and its answer itself), inside a code fence, or
// after a lead-in that shows it as an example (notIntended) is text.
func reactAction(content string, ts *toolset) (Rejection, bool) {
	const act, input = "Action:", "Action Input:"
	if !strings.Contains(content, input) {
		return reactActionArgs(content, ts) // rule_round15.go
	}
	lines := strings.Split(strings.TrimRight(content, " \t\r\n"), "\n")
	// The block must end the reply: drop one trailing empty Observation.
	if n := len(lines); n > 0 && strings.TrimSpace(lines[n-1]) == "Observation:" {
		lines = lines[:n-1]
	}
	in := -1
	for i := len(lines) - 1; i >= 1; i-- {
		if strings.HasPrefix(strings.TrimSpace(lines[i]), input) {
			in = i
			break
		}
	}
	if in < 1 {
		return Rejection{}, false
	}
	value := strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(lines[in]), input))
	rest := strings.TrimSpace(strings.Join(lines[in+1:], "\n"))
	// The input may run over the following lines (a JSON object), but
	// nothing that is another ReAct step may follow it.
	for _, l := range lines[in+1:] {
		t := strings.TrimSpace(l)
		for _, step := range []string{"Observation:", "Thought:", "Final Answer:", "Action:"} {
			if strings.HasPrefix(t, step) {
				return Rejection{}, false
			}
		}
	}
	if value == "" && rest == "" {
		return Rejection{}, false
	}
	prev := strings.TrimSpace(lines[in-1])
	if !strings.HasPrefix(prev, act) {
		return Rejection{}, false
	}
	if strings.Count(strings.Join(lines[:in], "\n"), "```")%2 == 1 {
		return Rejection{}, false // inside a fence: code
	}
	// The lead-in may say the step is shown, not made ("A ReAct step looks
	// like this:", "For example:"), as for any other call syntax.
	// The step starts at its Thought line when it has one (the ReAct
	// prompt's Thought / Action / Action Input), so the lead-in is what
	// comes before that (rule_redteam5).
	first := in - 1
	if first > 0 && strings.HasPrefix(strings.TrimSpace(lines[first-1]), "Thought:") {
		first--
	}
	off := 0
	for _, l := range lines[:first] {
		off += len(l) + 1
	}
	if notIntended(sentenceBefore(content, 0, off), "") {
		return Rejection{}, false
	}
	action := strings.TrimSpace(strings.TrimPrefix(prev, act))
	if action == "" {
		return Rejection{}, false
	}
	rej := reactRejection(action, ts)
	if name := ts.resolve(action); name != "" {
		rej.Reason += reactInputLacks(strings.TrimSpace(value+"\n"+rest), name, ts) // rule_round17.go
	}
	return rej, true
}

// reactRejection is the correction for a ReAct step naming action.
func reactRejection(action string, ts *toolset) Rejection {
	if name := ts.resolve(action); name != "" {
		return Rejection{Name: action, Reason: "you wrote the " + name + " call as ReAct text (Action / Action Input); nothing was run — send it as a tool call"}
	}
	return Rejection{Name: action, Reason: "you wrote a ReAct Action for " + echoName(action) + ", which is not a tool; nothing was run — the tools are: " + ts.list() + "; send a call as a tool call"}
}
