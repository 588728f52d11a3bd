package toolcall

import (
	"sort"
	"strings"
)

// Narrowings of the recovery rules, each written from the format or the
// markup that the red-team cases (testdata/widened-adversarial.jsonl) showed
// being read as calls when they are not.

// callRecord is rule "a call record is data" (OpenAI's function-calling
// message shapes, Hermes' <tool_call>, Cohere's tool_use template): a call
// object holds the name, its arguments, and at most an id and a type. An
// object that also holds what the call gave back (result, output,
// exit_code, stdout…) is a log of a call that already ran, shown to the
// user. A status is not a result ("pending" is a model's note on its own
// call), so it does not make a record.
func callRecord(m map[string]any) bool {
	for _, k := range []string{"result", "results", "output", "outputs", "exit_code", "exitCode", "returncode", "stdout", "stderr"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// schemaTypeName is rule "a type name is a placeholder" (JSON Schema's type
// keywords, json-schema.org "type"): a signature written as an object,
// {"command": "string"}, gives each argument its type, not a value.
func schemaTypeName(t string) bool {
	switch t {
	case "string", "str", "integer", "int", "number", "float", "boolean", "bool", "object", "array":
		return true
	}
	return false
}

// capWordsName is rule "a class constructor is not a tool" (PEP 8: class
// names use CapWords, function names are lower case; vLLM's pythonic
// format is a list of function calls): [Point(x=1, y=2), …] is the repr
// of objects. It reports whether a name is CapWords.
func capWordsName(n string) bool {
	if n == "" || n[0] < 'A' || n[0] > 'Z' || strings.ContainsAny(n, "_.") {
		return false
	}
	for k := 1; k < len(n); k++ {
		if n[k] >= 'a' && n[k] <= 'z' {
			return true
		}
	}
	return false
}

// quotedBlockLine is rule "markdown quotes and indented code are text"
// (CommonMark 0.31.2, "Block quotes" and "Indented code blocks"): a line
// that opens with "> " is a quotation — a file's or a user's text the
// model repeats — and a line indented by four spaces after a blank line is
// code, so call syntax starting on such a line is shown, not made. pos is
// where the call starts; the text before it on its line must be only the
// quote marker or the indent.
func quotedBlockLine(s string, pos int) bool {
	ls := strings.LastIndexByte(s[:pos], '\n') + 1
	head := s[ls:pos]
	t := strings.TrimLeft(head, " ")
	if len(head)-len(t) <= 3 && strings.HasPrefix(t, ">") && !strings.HasPrefix(t, ">>") {
		return quoteMarkers(t)
	}
	if strings.TrimSpace(head) != "" || !(strings.HasPrefix(head, "    ") || strings.HasPrefix(head, "\t")) || ls == 0 || insideFence(s, ls) {
		return false
	}
	// An indented code block cannot interrupt a paragraph: the lines above
	// it, back to a blank line, are code lines too, and there is prose
	// before that blank line (a whole reply indented is not a quotation).
	for k := ls - 1; k > 0; {
		ps := strings.LastIndexByte(s[:k], '\n') + 1
		line := s[ps:k]
		if strings.TrimSpace(line) == "" {
			// Four spaces under a list item are its content, not code.
			above := strings.TrimRight(s[:ps], " \t\r\n")
			last := strings.TrimLeft(above[strings.LastIndexByte(above, '\n')+1:], " ")
			if m, _, ok := strings.Cut(last, " "); ok && listMarker(m+" ") {
				return false
			}
			return above != ""
		}
		if !(strings.HasPrefix(line, "    ") || strings.HasPrefix(line, "\t")) {
			return false
		}
		k = ps - 1
	}
	return false
}

// strippedHarmonyReply is rule "stripped harmony recipient in a header",
// narrowed to its format (openai/harmony docs/format.md): with the special
// tokens removed, a reply in harmony still begins with a header — a role
// or channel word (analysis, commentary, final, assistant) or the
// recipient the prompt's <|start|>assistant left first. A to=functions…
// line under prose that begins otherwise ("Log from the run:", "The
// parser splits on to=:") is quoted text.
func strippedHarmonyReply(s string) bool {
	// The channel and role names are lower case in the format ("analysis",
	// "commentary", "final", "assistant"); "Analysis of the run:" and
	// "Final answer:" open English prose (rule_redteam5).
	t := strings.TrimLeft(s, " \t\r\n")
	for _, h := range []string{"analysis", "commentary", "final", "assistant", "to=", "<|"} {
		if strings.HasPrefix(t, h) {
			return true
		}
	}
	return false
}

// insideFence reports whether the line at s[ls] is inside a ``` or ~~~
// fence (an odd number of fence lines above it): indentation there is the
// fence's content, not an indented code block.
func insideFence(s string, ls int) bool {
	return len(fenceLines(s[:ls]))%2 == 1
}

// fenceLines are the starts of the lines of s that open or close a fence.
func fenceLines(s string) []int {
	var out []int
	for ls := 0; ls <= len(s); {
		e := strings.IndexByte(s[ls:], '\n')
		if e < 0 {
			e = len(s)
		} else {
			e += ls
		}
		t := strings.TrimLeft(s[ls:e], " ")
		if strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~") {
			out = append(out, ls)
		}
		ls = e + 1
	}
	return out
}

// insideFence is insideFence(sc.s, ls) for a line start ls, with the
// fence lines found once for the text (a rule that asks at every trigger
// read the whole text before each again).
func (sc *scan) insideFence(ls int) bool {
	if !sc.fencesRead {
		sc.fencesRead, sc.fenceLines = true, fenceLines(sc.s)
	}
	// The fence lines that start before ls (a fence line cut at ls by
	// s[:ls] is the same line: ls is a line start).
	return sort.SearchInts(sc.fenceLines, ls)%2 == 1
}

// listedExample is rule "markdown tables and labelled list items are text"
// (GitHub Flavored Markdown tables, CommonMark list items): call syntax in
// a table row ("| <tool_call>… | Hermes call |"), or opening a list item
// with a label after it on the same line ("- <tool_call>… — Hermes"), is
// an entry of a listing of formats, not a call. A list item that is only
// the call is still one.
func listedExample(s string, start, end int) bool {
	ls := strings.LastIndexByte(s[:start], '\n') + 1
	head := strings.TrimLeft(s[ls:start], " ")
	if strings.HasPrefix(head, "|") || pipelessTableRow(s, ls, head) {
		return true
	}
	if !listMarker(head) || end >= len(s) {
		return false
	}
	le := strings.IndexByte(s[end:], '\n')
	if le < 0 {
		le = len(s) - end
	}
	return strings.TrimSpace(s[end:end+le]) != ""
}

// listMarker reports whether head is only a list item marker: -, *, + or
// a number followed by . or ), then a space.
func listMarker(head string) bool {
	t := strings.TrimRight(head, " \t")
	if t == head || t == "" {
		return false
	}
	if t == "-" || t == "*" || t == "+" {
		return true
	}
	k := 0
	for k < len(t) && t[k] >= '0' && t[k] <= '9' {
		k++
	}
	return k > 0 && k == len(t)-1 && (t[k] == '.' || t[k] == ')')
}

// gemmaStrippedAt is rule "gemma call: without its tokens", narrowed to
// where the tokens stood (Gemma 4's <|tool_call>call:NAME{…}<tool_call|>,
// ai.google.dev's function-calling page): with the tokens stripped, call:
// opens the reply, a line, or follows what is left of a token; in the middle
// of a sentence ("a call is written call:bash{…} between the tokens") it is
// prose.
func gemmaStrippedAt(s string, j int) bool {
	k := j
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	// FunctionGemma's marker is read by functionGemma (rule_round5c.go)
	// alone: one it left as it is is markup named in prose (round 6).
	if strings.HasSuffix(s[:k], fgStart) || functionGemmaCopyAt(s, k) { // functionGemmaCopyAt: rule_round11h.go
		return false
	}
	return k == 0 || s[k-1] == '\n' || s[k-1] == '>' || s[k-1] == '|'
}

// consoleFence is rule "a console session is code" (the console/shell
// session convention of GitHub's and Pygments' highlighters: a fence whose
// lines open with a "$ " prompt): call syntax in a plain fence that starts
// with a prompt line is a command and its output pasted back, not a call.
func consoleFence(s string, pos int) bool {
	if !insideFence(s, strings.LastIndexByte(s[:pos], '\n')+1) {
		return false
	}
	f := strings.LastIndex(s[:pos], "```")
	if f < 0 {
		return false
	}
	nl := strings.IndexByte(s[f:pos], '\n')
	if nl < 0 {
		return false
	}
	first := strings.TrimLeft(s[f+nl+1:pos], " ")
	return strings.HasPrefix(first, "$ ") || strings.HasPrefix(first, "% ") || sessionPrompt(first)
}
