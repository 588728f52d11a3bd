package toolcall

import (
	"encoding/json"
	"strings"
	"unicode/utf8"
)

// Rules written for the real replies of widened-threads-round4b.jsonl, each
// from the format's parser or documentation named in its comment.

// minimaxNS is MiniMax-M3's namespace token: one vocabulary token (id
// 200058) that the template puts before every structural tag of a call
// (MiniMax-M3's chat template; ik_llama.cpp#2008, mlx-lm#1416,
// lablup/mlxcel#793).
const minimaxNS = "]<]minimax[>["

// minimaxNamespace is rule "minimax_m3_namespace": the parsers of the format
// (mlx-lm#1416 "Strips all ]<]minimax[>[ namespace tokens, leaving clean
// XML", lablup/mlxcel#793) drop the token and read what is left as MiniMax's
// <invoke name=…> markup (M3's <tool_call> wrapper is M2's <minimax:tool_call>), the arguments as elements named after
// the parameters. It applies only where the reply is M3 markup: every token
// stands before a tag, and no tag or JSON comes before the first one, after
// any reasoning
// (a file whose content shows M3 markup, inside a JSON or tagged call, keeps
// its tokens).
func minimaxNamespace(s string) string {
	i := strings.Index(s, minimaxNS)
	if i < 0 {
		return m2ElementArgs(s) // rule_round21.go
	}
	if _, ok := markupLeads(s, i); !ok {
		return s
	}
	for j := i; j >= 0; {
		k := j + len(minimaxNS)
		if strings.TrimSpace(s[k:]) == "" {
			break // the closer's namespace, its </tool_call> eaten as a stop string
		}
		if s[k] != '<' {
			return s
		}
		n := strings.Index(s[k:], minimaxNS)
		if n < 0 {
			break
		}
		j = k + n
	}
	// M3's wrapper is M2's <minimax:tool_call> under another name: the
	// invoke inside is the same grammar (MiniMax's tool-calling guide).
	s = strings.ReplaceAll(s, minimaxNS+"<tool_call>", "<minimax:tool_call>")
	s = strings.ReplaceAll(s, minimaxNS+"</tool_call>", "</minimax:tool_call>")
	return m3Elements(strings.ReplaceAll(s, minimaxNS, ""))
}

// m3Elements writes M3's arguments, one element per parameter named after it
// (<path>…</path>: the template's to_xml macro, mlx-lm#1416), as M2's
// <parameter name="path">…</parameter>, in each <invoke name=…> body made
// only of such elements; any other body is left as it is.
func m3Elements(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "<invoke name=")
		if i < 0 {
			break
		}
		h := strings.IndexByte(s[i:], '>')
		if h < 0 {
			break
		}
		h += i + 1
		e := strings.Index(s[h:], "</invoke>")
		if e < 0 {
			break
		}
		e += h
		b.WriteString(s[:h])
		if body, ok := m3Body(s[h:e]); ok {
			b.WriteString(body)
		} else {
			b.WriteString(s[h:e])
		}
		s = s[e:]
		b.WriteString("</invoke>")
		s = s[len("</invoke>"):]
	}
	b.WriteString(s)
	return b.String()
}

func m3Body(body string) (string, bool) {
	var b strings.Builder
	n := 0
	for {
		t := strings.TrimLeft(body, " \t\r\n")
		b.WriteString(body[:len(body)-len(t)])
		body = t
		if body == "" {
			return b.String(), n > 0
		}
		if body[0] != '<' {
			return "", false
		}
		g := strings.IndexByte(body, '>')
		if g < 2 || !isKey(body[1:g]) {
			return "", false
		}
		k := body[1:g]
		c := strings.Index(body[g+1:], "</"+k+">")
		if c < 0 {
			return "", false
		}
		b.WriteString(`<parameter name="` + k + `">` + body[g+1:g+1+c] + "</parameter>")
		body = body[g+1+c+len("</"+k+">"):]
		n++
	}
}

// glmSecondOpener is rule "glm_second_opener" (getsigit/sigit#95, "GLM can
// emit a second <tool_call> where the first <arg_key> belongs"; the
// ormandj/sglang-glm53-flash-sm120#5 server name
// "run_command<tool_call>command</arg_key>…"): a declared tool's name, then
// <tool_call>, then a key and </arg_key> is GLM's NAME<arg_key>KEY</arg_key>.
// Only the first argument, and only after a declared name, as sigit does.
func glmSecondOpener(s string, ts *toolset) string {
	const open = "<tool_call>"
	i := strings.Index(s, open)
	for i >= 0 {
		k := i + len(open)
		// The name: letters, digits, '_', '-', '.' right before the opener.
		n := i
		for n > 0 && isNameByte(s[n-1]) {
			n--
		}
		// The opener is a second one (rule_redteam5): the name starts
		// the text (a server's name field) or follows the first opener.
		first := n == 0 || strings.HasSuffix(strings.TrimRight(s[:n], " \t\r\n"), open)
		if n < i && first && ts.resolve(s[n:i]) != "" {
			e := strings.Index(s[k:], "</arg_key>")
			if e > 0 && isKey(s[k:k+e]) {
				return s[:i] + "<arg_key>" + s[k:]
			}
		}
		j := strings.Index(s[k:], open)
		if j < 0 {
			break
		}
		i = k + j
	}
	return s
}

func isNameByte(b byte) bool {
	return b == '_' || b == '-' || b == '.' || b >= '0' && b <= '9' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z'
}

func isKey(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isNameByte(s[i]) {
			return false
		}
	}
	return s != ""
}

// quotesEmittedRe is rule "quotes_emitted_output", the quoting lead-in of the
// README ("The DeepSeek R1 template emits:") with the subject after the
// noun: "This is the raw content the model emitted in the failing run:",
// "Here is what the server returned:". What follows is another run's output
// quoted back (cline/cline#13348: leaked DSML reported to the user), never a
// call. The subject is the model, the server, the proxy, it or a proper name,
// never I or we.
var quotesEmittedRe = lazyRegexp(`^\s*(?i:this is|here is|here's|below is|that is|this was)\s+(?:(?i:the)\s+(?:[\w-]+\s+){0,2}?(?i:content|output|text|reply|response|markup)\s+(?:(?i:that|which)\s+)?|(?i:what)\s+)(?:(?i:the model|the server|the proxy|the api|it)|[A-Z][\w.-]*)\s+(?i:emitted|returned|produced|generated|sent|wrote|leaked)\b[^:：\n]{0,40}[:：]\s*$`)

// glmBareNameRe is rule "glm_bare_name": GLM's template writes a call with no
// arguments as the bare name in the wrapper, <tool_call>NAME</tool_call>
// (osaurus-ai/vmlx-swift#228, whose GLM4ToolCallParser dropped it). As the
// whole reply it is a call attempt: mm's tools all take arguments, so it gets
// the correction for its missing argument or for an unknown tool, never a
// run. A name-only wrapper inside prose is left as text.
var glmBareNameRe = lazyRegexp(`(?:^|\n)[ \t]*<tool_call>\s*([A-Za-z_][\w.-]{0,63})\s*</tool_call>\s*$`)

func glmBareName(content string, ts *toolset) (candidate, bool) {
	// The regexp is anchored at the end but scans the whole reply: most
	// replies (all prose) have no opener at all.
	if !strings.Contains(content, "<tool_call>") {
		return candidate{}, false
	}
	m := glmBareNameRe().FindStringSubmatchIndex(content)
	if m == nil {
		return candidate{}, false
	}
	name := content[m[2]:m[3]]
	if ts.resolve(name) == "" && !strings.Contains(name, "_") {
		return candidate{}, false
	}
	// Not shown as an example by its lead-in (rule_redteam5).
	if notIntended(sentenceBefore(content, 0, m[0]), "") {
		return candidate{}, false
	}
	return candidate{name: name, fromText: true, format: "GLM bare name"}, true
}

// blockOpeners are DeepSeek's call-block openers (llama.cpp's R1 parser,
// DeepSeek-V4's DSML encoding README), the DSML one also with its '>' lost,
// and Mistral's [TOOL_CALLS] (its templates write it only before calls;
// jundot/omlx#2291: generation stopped right after the token, round 5c),
// and Hermes' and Qwen3's <tool_call> (the stream of lmdeploy's Qwen3
// reasoning test ends on it, round 17p: rule "lone_tool_call_opener").
var blockOpeners = []string{"<｜tool▁calls▁begin｜>", "<|tool▁calls▁begin|>", "<｜DSML｜tool_calls>", "<｜DSML｜tool_calls", "<|DSML|tool_calls>", "<|DSML|tool_calls", "[TOOL_CALLS]", "<tool_call>", "<|tool_calls_section_begin|>"}

// openerWithoutCall is rule "opener_without_call": a reply that ends with a
// DeepSeek call-block opener and nothing after it but '<' characters
// (sgl-project/sglang#5224: "<｜tool▁calls▁begin｜><<<<<<…" under xgrammar;
// HosheaLi/dsv4-cc-proxy#9: a lone "<｜DSML｜tool_calls") began a call that
// names no tool: it gets the no-name correction, never a run.
func openerWithoutCall(content string) bool {
	t := strings.TrimRight(strings.TrimRight(content, " \t\r\n"), "<")
	for _, o := range blockOpeners {
		// The templates write the block right after the content
		// (DeepSeek's `{{content}}<｜tool▁calls▁begin｜>`, Mistral's
		// `content[TOOL_CALLS]`): the opener starts its line or follows a
		// finished sentence. After a word it is the token named in prose
		// ("Mistral models start their calls with [TOOL_CALLS]",
		// rule_redteam5).
		if strings.HasSuffix(t, o) && openerAfterContent(t[:len(t)-len(o)]) && !tokenNamed(t[:len(t)-len(o)]) {
			if before := t[:len(t)-len(o)]; o == "<tool_call>" && (formatTalkRe().MatchString(sentenceBefore(before, 0, len(before))) || examplesLabel(before) || !endsSentence(before)) { // endsSentence: rule_round17.go
				// "Use this format:" before a lone <tool_call>: an
				// explanation cut off, not a call begun.
				continue
			}
			return true
		}
	}
	return false
}

// tokenNamedRe: a lead-in that speaks of the markup itself ("Mistral's
// templates put the calls right after this token:", "The opener DeepSeek
// R1 writes before its calls is:"). The templates write the opener after
// the reply's content, which says what the model does, never what a
// token is (round 6).
var tokenNamedRe = lazyRegexp(`(?i)\b(token|tokens|opener|openers|marker|markers|prefix|special token|sentinel|delimiter)\b`)

// tokenNamed: the sentence before the opener names a token.
func tokenNamed(before string) bool {
	return tokenNamedRe().MatchString(sentenceBefore(before, 0, len(before)))
}

// openerAfterContent: what comes before a block opener is empty on its
// line, or ends a sentence.
func openerAfterContent(before string) bool {
	line := strings.TrimSpace(before[strings.LastIndexByte(before, '\n')+1:])
	r, _ := utf8.DecodeLastRuneInString(line)
	return line == "" || strings.ContainsRune(".!?:。！？：", r)
}

// harmonyArgsNoRecipient is rule "harmony_args_without_recipient": harmony
// names the tool only in the header's recipient (openai/harmony: a message
// to a tool is `<|channel|>commentary to=functions.NAME …<|message|>`); a
// commentary message with no recipient whose whole body is a JSON object
// (NVIDIA/TensorRT-LLM#9256: `<|channel|>commentary<|message|>{"path": …}<|end|>`)
// is a call whose name was lost. It is the last message of the reply, after
// at most an analysis message and text with no other harmony token or
// recipient (a recipient written before the channel names the tool): it gets the no-name correction, never a run.
// A commentary preamble in words is text.
func harmonyArgsNoRecipient(content string) bool {
	head := "<|channel|>commentary<|message|>"
	t := strings.TrimSpace(content)
	t, head = harmonyConstrainedHead(t, head) // rule_round22.go
	if !strings.Contains(t, head) {
		return false
	}
	i := strings.LastIndex(t, head)
	if i < 0 {
		return false
	}
	before := strings.TrimSpace(t[:i])
	before = strings.TrimSuffix(before, "<|start|>assistant")
	before = strings.TrimPrefix(before, "<|start|>assistant") // the analysis message's own (red team 22r)
	if strings.HasSuffix(before, "<|end|>") && strings.Count(before, "<|channel|>") == 1 {
		if a := strings.Index(before, "<|channel|>analysis<|message|>"); a >= 0 {
			before = before[:a]
		}
	}
	if strings.Contains(before, "<|") || strings.Contains(before, "to=") {
		return false
	}
	body := t[i+len(head):]
	for _, end := range []string{"<|end|>", "<|call|>", "<|return|>"} {
		body = strings.TrimSuffix(body, end)
	}
	var v map[string]any
	if strings.TrimSpace(body) == "" && strings.HasSuffix(t, "<|call|>") {
		return before == "" // rule_round22.go: an empty message ended by <|call|>, as the reply
	}
	return json.Unmarshal([]byte(strings.TrimSpace(body)), &v) == nil && len(v) > 0
}

// markupLeads says whether a dialect's first marker at i begins the reply's
// markup: no tag or JSON comes before it, after any reasoning (which may
// hold anything). It returns the text before the marker, after </think>.
func markupLeads(s string, i int) (string, bool) {
	pre := s[:i]
	if r := strings.LastIndex(pre, "</think>"); r >= 0 {
		pre = pre[r+len("</think>"):]
	}
	return pre, !strings.ContainsAny(pre, "<{")
}
