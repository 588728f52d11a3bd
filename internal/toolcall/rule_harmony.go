package toolcall

import "strings"

// Rules for gpt-oss's harmony format, written from its header grammar
// (openai/harmony docs/format.md, and the parsers of vLLM, llama.cpp and
// Ollama): a message is <|start|>ROLE[ to=RECIPIENT]<|channel|>CHANNEL
// [ to=RECIPIENT][ <|constrain|>TYPE]<|message|>BODY<|end|>|<|call|>.

// harmonyRoleRecipient (rule "harmony recipient before the first token"):
// when <|start|>assistant ends the prompt, the reply starts with the rest of
// the role part — " to=functions.NAME<|channel|>analysis…" (llama.cpp's
// GPT-OSS test "Tool call with constraint"; Ollama's header test with the
// role replaced by the recipient). That fragment, right before the first
// token of a message, is the header's recipient, not prose. It returns the
// header's start.
func harmonyRoleRecipient(s string, pos, hs int) int {
	seg := s[pos:hs]
	k := strings.LastIndex(seg, "to=")
	if k < 0 {
		return hs
	}
	// Nothing but the recipient between it and the token.
	if strings.ContainsAny(strings.TrimRight(seg[k:], " \t"), " \t\n") {
		return hs
	}
	start := k
	// An optional role word (assistant) glued or spaced before it.
	head := strings.TrimRight(seg[:k], " \t")
	if strings.HasSuffix(strings.ToLower(head), "assistant") {
		start = len(head) - len("assistant")
		head = head[:start]
	}
	// The fragment stands alone: at the start of the reply or of a line.
	if strings.TrimRight(head, " \t") != "" && !strings.HasSuffix(strings.TrimRight(head, " \t"), "\n") {
		return hs
	}
	return pos + start
}

// harmonyContentTypes are the content types gpt-oss writes in a header
// (<|constrain|>json, and "code" for its code tools).
// With the tokens stripped, the channel that follows the recipient
// (to=functions.NAME<|channel|>commentary, the recipient-first header order
// of openai/harmony's format.md) is glued to it the same way.
var harmonyContentTypes = []string{"json", "code", "commentary", "analysis"}

// gluedContentType (rule "harmony content type glued to the recipient"):
// models emit to=functions.NAMEjson with no space before the content type
// (llama.cpp#15158: "NAMEjson (e.g., \"shelljson\")"). When the name is no
// tool but is one once the type is cut off, it returns the length to cut.
func gluedContentType(ts *toolset, name string) int {
	if ts.resolve(name) != "" {
		return 0
	}
	low := strings.ToLower(name)
	for _, t := range harmonyContentTypes {
		if len(low) > len(t) && strings.HasSuffix(low, t) && ts.resolve(name[:len(name)-len(t)]) != "" {
			return len(t)
		}
	}
	// Channel and content type both glued, tokens stripped:
	// to=functions.NAMEcommentaryjson.
	for _, t := range []string{"commentaryjson", "analysisjson", "commentarycode", "analysiscode"} {
		if len(low) > len(t) && strings.HasSuffix(low, t) && ts.resolve(name[:len(name)-len(t)]) != "" {
			return len(t)
		}
	}
	return 0
}

// harmonyRecipient is the tool a harmony message is addressed to, with the
// repair made to read it.
func harmonyRecipient(ts *toolset, r string) (string, []string) {
	if n := harmonyNamespacedRecipient(ts, r); n != "" { // rule_round8j.go
		return n, []string{"recipient " + r + " read as " + n}
	}
	if n := gluedContentType(ts, r); n > 0 {
		return r[:len(r)-n], []string{"content type " + r[len(r)-n:] + " glued to the recipient"}
	}
	return r, nil
}

// skipContentType skips a header's content type after a stripped recipient:
// an optional <|constrain|> and one short lower-case word (json, code).
func skipContentType(s string, q int) int {
	if strings.HasPrefix(s[q:], "<|constrain|>") {
		q = skipSpace(s, q+len("<|constrain|>"))
	}
	// With the tokens stripped, the channel may stand between the
	// recipient and the content type: "to=functions.NAME commentary json{".
	for range 2 {
		e := q
		for e < len(s) && e-q <= 12 && s[e] >= 'a' && s[e] <= 'z' {
			e++
		}
		if e == q {
			break
		}
		r := skipSpace(s, e)
		if r < len(s) && (s[r] == '{' || strings.HasPrefix(s[r:], "<|message|>")) {
			q = r
			break
		}
		if w := s[q:e]; w != "commentary" && w != "analysis" {
			break
		}
		q = r
	}
	if strings.HasPrefix(s[q:], "<|message|>") {
		q = skipSpace(s, q+len("<|message|>"))
	}
	return q
}

// strippedHeaderAt (rule "stripped harmony recipient in a header"): with the
// special tokens removed, a header still reads ROLE+CHANNEL then to=…
// ("assistantcommentary to=functions.bash json{…}"). A to= that follows
// anything else is a sentence that mentions a recipient, not a call.
func (sc *scan) strippedHeaderAt(j int) bool {
	s := sc.s
	k := j
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	if k == 0 || s[k-1] == '>' {
		return true
	}
	// Inside a stripped reply's final answer: rule_redteam9.go.
	if sc.strippedAfterFinal(j) {
		return false
	}
	// The header glued to the end of the analysis message before it
	// ("…first.to=functions.read_file…": <|end|><|start|>assistant
	// stripped), in a reply that opens with its header.
	if k == j && strings.IndexByte(".!?", s[k-1]) >= 0 && strippedHarmonyReply(s) {
		return true
	}
	if strippedAfterStep(s, k, j) { // rule_round18.go
		return true
	}
	if s[k-1] == '\n' {
		return strippedHarmonyReply(s)
	}
	w := k
	for w > 0 && isLetter(s[w-1]) {
		w--
	}
	word := strings.ToLower(s[w:k])
	for _, h := range []string{"commentary", "analysis", "assistant", "final"} {
		if strings.HasSuffix(word, h) {
			// A header word opening a line under prose is pasted text,
			// and so is one after a space in a sentence ("the header
			// reads assistantcommentary to=bash …", "Assistant
			// commentary to=…" in a transcript) unless the reply is
			// itself a stripped harmony reply (red team 9).
			if w > 0 && (s[w-1] == ' ' || s[w-1] == '\t') {
				return strippedHarmonyReply(s)
			}
			return w == 0 || s[w-1] != '\n' || strippedHarmonyReply(s) || headerKeepsMessageToken(s, w, j) // rule_round20.go
		}
	}
	return false
}

// harmonyQuotedTokens (rule "harmony tokens inside code are text"): an
// answer that shows a call in a code span ("the model writes
// `<|channel|>commentary to=functions.read_file …<|call|>`") holds token
// strings that are not the reply's own structure. A span that crosses no
// message boundary (<|start|>, <|end|>, <|return|>) is blanked before the
// reply is split into messages.
func harmonyQuotedTokens(s string) string {
	if !strings.Contains(s, "`") || !strings.Contains(s, "<|message|>") {
		return s
	}
	code := codeRegions(s)
	spans := append(code, inlineCodeRegions(blank(s, code))...)
	var quoted []region
	for _, r := range spans {
		t := s[r.start:r.end]
		if !strings.Contains(t, "<|") || strings.Contains(t, "<|start|>") || strings.Contains(t, "<|end|>") || strings.Contains(t, "<|return|>") {
			continue
		}
		quoted = append(quoted, r)
	}
	return blank(s, quoted)
}
