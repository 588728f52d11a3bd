package toolcall

import (
	"sort"
	"strings"
)

// Red team round 9 (testdata/widened-adversarial-round9.jsonl): the
// narrowings of rounds 8f–9v's rules and of the stripped-harmony reading
// that its constructed replies showed were needed, each beside the near
// miss that still runs (rules_redteam9_test.go).

// markupWordAfterName: what may follow the tool's word in a server call's
// name field for nameInMarkup to read it — a digit index (read_file@0,
// functions.read_file:0) or the words of the markup a server left around it
// (<function=read_file></function>, …<|tool_call_end|>). Any other word
// after the name makes a longer name of another namespace (e2b's
// sandbox.bash.run, a remote shell's bash.exec), not markup: no guess.
func markupWordAfterName(w string) bool {
	if strings.Trim(w, "0123456789") == "" {
		return true
	}
	switch strings.ToLower(w) {
	case "function", "tool_call", "tool_call_end", "tool_call_argument_begin", "tool_calls_section_end",
		"call", "end", "json", "constrain", "message", "commentary", "invoke", "tool", "parameter":
		return true
	}
	return false
}

// namingArg is rule "empty_naming_argument"'s own basis made explicit: an
// argument that names something — a path, a file, a directory, a URL, a
// command, an action, a symbol, an agent or a tool — by its key. Free text
// the rule cannot know by name (Serena's repl, a new_string, a message)
// may legitimately be empty (an empty replacement deletes what it
// replaces) and is not checked.
func namingArg(key string) bool {
	k := strings.ToLower(key)
	for _, w := range []string{"path", "file", "dir", "folder", "url", "uri", "command", "cmd"} {
		if strings.Contains(k, w) {
			return true
		}
	}
	switch k {
	case "name", "symbol", "action", "agent", "tool", "server", "repo", "branch":
		return true
	}
	return false
}

// Rule "transcript_turn": a call written on an assistant's speaker line
// (Assistant:, AI:, or a harmony header written out as "Assistant
// commentary") of a conversation the reply shows, with a User: or Human:
// turn before it, is that transcript's turn, not the model's own call: a
// model explaining a chat format (Seed-OSS's turns, Cherry Studio's prompt
// and its notional examples, a harmony log) writes the whole exchange.
// A reply that merely opens with "Assistant:" (no user turn shown before
// the call) is the model's own turn and runs.
var (
	transcriptUserRe  = lazyRegexp(`(?im)^[ \t>*_]*(user|human)[*_]*[ \t]*:`)
	transcriptAsstRe  = lazyRegexp(`(?i)^[ \t>*_]*(assistant|ai|model|bot)[*_]*[ \t]*(:|(commentary|analysis)\b)`)
	quotesUserPasteRe = lazyRegexp(`(?i)^\s*(you|the user)\s+(just\s+|also\s+)?(pasted|posted|sent|shared|quoted|copied|forwarded)\b[^:：\n]{0,80}[:：]\s*$`)
)

func transcriptTurn(prose string, start int) bool {
	head := prose[:start]
	ls := strings.LastIndexByte(head, '\n') + 1
	line := head[ls:]
	if strings.TrimSpace(line) == "" {
		// The call opens its line: the speaker line is the one before it.
		t := strings.TrimRight(head[:ls], " \t\r\n")
		ls = strings.LastIndexByte(t, '\n') + 1
		line = t[ls:]
	}
	if !transcriptAsstRe().MatchString(line) {
		return false
	}
	return transcriptUserRe().MatchString(head[:ls])
}

// Rule "quotes_user_paste": a lead-in that says the user pasted, sent or
// shared what follows ("You pasted this from the chat window:") quotes the
// user's text back, as quotes_report quotes a report: shown, not made. The
// model's own step after it ("…, let me run it:") is first person and runs.
func quotesUserPaste(before string) bool {
	return quotesUserPasteRe().MatchString(before) && !firstPersonRe().MatchString(before)
}

// Rule "quotes_exact_output": a lead-in that ends on "this exact output:",
// "the following string:" or "this input:" quotes a string verbatim — a
// parser test's input ("OVMS's devstral test feeds the parser this exact
// output:" before "[TOOL_CALLS]example_tool[ARGS]</s>"), a response body —
// and the model is not in it.
var quotesExactRe = lazyRegexp(`(?i)\b(this|that|the following)\s+(exact\s+|literal\s+|raw\s+)?(output|string|input|text|payload|response|completion)\s*[:：]\s*$`)

// shownRedTeam9 holds the round's lead-in rules for finish (content.go).
func shownRedTeam9(prose string, start int, before string) bool {
	b := strings.Join(strings.Fields(before), " ")
	// stepAfterPaste, ownGerundStep: rule_redteam11.go.
	return transcriptTurn(prose, start) || quotesUserPaste(b) && !stepAfterPaste12(b) || quotesExactRe().MatchString(b) && !firstPersonRe().MatchString(b) && !ownGerundStep12(b) // rule_redteam12.go
}

// ownStepAfterReport: a quoting lead-in (reported_return, quotes_report)
// that goes on, after a clause break, to the model's own step ("It
// returned the following failure, so let me open the test file:", "The
// traceback shows the failure is in parse.go; reading that part now:")
// leads into the model's call, not into the quoted output.
var ownStepRe = lazyRegexp(`(?i)(?:[,;—–]|\s-\s)\s*(?:(?:and\s+)?(?:so|then|now)\s+)?(?:(?:let me|let's|let us|i'll|i will|i'm going to|i am going to|we'll|i need to)\b|(?:reading|running|rerunning|checking|opening|fixing|stopping|killing|restarting|rebuilding|installing|creating|editing|writing|listing|fetching|searching|looking|retrying|updating|removing|deleting|trying|inspecting|patching)\b)`)

func ownStepAfterReport(before string) bool {
	return ownStepRe().MatchString(before)
}

// m3AnswerElement: element names that are the answer or the reasoning of
// another prompt format (ReAct in XML, Cline's attempt_completion result,
// a <thought>), never a tool's arguments: a reply made of them with a stray
// closer answered, it attempted no call (m3_elements_opener_lost).
func m3AnswerElement(k string) bool {
	switch strings.ToLower(k) {
	case "answer", "final_answer", "finalanswer", "final", "result", "response", "reply", "thought", "thoughts",
		"thinking", "think", "reasoning", "reflection", "summary", "observation", "explanation", "conclusion":
		return true
	}
	return false
}

// Rule "smolagents blob in place": smolagents' {"tool_name",
// "tool_arguments"} blob is read outside call markup only where its
// format puts it — after the "Action:" line its prompt asks for, or as the
// whole reply — and only as one object. The same object after any other
// lead-in is quoted data (a step of a log, a fixture, a replay list), and
// one followed by an Observation: and then a Final Answer: is a finished
// transcript, its action long done.
func smolagentsOutOfPlace(s string, start, end int, v any) bool {
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if m, ok := e.(map[string]any); ok && hasToolNameKey(m) {
				return true
			}
		}
		return false
	case map[string]any:
		if !hasToolNameKey(x) {
			return false
		}
	default:
		return false
	}
	head := strings.TrimRight(s[:start], " \t\r\n")
	// A fence opened for the blob belongs to it. (Only short last lines
	// are looked at: a fence opener or a label is short, and a reply of
	// many blobs on one line is then not read again for each.)
	if l, ok := lastShortLine(head, 64); ok && strings.HasPrefix(strings.TrimSpace(l), "```") {
		head = strings.TrimRight(head[:len(head)-len(l)], " \t\r\n")
	}
	last, short := lastShortLine(head, 64)
	inPlace := strings.TrimSpace(head) == "" || short && strings.EqualFold(strings.TrimSpace(last), "action:")
	if !inPlace {
		return true
	}
	tail := s[min(end, len(s)):]
	if o := strings.Index(tail, "\nObservation:"); o >= 0 && strings.Contains(tail[o:], "\nFinal Answer:") {
		return true
	}
	return false
}

// hasToolNameKey: smolagents' own blob (Command R's {"tool_name",
// "parameters"} list is its template's format, rule_templates.go).
func hasToolNameKey(m map[string]any) bool {
	return smolagentsShape(m)
}

// strippedAfterFinal (stripped harmony): in a reply whose special tokens
// were stripped, a recipient after the final channel's header
// (…assistantfinal…) is inside the final answer — harmony ends the turn
// with the final message, so no call follows it — unless a new header
// (assistantcommentary, assistantanalysis) opens after that final message.
// The headers are found once for the text (searching back from every
// to= was quadratic on a reply of many).
func (sc *scan) strippedAfterFinal(j int) bool {
	const final = "assistantfinal"
	if !sc.headersRead {
		sc.headersRead = true
		sc.finals = allIndex(sc.s, final)
		sc.headers = append(allIndex(sc.s, "assistantcommentary"), allIndex(sc.s, "assistantanalysis")...)
		sort.Ints(sc.headers)
	}
	// The last final header that ends by j.
	k := sort.Search(len(sc.finals), func(k int) bool { return sc.finals[k]+len(final) > j }) - 1
	if k < 0 {
		return false
	}
	// The first header after it: two never overlap, so it ends first.
	from := sc.finals[k] + len(final)
	h := sort.SearchInts(sc.headers, from)
	if h == len(sc.headers) {
		return true
	}
	size := len("assistantanalysis")
	if strings.HasPrefix(sc.s[sc.headers[h]:], "assistantcommentary") {
		size = len("assistantcommentary")
	}
	return sc.headers[h]+size > j
}

// allIndex are the starts of every occurrence of sub in s.
func allIndex(s, sub string) []int {
	var out []int
	for from := 0; ; {
		i := strings.Index(s[from:], sub)
		if i < 0 {
			return out
		}
		out = append(out, from+i)
		from += i + 1
	}
}
