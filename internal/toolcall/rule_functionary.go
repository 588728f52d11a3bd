package toolcall

import "strings"

// Rule "functionary_recipient", narrowed to its format (Functionary v3.2's
// prompt template, MeetKai/functionary; llama.cpp's FUNCTIONARY_V3_2
// parser): a reply is a sequence of messages, each opened by >>>RECIPIENT
// and a newline, and a call message's body is its JSON arguments alone, up
// to the next >>> or the end. An object followed by more prose in the same
// message ("… is the argument object", "That's the format Functionary
// uses") is an example of the format, not a call; and the template writes
// no fences, so a >>> line inside a ``` fence is pasted output.

// functionaryBodyEnds reports whether a call message whose JSON ends at
// s[end] ends there: only spaces, then the next >>> or the end of the reply.
func functionaryBodyEnds(s string, end int) bool {
	rest := strings.TrimLeft(s[min(end, len(s)):], " \t\r\n")
	return rest == "" || strings.HasPrefix(rest, ">>>")
}

// functionaryGroup applies both to a call read by nameThenJSON.
func functionaryGroup(s string, g group, ok bool) (group, bool) {
	if !ok || !functionaryBodyEnds(s, g.end) {
		return group{}, false
	}
	return g, true
}
