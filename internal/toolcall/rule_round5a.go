package toolcall

import "strings"

// Rule "back-to-back calls share their prose" (widened-threads-round5a.jsonl,
// multi_call). intent.go reads the sentence that leads into a call and the
// first sentence after it. Calls written one after the other, with nothing
// between them but white space or the ; and , that separate calls, have one
// lead-in and one sentence after them: that of the first call and that of
// the last. "GLM writes parallel calls back to back, for example:" followed
// by two GLM blocks shows both (Hermes blocks were already read as one
// run); "<call>\n<call>\n\nI won't run these." refuses both.

// callRun returns, for groups sorted by start, the index of the first and of
// the last group of the run of adjacent calls that group k belongs to.
// Overlapping groups (already part of another call) do not break a run.
func callRun(s string, groups []group, k int) (first, last int) {
	adjacent := func(a, b group) bool {
		if b.start < a.end {
			return true
		}
		return strings.Trim(s[a.end:b.start], " \t\r\n;,") == ""
	}
	first, last = k, k
	for first > 0 && adjacent(groups[first-1], groups[first]) {
		first--
	}
	for last+1 < len(groups) && adjacent(groups[last], groups[last+1]) {
		last++
	}
	return first, last
}
