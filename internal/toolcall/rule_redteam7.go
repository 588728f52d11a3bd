package toolcall

import "strings"

// Round 7's red team (testdata/widened-adversarial-round7.jsonl) aimed at
// the rules added since the turn-frame commit. Each narrowing below keeps
// its rule's documented basis and names the text it stops misreading.

// ownOnlyCut narrows preferOwnTurn: when the reply cut before a made-up
// turn yields nothing but calls cut off (a JSON string or object left open
// at the end-of-turn token) and the whole reply yields complete calls, the
// token was inside a value the model closed itself — a write_file of a
// prompt template whose content holds </s>[INST] or <|eot_id|><|start_header_id|>
// — not the end of its turn. A made-up turn leaves the model's own call
// complete before it (TestTurnFrame's "made-up turn", "open value").
func ownOnlyCut(full, own Result) bool {
	if len(own.Calls) > 0 || len(own.Rejections) == 0 || len(full.Calls) == 0 {
		return false
	}
	for _, r := range own.Rejections {
		if !r.Truncated {
			return false
		}
	}
	return true
}

// callNamespaces are the namespaces resolve strips before a tool name:
// Gemini's and Gemma's default_api (the Python namespace their function
// calling writes calls in) and tools. Any other word before a dot is an
// object whose method is called in code (session.read_file(path=…),
// repo.write_file(…)), not a namespace of mm's tools.
var callNamespaces = map[string]bool{"default_api": true, "tools": true}

// yamlScalar is keywordArgs' YAML value: a double-quoted scalar is read as
// its text (YAML's double quotes escape as JSON's do), a single-quoted one
// without its quotes and with ” as ', anything else as written.
func yamlScalar(v string) string {
	if len(v) >= 2 && v[0] == '"' && v[len(v)-1] == '"' {
		if d, ok := decodeText(v); ok {
			if s, ok := d.(string); ok {
				return s
			}
		}
		return v
	}
	if len(v) >= 2 && v[0] == '\'' && v[len(v)-1] == '\'' {
		return strings.ReplaceAll(v[1:len(v)-1], "''", "'")
	}
	return v
}

// langChainAlone narrows callShapes outside call markup: LangChain's agents
// stop generating at "Observation:" to run the action, so a blob that is the
// model's step starts its line and ends the reply (after it only the fence's
// closer and an empty Observation:). A blob in a sentence, or one the answer
// goes on after ("Make the output parser strip the prose first."), is shown.
// q is the blob's '{', end where it ends.
func langChainAlone(s string, q, end int) bool {
	if _, ok := opensLine(s, q); !ok {
		return false
	}
	rest := strings.TrimSpace(s[end:])
	rest = strings.TrimSpace(strings.TrimPrefix(strings.TrimPrefix(rest, "```"), "~~~"))
	rest = strings.TrimSpace(strings.TrimPrefix(rest, "Observation:"))
	return rest == ""
}

// smolagentsAction: smolagents' blob is labelled, an "Action:" line right
// above it (its ToolCallingAgent's prompt), and its parser takes the first
// blob after the label whatever follows (huggingface/smolagents#158 quotes
// Llama 3.1 going on with a sentence about the action). The label, on its
// own line, marks the model's step as LangChain's end-of-reply does.
func smolagentsAction(s string, q int, v any) bool {
	m, ok := v.(map[string]any)
	if !ok || !smolagentsShape(m) {
		return false
	}
	ls, ok := opensLine(s, q)
	if !ok || ls == 0 {
		return false
	}
	prev := strings.TrimSpace(s[:ls])
	return prev == "Action:" || strings.HasSuffix(prev, "\nAction:")
}

// toVerbRe: "need to", "want to", "have to", "going to" before the verb of
// an announcement: "I'll need to run it like this:" announces run.
var toVerbRe = lazyRegexp(`(?i)\b(need|want|have|going)\s+to\s+`)

// discourseVerbs narrow announcesAct: after "I'll", "let me", "I want to",
// these verbs organise what the model says ("I'll note that…", "Let me be
// precise:", "I want to point out…", "we'll need an assistant turn like
// this:") and announce no step of its own, as the verbs of showing do not.
var discourseVerbs = map[string]bool{"be": true, "note": true, "mention": true, "point": true, "say": true,
	"admit": true, "need": true, "remind": true, "clarify": true, "stress": true, "emphasize": true,
	"emphasise": true, "warn": true, "guess": true, "bet": true, "assume": true, "suggest": true,
	"recommend": true, "propose": true}

// bracketLinesEndReply narrows calling_tool_bracket: the parsers it cites
// take the line as the reply's call, which the server must run before the
// model goes on; what follows it is only further such lines. Prose after
// them makes the lines a record of earlier calls (MLX renders history in
// this form, so a model summing up its session copies it).
func bracketLinesEndReply(rest string) bool {
	for _, line := range strings.Split(rest, "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if !strings.HasPrefix(t, "[Calling tool:") || !strings.HasSuffix(t, ")]") {
			return false
		}
	}
	return true
}

// exampleInvocationRe widens usage_example_lead to "an example invocation:",
// the order of words exampleRe's "example call|request|usage" misses.
var exampleInvocationRe = lazyRegexp(`(?i)\bexample\s+invocations?\s*[:：]?\s*$`)

// fullWidthPunct is the CJK punctuation after which a clause opens as
// after its ASCII form: a Chinese lead-in ending in "：" before an English
// one ("让我先读取配置文件：Running it this way:").
var fullWidthPunct = strings.NewReplacer("：", ": ", "，", ", ", "；", "; ", "。", ". ")

// actsIn is modelActs on a lead-in whose clauses may be opened by CJK
// punctuation, or on its last sentence (a gerund opening it: "我来运行测试。
// Running it this way:"); echoed_user_text and demonstrationLead read it.
func actsIn(before string) bool {
	w := strings.TrimSpace(fullWidthPunct.Replace(before))
	if modelActs(w) {
		return true
	}
	if k := strings.LastIndexAny(strings.TrimRight(w, ".!?: "), ".!?"); k >= 0 {
		return modelActs(w[k+1:])
	}
	return false
}

// opensLine reports whether only blanks stand between the start of its line
// and s[q], and where that line starts. It looks back over the blanks only,
// so that a reply of many objects on one line is not read again for each.
func opensLine(s string, q int) (int, bool) {
	k := q
	for k > 0 && (s[k-1] == ' ' || s[k-1] == '\t' || s[k-1] == '\r') {
		k--
	}
	return k, k == 0 || s[k-1] == '\n'
}

// lastShortLine is head's last line when it is at most n bytes long; a
// longer one is no fence opener or label, and is not looked at whole.
func lastShortLine(head string, n int) (string, bool) {
	w := head[max(0, len(head)-n):]
	if i := strings.LastIndexByte(w, '\n'); i >= 0 {
		return w[i+1:], true
	}
	if len(head) <= n {
		return head, true
	}
	return "", false
}
